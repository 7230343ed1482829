/**
 * How every request is sent: it waits at its merchant's and endpoint group's gate (gate.ts) and is
 * retried, within a budget, after 429 (as Retry-After asks), a second 401 and, when idempotent,
 * 503, 502/504, a cut connection or a timeout. A service that answers only 429 still ends
 * the run: a request that waited its retry budget meanwhile gives up unsent (RefusedTooLong).
 */
import { sleep, type INode, type JsonObject } from 'n8n-workflow';

import type { EndpointGroup } from './endpoints';
import {
	MAX_WAIT_MS,
	asNodeError,
	credentialAdvice,
	errorCodeOf,
	isCutOff,
	isTimeout,
	joinSentences,
	refusedTooLongText,
	refusingText,
	responseOf,
	retryAfterMs,
	serviceError,
	statusOf,
	withEnglishMeaning,
} from './errors';
import { RefusedTooLong, acquire, closeAfterRateLimit, gateFor, release, type Admission } from './gate';

export const DEFAULT_TIMEOUT_MS = 60_000;

/** The retries of one request together may take this many times its timeout, not attempts × timeout. */
export const RETRY_BUDGET_TIMEOUTS = 3;

function outcomeOf(error: unknown, timeoutMs: number): string {
	if (isTimeout(error)) return `no answer within ${Math.round(timeoutMs / 1000)} s`;
	const status = statusOf(error);
	if (status !== undefined) return `HTTP ${status}`;
	const code = errorCodeOf(error);
	return code ? `connection failed (${code})` : 'failed';
}

/** The attempts of one request: what each met, their time together, whether one more fits the budget. */
class AttemptLog {
	private readonly outcomes: string[] = [];
	/** Sending and waiting to retry (a 429's wait too), not time queued behind other requests. */
	private spentMs = 0;

	constructor(private readonly timeoutMs: number) {}

	get count(): number {
		return this.outcomes.length;
	}

	/** An attempt counts at most its timeout: a token renewal or a busy event loop must not cost a retry. */
	record(error: unknown, durationMs: number, attemptTimeoutMs: number): void {
		this.outcomes.push(outcomeOf(error, attemptTimeoutMs));
		this.spentMs += Math.min(durationMs, attemptTimeoutMs);
	}

	/** One more attempt's timeout after `waitMs` (then spent): the budget left, at most a timeout; none under half a timeout. */
	retryAfter(waitMs: number): number | undefined {
		const left = this.timeoutMs * RETRY_BUDGET_TIMEOUTS - this.spentMs - waitMs;
		if (left < this.timeoutMs / 2) return undefined;
		this.spentMs += waitMs;
		return Math.min(Math.round(left), this.timeoutMs);
	}

	summary(budgetSpent: boolean): string {
		const seconds = Math.round(this.spentMs / 1000);
		const budget = budgetSpent
			? ` — the retries of one request may take at most ${Math.round(this.timeoutMs * RETRY_BUDGET_TIMEOUTS / 1000)} s`
			: '';
		return `The node gave up after ${this.count} attempt${this.count === 1 ? '' : 's'} in ${seconds} s (${this.outcomes.join('; ')})${budget}.`;
	}
}

/** The careful clients of this API give up after a few attempts (429 waits count against the budget). */
const MAX_RATE_LIMITED_ATTEMPTS = 4;
const MAX_UNAVAILABLE_ATTEMPTS = 4;
/**
 * Attempts after n8n's own token renewal was rejected too: two workers renewing at once invalidate
 * each other's token. Each re-reads the saved credential after a random wait (up to the jitter
 * times the attempt) that keeps the workers from renewing in step again.
 */
const EXTRA_TOKEN_RENEWALS = 3;
const TOKEN_RENEWAL_JITTER_MS = 300;
/** Backoff for a 429 without Retry-After and for 5xx answers: 1 s, 2 s, 4 s, … */
const BASE_BACKOFF_MS = 1_000;

function backoffMs(attempt: number): number {
	return Math.min(BASE_BACKOFF_MS * 2 ** (attempt - 1), MAX_WAIT_MS);
}

export interface SendPolicy {
	/** Without one (the token request) the last failure is thrown as it came. */
	node?: INode;
	merchantKey: string;
	group: EndpointGroup;
	perMinute?: number;
	/** Asked when the gate would let the request through: false drops it unsent (RequestNotNeeded). */
	wanted?: () => boolean;
	/** Whether 502/504 and a cut connection are retried (the service may have acted). */
	idempotent: boolean;
	timeoutMs: number;
	secrets?: unknown[];
}

export async function sendWithPolicy<T>(policy: SendPolicy, send: (attemptTimeoutMs: number) => Promise<T>): Promise<T> {
	const gate = gateFor(policy.merchantKey, policy.group);
	const attempts: RetryCounts = { rateLimited: 0, unavailable: 0, unauthorized: 0 };
	const log = new AttemptLog(policy.timeoutMs);
	let attemptTimeoutMs = policy.timeoutMs;
	let rateLimited = false;
	const giveUpAfterMs = policy.timeoutMs * RETRY_BUDGET_TIMEOUTS;
	const waiter = { perMinute: policy.perMinute ?? Infinity, wanted: policy.wanted, since: Date.now(), giveUpAfterMs };
	for (;;) {
		// A retry after a 5xx already waited its turn; after a 429 the next probe is another request's.
		let admission: Admission | undefined;
		try {
			admission = await acquire(gate, log.count > 0 && !rateLimited, waiter);
		} catch (error) {
			// The gate rejects a wait only with RefusedTooLong.
			throw policy.node ? refusedError(policy.node, policy, error as RefusedTooLong, log) : error;
		}
		if (admission === undefined) throw new RequestNotNeeded();
		let waitMs: number | undefined;
		let succeeded = false;
		const startedAt = Date.now();
		try {
			const result = await send(attemptTimeoutMs);
			succeeded = true;
			return result;
		} catch (error) {
			log.record(error, Date.now() - startedAt, attemptTimeoutMs);
			rateLimited = statusOf(error) === 429;
			waitMs = retryDelayMs(error, policy, attempts);
			if (rateLimited) {
				// The whole group waits (the limit is the merchant's); this request's wait is the gate's.
				const closedMs = closeAfterRateLimit(gate, admission, retryAfterMs(responseOf(error).headers), backoffMs(attempts.rateLimited));
				if (waitMs !== undefined) waitMs = Math.min(closedMs, MAX_WAIT_MS);
			}
			const nextTimeoutMs = waitMs === undefined ? undefined : log.retryAfter(waitMs);
			if (waitMs === undefined || nextTimeoutMs === undefined) {
				// With a wait, over the budget.
				throw finalError(policy, error, log, waitMs !== undefined, rateLimited ? Date.now() - gate.refusingSince : undefined);
			}
			attemptTimeoutMs = nextTimeoutMs;
		} finally {
			release(gate, admission, succeeded, rateLimited);
		}
		// After a 429 the gate itself holds the request back until it reopens.
		if (!rateLimited) await sleep(waitMs);
	}
}

/** The node's error with the service's message, the credential advice after a 401/403, and what was tried. */
function finalError(policy: SendPolicy, error: unknown, log: AttemptLog, overBudget: boolean, refusingForMs?: number): unknown {
	if (!policy.node) return error;
	const nodeError = asNodeError(policy.node, error, policy.secrets);
	(nodeError as unknown as JsonObject).attempts = log.count;
	if (typeof nodeError.description === 'string') nodeError.description = withEnglishMeaning(nodeError.description);
	const advice = credentialAdvice(statusOf(error));
	if (advice) nodeError.description = joinSentences(nodeError.description, advice);
	if (log.count > 1 || overBudget || refusingForMs !== undefined) {
		// Users should know the node already retried: "try again later" alone invites a retry loop.
		// The request's own attempts leave out its turns behind the others: say how long the service refused them all.
		const refused = refusingForMs === undefined ? '' : ` ${refusingText(refusingForMs)}`;
		nodeError.description = joinSentences(nodeError.description, `${log.summary(overBudget)}${refused}`);
	}
	return nodeError;
}

function refusedError(node: INode, policy: SendPolicy, refused: RefusedTooLong, log: AttemptLog) {
	const own = log.count > 0 ? ` ${log.summary(false)}` : ' This request was not sent again.';
	const words = refusedTooLongText(refused.refusedForMs, policy.timeoutMs * RETRY_BUDGET_TIMEOUTS, own);
	const error = serviceError(node, { message: refused.message } as JsonObject, { httpCode: '429', ...words });
	(error as unknown as JsonObject).attempts = log.count;
	return error;
}

type RetryCounts = { rateLimited: number; unavailable: number; unauthorized: number };

/** How long to wait before retrying, or undefined when the error is final. */
function retryDelayMs(error: unknown, policy: SendPolicy, attempts: RetryCounts): number | undefined {
	const { status, headers } = responseOf(error);
	// n8n renewed the token after the first 401: this one rejected the renewed token too.
	if (status === 401) {
		if (++attempts.unauthorized > EXTRA_TOKEN_RENEWALS) return undefined;
		return Math.round(Math.random() * TOKEN_RENEWAL_JITTER_MS * attempts.unauthorized);
	}
	if (status === 429) return ++attempts.rateLimited >= MAX_RATE_LIMITED_ATTEMPTS ? undefined : 0;
	// A 503 may come after the service acted (a gateway timing out behind it): a write that is not idempotent is never resent.
	const retryable = policy.idempotent && (status === 503 || status === 502 || status === 504 || isCutOff(error));
	if (!retryable || ++attempts.unavailable >= MAX_UNAVAILABLE_ATTEMPTS) return undefined;
	return retryAfterMs(headers) ?? backoffMs(attempts.unavailable);
}

/** Thrown instead of sending a request no longer `wanted` (a page past the list's end). */
class RequestNotNeeded extends Error {
	constructor() {
		super('The request was no longer needed and was not sent');
	}
}

/** A promise's outcome, kept rather than thrown: requests sent together each end in their own. */
export type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

export async function settle<T>(promise: Promise<T>): Promise<Settled<T>> {
	return await promise.then<Settled<T>, Settled<T>>((value) => ({ ok: true, value }), (error: unknown) => ({ ok: false, error }));
}


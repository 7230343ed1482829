/**
 * How every request to the service is sent: paced per endpoint group and retried on the answers
 * the live service gives under load. The node (through RoutingNode's makeRoutingRequest), the
 * trigger (through httpRequestWithAuthentication) and the credential (its token request and Test
 * button, token.ts) all send through `sendWithPolicy`.
 *
 * RoutingNode starts every item's request at once, so without pacing 1,000 items would be 1,000
 * simultaneous requests against a limit of 60 a minute. Requests of one merchant and endpoint
 * group therefore share a gate (pacing.ts) that sends at the known limits, and a 429 closes it
 * for the whole group instead of every request retrying on its own.
 */
import { sleep, type INode, type JsonObject } from 'n8n-workflow';

import type { EndpointGroup } from './endpoints';
import { asNodeError, credentialAdvice, errorCodeOf, isCutOff, isTimeout, MAX_WAIT_MS, responseOf, retryAfterMs, serviceError, statusOf } from './errors';
import { RefusedTooLong, RequestNotNeeded, acquire, closeAfterRateLimit, gateFor, refusingForMs, release } from './pacing';

// The attempts of one request: what each one met, how long they took together, and whether one
// more still fits in the request's time budget. The final error says what was tried.

/** Default time one answer may take (the node option "Timeout (Seconds)" changes it). */
export const DEFAULT_TIMEOUT_MS = 60_000;

/**
 * The retries of one request together may take this many times its timeout (3 minutes at the
 * default): an answer that never comes fails the item after a few minutes, not after
 * attempts × timeout.
 */
export const RETRY_BUDGET_TIMEOUTS = 3;

/** How long the retries of a request with this timeout may take together. */
export function retryBudgetMs(timeoutMs = DEFAULT_TIMEOUT_MS): number {
	return timeoutMs * RETRY_BUDGET_TIMEOUTS;
}

function outcomeOf(error: unknown, timeoutMs: number): string {
	if (isTimeout(error)) return `no answer within ${Math.round(timeoutMs / 1000)} s`;
	const status = statusOf(error);
	if (status !== undefined) return `HTTP ${status}`;
	const code = errorCodeOf(error);
	return code ? `connection failed (${code})` : 'failed';
}

export class AttemptLog {
	private readonly outcomes: string[] = [];

	/**
	 * Time spent sending and waiting to retry (after a 429 too: the wait the service asked for);
	 * time queued behind the pacing gate for other requests' turns does not count.
	 */
	private spentMs = 0;

	constructor(private readonly timeoutMs = DEFAULT_TIMEOUT_MS) {}

	get count(): number {
		return this.outcomes.length;
	}

	/**
	 * An attempt counts at most its timeout: what else it took (a token renewal, a busy event loop)
	 * is not the service being slow, and must not cost a retry.
	 */
	record(error: unknown, durationMs: number, attemptTimeoutMs: number): void {
		this.outcomes.push(outcomeOf(error, attemptTimeoutMs));
		this.spentMs += Math.min(durationMs, attemptTimeoutMs);
	}

	/**
	 * The timeout of one more attempt after waiting `waitMs`: what is left of the budget, at most
	 * the request's timeout; undefined when less than half a timeout is left (no retry then).
	 */
	nextAttemptTimeoutMs(waitMs: number): number | undefined {
		const left = retryBudgetMs(this.timeoutMs) - this.spentMs - waitMs;
		return left >= this.timeoutMs / 2 ? Math.min(Math.round(left), this.timeoutMs) : undefined;
	}

	waited(waitMs: number): void {
		this.spentMs += waitMs;
	}

	/** "The node gave up after 3 attempts in 125 s (HTTP 503; no answer within 60 s; …)." */
	summary(budgetSpent: boolean): string {
		const seconds = Math.round(this.spentMs / 1000);
		const budget = budgetSpent
			? ` — the retries of one request may take at most ${Math.round(retryBudgetMs(this.timeoutMs) / 1000)} s`
			: '';
		return `The node gave up after ${this.count} attempt${this.count === 1 ? '' : 's'} in ${seconds} s (${this.outcomes.join('; ')})${budget}.`;
	}
}

/**
 * Attempts for a request answered 429 (each waits as the service asks, the waits counting against
 * the request's time budget), as for one answered 502/503/504 or cut off: the careful clients of
 * this API give up after a few attempts, and a service that answers 429 for ever must end the
 * item within the budget. Paced runs meet a 429 rarely, and the gate that paces them adapts after it.
 */
const MAX_RATE_LIMITED_ATTEMPTS = 4;
/** Attempts for a request answered 502/503/504 or cut off. */
const MAX_UNAVAILABLE_ATTEMPTS = 4;
/** What users can do about a service that keeps answering 429. */
const RATE_LIMIT_ADVICE =
	"Other workflows or integrations may be using this merchant account's rate limits too: set Request Options › Requests per Minute lower, or run the workflow later.";
/**
 * Attempts with a renewed token after n8n's own renewal was rejected too. Where the service keeps
 * only the newest token valid, two workers renewing at once invalidate each other's token; each
 * extra attempt first re-reads the saved credential (the other worker's renewal is there), and a
 * random wait before it keeps the workers from renewing in step again.
 */
const EXTRA_TOKEN_RENEWALS = 3;
/** The wait before an extra renewal: up to this much, times the attempt, at random. */
const TOKEN_RENEWAL_JITTER_MS = 300;
/** Backoff for a 429 without Retry-After and for 5xx answers: 1 s, 2 s, 4 s, … */
const BASE_BACKOFF_MS = 1_000;

function backoffMs(attempt: number): number {
	return Math.min(BASE_BACKOFF_MS * 2 ** (attempt - 1), MAX_WAIT_MS);
}

interface SendPolicy {
	/**
	 * The node sending: final errors are reported as its errors. Without one (the credential's
	 * token request, which belongs to no node) the last failure is thrown as it came, for the
	 * caller to word.
	 */
	node?: INode;
	/** Identifies the merchant account whose limits the request counts against. */
	merchantKey: string;
	/** The rate-limit group the request counts against, as its operation declares it. */
	group: EndpointGroup;
	/** The user's Requests per Minute option, when set: the gate sends no faster. */
	perMinute?: number;
	/** Asked when the gate would let the request through: false drops it unsent (RequestNotNeeded is thrown). */
	wanted?: () => boolean;
	/**
	 * Whether sending the same request twice is harmless. Answers that may come after the service
	 * acted (502/504, a cut connection) are retried only then; 429 and 503 are always retried.
	 */
	idempotent: boolean;
	/** The request's timeout: its retries together may take RETRY_BUDGET_TIMEOUTS times as long. */
	timeoutMs?: number;
	/** Credential values to keep out of the final error (the bearer token sent is found on the error itself). */
	secrets?: unknown[];
}

/**
 * Sends a request through the group's gate and retries it, a bounded number of times and within
 * its time budget, when the service answers 429 (waiting as Retry-After asks), 503, or, for
 * idempotent requests, 502/504 or a cut connection or timeout; and up to 3 more times after a 401 that
 * came although n8n had just renewed the token. Any other error, and the last one when attempts
 * run out, is thrown with the service's own message, what was tried, and no secrets in it.
 */
export async function sendWithPolicy<T>(policy: SendPolicy, send: (attemptTimeoutMs: number) => Promise<T>): Promise<T> {
	const gate = gateFor(policy.merchantKey, policy.group);
	const attempts = { rateLimited: 0, unavailable: 0, unauthorized: 0 };
	const log = new AttemptLog(policy.timeoutMs);
	// A retry's timeout may be shorter: the retries of one request together stay within their budget.
	let attemptTimeoutMs = policy.timeoutMs ?? DEFAULT_TIMEOUT_MS;
	let rateLimited = false;
	const since = Date.now();
	for (let attempt = 1; ; attempt++) {
		// A request retried after 503/502/… already waited its turn once: it goes to the front. One
		// answered 429 goes to the back, so that the next probe of the limit is another request's.
		let sentAt: number | undefined;
		try {
			sentAt = await acquire(gate, {
				atFront: attempt > 1 && !rateLimited,
				perMinute: policy.perMinute,
				wanted: policy.wanted,
				since,
				giveUpAfterMs: retryBudgetMs(policy.timeoutMs),
			});
		} catch (error) {
			// The gate rejects a wait only with RefusedTooLong.
			throw policy.node ? refusedError(policy.node, policy, error as RefusedTooLong, log) : error;
		}
		if (sentAt === undefined) throw new RequestNotNeeded();
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
				// Everyone in the group waits, whether or not this request tries again: the limit is the
				// merchant's, not this request's. This request's wait is the gate's, and counts against its budget.
				const closedMs = closeAfterRateLimit(gate, sentAt, retryAfterMs(responseOf(error).headers), backoffMs(attempts.rateLimited));
				if (waitMs !== undefined) waitMs = Math.min(closedMs, MAX_WAIT_MS);
			}
			const nextTimeoutMs = waitMs === undefined ? undefined : log.nextAttemptTimeoutMs(waitMs);
			const overBudget = waitMs !== undefined && nextTimeoutMs === undefined;
			if (waitMs === undefined || nextTimeoutMs === undefined) {
				throw finalError(policy, error, { attempt, log, overBudget, refusingForMs: rateLimited ? refusingForMs(gate) : undefined });
			}
			attemptTimeoutMs = nextTimeoutMs;
		} finally {
			release(gate, succeeded, rateLimited);
		}
		log.waited(waitMs);
		// After a 429 the gate itself holds the request back until it reopens.
		if (!rateLimited) await sleep(waitMs);
	}
}

/**
 * The error a request ends with: the node's error (NodeApiError) with the service's message, what
 * to check about the credential after a 401/403, and what was tried when it was sent more than
 * once; without a node (the token request), the failure as it came, for the caller to word.
 */
function finalError(
	policy: SendPolicy,
	error: unknown,
	{ attempt, log, overBudget, refusingForMs }: { attempt: number; log: AttemptLog; overBudget: boolean; refusingForMs?: number },
): unknown {
	if (!policy.node) return error;
	const nodeError = asNodeError(policy.node, error, policy.secrets);
	(nodeError as unknown as JsonObject).attempts = attempt;
	const advice = credentialAdvice(statusOf(error));
	if (advice) nodeError.description = joinSentences(nodeError.description, advice);
	if (attempt > 1 || overBudget || refusingForMs !== undefined) {
		// Users should know the node already retried: "try again later" alone invites a retry loop.
		// The request's own attempts leave out its turns behind the others: say how long the service refused them all.
		const refused =
			refusingForMs === undefined
				? ''
				: ` The service has answered this merchant account's requests of this kind only with 429 for ${Math.round(refusingForMs / 1000)} s. ${RATE_LIMIT_ADVICE}`;
		nodeError.description = joinSentences(nodeError.description, `${log.summary(overBudget)}${refused}`);
	}
	return nodeError;
}

/** A description with one more sentence after it. */
function joinSentences(description: string | null | undefined, more: string): string {
	const text = (description ?? '').trim();
	const separator = text === '' ? '' : /[.!?]$/.test(text) ? ' ' : '. ';
	return `${text}${separator}${more}`;
}

/**
 * The error of a request that waited its retry budget for a gate whose requests the service
 * answered only with 429 meanwhile: what the service did, for how long, and what may help.
 */
function refusedError(node: INode, policy: SendPolicy, refused: RefusedTooLong, log: AttemptLog) {
	const own = log.count > 0 ? ` ${log.summary(false)}` : ' This request was not sent again.';
	const error = serviceError(node, { message: refused.message } as JsonObject, {
		httpCode: '429',
		message: 'The service is receiving too many requests from you (HTTP 429): the node gave up',
		description: `The service answered only 429 (Too Many Requests) to this merchant account's requests of this kind for ${Math.round(refused.refusedForMs / 1000)} s, and would not take one more within the ${Math.round(retryBudgetMs(policy.timeoutMs) / 1000)} s one request may spend retrying.${own} ${RATE_LIMIT_ADVICE}`,
	});
	(error as unknown as JsonObject).attempts = log.count;
	return error;
}

/** How long to wait before retrying, or undefined when the error is final. */
function retryDelayMs(
	error: unknown,
	policy: SendPolicy,
	attempts: { rateLimited: number; unavailable: number; unauthorized: number },
): number | undefined {
	const { status, headers } = responseOf(error);
	// n8n renews the token after a 401 and retries once; a second 401 means the renewed token was
	// rejected too (another worker's renewal replaced it): a few more attempts, apart, get a working one.
	if (status === 401) {
		if (++attempts.unauthorized > EXTRA_TOKEN_RENEWALS) return undefined;
		return Math.round(Math.random() * TOKEN_RENEWAL_JITTER_MS * attempts.unauthorized);
	}
	if (status === 429) {
		// How long is the gate's to say (closeAfterRateLimit, in sendWithPolicy): the whole group waits.
		return ++attempts.rateLimited >= MAX_RATE_LIMITED_ATTEMPTS ? undefined : 0;
	}
	const retryable =
		status === 503 || (policy.idempotent && (status === 502 || status === 504 || isCutOff(error)));
	if (!retryable || ++attempts.unavailable >= MAX_UNAVAILABLE_ATTEMPTS) return undefined;
	return retryAfterMs(headers) ?? backoffMs(attempts.unavailable);
}

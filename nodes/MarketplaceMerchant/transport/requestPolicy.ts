/**
 * How every request is sent: it waits at its merchant's and endpoint group's gate (RoutingNode
 * starts every item at once, 1,000 items against 60 a minute) and is retried, within a budget,
 * after 429 (as Retry-After asks), 503, a second 401 and, when idempotent, 502/504, a cut
 * connection or a timeout.
 *
 * Pacing: the gate lets requests through at the known limits (endpoints.ts) with at most the
 * group's in-flight allowance open, so the service need not answer 429. The service counts a
 * request on arrival, a little later and with jitter, so each window is kept a margin longer,
 * doubled by a 429 our own requests explain. Other processes (queue-mode workers) share the limits
 * unseen: a 429 closes the gate for its Retry-After and lets one request probe before the rest
 * follow; a second 429 within a window that our traffic does not explain cuts this gate's share
 * (one stray 429, a late arrival, does not), and quiet gives it back, so N workers settle near 1/N
 * each. A service that answers only 429 still ends the run: a request that waited its retry budget
 * meanwhile gives up unsent (RefusedTooLong), all waiting items together.
 */
import { sleep, type INode, type JsonObject } from 'n8n-workflow';

import { RATE_LIMITS, type EndpointGroup, type RateWindow } from './endpoints';
import { asNodeError, credentialAdvice, errorCodeOf, isCutOff, isTimeout, joinSentences, MAX_WAIT_MS, responseOf, retryAfterMs, serviceError, statusOf } from './errors';

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
const RATE_LIMIT_ADVICE =
	"Other workflows or integrations may be using this merchant account's rate limits too: set Request Options › Requests per Minute lower, or run the workflow later.";
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

interface SendPolicy {
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
		let sentAt: number | undefined;
		try {
			sentAt = await acquire(gate, log.count > 0 && !rateLimited, waiter);
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
				// The whole group waits (the limit is the merchant's); this request's wait is the gate's.
				const closedMs = closeAfterRateLimit(gate, sentAt, retryAfterMs(responseOf(error).headers), backoffMs(attempts.rateLimited));
				if (waitMs !== undefined) waitMs = Math.min(closedMs, MAX_WAIT_MS);
			}
			const nextTimeoutMs = waitMs === undefined ? undefined : log.retryAfter(waitMs);
			if (waitMs === undefined || nextTimeoutMs === undefined) {
				// With a wait, over the budget.
				throw finalError(policy, error, log, waitMs !== undefined, rateLimited ? Date.now() - gate.refusingSince : undefined);
			}
			attemptTimeoutMs = nextTimeoutMs;
		} finally {
			release(gate, succeeded, rateLimited);
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
	const advice = credentialAdvice(statusOf(error));
	if (advice) nodeError.description = joinSentences(nodeError.description, advice);
	if (log.count > 1 || overBudget || refusingForMs !== undefined) {
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

function refusedError(node: INode, policy: SendPolicy, refused: RefusedTooLong, log: AttemptLog) {
	const own = log.count > 0 ? ` ${log.summary(false)}` : ' This request was not sent again.';
	const error = serviceError(node, { message: refused.message } as JsonObject, {
		httpCode: '429',
		message: 'The service is receiving too many requests from you (HTTP 429): the node gave up',
		description: `The service answered only 429 (Too Many Requests) to this merchant account's requests of this kind for ${Math.round(refused.refusedForMs / 1000)} s, and would not take one more within the ${Math.round(policy.timeoutMs * RETRY_BUDGET_TIMEOUTS / 1000)} s one request may spend retrying.${own} ${RATE_LIMIT_ADVICE}`,
	});
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
	const retryable = status === 503 || (policy.idempotent && (status === 502 || status === 504 || isCutOff(error)));
	if (!retryable || ++attempts.unavailable >= MAX_UNAVAILABLE_ATTEMPTS) return undefined;
	return retryAfterMs(headers) ?? backoffMs(attempts.unavailable);
}

/** The window margin: a share of the window plus a fixed part (up to the max) for the gate-to-counter jitter. */
const WINDOW_MARGIN = 0.005;
const WINDOW_MARGIN_MS = 40;
const MAX_WINDOW_MARGIN_MS = 160;
/** The share after an unexplained 429 is multiplied by SHARE_CUT; each quiet half window adds SHARE_STEP back. */
const SHARE_CUT = 0.75;
const SHARE_STEP = 0.1;
/** One worker among ten still sends. */
const MIN_SHARE = 0.1;

/** `since`: when its request first began to wait (a retry waits again, since then); `giveUpAfterMs`: its retry budget. */
interface Waiter {
	perMinute: number;
	wanted?: () => boolean;
	since: number;
	giveUpAfterMs: number;
	/** With the time it was let through, or undefined when no longer `wanted`. */
	resolve: (admittedAt: number | undefined) => void;
	reject: (error: RefusedTooLong) => void;
}

/** A request that waited its retry budget while the service answered the gate's requests only with 429. */
export class RefusedTooLong extends Error {
	constructor(readonly refusedForMs: number) {
		super(`The service answered only 429 for ${Math.round(refusedForMs / 1000)} s`);
	}
}

class Gate {
	inFlight = 0;
	/** In flight allowed now: 1 after a 429 (one request probes), one more per success up to the group's allowance. */
	allowed: number;
	/** Until a first answer, those let through may all wait for one token request: the first answer counts them all from then. */
	answered = false;
	/** The part of the known limits this process may use. */
	share = 1;
	/** Quiet is counted from here, or from the last 429. */
	shareChangedAt = 0;
	rateLimitedAt = 0;
	/** The first 429 since the last answer that was not one (0: none). */
	refusingSince = 0;
	/** The last 429 our own traffic did not explain (0: never). */
	unexplainedAt = 0;
	marginMs = WINDOW_MARGIN_MS;
	/** When requests were let through, oldest first, as far back as the longest window. */
	sent: number[] = [];
	blockedUntil = 0;
	waiting: Waiter[] = [];
	wakeAt?: number;

	constructor(readonly group: EndpointGroup) {
		this.allowed = RATE_LIMITS[group].inFlight;
	}
}

const gates = new Map<string, Gate>();

function windowsOf(gate: Gate): RateWindow[] {
	return RATE_LIMITS[gate.group].windows.map((window) => ({ ...window, lengthMs: window.lengthMs * (1 + WINDOW_MARGIN) + gate.marginMs }));
}

function longestOf(windows: RateWindow[]): number {
	return windows.length === 0 ? 0 : Math.max(...windows.map(({ lengthMs }) => lengthMs));
}

function gateFor(merchantKey: string, group: EndpointGroup): Gate {
	const key = `${merchantKey}\u0000${group}`;
	const gate = gates.get(key) ?? new Gate(group);
	gates.set(key, gate);
	return gate;
}

/** The gate's share of the window's limit; the per-minute option caps the longest window, the minute. */
function capOf(gate: Gate, window: RateWindow, longestMs: number, perMinute: number): number {
	const cap = Math.max(1, Math.floor(window.limit * gate.share));
	return window.lengthMs === longestMs ? Math.min(cap, perMinute) : cap;
}

function windowDelayMs(gate: Gate, windows: RateWindow[], perMinute: number, now: number): number {
	const longest = longestOf(windows);
	let expired = 0;
	while (expired < gate.sent.length && gate.sent[expired] <= now - longest) expired++;
	if (expired > 0) gate.sent.splice(0, expired);
	let delay = 0;
	for (const window of windows) {
		const cap = capOf(gate, window, longest, perMinute);
		// The request fits once the cap-th most recent one has left the window.
		const bounding = gate.sent[gate.sent.length - cap];
		if (bounding !== undefined) delay = Math.max(delay, bounding + window.lengthMs - now);
		const last = gate.sent[gate.sent.length - 1];
		if (window.evenly && last !== undefined) delay = Math.max(delay, last + window.lengthMs / cap / 2 - now);
	}
	return delay;
}

/** Ends the waits refused too long (time queued behind others counts); checked whenever the gate moves, no timer of its own. */
function giveUpRefusedWaits(gate: Gate, now: number): void {
	if (gate.refusingSince === 0 || gate.waiting.length === 0) return;
	const reopensAt = Math.max(gate.blockedUntil, now);
	gate.waiting = gate.waiting.filter((waiter) => {
		if (reopensAt - Math.max(gate.refusingSince, waiter.since) < waiter.giveUpAfterMs) return true;
		waiter.reject(new RefusedTooLong(now - gate.refusingSince));
		return false;
	});
}

function admitWaiting(gate: Gate): void {
	giveUpRefusedWaits(gate, Date.now());
	while (gate.waiting.length > 0) {
		const head = gate.waiting[0];
		if (head.wanted && !head.wanted()) {
			gate.waiting.shift();
			head.resolve(undefined);
			continue;
		}
		if (gate.inFlight >= gate.allowed) return; // a release lets the next one in
		const now = Date.now();
		const delay = Math.max(gate.blockedUntil - now, windowDelayMs(gate, windowsOf(gate), head.perMinute, now));
		if (delay > 0) {
			wakeIn(gate, delay);
			return;
		}
		gate.waiting.shift();
		gate.inFlight++;
		gate.sent.push(now);
		head.resolve(now);
	}
}

/** One timer per gate at a time (the earliest needed); a later one that fires early just re-checks. */
function wakeIn(gate: Gate, delayMs: number): void {
	const at = Date.now() + delayMs;
	if (gate.wakeAt !== undefined && gate.wakeAt <= at) return;
	gate.wakeAt = at;
	void sleep(delayMs).then(() => {
		if (gate.wakeAt === at) gate.wakeAt = undefined;
		admitWaiting(gate);
	});
}

/** The time the gate let the request through, in turn, or undefined if no longer `wanted`; `atFront`: a 5xx retry. */
async function acquire(gate: Gate, atFront: boolean, request: Omit<Waiter, 'resolve' | 'reject'>): Promise<number | undefined> {
	return await new Promise<number | undefined>((resolve, reject) => {
		if (atFront) gate.waiting.unshift({ ...request, resolve, reject });
		else gate.waiting.push({ ...request, resolve, reject });
		admitWaiting(gate);
	});
}

function release(gate: Gate, succeeded: boolean, rateLimited: boolean): void {
	gate.inFlight--;
	if (!rateLimited) gate.refusingSince = 0;
	if (succeeded) {
		const now = Date.now();
		if (!gate.answered) gate.sent.fill(now);
		gate.answered = true;
		if (gate.allowed < RATE_LIMITS[gate.group].inFlight) gate.allowed++;
		const quietMs = longestOf(windowsOf(gate)) / 2;
		if (gate.share < 1 && now - Math.max(gate.shareChangedAt, gate.rateLimitedAt) >= quietMs) {
			gate.share = Math.min(1, gate.share + SHARE_STEP);
			gate.shareChangedAt = now;
		}
	}
	admitWaiting(gate);
}

/**
 * The service answered 429 to a request let through at `sentAt`: the whole group waits for
 * `retryAfterMs`, or until its windows have room (at least the shortest window; `fallbackMs`
 * without windows). Only a request let through after the last 429 tells something new (the
 * margin, the share). Returns how long the gate closed.
 */
function closeAfterRateLimit(gate: Gate, sentAt: number, retryAfterMs: number | undefined, fallbackMs: number): number {
	const now = Date.now();
	if (gate.refusingSince === 0) gate.refusingSince = now;
	// The service did not count the rejected request; neither do we.
	const index = gate.sent.lastIndexOf(sentAt);
	if (index >= 0) gate.sent.splice(index, 1);
	const windows = windowsOf(gate);
	const longest = longestOf(windows);
	if (sentAt > gate.rateLimitedAt) {
		gate.rateLimitedAt = now;
		// Counted on arrival (before now), its window held ours sent up to a window and a round trip before.
		const roundTripMs = now - sentAt;
		const ownTrafficFillsAWindow = windows.some((window) => {
			const since = sentAt - window.lengthMs - roundTripMs;
			return gate.sent.filter((at) => at > since).length >= capOf(gate, window, longest, Infinity);
		});
		if (ownTrafficFillsAWindow) {
			gate.marginMs = Math.min(MAX_WINDOW_MARGIN_MS, gate.marginMs * 2);
		} else if (now - gate.unexplainedAt < longest) {
			gate.share = Math.max(MIN_SHARE, gate.share * SHARE_CUT);
			gate.shareChangedAt = now;
		}
		if (!ownTrafficFillsAWindow) gate.unexplainedAt = now;
	}
	gate.allowed = 1;
	let waitMs = retryAfterMs;
	if (waitMs === undefined && windows.length === 0) waitMs = fallbackMs;
	// Else until the windows (their margin as it is now) have room, at least the shortest window.
	waitMs ??= Math.max(Math.min(...windows.map(({ lengthMs }) => lengthMs)), windowDelayMs(gate, windowsOf(gate), Infinity, now));
	gate.blockedUntil = Math.max(gate.blockedUntil, now + waitMs);
	return waitMs;
}

/** Thrown instead of sending a request no longer `wanted` (a page past the list's end). */
export class RequestNotNeeded extends Error {
	constructor() {
		super('The request was no longer needed and was not sent');
	}
}

/**
 * How every request to the service is sent: paced per endpoint group and retried on the answers
 * the live service gives under load. The node (through RoutingNode's makeRoutingRequest) and the
 * trigger (through httpRequestWithAuthentication) both send through `sendWithPolicy`.
 *
 * Pacing is cooperative. RoutingNode starts every item's request at once, so without it 1,000
 * items would be 1,000 simultaneous requests against a limit of 60 a minute. Requests of one
 * merchant and endpoint group therefore share a gate: at most a few are in flight, and a 429
 * closes the gate for the whole group until its Retry-After has passed, instead of every
 * request retrying on its own. The gate learns the real limit from the service's answers, so the
 * same code runs at the live limits and against a sandbox whose limits are scaled.
 */
import { sleep, type INode, type JsonObject } from 'n8n-workflow';

import { endpointGroupOf, type EndpointGroup } from './endpoints';
import { AttemptLog, DEFAULT_TIMEOUT_MS } from './attempts';
import { asNodeError, isCutOff, MAX_WAIT_MS, responseOf, retryAfterMs, statusOf } from './errors';

/** Requests of one group in flight at once; the live per-second limit is 5. */
const MAX_IN_FLIGHT = 5;
/** Attempts for a request answered 429 (each waits as the service asks). */
const MAX_RATE_LIMITED_ATTEMPTS = 12;
/** Attempts for a request answered 502/503/504 or cut off. */
const MAX_UNAVAILABLE_ATTEMPTS = 4;
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

interface GroupGate {
	inFlight: number;
	/**
	 * Requests allowed in flight now. A 429 drops it to 1 so that, when the gate reopens, one
	 * request probes the limit before the rest follow; each success lets one more through, up to
	 * MAX_IN_FLIGHT. Without this, every reopening sends a burst that mostly earns new 429s.
	 */
	allowed: number;
	blockedUntil: number;
	/** Requests waiting for a slot, in turn. While the gate is closed only `reopenWhenDue` wakes them. */
	waiting: Array<() => void>;
	/** Whether a timer is already set to let the waiting requests in once `blockedUntil` has passed. */
	reopening: boolean;
}

const gates = new Map<string, GroupGate>();

function gateFor(merchantKey: string, group: EndpointGroup): GroupGate {
	const key = `${merchantKey}\u0000${group}`;
	let gate = gates.get(key);
	if (!gate) {
		gate = { inFlight: 0, allowed: MAX_IN_FLIGHT, blockedUntil: 0, waiting: [], reopening: false };
		gates.set(key, gate);
	}
	return gate;
}

const isClosed = (gate: GroupGate) => gate.blockedUntil > Date.now();

/**
 * Waits for a slot. Requests queue in turn and are let in by the gate, never by a timer of their
 * own: a request that slept on its own timer would wake first every time the gate reopens and
 * probe the limit again and again, using up its own attempts while the others never try.
 */
async function acquire(gate: GroupGate, atFront: boolean): Promise<void> {
	let front = atFront;
	for (;;) {
		const closed = isClosed(gate);
		if (!closed && gate.inFlight < gate.allowed) {
			gate.inFlight++;
			return;
		}
		if (closed) reopenWhenDue(gate);
		await new Promise<void>((resolve) => {
			if (front) gate.waiting.unshift(resolve);
			else gate.waiting.push(resolve);
		});
		// Woken but beaten to the slot: it keeps its turn.
		front = true;
	}
}

/** Lets waiting requests in, as many as there are free slots. */
function wakeWaiting(gate: GroupGate): void {
	for (let free = gate.allowed - gate.inFlight; free > 0 && gate.waiting.length > 0; free--) gate.waiting.shift()?.();
}

function reopenWhenDue(gate: GroupGate): void {
	if (gate.reopening) return;
	gate.reopening = true;
	void (async () => {
		for (let closedFor = gate.blockedUntil - Date.now(); closedFor > 0; closedFor = gate.blockedUntil - Date.now()) {
			await sleep(closedFor);
		}
		gate.reopening = false;
		wakeWaiting(gate);
	})();
}

function release(gate: GroupGate, succeeded: boolean): void {
	gate.inFlight--;
	if (succeeded && gate.allowed < MAX_IN_FLIGHT) gate.allowed++;
	if (!isClosed(gate)) wakeWaiting(gate);
}

function backoffMs(attempt: number): number {
	return Math.min(BASE_BACKOFF_MS * 2 ** (attempt - 1), MAX_WAIT_MS);
}

export interface SendPolicy {
	/** The node sending: final errors are reported as its errors. */
	node: INode;
	/** Identifies the merchant account whose limits the request counts against. */
	merchantKey: string;
	/** The request's URL or path: it decides the endpoint group. */
	url: string;
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
 * idempotent requests, 502/504 or a cut connection or timeout; and once more after a 401 that
 * came although n8n had just renewed the token. Any other error, and the last one when attempts
 * run out, is thrown with the service's own message, what was tried, and no secrets in it.
 */
export async function sendWithPolicy<T>(policy: SendPolicy, send: (attemptTimeoutMs: number) => Promise<T>): Promise<T> {
	const gate = gateFor(policy.merchantKey, endpointGroupOf(policy.url));
	const attempts = { rateLimited: 0, unavailable: 0, unauthorized: 0 };
	const log = new AttemptLog(policy.timeoutMs);
	// A retry's timeout may be shorter: the retries of one request together stay within their budget.
	let attemptTimeoutMs = policy.timeoutMs ?? DEFAULT_TIMEOUT_MS;
	let rateLimited = false;
	for (let attempt = 1; ; attempt++) {
		// A request retried after 503/502/… already waited its turn once: it goes to the front. One
		// answered 429 goes to the back, so that the next probe of the limit is another request's.
		await acquire(gate, attempt > 1 && !rateLimited);
		let waitMs: number | undefined;
		let succeeded = false;
		const startedAt = Date.now();
		try {
			const result = await send(attemptTimeoutMs);
			succeeded = true;
			return result;
		} catch (error) {
			log.record(error, Date.now() - startedAt, attemptTimeoutMs);
			waitMs = retryDelayMs(error, policy, attempts);
			const nextTimeoutMs = waitMs === undefined ? undefined : log.nextAttemptTimeoutMs(rateLimitedWait(error) ? 0 : waitMs);
			const overBudget = waitMs !== undefined && nextTimeoutMs === undefined;
			if (waitMs === undefined || nextTimeoutMs === undefined) {
				const nodeError = asNodeError(policy.node, error, policy.secrets);
				(nodeError as unknown as JsonObject).attempts = attempt;
				if (attempt > 1 || overBudget) {
					// Users should know the node already retried: "try again later" alone invites a retry loop.
					const description = (nodeError.description ?? '').trim();
					const separator = description === '' ? '' : /[.!?]$/.test(description) ? ' ' : '. ';
					nodeError.description = `${description}${separator}${log.summary(overBudget)}`;
				}
				throw nodeError;
			}
			attemptTimeoutMs = nextTimeoutMs;
			rateLimited = rateLimitedWait(error);
			if (rateLimited) {
				// Everyone in the group waits: the limit is the merchant's, not this request's.
				gate.blockedUntil = Math.max(gate.blockedUntil, Date.now() + waitMs);
				gate.allowed = 1;
				reopenWhenDue(gate);
			}
		} finally {
			release(gate, succeeded);
		}
		// After a 429 the gate itself holds the request back until the Retry-After has passed.
		if (!rateLimited) {
			log.waited(waitMs);
			await sleep(waitMs);
		}
	}
}

/** A 429's wait is the gate's, shared by the group, and does not count against one request's budget. */
function rateLimitedWait(error: unknown): boolean {
	return statusOf(error) === 429;
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
		if (++attempts.rateLimited >= MAX_RATE_LIMITED_ATTEMPTS) return undefined;
		return retryAfterMs(headers) ?? backoffMs(attempts.rateLimited);
	}
	const retryable =
		status === 503 || (policy.idempotent && (status === 502 || status === 504 || isCutOff(error)));
	if (!retryable || ++attempts.unavailable >= MAX_UNAVAILABLE_ATTEMPTS) return undefined;
	return retryAfterMs(headers) ?? backoffMs(attempts.unavailable);
}

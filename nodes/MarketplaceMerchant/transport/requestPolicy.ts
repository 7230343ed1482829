/**
 * How every request to the service is sent: paced per endpoint group and retried on the answers
 * the live service gives under load. The node (through RoutingNode's makeRoutingRequest) and the
 * trigger (through httpRequestWithAuthentication) both send through `sendWithPolicy`.
 *
 * RoutingNode starts every item's request at once, so without pacing 1,000 items would be 1,000
 * simultaneous requests against a limit of 60 a minute. Requests of one merchant and endpoint
 * group therefore share a gate (pacing.ts) that sends at the known limits, and a 429 closes it
 * for the whole group instead of every request retrying on its own.
 */
import { NodeApiError, NodeOperationError, sleep, type INode, type JsonObject } from 'n8n-workflow';

import { endpointGroupOf, type EndpointGroup } from './endpoints';
import { RequestNotNeeded, acquire, closeAfterRateLimit, gateFor, release } from './pacing';

/** Attempts for a request answered 429 (each waits as the service asks). */
const MAX_RATE_LIMITED_ATTEMPTS = 12;
/** Attempts for a request answered 502/503/504 or cut off. */
const MAX_UNAVAILABLE_ATTEMPTS = 4;
/** Longest single wait, whatever Retry-After says. */
const MAX_WAIT_MS = 120_000;
/** Backoff for a 429 without Retry-After and for 5xx answers: 1 s, 2 s, 4 s, … */
const BASE_BACKOFF_MS = 1_000;

interface ErrorResponse {
	status?: number;
	headers?: Record<string, unknown>;
}

/** The HTTP answer behind an error thrown by n8n's request helpers (NodeApiError or axios-like). */
function responseOf(error: unknown): ErrorResponse {
	const candidate = error as {
		httpCode?: string | null;
		response?: ErrorResponse;
		cause?: { response?: ErrorResponse; status?: number };
	};
	const response = candidate.cause?.response ?? candidate.response ?? {};
	const status = Number(response.status ?? candidate.httpCode ?? candidate.cause?.status);
	return { status: Number.isFinite(status) ? status : undefined, headers: response.headers };
}

export function statusOf(error: unknown): number | undefined {
	return responseOf(error).status;
}

/** Retry-After in seconds (decimals allowed) or as an HTTP date; undefined when absent or unusable. */
export function retryAfterMs(headers: Record<string, unknown> | undefined, now = Date.now()): number | undefined {
	const raw = headers?.['retry-after'] ?? headers?.['Retry-After'];
	if (raw === undefined || raw === null || raw === '') return undefined;
	const text = String(Array.isArray(raw) ? raw[0] : raw).trim();
	const seconds = Number(text);
	if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, MAX_WAIT_MS);
	const date = Date.parse(text);
	if (Number.isFinite(date)) return Math.min(Math.max(date - now, 0), MAX_WAIT_MS);
	return undefined;
}

function backoffMs(attempt: number): number {
	return Math.min(BASE_BACKOFF_MS * 2 ** (attempt - 1), MAX_WAIT_MS);
}

const NETWORK_ERROR_CODES = new Set(['ECONNRESET', 'ETIMEDOUT', 'ECONNABORTED', 'EPIPE', 'EAI_AGAIN']);

function isCutOff(error: unknown): boolean {
	const code = (error as { code?: string; cause?: { code?: string } }).cause?.code ?? (error as { code?: string }).code;
	return code !== undefined && NETWORK_ERROR_CODES.has(code);
}

export interface SendPolicy {
	/** The node sending: final errors are reported as its errors. */
	node: INode;
	/** Identifies the merchant account whose limits the request counts against. */
	merchantKey: string;
	/** The request's URL or path: it decides the endpoint group unless `group` is given. */
	url: string;
	group?: EndpointGroup;
	/** The user's Requests per Minute option, when set: the gate sends no faster. */
	perMinute?: number;
	/** Asked when the gate would let the request through: false drops it unsent (RequestNotNeeded is thrown). */
	wanted?: () => boolean;
	/**
	 * Whether sending the same request twice is harmless. Answers that may come after the service
	 * acted (502/504, a cut connection) are retried only then; 429 and 503 are always retried.
	 */
	idempotent: boolean;
}

/**
 * Sends a request through the group's gate and retries it, a bounded number of times, when the
 * service answers 429 (waiting as Retry-After asks), 503, or, for idempotent requests, 502/504 or
 * a cut connection. Any other error, and the last one when attempts run out, is thrown as it came
 * (with `attempts` noted on it), so the caller's error keeps the service's own message.
 */
export async function sendWithPolicy<T>(policy: SendPolicy, send: () => Promise<T>): Promise<T> {
	const gate = gateFor(policy.merchantKey, policy.group ?? endpointGroupOf(policy.url));
	const attempts = { rateLimited: 0, unavailable: 0 };
	let rateLimited = false;
	for (let attempt = 1; ; attempt++) {
		// A request retried after 503/502/… already waited its turn once: it goes to the front. One
		// answered 429 goes to the back, so that the next probe of the limit is another request's.
		const sentAt = await acquire(gate, { atFront: attempt > 1 && !rateLimited, perMinute: policy.perMinute, wanted: policy.wanted });
		if (sentAt === undefined) throw new RequestNotNeeded();
		let waitMs: number | undefined;
		let succeeded = false;
		try {
			const result = await send();
			succeeded = true;
			return result;
		} catch (error) {
			waitMs = retryDelayMs(error, policy, attempts);
			if (waitMs === undefined) {
				const nodeError = asNodeError(policy.node, error);
				(nodeError as unknown as JsonObject).attempts = attempt;
				if (attempt > 1) {
					// Users should know the node already retried: "try again later" alone invites a retry loop.
					const description = (nodeError.description ?? '').trim();
					const separator = description === '' ? '' : /[.!?]$/.test(description) ? ' ' : '. ';
					nodeError.description = `${description}${separator}The node gave up after ${attempt} attempts.`;
				}
				throw nodeError;
			}
			rateLimited = statusOf(error) === 429;
			// Everyone in the group waits: the limit is the merchant's, not this request's.
			if (rateLimited) closeAfterRateLimit(gate, sentAt, retryAfterMs(responseOf(error).headers), waitMs);
		} finally {
			release(gate, succeeded);
		}
		// After a 429 the gate itself holds the request back until it reopens.
		if (!rateLimited) await sleep(waitMs);
	}
}

/**
 * n8n's request helpers already throw NodeApiError (and our own checks NodeOperationError):
 * those are passed on as they are, keeping the service's message; anything else is wrapped.
 */
export function asNodeError(node: INode, error: unknown): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeApiError(node, error as JsonObject);
}

/** How long to wait before retrying, or undefined when the error is final. */
function retryDelayMs(
	error: unknown,
	policy: SendPolicy,
	attempts: { rateLimited: number; unavailable: number },
): number | undefined {
	const { status, headers } = responseOf(error);
	if (status === 429) {
		if (++attempts.rateLimited >= MAX_RATE_LIMITED_ATTEMPTS) return undefined;
		return retryAfterMs(headers) ?? backoffMs(attempts.rateLimited);
	}
	const retryable =
		status === 503 || (policy.idempotent && (status === 502 || status === 504 || isCutOff(error)));
	if (!retryable || ++attempts.unavailable >= MAX_UNAVAILABLE_ATTEMPTS) return undefined;
	return retryAfterMs(headers) ?? backoffMs(attempts.unavailable);
}

/**
 * The request engine: every request the package makes goes out here, and every rule about
 * requests is written here once (docs/architecture.md "Request engine"). Four parts, in the order
 * they build on each other:
 * - Errors: what a failed request says, and the error the node shows, secrets removed;
 * - Policy: when a request may go (one gate per merchant and endpoint group) and whether it goes again;
 * - Sending: the credential and the host an endpoint lives on, the item's Request Options, the answer read within its cap;
 * - Pagination: what RoutingNode hands an item's requests to (pages, id chunks, date windows).
 * Below it are only the table of endpoints and the readers of user values (the Request Options,
 * Limit); answers.ts reads what comes back.
 */
import {
	NodeApiError,
	NodeOperationError,
	sleep,
	type DeclarativeRestApiSettings,
	type FunctionsBase,
	type IAllExecuteFunctions,
	type IDataObject,
	type IExecutePaginationFunctions,
	type IExecuteSingleFunctions,
	type IHttpRequestOptions,
	type IN8nHttpFullResponse,
	type INode,
	type INodeExecutionData,
	type JsonObject,
	type PostReceiveAction,
	type PreSendAction,
	type RequestHelperFunctions,
} from 'n8n-workflow';

import { RATE_LIMITS, type EndpointGroup, type HostChoice, type RateWindow } from './endpoints';
import { processWide } from './state';
import { formatIsoUtc, parseServiceTimestamp, splitIntoWindows } from '../values/dates';
import { isBlank, isPlainObject, readLimit, readWholeNumber, toList, type SettingsContext } from '../values/values';

// ─── Errors ──────────────────────────────────────────────────────────────────────────────────────────
/**
 * The one place errors are built: what a failed request says (status, Retry-After, a cut
 * connection) and the error the node shows and n8n stores, whose message, description, service
 * body (`context.data`) and `cause` carry no bearer token, client secret or API key. A rejected
 * user value is the one error built below the engine: values.ts's `invalidInput` words it, as the
 * engine reads the Request Options with values.ts.
 */
/** Longest single wait, whatever Retry-After says. */
const MAX_WAIT_MS = 120_000;

type ErrorResponse = { status?: number; headers?: Record<string, unknown> };

/** The HTTP answer behind an error of n8n's request helpers (NodeApiError or axios-like). */
function responseOf(error: unknown): ErrorResponse {
	const candidate = (error ?? {}) as {
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
export function retryAfterMs(headers: Record<string, unknown> | undefined): number | undefined {
	const raw = headers?.['retry-after'] ?? headers?.['Retry-After'];
	if (raw === undefined || raw === null || raw === '') return undefined;
	const text = String(Array.isArray(raw) ? raw[0] : raw).trim();
	const seconds = Number(text);
	if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, MAX_WAIT_MS);
	const date = Date.parse(text);
	if (Number.isFinite(date)) return Math.min(Math.max(date - Date.now(), 0), MAX_WAIT_MS);
	return undefined;
}

/** What to do when the service refuses the credential, in the same words wherever it shows. */
const CREDENTIAL_ADVICE: Partial<Record<number, string>> = {
	401: 'Check the Client ID and Client Secret, and that they belong to the environment of the Base URL (production and staging credentials differ).',
	403: "The client has no permission for this: check the API Key and the client's permissions in the merchant portal.",
};

export function credentialAdvice(status: number | undefined): string | undefined {
	return status === undefined ? undefined : CREDENTIAL_ADVICE[status];
}

const NETWORK_FAILURE_REASONS: Record<string, string> = {
	ECONNREFUSED: 'the connection was refused',
	ENOTFOUND: 'the host name could not be resolved',
	EAI_AGAIN: 'the host name could not be resolved',
	ETIMEDOUT: 'the connection timed out',
	ECONNABORTED: 'the connection timed out',
	ECONNRESET: 'the connection was closed unexpectedly',
	EHOSTUNREACH: 'the host is unreachable',
	ENETUNREACH: 'the network is unreachable',
};

export function networkFailureReason(error: unknown): string {
	return NETWORK_FAILURE_REASONS[errorCodeOf(error) ?? ''] ?? 'the request failed before an answer arrived';
}

const CUT_OFF_CODES = new Set(['ECONNRESET', 'ETIMEDOUT', 'ECONNABORTED', 'EPIPE', 'EAI_AGAIN']);

export function errorCodeOf(error: unknown): string | undefined {
	const candidate = (error ?? {}) as { code?: unknown; cause?: { code?: unknown } };
	const code = candidate.cause?.code ?? candidate.code;
	return typeof code === 'string' ? code : undefined;
}

function isCutOff(error: unknown): boolean {
	return CUT_OFF_CODES.has(errorCodeOf(error) ?? '');
}

/** Whether the request ended because its timeout passed (axios says ECONNABORTED or ETIMEDOUT and "timeout"). */
function isTimeout(error: unknown): boolean {
	const code = errorCodeOf(error);
	const message = String((error as { cause?: { message?: unknown } })?.cause?.message ?? (error as Error)?.message ?? '');
	return (code === 'ECONNABORTED' || code === 'ETIMEDOUT') && /timeout/i.test(message);
}

/** Credential values and the request's Authorization and X-API-Key headers found on the error. */
function secretsIn(error: unknown, known: unknown[]): string[] {
	const headers = (error as { cause?: { config?: { headers?: Record<string, unknown> } } })?.cause?.config?.headers ?? {};
	const header = (name: string) => Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
	const authorization = header('authorization');
	const bearer = typeof authorization === 'string' ? /^\s*Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1] : undefined;
	return secretList([...known, bearer ?? authorization, header('x-api-key')]);
}

/** The cause without the axios error (it holds the request's headers and body), keeping what the policy reads. */
function safeCause(cause: unknown, secrets: string[]): Error | undefined {
	if (!(cause instanceof Error)) return undefined;
	const safe = new Error(redactText(cause.message, secrets));
	safe.name = cause.name;
	const { status, headers } = responseOf({ cause });
	const code = errorCodeOf({ cause });
	Object.assign(safe, code === undefined ? {} : { code }, status === undefined ? {} : { response: { status, headers } });
	safe.stack = redactText(cause.stack ?? '', secrets);
	return safe;
}

/**
 * The error to throw for a failed request, secrets removed (in place) from every part n8n shows,
 * stores or logs; a NodeApiError or NodeOperationError keeps its message.
 */
export function asNodeError(node: INode, error: unknown, knownSecrets: unknown[] = []): NodeApiError | NodeOperationError {
	const nodeError =
		error instanceof NodeApiError || error instanceof NodeOperationError ? error : new NodeApiError(node, error as JsonObject);
	const secrets = secretsIn(nodeError, knownSecrets);
	const cause = safeCause(nodeError.cause, secrets);
	Object.defineProperty(nodeError, 'cause', { value: cause, enumerable: false, writable: true, configurable: true });
	nodeError.message = redactText(nodeError.message, secrets);
	if (typeof nodeError.description === 'string') nodeError.description = redactText(nodeError.description, secrets);
	nodeError.messages = nodeError.messages.map((message) => redactText(message, secrets));
	nodeError.context = redactData(nodeError.context, secrets) as typeof nodeError.context;
	if (nodeError.errorResponse) nodeError.errorResponse = redactData(nodeError.errorResponse, secrets) as typeof nodeError.errorResponse;
	const extra = nodeError.extra && redactData(nodeError.extra, secrets);
	if (extra) Object.defineProperty(nodeError, 'extra', { value: extra, enumerable: true, writable: true, configurable: true });
	if (nodeError.stack) nodeError.stack = redactText(nodeError.stack, secrets);
	return nodeError;
}

/** Values named in a message, the first `max` of them: `a, b, c and 7 more`. */
export function firstOf(values: string[], max: number): string {
	const shown = values.slice(0, max).join(', ');
	return values.length > max ? `${shown} and ${values.length - max} more` : shown;
}

/**
 * The service's messages in Serbian whose meaning is known (platform facts, the current pages), by
 * their text in lower case. A message stays as the service wrote it (a merchant may search for it
 * or quote it to support); its English meaning comes beside it. Unknown ones pass as they are.
 */
const SERBIAN_MESSAGES: Record<string, string> = {
	'proizvod ne postoji': 'product does not exist',
};

/** `text` with the English meaning after each known Serbian message in it: "Proizvod ne postoji (product does not exist)". */
export function withEnglishMeaning(text: string): string {
	let result = text;
	for (const [serbian, english] of Object.entries(SERBIAN_MESSAGES)) {
		const at = result.toLowerCase().indexOf(serbian);
		if (at < 0 || result.toLowerCase().includes(english)) continue;
		const end = at + serbian.length;
		result = `${result.slice(0, end)} (${english})${result.slice(end)}`;
	}
	return result;
}

/** `more` after `description`, as a new sentence. */
export function joinSentences(description: string | null | undefined, more: string): string {
	const text = (description ?? '').trim();
	const separator = text === '' ? '' : /[.!?]$/.test(text) ? ' ' : '. ';
	return `${text}${separator}${more}`;
}

export function serviceError(node: INode, details: JsonObject, options?: ConstructorParameters<typeof NodeApiError>[2]): NodeApiError {
	return new NodeApiError(node, details, options);
}

export function nodeError(node: INode, message: string | Error, options?: ConstructorParameters<typeof NodeOperationError>[2]): NodeOperationError {
	return new NodeOperationError(node, message, options);
}

// A service may echo the Authorization header, the API key or the token request's body in an error.
const REDACTED = '***';

/** Shorter values are not replaced: a one-letter "secret" would mangle every message. */
const MIN_SECRET_LENGTH = 4;

const BEARER = /\b(Bearer\s+)[A-Za-z0-9\-._~+/]+=*/gi;

/** The values to hide, without duplicates, longest first (a secret may contain another). */
export function secretList(values: unknown[]): string[] {
	const texts = values
		.filter((value): value is string => typeof value === 'string')
		.map((value) => value.trim())
		.filter((value) => value.length >= MIN_SECRET_LENGTH);
	return [...new Set(texts)].sort((a, b) => b.length - a.length);
}

export function redactText(text: string, secrets: string[]): string {
	let result = text.replace(BEARER, `$1${REDACTED}`);
	for (const secret of secrets) result = result.split(secret).join(REDACTED);
	return result;
}

/** A copy of plain data with every string redacted; cycles end in `[Circular]`. */
function redactData(value: unknown, secrets: string[], seen = new WeakSet<object>()): unknown {
	if (typeof value === 'string') return redactText(value, secrets);
	if (!value || typeof value !== 'object') return value;
	if (seen.has(value)) return '[Circular]';
	seen.add(value);
	if (Array.isArray(value)) return value.map((entry) => redactData(entry, secrets, seen));
	if (Buffer.isBuffer(value)) return redactText(value.toString('utf8'), secrets);
	const copy: Record<string, unknown> = {};
	for (const [key, entry] of Object.entries(value)) copy[key] = redactData(entry, secrets, seen);
	return copy;
}

/**
 * An error about an unreadable answer names its request: `sendAuthenticated` labels each answer here
 * before it is read; in routing, where the answer is read inside n8n, `sendRequest` names it (`namingRequest`).
 */
const requestOfAnswer = new WeakMap<object, string>();
const unreadableAnswerErrors = new WeakSet<object>();

/** How a request is named in errors: its method, path and query, never the host (a Base URL may carry a password). */
function requestLabel(method: unknown, url = '', qs?: unknown): string {
	// A path that is not a URL stays as it is.
	const parsed = URL.canParse(url, 'http://base.invalid') ? new URL(url, 'http://base.invalid') : undefined;
	const path = parsed ? `${parsed.pathname}${parsed.search}` : url;
	const query =
		isPlainObject(qs) && Object.keys(qs).length > 0
			? `${path.includes('?') ? '&' : '?'}${new URLSearchParams(Object.entries(qs).map(([key, value]): [string, string] => [key, String(value)])).toString()}`
			: '';
	const label = `${String(method ?? 'GET').toUpperCase()} ${path}${query}`;
	return label.length > 300 ? `${label.slice(0, 300)}…` : label;
}

/** An error about an answer that could not be read (answers.ts), named by its request when that is known. */
export function unreadableAnswerError(error: NodeApiError, response: object): NodeApiError {
	unreadableAnswerErrors.add(error);
	const request = requestOfAnswer.get(response);
	return request === undefined ? error : namingRequest(error, request);
}

function namingRequest<T>(error: T, label: string): T {
	if (!unreadableAnswerErrors.delete(error as object)) return error;
	const named = error as { description?: string | null };
	named.description = `${named.description ?? ''} Request: ${label}.`.trim();
	return error;
}

// ─── Policy ──────────────────────────────────────────────────────────────────────────────────────────
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
	if (typeof nodeError.description === 'string') nodeError.description = withEnglishMeaning(nodeError.description);
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
class RefusedTooLongError extends Error {
	constructor(readonly refusedForMs: number) {
		super(`The service answered only 429 for ${Math.round(refusedForMs / 1000)} s`);
	}
}
// One class per process (state.ts): a gate may give up a wait for another bundle's request, which tests it with instanceof.
export const RefusedTooLong = processWide('RefusedTooLong', () => RefusedTooLongError);
export type RefusedTooLong = RefusedTooLongError;

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

const gates = processWide('gates', () => new Map<string, Gate>());

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
class RequestNotNeeded extends Error {
	constructor() {
		super('The request was no longer needed and was not sent');
	}
}

// ─── Sending ─────────────────────────────────────────────────────────────────────────────────────────
/**
 * Every request of the node and the trigger is sent here, under the policy above (those of no
 * node: credential.ts's `sendForAnswer`). Answers are bounded: n8n hands axios `maxContentLength:
 * Infinity` and inflates gzip without limit, so a gzip bomb would grow the process until killed.
 * Every request asks for a stream (`encoding: 'stream'`), read here counting the inflated bytes:
 * past the cap the connection is closed and the request fails with a clear error.
 */
export const CREDENTIAL_TYPE = 'marketplaceMerchantApi';

export function normalizeBaseUrl(baseUrl: unknown): string {
	return String(baseUrl ?? '').trim().replace(/\/+$/, '');
}

/** `normalizeBaseUrl` for the node's request defaults, which n8n resolves and which cannot call code. */
export const BASE_URL_EXPRESSION = '={{ String($credentials.baseUrl ?? "").trim().replace(/\\/+$/, "") }}';

export function merchantKeyOf(baseUrl: string, clientId: unknown): string {
	return `${baseUrl}|${String(clientId ?? '')}`;
}

/** Declared by the operation, never deduced from the URL. */
export interface Route {
	group: EndpointGroup;
	idempotent: boolean;
	/** For an endpoint the environment's service host serves (endpoints.ts); else the Base URL. */
	host?: HostChoice;
}

export type RequestData = DeclarativeRestApiSettings.ResultOptions & { route: Route };

/** A request's policy and the credential's hosts, the credential read once (in n8n each read is a database read). */
async function policyOf(ctx: Pick<FunctionsBase, 'getCredentials' | 'getNode'>, route: Route, settings: SendSettings & { timeoutMs: number }) {
	const credentials = await ctx.getCredentials(CREDENTIAL_TYPE);
	const { clientId, clientSecret, apiKey, accessToken } = credentials;
	const hosts = hostsOf(credentials);
	// The token actually sent is read from the error itself.
	const secrets = [clientSecret, apiKey, accessToken];
	// One gate per merchant, keyed by the Base URL whichever host a request goes to: the limits are the merchant's.
	const merchantKey = merchantKeyOf(hosts.baseUrl, clientId);
	return { hosts, policy: { node: ctx.getNode(), merchantKey, secrets, ...route, ...settings } };
}

/**
 * The credential's hosts: its Base URL and the environment's service host (`serviceUrl`, empty
 * when not given: credentials saved before the field existed have none).
 */
export function hostsOf(credentials: { baseUrl?: unknown; serviceUrl?: unknown }): { baseUrl: string; serviceUrl: string } {
	return { baseUrl: normalizeBaseUrl(credentials.baseUrl), serviceUrl: normalizeBaseUrl(credentials.serviceUrl) };
}

type Hosts = ReturnType<typeof hostsOf>;
type HostName = 'base' | 'service';

/** Where a `baseFirst` endpoint answered, per merchant, service host and endpoint; `learning` while the first request finds out. */
const learnedHosts = processWide('learnedHosts', () => new Map<string, { onService?: boolean; learning?: Promise<void> }>());

/**
 * Sends to the host the route's endpoint lives on (endpoints.ts, HostChoice): the Base URL, the
 * service host, or for `baseFirst` the Base URL until it answers "No static resource" and then,
 * when a service host is given, the service host, for the rest of the process: at most one extra
 * request, one at a time while it is being learned. An answer saying a host does not serve the
 * endpoint becomes an error that says what to enter (`notServedText`), never "nothing found".
 */
async function onItsHost<T>(node: INode, route: Route, merchantKey: string, hosts: Hosts, send: (url: string) => Promise<T>): Promise<T> {
	const choice = route.host;
	if (choice === undefined) return await send(hosts.baseUrl);
	const hasService = hosts.serviceUrl !== '';
	if (choice.where === 'service' || !hasService) return await sendExplained(node, choice, hasService ? 'service' : 'base', hosts, send);
	const key = `${merchantKey}\u0000${hosts.serviceUrl}\u0000${choice.what}`;
	const learned = learnedHosts.get(key) ?? {};
	learnedHosts.set(key, learned);
	while (learned.learning) await learned.learning;
	if (learned.onService) return await sendExplained(node, choice, 'service', hosts, send);
	let learnt: (() => void) | undefined;
	if (learned.onService === undefined) learned.learning = new Promise<void>((resolve) => (learnt = resolve));
	const atBase = await settle(send(hosts.baseUrl));
	const notServed = !atBase.ok && isNotServedAnswer(atBase.error);
	if (atBase.ok || notServed) learned.onService = notServed;
	if (learnt) {
		learned.learning = undefined;
		learnt();
	}
	if (atBase.ok) return atBase.value;
	if (!notServed) throw atBase.error;
	return await sendExplained(node, choice, 'service', hosts, send);
}

async function sendExplained<T>(node: INode, choice: HostChoice, at: HostName, hosts: Hosts, send: (url: string) => Promise<T>): Promise<T> {
	const outcome = await settle(send(at === 'service' ? hosts.serviceUrl : hosts.baseUrl));
	if (outcome.ok) return outcome.value;
	const status = statusOf(outcome.error);
	// Warehouses have no "nothing found": any 404 there means the host does not serve them.
	const notServed = isNotServedAnswer(outcome.error) || (choice.where === 'service' && status === 404);
	if (!notServed || status === undefined) throw outcome.error;
	// A NodeOperationError, without the status: a 404 of prices would otherwise read as "no prices" (splitQueryList).
	const { message, description } = notServedText(choice.what, at, status);
	throw nodeError(node, message, { description });
}

/** Spring's answer for a path a host does not map: 404 "No static resource …", or 500 behind a catch-all handler. */
function isNotServedAnswer(error: unknown): boolean {
	const status = statusOf(error);
	if (status !== 404 && status !== 500) return false;
	const { context, description, message } = (error ?? {}) as { context?: { data?: unknown }; description?: unknown; message?: unknown };
	return [context?.data, description, message].some((part) => isNotServedBody(part));
}

/** Whether an answer's body (or a message taken from it) is Spring's "No static resource". */
export function isNotServedBody(body: unknown): boolean {
	const text = typeof body === 'string' ? body : Buffer.isBuffer(body) ? body.toString('utf8') : JSON.stringify(body ?? '');
	return /No static resource/i.test(text);
}

/** What a host answering that it does not serve an endpoint means, in the same words for the node and the credential's Test. */
export function notServedText(what: string, at: HostName, status: number): { message: string; description: string } {
	const serviceHost =
		"the environment's service host: the Base URL's host name with a \"svc\" label (the merchant portal or the marketplace's integration team gives the exact address)";
	return at === 'base'
		? {
				message: `The Base URL does not serve ${what} (HTTP ${status}): enter the environment's service host in the credential's Service Host URL`,
				description: `In this environment ${what} are served from a second host. Enter ${serviceHost} as the credential's Service Host URL; the same client and token work there.`,
			}
		: {
				message: `The Service Host URL does not serve ${what} (HTTP ${status}): check the credential's Service Host URL`,
				description: `Enter ${serviceHost}, or leave the Service Host URL empty to ask the Base URL.`,
			};
}

/** Sends `requestData` with some options replaced (a page, a chunk, a window) and returns its items. */
export async function sendRequest(
	ctx: IExecutePaginationFunctions,
	requestData: RequestData,
	override: Partial<RequestData['options']> = {},
	wanted?: () => boolean,
): Promise<INodeExecutionData[]> {
	const options = { ...requestData.options, ...override, ...STREAMED_ANSWER };
	const { hosts, policy } = await policyOf(ctx, requestData.route, { ...sendSettingsOf(ctx), wanted });
	return await onItsHost(ctx.getNode(), requestData.route, policy.merchantKey, hosts, async (baseURL) =>
		await sendWithPolicy(policy, async (attemptTimeoutMs) => {
			try {
				// RoutingNode sets its own 5-minute timeout; the node's option replaces it.
				return await ctx.makeRoutingRequest({ ...requestData, options: { ...options, baseURL, timeout: attemptTimeoutMs } });
			} catch (error) {
				// The operation's postReceive read the answer: an answer it could not read names this request.
				throw namingRequest(await withErrorBodyRead(ctx.getNode(), error), requestLabel(options.method, options.url, options.qs));
			}
		}),
	);
}

/** The default strategy: one request. */
export async function sendSingle(this: IExecutePaginationFunctions, requestData: RequestData): Promise<INodeExecutionData[]> {
	return await sendRequest(this, requestData);
}

export type AuthenticatedContext = IAllExecuteFunctions;

/** An item's Request Options, for an operation that sends outside routing (bulkRun.ts). */
export interface SendSettings {
	timeoutMs?: number;
	perMinute?: number;
	wanted?: () => boolean;
}

/** Read here so that the engine never imports actions/. */
export function sendSettingsOf(ctx: SettingsContext): SendSettings & { timeoutMs: number } {
	const { timeoutSeconds: seconds, requestsPerMinute: perMinute } = ctx.getNodeParameter('requestOptions', {}) as IDataObject;
	return {
		timeoutMs: isBlank(seconds) ? DEFAULT_TIMEOUT_MS : readWholeNumber(ctx, 'Request Options › Timeout (Seconds)', seconds, 1) * 1000,
		perMinute: isBlank(perMinute) ? undefined : readWholeNumber(ctx, 'Request Options › Requests per Minute', perMinute, 1),
	};
}

/** One request with the credential's token outside routing; `url` is a path after the base URL. */
export async function sendAuthenticated(
	ctx: AuthenticatedContext,
	route: Route,
	request: IHttpRequestOptions,
	settings: SendSettings = {},
): Promise<IN8nHttpFullResponse> {
	const timeoutMs = settings.timeoutMs ?? request.timeout ?? DEFAULT_TIMEOUT_MS;
	const { hosts, policy } = await policyOf(ctx, route, { ...settings, timeoutMs });
	return await onItsHost(ctx.getNode(), route, policy.merchantKey, hosts, async (baseUrl) => {
		const url = `${baseUrl}${request.url}`;
		return await sendWithPolicy(policy, async (timeout) => {
			try {
				const options = { headers: { Accept: 'application/json' }, ...request, url, returnFullResponse: true, ...STREAMED_ANSWER, timeout };
				const answer = (await ctx.helpers.httpRequestWithAuthentication.call(ctx, CREDENTIAL_TYPE, options)) as IN8nHttpFullResponse;
				answer.body = (await readBodyWithinCap(ctx.getNode(), answer.body, timeout)) as IN8nHttpFullResponse['body'];
				requestOfAnswer.set(answer, requestLabel(request.method, url, request.qs));
				return answer;
			} catch (error) {
				throw await withErrorBodyRead(ctx.getNode(), error);
			}
		});
	});
}

export interface DownloadContext {
	getNode(): INode;
	helpers: Pick<RequestHelperFunctions, 'httpRequest'>;
}

/** The bytes behind a pre-signed link (no credentials), under a gate of its host, not the API's limits. */
export async function downloadPresigned(ctx: DownloadContext, url: string, timeoutMs: number): Promise<Buffer> {
	const node = ctx.getNode();
	const merchantKey = `document-downloads|${new URL(url).origin}`;
	const body = await sendWithPolicy({ node, merchantKey, group: 'documentDownloads', idempotent: true, timeoutMs }, async (timeout) => {
		const answer = await ctx.helpers.httpRequest({ method: 'GET', url, ...STREAMED_ANSWER, json: false, timeout });
		return await readBodyWithinCap(node, answer, timeout);
	});
	return Buffer.isBuffer(body) ? body : Buffer.from(body as ArrayBuffer);
}

/**
 * The most one answer, and all answers being read at once (RoutingNode starts every item at once),
 * may hold inflated. The largest legitimate answers (2,500 basic products) are a small part of it.
 */
const MAX_ANSWER_BYTES = 256 * 1024 * 1024;
const answersBeingRead = processWide('answersBeingRead', () => ({ bytes: 0 }));
const MIB = 1024 * 1024;
/** An error answer is read only for its message. */
const MAX_ERROR_BODY_BYTES = MIB;
const ERROR_BODY_TIMEOUT_MS = 10_000;

export const STREAMED_ANSWER = { encoding: 'stream' } as const;

type ByteStream = AsyncIterable<Buffer> & { destroy(error?: Error): void };

function isByteStream(value: unknown): value is ByteStream {
	const stream = value as Partial<ByteStream> | null | undefined;
	return typeof value === 'object' && typeof stream?.destroy === 'function' && typeof stream[Symbol.asyncIterator] === 'function';
}

/** `alone`: whether this answer was over the cap by itself. */
class AnswerTooLarge extends Error {
	constructor(readonly readBytes: number, readonly alone: boolean) {
		super(`answer stopped after ${readBytes} bytes`);
	}
}

/**
 * The whole body within `limitBytes` (and, `shared`, MAX_ANSWER_BYTES for all being read) and
 * `timeoutMs` (a trickle never trips the socket's idle timeout). Destroying the stream closes the
 * connection: the rest is never inflated.
 */
async function readAtMost(stream: ByteStream, limitBytes: number, shared: boolean, timeoutMs: number): Promise<Buffer> {
	const deadline = Date.now() + timeoutMs;
	const chunks: Buffer[] = [];
	let total = 0;
	try {
		for await (const chunk of stream) {
			if (Date.now() > deadline) {
				stream.destroy();
				// Shaped as axios's timeout error, so that the retry policy treats it as one.
				throw Object.assign(new Error(`timeout of ${timeoutMs}ms exceeded while the answer arrived`), { code: 'ECONNABORTED' });
			}
			total += chunk.length;
			if (shared) answersBeingRead.bytes += chunk.length;
			if (total > limitBytes || (shared && answersBeingRead.bytes > MAX_ANSWER_BYTES)) {
				stream.destroy();
				throw new AnswerTooLarge(total, total > limitBytes);
			}
			chunks.push(chunk);
		}
	} finally {
		if (shared) answersBeingRead.bytes -= total;
	}
	return Buffer.concat(chunks, total);
}

/** A streamed body's bytes, any other body as it is; throws as `readAtMost` does (credential.ts words it). */
export async function readCappedBody(body: unknown, timeoutMs: number): Promise<unknown> {
	return isByteStream(body) ? await readAtMost(body, MAX_ANSWER_BYTES, true, timeoutMs) : body;
}

/** `who`: the answer's sender as the message names it. */
export function answerTooLargeText(error: unknown, who = 'service'): { message: string; description: string } | undefined {
	if (!(error instanceof AnswerTooLarge)) return undefined;
	const cap = `${MAX_ANSWER_BYTES / MIB} MiB`;
	return error.alone
		? {
				message: `The ${who}'s answer is larger than ${cap}: the request was stopped`,
				description: `Answers are read up to ${cap}, counted after inflating a compressed answer. An answer this large is not one the API sends: check the Base URL, or ask for smaller pages or date ranges.`,
			}
		: {
				message: `The ${who}'s answers being read at once are larger than ${cap} together: the request was stopped`,
				description: `This answer had ${Math.round(error.readBytes / MIB)} MiB when it was stopped. Answers are counted after inflating a compressed answer; answers this large are not ones the API sends: check the Base URL.`,
			};
}

async function readBodyWithinCap(node: INode, body: unknown, timeoutMs: number): Promise<unknown> {
	try {
		return await readCappedBody(body, timeoutMs);
	} catch (error) {
		const tooLarge = answerTooLargeText(error);
		// A connection cut mid-answer keeps its code (ECONNRESET, …) in the cause: it is retried as such.
		throw tooLarge ? nodeError(node, tooLarge.message, { description: tooLarge.description }) : serviceError(node, error as JsonObject);
	}
}

/** A postReceive written as a function, typed by n8n. */
export type PostReceiveFunction = Extract<PostReceiveAction, (...args: never[]) => unknown>;

/** The first postReceive action of every operation. */
export const readAnswerBody: PostReceiveFunction = async function (_items, response) {
	response.body = (await readBodyWithinCap(this.getNode(), response.body, sendSettingsOf(this).timeoutMs)) as IN8nHttpFullResponse['body'];
	return [];
};

type ErrorAnswer = { status?: number; statusText?: string; headers?: Record<string, unknown>; data?: unknown };
type FailedRequest = Error & { response: ErrorAnswer; config?: { headers?: Record<string, unknown> } };

/** An error answer whose body is still bytes: a stream (the request asked for one), a Buffer or text. */
const isUnreadBody = (body: unknown) => isByteStream(body) || Buffer.isBuffer(body) || typeof body === 'string';

/**
 * The failed request behind an error of n8n's request helpers. They wrap it in a NodeApiError,
 * which keeps it as `cause` in n8n 2; n8n 1's NodeApiError has no cause (a class field of its
 * ExecutionBaseError resets it to undefined) and keeps only the answer's body, as `context.data`:
 * the response stream, which still knows its status and headers (and, through its request, the
 * headers sent, whose secrets asNodeError hides).
 */
function failedRequestOf(error: unknown): FailedRequest | undefined {
	const candidate = (error ?? {}) as { cause?: { response?: ErrorAnswer }; context?: { data?: unknown }; httpCode?: unknown; description?: unknown; message?: unknown };
	const cause = candidate.cause;
	if (cause instanceof Error && cause.response && typeof cause.response === 'object') return isUnreadBody(cause.response.data) ? (cause as FailedRequest) : undefined;
	const body = candidate.context?.data;
	if (!isUnreadBody(body)) return undefined;
	const stream = body as { statusCode?: unknown; statusMessage?: unknown; headers?: Record<string, unknown>; req?: { getHeaders?: () => Record<string, unknown> } };
	const status = Number(stream.statusCode ?? candidate.httpCode);
	if (!Number.isFinite(status)) return undefined;
	// n8n 1 words the description as axios words its error: "Request failed with status code 400".
	const words = typeof candidate.description === 'string' ? candidate.description : `Request failed with status code ${status}`;
	const failed = Object.assign(new Error(words), {
		status,
		response: { status, statusText: typeof stream.statusMessage === 'string' ? stream.statusMessage : undefined, headers: stream.headers, data: body },
		config: { headers: typeof stream.req?.getHeaders === 'function' ? stream.req.getHeaders() : {} },
	});
	failed.name = 'AxiosError';
	return failed;
}

/**
 * The error of a failed request built again from its answer's body, read once here for every
 * caller, as n8n builds it from a JSON body: the service's own words (a 400's "JSON parse error:
 * …", a 422's item errors) in its message and description, and the answer's status and headers in
 * its cause, whichever n8n version (see failedRequestOf) and whatever form the body came in.
 */
async function withErrorBodyRead(node: INode, error: unknown): Promise<unknown> {
	const failed = failedRequestOf(error);
	if (!failed) return error;
	const body = failed.response.data;
	const bytes = isByteStream(body) ? await readAtMost(body, MAX_ERROR_BODY_BYTES, false, ERROR_BODY_TIMEOUT_MS).catch(() => Buffer.alloc(0)) : body;
	failed.response.data = jsonOrText(bytes);
	const status = failed.response.status;
	const rebuilt = serviceError(node, failed as unknown as JsonObject, status === undefined ? {} : { httpCode: String(status) });
	// n8n 1 drops an Error cause again: the request policy reads the status and Retry-After from it.
	if (rebuilt.cause === undefined) Object.defineProperty(rebuilt, 'cause', { value: failed, enumerable: false, writable: true, configurable: true });
	return rebuilt;
}

/** Bytes or text as axios gives an answer when JSON is expected: JSON when it is JSON (an error page may not be); undefined when empty. */
export function jsonOrText(body: unknown): unknown {
	if (!Buffer.isBuffer(body) && typeof body !== 'string') return body;
	const text = body.toString();
	if (text.trim() === '') return undefined;
	try {
		return JSON.parse(text);
	} catch {
		return text;
	}
}

// ─── Pagination ──────────────────────────────────────────────────────────────────────────────────────
/**
 * What RoutingNode hands each item's requests to (`routing.operations.pagination`): one request,
 * pages, id chunks, body chunks or date windows, each sent with `sendRequest`. The requests of one
 * item overlap, up to the group's in-flight allowance, and their results are merged in request
 * order: over a real network a 40-page Return All takes 9 s instead of 40.
 */
/*
 * With On Error = Stop, an invalid item holds back every item of the node run (why and how:
 * docs/architecture.md; RoutingNode's `runNode` starts all items in one synchronous loop, n8n 1.123
 * to 2.41). A held-back item resolves with no results, so the first rejection is the invalid one's.
 */
const runsWithInvalidItems = new WeakSet<object>();
const runningChecks = new WeakMap<object, Set<Promise<unknown>>>();

/** The node run an item belongs to: the same object for every item of one run. */
export function runOf(ctx: object): object | undefined {
	const { getExecuteData } = ctx as Partial<Pick<IExecuteSingleFunctions, 'getExecuteData'>>;
	const executeData = getExecuteData?.call(ctx) as unknown;
	return executeData && typeof executeData === 'object' ? executeData : undefined;
}

/** Wraps a preSend so that its failure is known to the other items of the run. */
export function recordingInputFailures(preSend: PreSendAction): PreSendAction {
	return async function (this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
		const run = runOf(this);
		// Called inside an async function so that a preSend throwing at once is a rejection too.
		const check = (async () => await preSend.call(this, requestOptions))();
		const running = run ? runningChecks.get(run) ?? new Set<Promise<unknown>>() : undefined;
		if (run && running) runningChecks.set(run, running.add(check));
		try {
			return await check;
		} catch (error) {
			if (run) runsWithInvalidItems.add(run);
			throw error instanceof NodeOperationError || error instanceof NodeApiError ? error : nodeError(this.getNode(), error as Error);
		} finally {
			running?.delete(check);
		}
	};
}

async function mayBeSent(ctx: IExecutePaginationFunctions): Promise<boolean> {
	await Promise.resolve();
	const run = runOf(ctx);
	const running = run ? runningChecks.get(run) : undefined;
	while (running && running.size > 0) await Promise.allSettled([...running]);
	return !(run && runsWithInvalidItems.has(run) && !ctx.continueOnFail());
}

/** An operation's strategy: how one item's request (with the operation's route) becomes requests. */
export type PaginationFunction = (this: IExecutePaginationFunctions, requestData: RequestData) => Promise<INodeExecutionData[]>;

const MAX_REQUESTS_PER_ITEM = 10_000;

/** RoutingNode passes an item's results to one `Array.push(...)`, which overflows the stack above ~130,000. */
const MAX_ITEMS_PER_INPUT_ITEM = 100_000;

function assertWithinItemCap(ctx: IExecutePaginationFunctions, count: number): void {
	if (count <= MAX_ITEMS_PER_INPUT_ITEM) return;
	const message = `More than ${MAX_ITEMS_PER_INPUT_ITEM.toLocaleString('en-US')} results for one input item (item ${ctx.getItemIndex()})`;
	throw nodeError(ctx.getNode(), message, {
		itemIndex: ctx.getItemIndex(),
		description:
			'n8n cannot return more items from one input item. Narrow the request (e.g. the Modified After filter or a shorter date range), or split it over several input items.',
	});
}

/** Every output item points at its input item: n8n fills `pairedItem` only when the counts match. */
export function forInputItem(strategy: PaginationFunction, route: Route) {
	return async function (this: IExecutePaginationFunctions, resultOptions: DeclarativeRestApiSettings.ResultOptions) {
		if (!(await mayBeSent(this))) return [];
		const items = await strategy.call(this, { ...resultOptions, route });
		assertWithinItemCap(this, items.length);
		const pairedItem = { item: this.getItemIndex() };
		for (const item of items) item.pairedItem ??= pairedItem;
		return items;
	};
}

export function resultLimit(ctx: IExecutePaginationFunctions): number {
	if (ctx.getNodeParameter('returnAll', false) as boolean) return Infinity;
	return readLimit(ctx, 'Limit', ctx.getNodeParameter('limit', 50));
}

type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

async function settle<T>(promise: Promise<T>): Promise<Settled<T>> {
	return await promise.then<Settled<T>, Settled<T>>((value) => ({ ok: true, value }), (error: unknown) => ({ ok: false, error }));
}

/**
 * Runs up to `count` requests with at most `width` outstanding and hands each result to `take` in
 * index order. `take` returns false to stop: requests not yet let through by the gate are dropped
 * unsent (`wanted` turns false), those sent are ignored. The first error (in order) is thrown.
 */
async function inOrder<T>(
	count: number,
	width: number,
	run: (index: number, wanted: () => boolean) => Promise<T>,
	take: (result: T, index: number) => boolean | void,
): Promise<void> {
	let stopped = false;
	const wanted = () => !stopped;
	const pending = new Map<number, Promise<Settled<T>>>();
	let next = 0;
	try {
		for (let index = 0; index < count; index++) {
			for (; next < count && next < index + width; next++) pending.set(next, settle(run(next, wanted)));
			const outcome = (await pending.get(index)) as Settled<T>;
			pending.delete(index);
			if (!outcome.ok) throw outcome.error;
			if (take(outcome.value, index) === false) return;
		}
	} finally {
		stopped = true;
	}
}

function widthFor(requestData: RequestData): number {
	return RATE_LIMITS[requestData.route.group].inFlight;
}

/** Every page until a short one (or `limit` results); pages go out ahead, up to `width`: at most `width - 1` past the last. */
export async function readAllPages<T>(
	pageSize: number,
	width: number,
	fetchPage: (page: number, wanted: () => boolean) => Promise<T[]>,
	onPage?: (count: number) => void,
	limit = Infinity,
): Promise<T[]> {
	const results: T[] = [];
	await inOrder(Math.min(MAX_REQUESTS_PER_ITEM, Math.ceil(limit / pageSize)), width, fetchPage, (pageItems) => {
		for (const item of pageItems) results.push(item);
		onPage?.(results.length);
		return pageItems.length === pageSize && results.length < limit;
	});
	return results.length > limit ? results.slice(0, limit) : results;
}

/** Pages through a list as `readAllPages` does; under a Limit, in as few pages as it needs. */
export function pageThrough(maxPageSize: number): PaginationFunction {
	return async function (this: IExecutePaginationFunctions, requestData: RequestData) {
		const limit = resultLimit(this);
		const size = limit === Infinity ? maxPageSize : Math.ceil(limit / Math.ceil(limit / maxPageSize));
		const fetchPage = async (page: number, wanted: () => boolean) =>
			await sendRequest(this, requestData, { qs: { ...requestData.options.qs, page, size } }, wanted);
		return await readAllPages(size, widthFor(requestData), fetchPage, (count) => assertWithinItemCap(this, count), limit);
	};
}

/**
 * One request per query (merged into the item's), up to `width` at once, each answer handed to `take`
 * in order (false stops). With `notFoundIsEmpty` a 404 gives no items: the first is returned.
 */
async function sendEachQuery(
	ctx: IExecutePaginationFunctions,
	requestData: RequestData,
	queries: IDataObject[],
	width: number,
	notFoundIsEmpty: boolean | undefined,
	take: (items: INodeExecutionData[], index: number) => boolean | void,
): Promise<unknown> {
	let notFound: unknown;
	const send = async (index: number, wanted: () => boolean) => {
		try {
			return await sendRequest(ctx, requestData, { qs: { ...requestData.options.qs, ...queries[index] } }, wanted);
		} catch (error) {
			// "Nothing found" for its part, as the service answers.
			if (!notFoundIsEmpty || statusOf(error) !== 404) throw asNodeError(ctx.getNode(), error);
			notFound ??= error;
			return [];
		}
	};
	await inOrder(queries.length, width, send, take);
	return notFound;
}

/**
 * Sends a comma-separated id list in requests of at most `maxIds` ids. With `notFoundIsEmpty`, a
 * chunk answered 404 gives no items; the item fails only when every chunk is, as one request would.
 */
export function splitQueryList(parameter: string, maxIds: number, options: { notFoundIsEmpty?: boolean } = {}): PaginationFunction {
	return async function (this: IExecutePaginationFunctions, requestData: RequestData) {
		const ids = toList((requestData.options.qs as IDataObject)[parameter]);
		const queries = chunkBySize(ids, maxIds, Infinity).slice(0, MAX_REQUESTS_PER_ITEM).map((chunk) => ({ [parameter]: chunk.join(',') }));
		const results: INodeExecutionData[] = [];
		// One push per item: a spread of a long answer would overflow the stack (MAX_ITEMS_PER_INPUT_ITEM).
		const notFound = await sendEachQuery(this, requestData, queries, widthFor(requestData), options.notFoundIsEmpty, (items) => {
			for (const item of items) results.push(item);
		});
		if (results.length === 0 && notFound !== undefined) throw asNodeError(this.getNode(), notFound);
		return results;
	};
}

/**
 * Splits a list into consecutive chunks of at most `maxItems` entries and `maxBytes` of JSON: give
 * it what is sent (the bodies), not objects that carry more, or the chunks are cut too early.
 */
export function chunkBySize<T>(list: T[], maxItems: number, maxBytes: number): T[][] {
	const chunks: T[][] = [];
	let current: T[] = [];
	let currentBytes = 2;
	for (const entry of list) {
		const bytes = Buffer.byteLength(JSON.stringify(entry)) + 1;
		if (current.length > 0 && (current.length >= maxItems || currentBytes + bytes > maxBytes)) {
			chunks.push(current);
			current = [];
			currentBytes = 2;
		}
		current.push(entry);
		currentBytes += bytes;
	}
	if (current.length > 0) chunks.push(current);
	return chunks;
}

/**
 * Sends every chunk, up to `width` at once (one by one when an id repeats across chunks, so that
 * the later entry wins), and gives each chunk's outcome in order. A failed chunk stops no other.
 */
export async function sendEachChunk<T, R>(
	chunks: T[][],
	width: number,
	send: (chunk: T[], index: number) => Promise<R>,
	idOf?: (entry: T) => string | undefined,
): Promise<Array<Settled<R>>> {
	const outcomes: Array<Settled<R>> = [];
	const inSequence = idOf === undefined || repeatsAcrossChunks(chunks, idOf);
	const sendChunk = async (index: number) => await settle(send(chunks[index], index));
	await inOrder(chunks.length, inSequence ? 1 : width, sendChunk, (outcome) => void outcomes.push(outcome));
	return outcomes;
}

function repeatsAcrossChunks<T>(chunks: T[][], idOf: (entry: T) => string | undefined): boolean {
	const chunkOfId = new Map<string, number>();
	for (const [index, entries] of chunks.entries()) {
		for (const entry of entries) {
			const id = idOf(entry);
			if (id === undefined) continue;
			if ((chunkOfId.get(id) ?? index) !== index) return true;
			chunkOfId.set(id, index);
		}
	}
	return false;
}

interface DateWindowSplit {
	idOf?: (item: INodeExecutionData) => string | undefined;
	notFoundIsEmpty?: boolean;
	onWindow?: (items: INodeExecutionData[], window: { from: Date; to: Date }) => INodeExecutionData[];
	limited?: boolean;
}

/**
 * Splits `dateFrom`..`dateTo` into windows the service accepts, merged without an item `idOf` names
 * twice; `onWindow` sees each window's items first (e.g. to name a file after the window). `limited`:
 * under a Limit they go one by one, none once the earlier hold enough (a window may hold thousands).
 */
export function splitDateRange(split: DateWindowSplit): PaginationFunction {
	return async function (this: IExecutePaginationFunctions, requestData: RequestData) {
		const qs = requestData.options.qs as IDataObject;
		const limit = split.limited ? resultLimit(this) : Infinity;
		const from = parseServiceTimestamp(qs.dateFrom);
		const to = parseServiceTimestamp(qs.dateTo);
		if (!from || !to) return (await sendRequest(this, requestData)).slice(0, limit);
		const windows = splitIntoWindows(from, to).slice(0, MAX_REQUESTS_PER_ITEM);
		const queries = windows.map((window) => ({ dateFrom: formatIsoUtc(window.from), dateTo: formatIsoUtc(window.to) }));
		const seen = new Set<string>();
		const results: INodeExecutionData[] = [];
		const width = limit === Infinity ? widthFor(requestData) : 1;
		await sendEachQuery(this, requestData, queries, width, split.notFoundIsEmpty, (answered, index) => {
			const windowItems = split.onWindow ? split.onWindow(answered, windows[index]) : answered;
			for (const item of windowItems) {
				const id = split.idOf?.(item);
				if (id !== undefined && seen.has(id)) continue;
				if (id !== undefined) seen.add(id);
				results.push(item);
			}
			return results.length < limit;
		});
		return results.length > limit ? results.slice(0, limit) : results;
	};
}

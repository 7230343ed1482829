/**
 * Every error of a request, worded once (docs/architecture.md "Request engine"): what a failed
 * request says (status, Retry-After, a cut connection), the words for each HTTP status wherever it
 * shows (the node, the trigger, the credential's token and Test), how a request or URL is named
 * (never its host's password), and the error the node shows and n8n stores, whose message,
 * description, service body (`context.data`) and `cause` carry no bearer token, client secret or API
 * key. A rejected user value is the one error built below: values.ts's `invalidInput` words it, as
 * send.ts reads the Request Options with values.ts.
 */
import { NodeApiError, NodeOperationError, type INode, type JsonObject } from 'n8n-workflow';

import { isPlainObject } from '../values/labels';

/** Longest single wait, whatever Retry-After says. */
export const MAX_WAIT_MS = 120_000;

type ErrorResponse = { status?: number; headers?: Record<string, unknown> };

/** The HTTP answer behind an error of n8n's request helpers (NodeApiError or axios-like). */
export function responseOf(error: unknown): ErrorResponse {
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

/**
 * A refused credential, 401 and 403, in one table: what to do (`advice`, after the service's words
 * wherever a node shows them), what the token endpoint's refusal means (`token`) and the verdict of
 * the credential's Test on the API's (`test`).
 */
const CREDENTIAL_REFUSED: Record<401 | 403, { advice: string; token: string; test: string }> = {
	401: {
		advice: 'Check the Client ID and Client Secret, and that they belong to the environment of the Base URL (production and staging credentials differ).',
		token: 'the client ID or client secret was rejected',
		test: 'The access token was rejected (HTTP 401): check the Client ID and Client Secret',
	},
	403: {
		advice: "The client has no permission for this: check the API Key and the client's permissions in the merchant portal.",
		token: 'the token request was forbidden',
		test: 'The client has no permission for the merchant API (HTTP 403)',
	},
};

function isRefusal(status: number | undefined): status is 401 | 403 {
	return status === 401 || status === 403;
}

export function credentialAdvice(status: number | undefined): string | undefined {
	return isRefusal(status) ? CREDENTIAL_REFUSED[status].advice : undefined;
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

export function isCutOff(error: unknown): boolean {
	return CUT_OFF_CODES.has(errorCodeOf(error) ?? '');
}

/** Whether the request ended because its timeout passed (axios says ECONNABORTED or ETIMEDOUT and "timeout"). */
export function isTimeout(error: unknown): boolean {
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

/**
 * Set on an error that came before its request went out (outcomes.ts: the credential's token request
 * failed): a property, not a class, as the credential's bundle and the node's each have their own.
 */
export const NOT_SENT = 'marketplaceRequestNotSent';

/** The cause without the axios error (it holds the request's headers and body), keeping what the policy and outcomes.ts read. */
function safeCause(cause: unknown, secrets: string[]): Error | undefined {
	if (!(cause instanceof Error)) return undefined;
	const safe = new Error(redactText(cause.message, secrets));
	safe.name = cause.name;
	if ((cause as unknown as Record<string, unknown>)[NOT_SENT] === true) Object.assign(safe, { [NOT_SENT]: true });
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
 * The service's Serbian messages whose meaning is known (platform facts, the pages, issue 39), in lower case: a message
 * stays as the service wrote it (a merchant may quote it to support), its English meaning beside it; unknown ones pass.
 */
const SERBIAN_MESSAGES: Record<string, string> = {
	'proizvod ne postoji': 'product does not exist',
	'pošiljka nije u odgovarajućem statusu': 'the shipment is not in the right status',
};

/** The English meaning of the first known Serbian message in `text`, or undefined. */
export function englishMeaningOf(text: string): string | undefined {
	return Object.entries(SERBIAN_MESSAGES).find(([serbian]) => text.toLowerCase().includes(serbian))?.[1];
}

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
 * A URL as a message shows it, never a secret it carries: `path` keeps its path and query (a
 * request's label: a Base URL's host part may carry a password), `site` all but a user name and
 * password (a Base URL or token endpoint as the user entered it), `none` nothing (a pre-signed
 * link: its query is the signature that opens the document).
 */
export function shownUrl(url: string, keep: 'path' | 'site' | 'none'): string {
	if (keep === 'none') return '<link>';
	if (keep === 'path') {
		// A path that is not a URL stays as it is.
		const parsed = URL.canParse(url, 'http://base.invalid') ? new URL(url, 'http://base.invalid') : undefined;
		return parsed ? `${parsed.pathname}${parsed.search}` : url;
	}
	if (!URL.canParse(url)) return url;
	const parsed = new URL(url);
	parsed.username = '';
	parsed.password = '';
	return parsed.toString().replace(/\/+$/, '');
}

/** `text` with every link in it shown as `shownUrl(…, 'none')`: the errors of a download name the pre-signed link. */
export function withoutLinks(text: string | undefined): string | undefined {
	return text?.replace(/https?:\/\/\S+/g, (url) => shownUrl(url, 'none'));
}

/** How a request is named in errors: its method, path and query, never the host. */
export function requestLabel(method: unknown, url = '', qs?: unknown): string {
	const path = shownUrl(url, 'path');
	const query =
		isPlainObject(qs) && Object.keys(qs).length > 0
			? `${path.includes('?') ? '&' : '?'}${new URLSearchParams(Object.entries(qs).map(([key, value]): [string, string] => [key, String(value)])).toString()}`
			: '';
	const label = `${String(method ?? 'GET').toUpperCase()} ${path}${query}`;
	return label.length > 300 ? `${label.slice(0, 300)}…` : label;
}

/** The service's "nothing found": a 404 of a list or links endpoint stands for no items, wherever it is read. */
export function isNothingFound(error: unknown): boolean {
	return statusOf(error) === 404;
}

/** `empty` for the service's "nothing found" (`isNothingFound`); any other failure thrown as the node's error. */
export function emptyIfNothingFound<T>(node: INode, error: unknown, empty: T): T {
	if (isNothingFound(error)) return empty;
	throw asNodeError(node, error);
}

/**
 * The most one answer, and all answers being read at once (RoutingNode starts every item at once),
 * may hold inflated. The largest legitimate answers (2,500 basic products) are a small part of it.
 */
export const MAX_ANSWER_BYTES = 256 * 1024 * 1024;
export const MIB = 1024 * 1024;

/** `alone`: whether this answer was over the cap by itself. */
export class AnswerTooLarge extends Error {
	constructor(readonly readBytes: number, readonly alone: boolean) {
		super(`answer stopped after ${readBytes} bytes`);
	}
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

/** An error's message and description, as a node error or the credential's UserError takes them. */
export type ErrorWords = { message: string; description: string };

/** Which host of the credential answered: its Base URL or its Service Host URL. */
export type HostName = 'base' | 'service';

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


/** The service's own message in an answer's body, if it has one. */
export function serverMessage(body: unknown): string | undefined {
	const message = (body as { message?: unknown } | null | undefined)?.message;
	return typeof message === 'string' ? message : undefined;
}

/** A request of no node (the credential's) the service kept refusing (429, 5xx); `who`: its answerer as the message names it. */
export function unavailableMessage(who: string, status: number): string {
	return `The ${who} is unavailable (HTTP ${status}): try again later`;
}

/**
 * The token endpoint's answer other than 2xx, worded for the credential (no node: n8n shows the
 * message as is). `description`: what the endpoint said; `attempts`: how often it was asked.
 */
export function tokenStatusWords(status: number, tokenUrl: string, description: string, attempts: number): ErrorWords {
	if (isRefusal(status)) {
		const { token, advice } = CREDENTIAL_REFUSED[status];
		const message = `Authentication failed: ${token} (HTTP ${status} from the token endpoint)`;
		return { message, description: `${description}. ${advice}` };
	}
	if (status === 404 || status === 405) {
		return {
			message: `Token endpoint not found (HTTP ${status}): check the Base URL`,
			description: `${tokenUrl} does not exist. The Base URL should be the root of the merchant API, for example https://api.example-marketplace.com, without any path.`,
		};
	}
	if (status === 429 || status >= 500) {
		const sent = `The token request was sent ${attempts} time${attempts === 1 ? '' : 's'}.`;
		return { message: unavailableMessage('token endpoint', status), description: `${description}. ${sent}` };
	}
	return { message: `The token request failed (HTTP ${status})`, description };
}

/** The credential Test's verdict on an API answer other than 2xx (a host that does not serve warehouses: notServedText). */
export function testStatusWords(status: number, detail: string | undefined): string {
	if (isRefusal(status)) return CREDENTIAL_REFUSED[status].test;
	return `The merchant API answered HTTP ${status}${detail ? `: ${detail}` : ''}`;
}

/** Why a pre-signed link's download failed, in the words of its status (links expire), never naming the link. */
export function downloadFailureDescription(error: unknown): string | undefined {
	const status = statusOf(error);
	return status === 403 || status === 410
		? 'Document links expire about 10 minutes after they are issued: fetch the links again and download them at once'
		: withoutLinks((error as Error).message);
}

const RATE_LIMIT_ADVICE =
	"Other workflows or integrations may be using this merchant account's rate limits too: set Request Options › Requests per Minute lower, or run the workflow later.";

/** After a request's own attempts: how long the service has refused every request of the gate with 429. */
export function refusingText(refusingForMs: number): string {
	return `The service has answered this merchant account's requests of this kind only with 429 for ${Math.round(refusingForMs / 1000)} s. ${RATE_LIMIT_ADVICE}`;
}

/** A request that gave up unsent (policy.ts, RefusedTooLong) after `budgetMs` of 429s; `own`: what its own attempts met. */
export function refusedTooLongText(refusedForMs: number, budgetMs: number, own: string): ErrorWords {
	return {
		message: 'The service is receiving too many requests from you (HTTP 429): the node gave up',
		description: `The service answered only 429 (Too Many Requests) to this merchant account's requests of this kind for ${Math.round(refusedForMs / 1000)} s, and would not take one more within the ${Math.round(budgetMs / 1000)} s one request may spend retrying.${own} ${RATE_LIMIT_ADVICE}`,
	};
}

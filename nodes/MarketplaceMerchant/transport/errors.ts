/**
 * The one place errors are built: what a failed request says (status, Retry-After, a cut
 * connection) and the error the node shows and n8n stores, whose message, description, service
 * body (`context.data`) and `cause` carry no bearer token, client secret or API key.
 */
import { NodeApiError, NodeOperationError, type INode, type JsonObject } from 'n8n-workflow';

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

/**
 * Secrets out of everything the node shows or stores. A service may echo the request's
 * Authorization header, its API key or the token request's body in an error of its own; n8n
 * keeps an error's message, description, `context` and `cause` in the execution data.
 */

const REDACTED = '***';

/** Shorter values are not replaced: a one-letter "secret" would mangle every message. */
const MIN_SECRET_LENGTH = 4;

/** A bearer token in any text, whatever the service's own quoting around it. */
const BEARER = /\b(Bearer\s+)[A-Za-z0-9\-._~+/]+=*/gi;

/** The values to hide, without duplicates, longest first (a secret may contain another). */
export function secretList(values: unknown[]): string[] {
	const texts = values
		.filter((value): value is string => typeof value === 'string')
		.map((value) => value.trim())
		.filter((value) => value.length >= MIN_SECRET_LENGTH);
	return [...new Set(texts)].sort((a, b) => b.length - a.length);
}

/** The bearer token of an Authorization header value (`Bearer abc` → `abc`), or the value itself. */
export function tokenOfAuthorization(value: unknown): string | undefined {
	if (typeof value !== 'string') return undefined;
	return /^\s*Bearer\s+(\S+)\s*$/i.exec(value)?.[1] ?? value;
}

export function redactText(text: string, secrets: string[]): string {
	let result = text.replace(BEARER, `$1${REDACTED}`);
	for (const secret of secrets) result = result.split(secret).join(REDACTED);
	return result;
}

/** A copy of plain data (objects, arrays, strings) with every string redacted; cycles end in `[Circular]`. */
export function redactData(value: unknown, secrets: string[], seen = new WeakSet<object>()): unknown {
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

/* eslint-disable @n8n/community-nodes/no-restricted-imports -- sandbox code (the service twin tests and the bench run) and never loaded by n8n: it may use Node modules (docs/architecture.md, Toolchain). */
/** HTTP plumbing shared by the routes: errors, request bodies, query parameters. */
import type { IncomingMessage } from 'node:http';
import { parseXmlBody } from './xml';

/** Request bodies above this are refused with 413 (the live limit is "about 5 MiB"). */
export const MAX_BODY_BYTES = 5 * 1024 * 1024;

/** An answer with `{"message"}` and a status; thrown by routes. */
export class HttpError extends Error {
	constructor(
		readonly status: number,
		message: string,
		readonly headers: Record<string, string> = {},
	) {
		super(message);
	}
}

export function badRequest(message: string): HttpError {
	return new HttpError(400, message);
}

export function notFound(message: string): HttpError {
	return new HttpError(404, message);
}

export interface RequestBody {
	bytes: number;
	/** The text; undefined when over MAX_BODY_BYTES. */
	text: string | undefined;
	format: 'none' | 'json' | 'xml';
	/** Parsed value; undefined when empty, too large or malformed (see `error`). */
	value: unknown;
	error?: string;
}

export function isXmlContentType(contentType: string | undefined): boolean {
	return /\b(application|text)\/([\w.+-]*\+)?xml\b/i.test(contentType ?? '');
}

/** Reads the whole body, counting every byte but keeping at most MAX_BODY_BYTES. */
export async function readBody(request: IncomingMessage): Promise<RequestBody> {
	const chunks: Buffer[] = [];
	let bytes = 0;
	for await (const chunk of request as AsyncIterable<Buffer>) {
		bytes += chunk.length;
		if (bytes <= MAX_BODY_BYTES) chunks.push(chunk);
	}
	if (bytes > MAX_BODY_BYTES) return { bytes, text: undefined, format: 'none', value: undefined };
	const text = Buffer.concat(chunks).toString('utf8');
	if (text.trim() === '') return { bytes, text, format: 'none', value: undefined };
	if (isXmlContentType(request.headers['content-type'])) {
		try {
			return { bytes, text, format: 'xml', value: parseXmlBody(text) };
		} catch (error) {
			return { bytes, text, format: 'xml', value: undefined, error: `Malformed XML body: ${(error as Error).message}` };
		}
	}
	try {
		return { bytes, text, format: 'json', value: JSON.parse(text) };
	} catch {
		return { bytes, text, format: 'json', value: undefined, error: 'Malformed JSON body' };
	}
}

/** The parsed body; 400 when it is missing or malformed. */
export function requireBody(body: RequestBody): unknown {
	if (body.error) throw badRequest(body.error);
	if (body.format === 'none') throw badRequest('Request body is required');
	return body.value;
}

/** All values of a list parameter, whether comma-separated, repeated, or both. */
export function listParam(query: URLSearchParams, name: string): string[] {
	return query
		.getAll(name)
		.flatMap((value) => value.split(','))
		.map((value) => value.trim())
		.filter((value) => value !== '');
}

/** A non-negative integer parameter, or the fallback when absent. */
export function integerParam(query: URLSearchParams, name: string, fallback: number, min: number, max: number): number {
	const raw = query.get(name);
	if (raw === null || raw === '') return fallback;
	if (!/^\d+$/.test(raw)) throw badRequest(`${name} must be an integer`);
	const value = Number(raw);
	if (value < min || value > max) throw badRequest(`${name} must be between ${min} and ${max}`);
	return value;
}

/** Query as a plain object for the log; repeated values joined with commas. */
export function queryObject(query: URLSearchParams): Record<string, string> {
	const result: Record<string, string> = {};
	for (const key of new Set(query.keys())) result[key] = query.getAll(key).join(',');
	return result;
}

/** Whether the client asks for XML rather than JSON (first of the two named in Accept wins). */
export function wantsXml(accept: string | undefined): boolean {
	if (!accept) return false;
	const types = accept.split(',').map((part) => part.split(';')[0].trim().toLowerCase());
	const xml = types.findIndex((type) => type === 'application/xml' || type === 'text/xml');
	const json = types.findIndex((type) => type === 'application/json');
	return xml >= 0 && (json < 0 || xml < json);
}

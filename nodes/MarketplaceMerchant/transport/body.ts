/**
 * An answer's body, read within its cap. n8n hands axios `maxContentLength: Infinity` and inflates
 * gzip without limit, so a gzip bomb would grow the process until killed: every request asks for a
 * stream (`encoding: 'stream'`, send.ts), read here counting the inflated bytes; past the cap the
 * connection is closed and the request fails with a clear error. A failed request's body is read
 * back here too (1 MiB), so that its error carries the service's own words.
 */
import type { INode, JsonObject } from 'n8n-workflow';

import { AnswerTooLarge, MAX_ANSWER_BYTES, MIB, answerTooLargeText, nodeError, serviceError } from './errors';
import { processWide } from './state';

/** Inflated bytes of all answers being read in the process, against MAX_ANSWER_BYTES. */
const answersBeingRead = processWide('answersBeingRead', () => ({ bytes: 0 }));
/** An error answer is read only for its message. */
const MAX_ERROR_BODY_BYTES = MIB;
const ERROR_BODY_TIMEOUT_MS = 10_000;

export const STREAMED_ANSWER = { encoding: 'stream' } as const;

type ByteStream = AsyncIterable<Buffer> & { destroy(error?: Error): void };

function isByteStream(value: unknown): value is ByteStream {
	const stream = value as Partial<ByteStream> | null | undefined;
	return typeof value === 'object' && typeof stream?.destroy === 'function' && typeof stream[Symbol.asyncIterator] === 'function';
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

/** A streamed body's bytes, any other body as it is; throws as `readAtMost` does (shared/credential.ts words it). */
export async function readCappedBody(body: unknown, timeoutMs: number): Promise<unknown> {
	return isByteStream(body) ? await readAtMost(body, MAX_ANSWER_BYTES, true, timeoutMs) : body;
}


export async function readBodyWithinCap(node: INode, body: unknown, timeoutMs: number): Promise<unknown> {
	try {
		return await readCappedBody(body, timeoutMs);
	} catch (error) {
		const tooLarge = answerTooLargeText(error);
		// A connection cut mid-answer keeps its code (ECONNRESET, …) in the cause: it is retried as such.
		throw tooLarge ? nodeError(node, tooLarge.message, { description: tooLarge.description }) : serviceError(node, error as JsonObject);
	}
}


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
export async function withErrorBodyRead(node: INode, error: unknown): Promise<unknown> {
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

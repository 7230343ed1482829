/**
 * Bounded answers. n8n's request helpers hand axios `maxContentLength: Infinity` and inflate gzip
 * answers without limit, so a gzip bomb or an endless body would grow the n8n process until it
 * is killed. Every request of the node and the trigger therefore asks for the answer as a stream
 * (`encoding: 'stream'`, inflated by axios as it arrives) and reads it here, counting the
 * inflated bytes: past the cap the connection is closed and that request fails with a clear error,
 * having held at most the cap in memory.
 */
import {
	type IExecuteSingleFunctions,
	type IN8nHttpFullResponse,
	type INode,
	type INodeExecutionData,
	type JsonObject,
} from 'n8n-workflow';

import { nodeError, serviceError } from './errors';
import { requestTimeoutMs } from './requestSettings';

/**
 * The largest answer read (inflated), and the most all answers being read at once in this process
 * may hold together: RoutingNode starts every item's request at once, so five hostile answers
 * would otherwise hold five times the cap. The largest legitimate answers (a page of 2,500 basic
 * products, a window of invoices) are a small part of it.
 */
const MAX_ANSWER_BYTES = 256 * 1024 * 1024;

/** Bytes held by answers being read right now, in this process. */
let bytesBeingRead = 0;

/** An error answer is read only for its message. */
const MAX_ERROR_BODY_BYTES = 1024 * 1024;

const MIB = 1024 * 1024;

/** How long an error answer's body may take: it is only read for its message. */
const ERROR_BODY_TIMEOUT_MS = 10_000;

/** Request options that make n8n hand over the answer as a stream (see the file comment). */
export const STREAMED_ANSWER = { encoding: 'stream' } as const;

type ByteStream = AsyncIterable<Buffer> & { destroy(error?: Error): void };

function isByteStream(value: unknown): value is ByteStream {
	return (
		!!value &&
		typeof value === 'object' &&
		typeof (value as { destroy?: unknown }).destroy === 'function' &&
		typeof (value as AsyncIterable<Buffer>)[Symbol.asyncIterator] === 'function'
	);
}

class AnswerTooLarge extends Error {
	/** `readBytes`: what this answer had when it was stopped; `alone`: whether it was over the cap by itself. */
	constructor(
		readonly readBytes: number,
		readonly alone: boolean,
	) {
		super(`answer stopped after ${readBytes} bytes`);
	}
}

/**
 * An answer whose bytes trickle in: the socket's idle timeout never fires, so the reader keeps
 * its own deadline. Shaped as axios's timeout error (code and message), so that the retry policy
 * treats it as one.
 */
function slowAnswerError(timeoutMs: number): Error {
	return Object.assign(new Error(`timeout of ${timeoutMs}ms exceeded while the answer arrived`), { code: 'ECONNABORTED' });
}

/**
 * The whole body, at most `limitBytes`, within `timeoutMs` from now (when given), and (when
 * `shared`) only while all answers being read together stay within MAX_ANSWER_BYTES. Leaving the
 * loop early destroys the stream, which closes the connection: the rest is never inflated.
 */
async function readAtMost(stream: ByteStream, limitBytes: number, shared: boolean, timeoutMs?: number): Promise<Buffer> {
	const deadline = timeoutMs === undefined ? Infinity : Date.now() + timeoutMs;
	const chunks: Buffer[] = [];
	let total = 0;
	try {
		for await (const chunk of stream) {
			if (Date.now() > deadline) {
				stream.destroy();
				throw slowAnswerError(timeoutMs ?? 0);
			}
			total += chunk.length;
			if (shared) bytesBeingRead += chunk.length;
			if (total > limitBytes || (shared && bytesBeingRead > MAX_ANSWER_BYTES)) {
				stream.destroy();
				throw new AnswerTooLarge(total, total > limitBytes);
			}
			chunks.push(chunk);
		}
	} finally {
		if (shared) bytesBeingRead -= total;
	}
	return Buffer.concat(chunks, total);
}

/** What users are told about an answer stopped at the cap. */
function tooLargeText(stopped: AnswerTooLarge): { message: string; description: string } {
	const cap = `${MAX_ANSWER_BYTES / MIB} MiB`;
	return stopped.alone
		? {
				message: `The service's answer is larger than ${cap}: the request was stopped`,
				description: `Answers are read up to ${cap}, counted after inflating a compressed answer. An answer this large is not one the API sends: check the Base URL, or ask for smaller pages or date ranges.`,
			}
		: {
				message: `The service's answers being read at once are larger than ${cap} together: the request was stopped`,
				description: `This answer had ${Math.round(stopped.readBytes / MIB)} MiB when it was stopped. Answers are counted after inflating a compressed answer; answers this large are not ones the API sends: check the Base URL.`,
			};
}

/**
 * A streamed body's bytes (at most MAX_ANSWER_BYTES, arriving within `timeoutMs` once the answer
 * has begun); any other body as it is. For senders that are not a node (the credential's token
 * request): an answer over the cap throws an error whose message and description say so
 * (`answerTooLargeText`); a cut or slow answer throws the stream's error (code ECONNRESET, ECONNABORTED, …).
 */
export async function readCappedBody(body: unknown, timeoutMs: number): Promise<unknown> {
	if (!isByteStream(body)) return body;
	return await readAtMost(body, MAX_ANSWER_BYTES, true, timeoutMs);
}

/** What to tell users when `readCappedBody` stopped an answer at the cap; undefined for any other error. */
export function answerTooLargeText(error: unknown): { message: string; description: string } | undefined {
	return error instanceof AnswerTooLarge ? tooLargeText(error) : undefined;
}

/**
 * A streamed body's bytes (at most MAX_ANSWER_BYTES, arriving within `timeoutMs` once the answer
 * has begun); any other body as it is.
 */
export async function readBodyWithinCap(node: INode, body: unknown, timeoutMs: number): Promise<unknown> {
	try {
		return await readCappedBody(body, timeoutMs);
	} catch (error) {
		const tooLarge = answerTooLargeText(error);
		// A connection cut mid-answer keeps its code (ECONNRESET, …) in the cause: it is retried as such.
		throw tooLarge ? nodeError(node, tooLarge.message, { description: tooLarge.description }) : serviceError(node, error as JsonObject);
	}
}

/** Replaces a streamed body by its bytes (see `readBodyWithinCap`). */
export async function readStreamedBody(node: INode, response: IN8nHttpFullResponse, timeoutMs: number): Promise<void> {
	response.body = (await readBodyWithinCap(node, response.body, timeoutMs)) as IN8nHttpFullResponse['body'];
}

/**
 * The first postReceive action of every operation: reads the streamed answer into the response,
 * so the operation's own actions see its bytes as before.
 */
export async function readAnswerBody(
	this: IExecuteSingleFunctions,
	_items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	await readStreamedBody(this.getNode(), response, requestTimeoutMs(this));
	return [];
}

/**
 * An error answer's streamed body read (at most 1 MiB) and parsed, and the error built again from
 * it as n8n builds it from a JSON body (service message as description, body in `context.data`).
 * Errors without a streamed body are returned as they are.
 */
export async function withErrorBodyRead(node: INode, error: unknown): Promise<unknown> {
	const axiosError = (error as { cause?: { response?: { data?: unknown } } })?.cause;
	const response = axiosError?.response;
	if (!response || !isByteStream(response.data)) return error;
	let text: string;
	try {
		text = (await readAtMost(response.data, MAX_ERROR_BODY_BYTES, false, ERROR_BODY_TIMEOUT_MS)).toString('utf8');
	} catch {
		text = '';
	}
	response.data = jsonOrText(text);
	return serviceError(node, axiosError as JsonObject);
}

/** An answer's text as axios gives it when JSON is expected: parsed, or the text itself when it is not JSON; undefined when empty. */
export function jsonOrText(text: string): unknown {
	if (text.trim() === '') return undefined;
	try {
		return JSON.parse(text);
	} catch {
		return text;
	}
}

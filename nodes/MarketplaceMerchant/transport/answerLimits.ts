/**
 * Bounded answers. n8n's request helpers hand axios `maxContentLength: Infinity` and inflate gzip
 * answers without limit, so a gzip bomb or an endless body would grow the n8n process until it
 * is killed. Every request of the node and the trigger therefore asks for the answer as a stream
 * (`encoding: 'stream'`, inflated by axios as it arrives) and reads it here, counting the
 * inflated bytes: past the cap the connection is closed and that request fails with a clear error,
 * having held at most the cap in memory.
 */
import {
	NodeApiError,
	NodeOperationError,
	type IExecuteSingleFunctions,
	type IN8nHttpFullResponse,
	type INode,
	type INodeExecutionData,
	type JsonObject,
} from 'n8n-workflow';

/** The largest answer read (inflated). The largest legitimate answers (a page of 2,500 basic products, a month of invoices) are a small part of it. */
export const MAX_ANSWER_BYTES = 256 * 1024 * 1024;

/** An error answer is read only for its message. */
const MAX_ERROR_BODY_BYTES = 1024 * 1024;

const MIB = 1024 * 1024;

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
	constructor(readonly limitBytes: number) {
		super(`answer larger than ${limitBytes} bytes`);
	}
}

/**
 * The whole body, at most `limitBytes`. Leaving the loop early (too large) destroys the stream,
 * which closes the connection: the rest is never inflated.
 */
async function readAtMost(stream: ByteStream, limitBytes: number): Promise<Buffer> {
	const chunks: Buffer[] = [];
	let total = 0;
	for await (const chunk of stream) {
		total += chunk.length;
		if (total > limitBytes) {
			stream.destroy();
			throw new AnswerTooLarge(limitBytes);
		}
		chunks.push(chunk);
	}
	return Buffer.concat(chunks, total);
}

function tooLargeError(node: INode): NodeOperationError {
	return new NodeOperationError(node, `The service's answer is larger than ${MAX_ANSWER_BYTES / MIB} MiB: the request was stopped`, {
		description: `Answers are read up to ${MAX_ANSWER_BYTES / MIB} MiB, counted after inflating a compressed answer. An answer this large is not one the API sends: check the Base URL, or ask for smaller pages or date ranges.`,
	});
}

/** Replaces a streamed body by its bytes (at most MAX_ANSWER_BYTES); any other body is left as it is. */
export async function readStreamedBody(node: INode, response: IN8nHttpFullResponse): Promise<void> {
	if (!isByteStream(response.body)) return;
	try {
		response.body = await readAtMost(response.body, MAX_ANSWER_BYTES);
	} catch (error) {
		// A connection cut mid-answer keeps its code (ECONNRESET, …) in the cause: it is retried as such.
		throw error instanceof AnswerTooLarge ? tooLargeError(node) : new NodeApiError(node, error as JsonObject);
	}
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
	await readStreamedBody(this.getNode(), response);
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
		text = (await readAtMost(response.data, MAX_ERROR_BODY_BYTES)).toString('utf8');
	} catch {
		text = '';
	}
	try {
		response.data = text.trim() === '' ? undefined : JSON.parse(text);
	} catch {
		// As axios leaves a body that is not JSON.
		response.data = text;
	}
	return new NodeApiError(node, axiosError as JsonObject);
}

/**
 * Every request of the node and the trigger is sent here, under requestPolicy.ts (those of no
 * node: credential.ts's `sendForAnswer`). Answers are bounded: n8n hands axios `maxContentLength:
 * Infinity` and inflates gzip without limit, so a gzip bomb would grow the process until killed.
 * Every request asks for a stream (`encoding: 'stream'`), read here counting the inflated bytes:
 * past the cap the connection is closed and the request fails with a clear error.
 */
import type {
	DeclarativeRestApiSettings,
	FunctionsBase,
	IAllExecuteFunctions,
	IDataObject,
	IExecutePaginationFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INode,
	INodeExecutionData,
	JsonObject,
	RequestHelperFunctions,
} from 'n8n-workflow';

import { namingRequest, requestLabel, requestOfAnswer, type PostReceiveFunction } from '../answers/decode';
import type { EndpointGroup } from './endpoints';
import { nodeError, serviceError } from './errors';
import { DEFAULT_TIMEOUT_MS, sendWithPolicy } from './requestPolicy';
import { isBlank, readWholeNumber, type SettingsContext } from '../values/values';

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
}

export type RequestData = DeclarativeRestApiSettings.ResultOptions & { route: Route };

/** A request's policy, the credential read once (in n8n each read is a database read). */
async function policyOf(ctx: Pick<FunctionsBase, 'getCredentials' | 'getNode'>, route: Route, settings: SendSettings & { timeoutMs: number }) {
	const { baseUrl, clientId, clientSecret, apiKey, accessToken } = await ctx.getCredentials(CREDENTIAL_TYPE);
	const base = normalizeBaseUrl(baseUrl);
	// The token actually sent is read from the error itself.
	const secrets = [clientSecret, apiKey, accessToken];
	return { baseUrl: base, policy: { node: ctx.getNode(), merchantKey: merchantKeyOf(base, clientId), secrets, ...route, ...settings } };
}

/** Sends `requestData` with some options replaced (a page, a chunk, a window) and returns its items. */
export async function sendRequest(
	ctx: IExecutePaginationFunctions,
	requestData: RequestData,
	override: Partial<RequestData['options']> = {},
	wanted?: () => boolean,
): Promise<INodeExecutionData[]> {
	const options = { ...requestData.options, ...override, ...STREAMED_ANSWER };
	const { policy } = await policyOf(ctx, requestData.route, { ...sendSettingsOf(ctx), wanted });
	return await sendWithPolicy(policy, async (attemptTimeoutMs) => {
		try {
			// RoutingNode sets its own 5-minute timeout; the node's option replaces it.
			return await ctx.makeRoutingRequest({ ...requestData, options: { ...options, timeout: attemptTimeoutMs } });
		} catch (error) {
			// The operation's postReceive read the answer: an answer it could not read names this request.
			throw namingRequest(await withErrorBodyRead(ctx.getNode(), error), requestLabel(options.method, options.url, options.qs));
		}
	});
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
	const { baseUrl, policy } = await policyOf(ctx, route, { ...settings, timeoutMs });
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
let bytesBeingRead = 0;
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

/** The first postReceive action of every operation. */
export const readAnswerBody: PostReceiveFunction = async function (_items, response) {
	response.body = (await readBodyWithinCap(this.getNode(), response.body, sendSettingsOf(this).timeoutMs)) as IN8nHttpFullResponse['body'];
	return [];
};

/** An error with a streamed body built again from it, as n8n builds it from a JSON body. */
async function withErrorBodyRead(node: INode, error: unknown): Promise<unknown> {
	const axiosError = (error as { cause?: { response?: { data?: unknown } } })?.cause;
	const response = axiosError?.response;
	if (!response || !isByteStream(response.data)) return error;
	const bytes = await readAtMost(response.data, MAX_ERROR_BODY_BYTES, false, ERROR_BODY_TIMEOUT_MS).catch(() => Buffer.alloc(0));
	response.data = jsonOrText(bytes);
	return serviceError(node, axiosError as JsonObject);
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

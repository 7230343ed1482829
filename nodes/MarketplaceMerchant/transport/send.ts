/**
 * Every request of the node and the trigger goes through here, under the shared pacing and retry
 * policy (requestPolicy.ts): `sendRequest` for an operation's request (through RoutingNode:
 * token refresh on 401, the postReceive actions), `sendAuthenticated` outside routing (trigger,
 * editor, a preSend's lookup), `downloadPresigned` for a pre-signed link. Requests of no node
 * (token, credential test) go through token.ts's `sendForAnswer`, under the same policy.
 *
 * Answers are bounded: n8n hands axios `maxContentLength: Infinity` and inflates gzip without
 * limit, so a gzip bomb would grow the process until it is killed. Every request asks for the
 * answer as a stream (`encoding: 'stream'`) and reads it here, counting the inflated bytes: past
 * the cap the connection is closed and the request fails with a clear error.
 */
import type {
	DeclarativeRestApiSettings,
	FunctionsBase,
	IAllExecuteFunctions,
	IExecutePaginationFunctions,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INode,
	INodeExecutionData,
	JsonObject,
	RequestHelperFunctions,
} from 'n8n-workflow';

import { namingRequest, rememberRequest, requestLabel } from '../answers/decode';
import type { EndpointGroup } from './endpoints';
import { nodeError, serviceError } from './errors';
import { DEFAULT_TIMEOUT_MS, sendWithPolicy } from './requestPolicy';
import { isBlank, readWholeNumber, type ValueContext } from '../values/values';

export const CREDENTIAL_TYPE = 'marketplaceMerchantApi';

/** The base URL as requests use it: trimmed, without trailing slashes. */
export function normalizeBaseUrl(baseUrl: unknown): string {
	return String(baseUrl ?? '').trim().replace(/\/+$/, '');
}

/** `normalizeBaseUrl` again, as an expression: the node's request defaults are resolved by n8n, which cannot call code. */
export const BASE_URL_EXPRESSION = '={{ String($credentials.baseUrl ?? "").trim().replace(/\\/+$/, "") }}';

/** The account whose rate limits a request counts against: one per Base URL and client. */
export function merchantKeyOf(baseUrl: string, clientId: unknown): string {
	return `${baseUrl}|${String(clientId ?? '')}`;
}

/**
 * What the engine needs to know of a request, declared by its operation (never deduced from the
 * URL): its rate-limit group, and whether sending it twice is harmless (then a 502/504 or a cut
 * connection is retried).
 */
export interface Route {
	group: EndpointGroup;
	idempotent: boolean;
}

/** One item's request as RoutingNode hands it to a pagination function, with the operation's route. */
export type RequestData = DeclarativeRestApiSettings.ResultOptions & { route: Route };

type OptionsContext = ValueContext & { getNodeParameter(name: string, fallback?: unknown): unknown };

/** Request Options › Timeout (Seconds) in milliseconds (read here so that the engine never imports actions/). */
function requestTimeoutMs(ctx: OptionsContext): number {
	const seconds = ctx.getNodeParameter('requestOptions.timeoutSeconds', '');
	return isBlank(seconds) ? DEFAULT_TIMEOUT_MS : readWholeNumber(ctx, 'Request Options › Timeout (Seconds)', seconds, 1) * 1000;
}

function requestsPerMinuteOf(ctx: OptionsContext): number | undefined {
	const value = (ctx.getNodeParameter('requestOptions', {}) as { requestsPerMinute?: unknown }).requestsPerMinute;
	return isBlank(value) ? undefined : readWholeNumber(ctx, 'Request Options › Requests per Minute', value, 1);
}

interface CredentialValues {
	baseUrl?: string;
	clientId?: string;
	clientSecret?: string;
	apiKey?: string;
	accessToken?: string;
}

/** What a request needs from the credential, read once per request (in n8n each read is a database read). */
async function credentialContextOf(ctx: Pick<FunctionsBase, 'getCredentials'>) {
	const { baseUrl, clientId, clientSecret, apiKey, accessToken } = await ctx.getCredentials<CredentialValues>(CREDENTIAL_TYPE);
	const base = normalizeBaseUrl(baseUrl);
	// The token actually sent is read from the error itself.
	return { baseUrl: base, merchantKey: merchantKeyOf(base, clientId), secrets: [clientSecret, apiKey, accessToken] as unknown[] };
}

/**
 * Sends `requestData` with some options replaced (a page, a chunk, a window) and returns its
 * items. `wanted`, when given, is asked once the gate would let the request through: false drops
 * it unsent (RequestNotNeeded is thrown), e.g. for a page past the end of a list.
 */
export async function sendRequest(
	ctx: IExecutePaginationFunctions,
	requestData: RequestData,
	override: Partial<RequestData['options']> = {},
	wanted?: () => boolean,
): Promise<INodeExecutionData[]> {
	const timeoutMs = requestTimeoutMs(ctx);
	// RoutingNode sets its own 5-minute timeout; the node's option replaces it.
	const options = { ...requestData.options, ...override, ...STREAMED_ANSWER, timeout: timeoutMs };
	const { merchantKey, secrets } = await credentialContextOf(ctx);
	return await sendWithPolicy(
		{
			node: ctx.getNode(),
			merchantKey,
			...requestData.route,
			timeoutMs,
			secrets,
			perMinute: requestsPerMinuteOf(ctx),
			wanted,
		},
		async (attemptTimeoutMs) => {
			try {
				return await ctx.makeRoutingRequest({ ...requestData, options: { ...options, timeout: attemptTimeoutMs } });
			} catch (error) {
				// The operation's postReceive read the answer: an answer it could not read names this request.
				throw namingRequest(await withErrorBodyRead(ctx.getNode(), error), requestLabel(options.method, options.url, options.qs));
			}
		},
	);
}

/** The default for every operation: one request, paced and retried. */
export async function sendSingle(this: IExecutePaginationFunctions, requestData: RequestData): Promise<INodeExecutionData[]> {
	return await sendRequest(this, requestData);
}

/** A context `sendAuthenticated` works in: the trigger's, the editor's (list search, options) or a preSend's. */
export type AuthenticatedContext = IAllExecuteFunctions;

/** An item's Request Options, for an operation that sends outside routing (bulkRun.ts). */
export interface SendSettings {
	timeoutMs?: number;
	perMinute?: number;
	wanted?: () => boolean;
}

export function sendSettingsOf(ctx: OptionsContext): SendSettings {
	return { timeoutMs: requestTimeoutMs(ctx), perMinute: requestsPerMinuteOf(ctx) };
}

/**
 * One request with the credential's token (n8n renews it after a 401), outside an operation's
 * routing. A `url` that is a path is put after the credential's base URL. The answer comes back
 * whole (status, headers, body read within its cap); read it with `decodeAnswer` (decode.ts).
 */
export async function sendAuthenticated(
	ctx: AuthenticatedContext,
	route: Route,
	request: IHttpRequestOptions,
	settings: SendSettings = {},
): Promise<IN8nHttpFullResponse> {
	const { baseUrl, merchantKey, secrets } = await credentialContextOf(ctx);
	const url = /^https?:\/\//i.test(request.url) ? request.url : `${baseUrl}${request.url}`;
	const timeoutMs = settings.timeoutMs ?? request.timeout ?? DEFAULT_TIMEOUT_MS;
	const policy = { node: ctx.getNode(), merchantKey, ...route, timeoutMs, secrets, perMinute: settings.perMinute, wanted: settings.wanted };
	return await sendWithPolicy(policy, async (timeout) => {
		try {
			const answer = (await ctx.helpers.httpRequestWithAuthentication.call(ctx, CREDENTIAL_TYPE, {
				headers: { Accept: 'application/json' },
				...request,
				url,
				returnFullResponse: true,
				...STREAMED_ANSWER,
				timeout,
			})) as IN8nHttpFullResponse;
			answer.body = (await readBodyWithinCap(ctx.getNode(), answer.body, timeout)) as IN8nHttpFullResponse['body'];
			rememberRequest(answer, requestLabel(request.method, url, request.qs));
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

/**
 * The bytes behind a pre-signed link (no credentials: its signature grants access). Downloads
 * have their own gate per host, so they neither count against nor wait for the API's rate
 * limits, and are retried like any request that may be sent twice.
 */
export async function downloadPresigned(ctx: DownloadContext, url: string, timeoutMs: number): Promise<Buffer> {
	const body = await sendWithPolicy(
		{
			node: ctx.getNode(),
			merchantKey: `document-downloads|${new URL(url).origin}`,
			group: 'documentDownloads',
			idempotent: true,
			timeoutMs,
		},
		async (timeout) =>
			await readBodyWithinCap(
				ctx.getNode(),
				await ctx.helpers.httpRequest({ method: 'GET', url, ...STREAMED_ANSWER, json: false, timeout }),
				timeout,
			),
	);
	return Buffer.isBuffer(body) ? body : Buffer.from(body as ArrayBuffer);
}

/**
 * The largest answer read (inflated), and the most all answers being read at once in this process
 * may hold together: RoutingNode starts every item's request at once, so five hostile answers
 * would otherwise hold five times the cap. The largest legitimate answers (a page of 2,500 basic
 * products, a window of invoices) are a small part of it.
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
	return (
		!!value &&
		typeof value === 'object' &&
		typeof (value as { destroy?: unknown }).destroy === 'function' &&
		typeof (value as AsyncIterable<Buffer>)[Symbol.asyncIterator] === 'function'
	);
}

class AnswerTooLarge extends Error {
	/** `alone`: whether this answer was over the cap by itself. */
	constructor(
		readonly readBytes: number,
		readonly alone: boolean,
	) {
		super(`answer stopped after ${readBytes} bytes`);
	}
}

/**
 * The whole body, at most `limitBytes`, within `timeoutMs` from now (an answer that trickles in
 * never trips the socket's idle timeout), and (when `shared`) only while all answers being read
 * together stay within MAX_ANSWER_BYTES. Leaving the loop early destroys the stream, which
 * closes the connection: the rest is never inflated.
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

/**
 * A streamed body's bytes (within the cap and `timeoutMs`); any other body as it is. For senders
 * that are not a node (token.ts): a cut, slow or too large answer throws as it came; word the
 * last with `answerTooLargeText`.
 */
export async function readCappedBody(body: unknown, timeoutMs: number): Promise<unknown> {
	return isByteStream(body) ? await readAtMost(body, MAX_ANSWER_BYTES, true, timeoutMs) : body;
}

/** What to tell users when `readCappedBody` stopped an answer at the cap; undefined for any other error. */
export function answerTooLargeText(error: unknown): { message: string; description: string } | undefined {
	if (!(error instanceof AnswerTooLarge)) return undefined;
	const cap = `${MAX_ANSWER_BYTES / MIB} MiB`;
	return error.alone
		? {
				message: `The service's answer is larger than ${cap}: the request was stopped`,
				description: `Answers are read up to ${cap}, counted after inflating a compressed answer. An answer this large is not one the API sends: check the Base URL, or ask for smaller pages or date ranges.`,
			}
		: {
				message: `The service's answers being read at once are larger than ${cap} together: the request was stopped`,
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

/** The first postReceive action of every operation: the streamed answer read into the response for the actions after it. */
export async function readAnswerBody(
	this: IExecuteSingleFunctions,
	_items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	response.body = (await readBodyWithinCap(this.getNode(), response.body, requestTimeoutMs(this))) as IN8nHttpFullResponse['body'];
	return [];
}

/**
 * An error answer's streamed body read (at most 1 MiB) and parsed, and the error built again from
 * it as n8n builds it from a JSON body (service message as description, body in `context.data`).
 * Errors without a streamed body are returned as they are.
 */
async function withErrorBodyRead(node: INode, error: unknown): Promise<unknown> {
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

/** An answer's text as axios gives it when JSON is expected: parsed, or the text itself; undefined when empty. */
export function jsonOrText(text: string): unknown {
	if (text.trim() === '') return undefined;
	try {
		return JSON.parse(text);
	} catch {
		return text;
	}
}

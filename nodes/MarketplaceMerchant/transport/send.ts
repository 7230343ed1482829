/**
 * Every request of the node and the trigger goes through here, under the shared pacing and retry
 * policy (requestPolicy.ts):
 * - `sendRequest`: a request of an operation, through RoutingNode's own machinery
 *   (authentication, token refresh on 401, the operation's postReceive actions);
 * - `sendAuthenticated`: a request outside an operation's routing (the trigger, list searches and
 *   option lists of the editor, a lookup in a preSend), with the credential's token;
 * - `downloadPresigned`: a pre-signed document link, without credentials.
 * Requests that belong to no node (the token request, the credential test's) are sent by
 * token.ts's `sendForAnswer`, under the same policy.
 */
import type {
	DeclarativeRestApiSettings,
	FunctionsBase,
	IAllExecuteFunctions,
	IExecutePaginationFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INode,
	INodeExecutionData,
	RequestHelperFunctions,
} from 'n8n-workflow';

import { readBodyWithinCap, readStreamedBody, STREAMED_ANSWER, withErrorBodyRead } from './answerLimits';
import { namingRequest, rememberRequest, requestLabel } from '../answers/decode';
import { CREDENTIAL_TYPE, merchantKeyOf, normalizeBaseUrl } from './credential';
import type { EndpointGroup } from './endpoints';
import { DEFAULT_TIMEOUT_MS, sendWithPolicy } from './requestPolicy';
import { requestTimeoutMs, requestsPerMinuteOf, type OptionsContext } from './requestSettings';

/**
 * What the request engine needs to know of a request, declared by the operation that sends it
 * (never deduced from the URL): the rate-limit group it counts against, and whether sending it
 * twice is harmless (then a 502/504 or a cut connection is retried).
 */
export interface Route {
	group: EndpointGroup;
	idempotent: boolean;
}

/** One item's request as RoutingNode hands it to a pagination function, with the operation's route. */
export type RequestData = DeclarativeRestApiSettings.ResultOptions & { route: Route };

interface CredentialValues {
	baseUrl?: string;
	clientId?: string;
	clientSecret?: string;
	apiKey?: string;
	accessToken?: string;
}

/** What a request needs from the credential: read once per request (in n8n each read is a database read). */
interface CredentialContext {
	/** The base URL without trailing slashes. */
	baseUrl: string;
	/** The account whose rate limits a request counts against. */
	merchantKey: string;
	/** The credential's secrets, to keep out of errors (the token actually sent is read from the error). */
	secrets: unknown[];
}

/** The credential's values a request needs (from any context: node or trigger), in one read. */
async function credentialContextOf(ctx: Pick<FunctionsBase, 'getCredentials'>): Promise<CredentialContext> {
	const { baseUrl, clientId, clientSecret, apiKey, accessToken } = await ctx.getCredentials<CredentialValues>(CREDENTIAL_TYPE);
	const base = normalizeBaseUrl(baseUrl);
	return { baseUrl: base, merchantKey: merchantKeyOf(base, clientId), secrets: [clientSecret, apiKey, accessToken] };
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

/** How an operation that sends outside routing (the bulk operations, bulkRun.ts) asks: its item's Request Options. */
export interface SendSettings {
	timeoutMs?: number;
	perMinute?: number;
	/** Asked when the gate would let the request through: false drops it unsent (RequestNotNeeded is thrown). */
	wanted?: () => boolean;
}

/** The Request Options of an item (Timeout, Requests per Minute) as `sendAuthenticated` takes them. */
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
			await readStreamedBody(ctx.getNode(), answer, timeout);
			rememberRequest(answer, requestLabel(request.method, url, request.qs));
			return answer;
		} catch (error) {
			throw await withErrorBodyRead(ctx.getNode(), error);
		}
	});
}

/** What `downloadPresigned` needs of a context (node or trigger). */
export interface DownloadContext {
	getNode(): INode;
	helpers: Pick<RequestHelperFunctions, 'httpRequest'>;
}

/**
 * The bytes behind a pre-signed link (no credentials are sent: its signature grants access).
 * Downloads have their own gate per host, so they neither count against nor wait for the API's
 * rate limits, and are retried like any request that may be sent twice.
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

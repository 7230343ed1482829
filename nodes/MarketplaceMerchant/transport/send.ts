/**
 * The one way out (docs/architecture.md "The path of one request"): every request of the package
 * (routed operations, bulk operations, the trigger, editor lists and look-ups, the credential's
 * token and Test, PDF downloads) is sent by `send`, the only caller of n8n's HTTP helpers. It goes
 * under the policy (policy.ts: the gate, retries within a budget), its answer is read within its
 * cap (body.ts), and a failed request's error carries the service's own words. The answer comes
 * back with its request's label, so that the reader of its body (answers/read.ts) names the request
 * an unreadable answer came from.
 */
import type {
	FunctionsBase,
	IExecuteFunctions,
	IGetNodeParameterOptions,
	IAllExecuteFunctions,
	ICredentialDataDecryptedObject,
	ICredentialTestFunctions,
	IDataObject,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INode,
	INodeExecutionData,
	RequestHelperFunctions,
} from 'n8n-workflow';

import type { EndpointGroup, HostChoice } from './endpoints';
import { requestLabel } from './errors';
import { DEFAULT_TIMEOUT_MS, sendWithPolicy, type SendPolicy } from './policy';
import { STREAMED_ANSWER, readBodyWithinCap, readCappedBody, withErrorBodyRead } from './body';
import { hostsOf, merchantKeyOf, onItsHost } from './hosts';
import { processWide } from './state';
import { isBlank, type SettingsContext } from '../values/labels';
import { readWholeNumber } from '../values/numbers';

export const CREDENTIAL_TYPE = 'marketplaceMerchantApi';

/** Declared by the operation, never deduced from the URL. */
export interface Route {
	group: EndpointGroup;
	idempotent: boolean;
	/** For an endpoint the environment's service host serves (endpoints.ts); else the Base URL. */
	host?: HostChoice;
}

/** An answer with the request it answers (`request`: its method, path and query, as errors name it). */
export type Answer = IN8nHttpFullResponse & { request: string };

/**
 * One input item of a node run as an operation's steps see it (actions/run.ts `ItemContext`): its
 * parameters, its credential and n8n's helpers, which send.ts calls with it as `this`.
 */
export interface ItemFunctions {
	getNode(): INode;
	getItemIndex(): number;
	getTimezone(): string;
	getNodeParameter(name: string, fallback?: unknown, options?: IGetNodeParameterOptions): unknown;
	getInputData(): INodeExecutionData;
	getCredentials<T extends object = ICredentialDataDecryptedObject>(type: string): Promise<T>;
	readonly helpers: IExecuteFunctions['helpers'];
	continueOnFail(): boolean;
	getExecutionCancelSignal(): AbortSignal | undefined;
}

/** One step of building an item's request (an operation's `preSend`): checks the item's values, sets query, body or path. */
export type RequestStep = (this: ItemFunctions, request: IHttpRequestOptions) => Promise<IHttpRequestOptions>;

/** A node's item, the trigger's or the editor's context: n8n adds the credential's token and renews it after a 401. */
export type AuthenticatedContext = IAllExecuteFunctions | ItemFunctions;

/** What n8n gives code of no credential: the credential's `preAuthentication`, a pre-signed link's download. */
export interface PlainHelper {
	helpers: Pick<RequestHelperFunctions, 'httpRequest'>;
}

/** Which of n8n's helpers a request goes out with. */
export type Way =
	| { withCredential: AuthenticatedContext }
	| { plain: PlainHelper }
	/** The credential's Test: n8n gives it only the legacy `request` helper (CredentialTestContext, n8n-core 1.123 to 2.41). */
	| { legacy: ICredentialTestFunctions };

interface Sending<T> {
	/** What the answer becomes, inside the attempt: what fails here fails the request (a routed operation's reading). */
	read?: (answer: Answer) => T | Promise<T>;
	/** Told before each attempt goes out (the token request counts them for its message). */
	onAttempt?: () => void;
}

/**
 * Sends one request under `policy` and gives its answer, the body read within its cap (or what
 * `read` makes of it); `request.url` is the whole URL or, with `baseURL`, a path.
 */
export async function send<T = Answer>(way: Way, policy: SendPolicy, request: IHttpRequestOptions, sending: Sending<T> = {}): Promise<T> {
	const { read, onAttempt } = sending;
	const { node } = policy;
	const label = requestLabel(request.method, request.url, request.qs);
	const http = httpOf(way);
	return await sendWithPolicy(policy, async (timeout) => {
		onAttempt?.();
		try {
			const answer = (await http({ ...request, returnFullResponse: true, ...STREAMED_ANSWER, timeout })) as Answer;
			const body = node ? await readBodyWithinCap(node, answer.body, timeout) : await readCappedBody(answer.body, timeout);
			answer.body = body as Answer['body'];
			answer.request = label;
			return read ? await read(answer) : (answer as T);
		} catch (error) {
			// A node's error carries the service's words; a request of no node is worded by its caller (shared/credential.ts).
			throw node && 'withCredential' in way ? await withErrorBodyRead(node, error) : error;
		}
	});
}

/**
 * The credential data each request of the package hands n8n's `httpRequestWithAuthentication`,
 * which calls the credential's preAuthentication with it only after a 401 (n8n-core 1.123 to 2.41):
 * for these the credential renews the token without first asking whether the failure was one
 * (shared/credential.ts `tokenFor`). One set per process: the credential is another bundle.
 */
export const renewedOnlyAfter401 = processWide('renewedOnlyAfter401', () => new WeakSet<ICredentialDataDecryptedObject>());

/** The one place n8n's HTTP helpers are called. */
function httpOf(way: Way): (options: IHttpRequestOptions) => Promise<unknown> {
	if ('withCredential' in way) {
		const ctx = way.withCredential;
		return async (options) => {
			// Read per attempt as n8n itself would: a retry after a 401 sees the token another item or worker saved.
			const data = await ctx.getCredentials(CREDENTIAL_TYPE);
			renewedOnlyAfter401.add(data);
			const { id = '', name = '' } = ctx.getNode().credentials?.[CREDENTIAL_TYPE] ?? {};
			const credentialsDecrypted = { id: id ?? '', name, type: CREDENTIAL_TYPE, data };
			// With the item's context as `this`: n8n's helper reads its credentials and cancel signal from it.
			return await ctx.helpers.httpRequestWithAuthentication.call(ctx as IAllExecuteFunctions, CREDENTIAL_TYPE, options, { credentialsDecrypted });
		};
	}
	if ('plain' in way) {
		const { helpers } = way.plain;
		return async (options) => await helpers.httpRequest(options);
	}
	const ctx = way.legacy;
	// Asked for the same streamed, any-status, full answer `httpRequest` gives the rest.
	return async ({ url: uri, method, headers, qs, body, json, timeout, encoding, ignoreHttpStatusErrors, returnFullResponse }) => {
		const answer = (await ctx.helpers.request({
			method, uri, headers, qs, body, json, timeout,
			useStream: encoding === 'stream',
			simple: ignoreHttpStatusErrors !== true,
			resolveWithFullResponse: returnFullResponse === true,
		})) as IN8nHttpFullResponse;
		return { body: answer.body, headers: answer.headers, statusCode: answer.statusCode, statusMessage: answer.statusMessage };
	};
}

type CredentialContext = Pick<FunctionsBase, 'getCredentials' | 'getNode'>;

/** A request's policy and the credential's hosts, the credential read once (in n8n each read is a database read). */
async function policyOf(ctx: CredentialContext, route: Route, settings: SendSettings & { timeoutMs: number }) {
	const credentials = await ctx.getCredentials(CREDENTIAL_TYPE);
	const { clientId, clientSecret, apiKey, accessToken } = credentials;
	const hosts = hostsOf(credentials);
	// The token actually sent is read from the error itself.
	const secrets = [clientSecret, apiKey, accessToken];
	// One gate per merchant, keyed by the Base URL whichever host a request goes to: the limits are the merchant's.
	const merchantKey = merchantKeyOf(hosts.baseUrl, clientId);
	return { hosts, policy: { node: ctx.getNode(), merchantKey, secrets, ...route, ...settings } };
}

/** An item's Request Options, for an operation that sends outside routing (bulk operations). */
export interface SendSettings {
	timeoutMs?: number;
	perMinute?: number;
	wanted?: () => boolean;
}

/** Read here so that transport/ never imports actions/. */
export function sendSettingsOf(ctx: SettingsContext): SendSettings & { timeoutMs: number } {
	const { timeoutSeconds: seconds, requestsPerMinute: perMinute } = ctx.getNodeParameter('requestOptions', {}) as IDataObject;
	return {
		timeoutMs: isBlank(seconds) ? DEFAULT_TIMEOUT_MS : readWholeNumber(ctx, 'Request Options › Timeout (Seconds)', seconds, 1) * 1000,
		perMinute: isBlank(perMinute) ? undefined : readWholeNumber(ctx, 'Request Options › Requests per Minute', perMinute, 1),
	};
}

/** One request with the credential's token, on the host of its route's endpoint; `url` is a path after the base URL. */
export async function sendAuthenticated(
	ctx: AuthenticatedContext,
	route: Route,
	request: IHttpRequestOptions,
	settings: SendSettings = {},
): Promise<Answer> {
	const timeoutMs = settings.timeoutMs ?? request.timeout ?? DEFAULT_TIMEOUT_MS;
	const { hosts, policy } = await policyOf(ctx, route, { ...settings, timeoutMs });
	const headers = { Accept: 'application/json' };
	return await onItsHost(ctx.getNode(), route.host, policy.merchantKey, hosts, async (baseUrl) =>
		await send({ withCredential: ctx }, policy, { headers, ...request, url: `${baseUrl}${request.url}` }),
	);
}

/** How an item's requests read their answers into items (actions/common.ts `pacedRouting`: its schema, then its shaping). */
export type ReadAnswer = (this: ItemFunctions, answer: Answer) => Promise<INodeExecutionData[]>;

/** One item's request as its preSends built it, with the operation's route and reader: what a strategy sends. */
export interface RequestData {
	options: IHttpRequestOptions;
	route: Route;
	read: ReadAnswer;
	/** What the run's items looked up together (actions/common.ts `pacedRouting`'s plan), where the operation has one. */
	plan?: unknown;
}

/**
 * One request of an item: the item's request (`requestData`: url, query, body, headers) with some
 * options replaced (a page, a chunk, a window), read into items by the operation's reader inside
 * the attempt.
 */
export async function sendRequest(
	ctx: ItemFunctions,
	requestData: RequestData,
	override: Partial<RequestData['options']> = {},
	wanted?: () => boolean,
): Promise<INodeExecutionData[]> {
	const options = { ...requestData.options, ...override } as IHttpRequestOptions;
	const { hosts, policy } = await policyOf(ctx, requestData.route, { ...sendSettingsOf(ctx), wanted });
	const read = async (answer: Answer) => await requestData.read.call(ctx, answer);
	// The timeout is the node's option (`sendSettingsOf`), the base URL the credential's host.
	return await onItsHost(ctx.getNode(), requestData.route.host, policy.merchantKey, hosts, async (baseURL) =>
		await send({ withCredential: ctx }, policy, { ...options, baseURL }, { read }),
	);
}

export interface DownloadContext extends PlainHelper {
	getNode(): INode;
}

/** The bytes behind a pre-signed link (no credentials), under a gate of its host, not the API's limits. */
export async function downloadPresigned(ctx: DownloadContext, url: string, timeoutMs: number): Promise<Buffer> {
	const node = ctx.getNode();
	const merchantKey = `document-downloads|${new URL(url).origin}`;
	const policy = { node, merchantKey, group: 'documentDownloads' as const, idempotent: true, timeoutMs };
	const { body } = await send({ plain: ctx }, policy, { method: 'GET', url, json: false });
	return Buffer.isBuffer(body) ? body : Buffer.from(body as unknown as ArrayBuffer);
}

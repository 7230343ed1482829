/**
 * One request of an operation, sent through RoutingNode's own machinery (authentication, token
 * refresh on 401, the operation's postReceive actions) under the shared pacing and retry policy.
 */
import type {
	DeclarativeRestApiSettings,
	FunctionsBase,
	IExecutePaginationFunctions,
	INodeExecutionData,
} from 'n8n-workflow';

import { requestTimeoutMs } from '../actions/requestOptions';
import { STREAMED_ANSWER, withErrorBodyRead } from './answerLimits';
import { PATHS } from './endpoints';
import { sendWithPolicy } from './requestPolicy';
import { isBlank, readWholeNumber } from './values';

export const CREDENTIAL_TYPE = 'marketplaceMerchantApi';

export type RequestData = DeclarativeRestApiSettings.ResultOptions;

interface CredentialValues {
	baseUrl?: string;
	clientId?: string;
	clientSecret?: string;
	apiKey?: string;
	accessToken?: string;
}

/** What a request needs from the credential: read once per request (in n8n each read is a database read). */
export interface CredentialContext {
	/** The base URL without trailing slashes. */
	baseUrl: string;
	/** The account whose rate limits a request counts against. */
	merchantKey: string;
	/** The credential's secrets, to keep out of errors (the token actually sent is read from the error). */
	secrets: unknown[];
}

/** The credential's values a request needs (from any context: node or trigger), in one read. */
export async function credentialContextOf(ctx: Pick<FunctionsBase, 'getCredentials'>): Promise<CredentialContext> {
	const { baseUrl, clientId, clientSecret, apiKey, accessToken } = await ctx.getCredentials<CredentialValues>(CREDENTIAL_TYPE);
	const base = String(baseUrl ?? '').trim().replace(/\/+$/, '');
	return { baseUrl: base, merchantKey: `${base}|${String(clientId ?? '')}`, secrets: [clientSecret, apiKey, accessToken] };
}

/** POSTs that only read (EAN check) or create-or-edit by EAN (import) may be sent twice. */
function isIdempotent(method: string | undefined, url: string): boolean {
	if ((method ?? 'GET').toUpperCase() !== 'POST') return true;
	return url.endsWith(PATHS.eanExists) || url.endsWith(PATHS.import);
}

/** The Requests per Minute option (actions/requestOptions.ts), when the user set it. */
function requestsPerMinuteOf(ctx: IExecutePaginationFunctions): number | undefined {
	const value = (ctx.getNodeParameter('requestOptions', {}) as { requestsPerMinute?: unknown }).requestsPerMinute;
	return isBlank(value) ? undefined : readWholeNumber(ctx, 'Request Options › Requests per Minute', value, 1);
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
	const url = String(options.url ?? '');
	const { merchantKey, secrets } = await credentialContextOf(ctx);
	return await sendWithPolicy(
		{
			node: ctx.getNode(),
			merchantKey,
			url,
			idempotent: isIdempotent(options.method, url),
			timeoutMs,
			secrets,
			perMinute: requestsPerMinuteOf(ctx),
			wanted,
		},
		async (attemptTimeoutMs) => {
			try {
				return await ctx.makeRoutingRequest({ ...requestData, options: { ...options, timeout: attemptTimeoutMs } });
			} catch (error) {
				throw await withErrorBodyRead(ctx.getNode(), error);
			}
		},
	);
}

/** The default for every operation: one request, paced and retried. */
export async function sendSingle(this: IExecutePaginationFunctions, requestData: RequestData): Promise<INodeExecutionData[]> {
	return await sendRequest(this, requestData);
}

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

import { PATHS } from './endpoints';
import { sendWithPolicy } from './requestPolicy';
import { invalidInput } from './validation';

export const CREDENTIAL_TYPE = 'marketplaceMerchantApi';

export type RequestData = DeclarativeRestApiSettings.ResultOptions;

/** The account whose rate limits a request counts against (from any context: node or trigger). */
export async function merchantKeyOf(ctx: Pick<FunctionsBase, 'getCredentials'>): Promise<string> {
	const credentials = await ctx.getCredentials<{ baseUrl?: string; clientId?: string }>(CREDENTIAL_TYPE);
	return `${String(credentials.baseUrl ?? '').replace(/\/+$/, '')}|${String(credentials.clientId ?? '')}`;
}

/** POSTs that only read (EAN check) or create-or-edit by EAN (import) may be sent twice. */
function isIdempotent(method: string | undefined, url: string): boolean {
	if ((method ?? 'GET').toUpperCase() !== 'POST') return true;
	return url.endsWith(PATHS.eanExists) || url.endsWith(PATHS.import);
}

/** The Requests per Minute option (actions/requestOptions.ts), when the user set it. */
function requestsPerMinuteOf(ctx: IExecutePaginationFunctions): number | undefined {
	const value = (ctx.getNodeParameter('requestOptions', {}) as { requestsPerMinute?: unknown }).requestsPerMinute;
	if (value === undefined || value === null || value === '') return undefined;
	const perMinute = typeof value === 'number' ? value : Number.NaN;
	if (!Number.isInteger(perMinute) || perMinute < 1) {
		throw invalidInput(ctx, 'Requests per Minute', `must be a whole number of at least 1, got ${JSON.stringify(value)}`);
	}
	return perMinute;
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
	const options = { ...requestData.options, ...override };
	const url = String(options.url ?? '');
	return await sendWithPolicy(
		{
			node: ctx.getNode(),
			merchantKey: await merchantKeyOf(ctx),
			url,
			idempotent: isIdempotent(options.method, url),
			perMinute: requestsPerMinuteOf(ctx),
			wanted,
		},
		async () => await ctx.makeRoutingRequest({ ...requestData, options: { ...options } }),
	);
}

/** The default for every operation: one request, paced and retried. */
export async function sendSingle(this: IExecutePaginationFunctions, requestData: RequestData): Promise<INodeExecutionData[]> {
	return await sendRequest(this, requestData);
}

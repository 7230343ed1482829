/**
 * The credential's Test button: a new token, then one request with it (the warehouses list, the
 * smallest answer). Why a `credentialTest` method and not a `test` request: docs/architecture.md.
 */
import type {
	ICredentialTestFunctions,
	ICredentialsDecrypted,
	IN8nHttpFullResponse,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import { PATHS } from './endpoints';
import { redactText, secretList } from './errors';
import { DEFAULT_TIMEOUT_MS } from './requestPolicy';
import { merchantKeyOf, normalizeBaseUrl } from './send';
import { requestToken, sendForAnswer, serverMessage, type HttpRequest } from './token';

function asHttpRequest(ctx: ICredentialTestFunctions): HttpRequest {
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

function verdictOf(response: IN8nHttpFullResponse, secrets: string[]): INodeCredentialTestResult {
	const status = response.statusCode;
	if (status === 401) return { status: 'Error', message: 'The access token was rejected (HTTP 401): check the Client ID and Client Secret' };
	if (status === 403) return { status: 'Error', message: 'The client has no permission for the merchant API (HTTP 403)' };
	if (status === 404) return { status: 'Error', message: 'The merchant API was not found (HTTP 404): check the Base URL' };
	if (status < 200 || status > 299) {
		const detail = serverMessage(response.body);
		return { status: 'Error', message: `The merchant API answered HTTP ${status}${detail ? `: ${redactText(detail, secrets)}` : ''}` };
	}
	// A Base URL that points at a web site can answer 200 with a page: the API answers JSON.
	if (!response.body || typeof response.body !== 'object' || Buffer.isBuffer(response.body)) {
		return { status: 'Error', message: `The Base URL answered HTTP ${status}, but not as the merchant API (no JSON): check the Base URL` };
	}
	// What n8n answers for a passed `test` request.
	return { status: 'OK', message: 'Connection successful!' };
}

export async function testMerchantCredential(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const values = credential.data ?? {};
	const httpRequest = asHttpRequest(this);
	const baseUrl = normalizeBaseUrl(values.baseUrl);
	try {
		const { token } = await requestToken(httpRequest, values);
		const { response } = await sendForAnswer(
			httpRequest,
			{ method: 'GET', url: `${baseUrl}${PATHS.warehouses}`, headers: { Accept: 'application/json', Authorization: `Bearer ${token}` } },
			// The group Warehouse › Get Many declares for the same request.
			{ merchantKey: merchantKeyOf(baseUrl, values.clientId), group: 'orders', timeoutMs: DEFAULT_TIMEOUT_MS },
			{ name: 'merchant API', baseUrl },
		);
		return verdictOf(response, secretList([values.clientSecret, values.apiKey, token]));
	} catch (error) {
		// requestToken and sendForAnswer fail only with UserErrors worded for users, secrets left out.
		return { status: 'Error', message: (error as Error).message };
	}
}

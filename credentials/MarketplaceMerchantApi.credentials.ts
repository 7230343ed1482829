import { createHash } from 'crypto';
import type {
	IAuthenticateGeneric,
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IDataObject,
	IHttpRequestHelper,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INodeProperties,
	Icon,
} from 'n8n-workflow';
import { UserError } from 'n8n-workflow';

import { BASE_URL_EXPRESSION, CREDENTIAL_TYPE, normalizeBaseUrl } from '../nodes/MarketplaceMerchant/transport/credential';
import { PATHS } from '../nodes/MarketplaceMerchant/transport/endpoints';
import { answerTooLargeText, jsonOrText, readCappedBody, STREAMED_ANSWER } from '../nodes/MarketplaceMerchant/transport/answerLimits';
import { credentialAdvice, errorCodeOf, networkFailureReason } from '../nodes/MarketplaceMerchant/transport/errors';
import { RefusedTooLong } from '../nodes/MarketplaceMerchant/transport/pacing';
import { redactText, secretList } from '../nodes/MarketplaceMerchant/transport/redact';
import { sendWithPolicy } from '../nodes/MarketplaceMerchant/transport/requestPolicy';

import { decodeJson } from '../nodes/MarketplaceMerchant/answers/decode';
import { ANSWERS } from '../nodes/MarketplaceMerchant/answers/schema';

/** The platform issues 15-minute tokens; used when a response carries no usable `expires_in`. */
const DEFAULT_TOKEN_LIFETIME_SECONDS = 900;

/** A token is handed out again only while this much of its life is left, so it cannot expire in flight. */
const MAX_EXPIRY_MARGIN_MS = 30_000;

/** How long the token request may take to begin answering, and its answer to arrive once begun. */
const TOKEN_REQUEST_TIMEOUT_MS = 30_000;

/**
 * A token the service rejected stays rejected: it is never handed out again. Kept (as hashes,
 * never the token itself) for at least this long, and at most this many.
 */
const REJECTED_TOKEN_MEMORY_MS = 60 * 60 * 1000;
const MAX_REJECTED_TOKENS = 10_000;

interface TokenCacheEntry {
	pending?: Promise<string>;
	token?: string;
	expiresAt?: number;
}

/**
 * Shared by every execution in this process. n8n starts the requests of all items at once and
 * each one calls `preAuthentication` when its token is empty or was rejected; this map lets them
 * share one token request. Keys hold a hash of the secret, never the secret itself.
 */
const tokenCache = new Map<string, TokenCacheEntry>();

/**
 * Hashes of tokens callers reported rejected, with the time they may be forgotten. Another worker
 * (n8n queue mode) or the service itself may have replaced a token this process still caches: the
 * cache must not hand out a token once anybody here saw it rejected.
 */
const rejectedTokens = new Map<string, number>();

function tokenHash(token: string): string {
	return createHash('sha256').update(token).digest('hex');
}

function rememberRejected(token: string, now: number): void {
	for (const [hash, forgetAt] of rejectedTokens) {
		if (forgetAt > now && rejectedTokens.size < MAX_REJECTED_TOKENS) break;
		rejectedTokens.delete(hash);
	}
	rejectedTokens.set(tokenHash(token), now + REJECTED_TOKEN_MEMORY_MS);
}

function isRejected(token: string): boolean {
	return rejectedTokens.has(tokenHash(token));
}

/** The base URL as shown in messages: without any user name or password it may carry. */
function displayUrl(url: string): string {
	try {
		const parsed = new URL(url);
		parsed.username = '';
		parsed.password = '';
		return parsed.toString().replace(/\/+$/, '');
	} catch {
		return url;
	}
}

function cacheKey(baseUrl: string, clientId: string, clientSecret: string, apiKey: string): string {
	const secretHash = createHash('sha256').update(`${clientSecret}\u0000${apiKey}`).digest('hex');
	return `${baseUrl}\u0000${clientId}\u0000${secretHash}`;
}

function expiryMarginMs(lifetimeMs: number): number {
	return Math.min(MAX_EXPIRY_MARGIN_MS, lifetimeMs / 10);
}

/** `expires_in` as decode.ts reads it (a number, also from text such as "900"); anything else gets the default. */
function lifetimeSecondsOf(expiresIn: unknown): number {
	return typeof expiresIn === 'number' && Number.isFinite(expiresIn) && expiresIn > 0
		? expiresIn
		: DEFAULT_TOKEN_LIFETIME_SECONDS;
}

function pruneExpiredEntries(now: number): void {
	for (const [key, entry] of tokenCache) {
		if (!entry.pending && (entry.expiresAt === undefined || entry.expiresAt <= now)) {
			tokenCache.delete(key);
		}
	}
}

function serverMessage(body: unknown): string | undefined {
	if (body && typeof body === 'object' && typeof (body as IDataObject).message === 'string') {
		return (body as IDataObject).message as string;
	}
	return undefined;
}

// Messages name no host: n8n rewrites an error message that contains a system error code
// (ENOENT, EPERM, ...) anywhere in it, and a host name could contain one. Hosts go in descriptions.
function tokenStatusError(
	response: IN8nHttpFullResponse,
	tokenUrl: string,
	secrets: string[],
	attempts: number,
): UserError {
	const status = response.statusCode;
	const detail = serverMessage(response.body);
	const description = detail
		? `The token endpoint answered HTTP ${status}: ${redactText(detail, secrets)}`
		: `The token endpoint ${tokenUrl} answered HTTP ${status}`;
	if (status === 401) {
		return new UserError(
			'Authentication failed: the client ID or client secret was rejected (HTTP 401 from the token endpoint)',
			{
				description: `${description}. ${credentialAdvice(401)}`,
			},
		);
	}
	if (status === 403) {
		return new UserError(
			'Authentication failed: the token request was forbidden (HTTP 403 from the token endpoint)',
			{ description: `${description}. ${credentialAdvice(403)}` },
		);
	}
	if (status === 404 || status === 405) {
		return new UserError(`Token endpoint not found (HTTP ${status}): check the Base URL`, {
			description: `${tokenUrl} does not exist. The Base URL should be the root of the merchant API, for example https://api.example-marketplace.com, without any path.`,
		});
	}
	if (status === 429 || status >= 500) {
		return new UserError(
			`The token endpoint is unavailable (HTTP ${status}): try again later`,
			{ description: `${description}. The token request was sent ${attempts} time${attempts === 1 ? '' : 's'}.` },
		);
	}
	return new UserError(`The token request failed (HTTP ${status})`, { description });
}

function networkError(error: unknown, baseUrl: string): UserError {
	const code = errorCodeOf(error);
	return new UserError(`Could not reach the marketplace API: ${networkFailureReason(error)}`, {
		description: `Check the Base URL (${baseUrl}) and that its host is reachable from n8n${code ? ` (${code})` : ''}.`,
	});
}

/** An answer the request engine's policy may send again for (429, 5xx): thrown to it with its status and headers. */
class RetryableAnswer extends Error {
	readonly response: { status: number; headers: Record<string, unknown> };

	constructor(answer: IN8nHttpFullResponse) {
		super(`The token endpoint answered HTTP ${answer.statusCode}`);
		this.response = { status: answer.statusCode, headers: answer.headers as Record<string, unknown> };
	}
}

/** The token endpoint's answer as JSON when it is JSON (an error page may not be); undefined when empty. */
function parsedBody(bytes: unknown): unknown {
	const text = Buffer.isBuffer(bytes) ? bytes.toString('utf8') : typeof bytes === 'string' ? bytes : undefined;
	return text === undefined ? bytes : jsonOrText(text);
}

/**
 * Sends the token request through the request engine's policy, as every request of the package
 * is (transport/requestPolicy.ts): again after a 429, a 503, a 502/504 or a cut connection (a token
 * asked for twice is harmless), as Retry-After asks, within three times its timeout; its body read
 * within the answer cap (answerLimits.ts), so that a gzip bomb or a trickling answer from the token
 * endpoint ends in a clear error. The last answer comes back whatever its status; an error only
 * when none came.
 */
async function sendTokenRequest(
	helpers: IHttpRequestHelper['helpers'],
	options: IHttpRequestOptions & { url: string },
	shownBaseUrl: string,
): Promise<{ response: IN8nHttpFullResponse; attempts: number }> {
	let attempts = 0;
	let last: IN8nHttpFullResponse | undefined;
	let failure: unknown;
	try {
		const response = await sendWithPolicy(
			{ merchantKey: `token|${options.url}`, group: 'token', idempotent: true, timeoutMs: TOKEN_REQUEST_TIMEOUT_MS },
			async (timeout) => {
				attempts++;
				last = undefined;
				try {
					const answer = (await helpers.httpRequest({ ...options, ...STREAMED_ANSWER, timeout })) as IN8nHttpFullResponse;
					answer.body = parsedBody(await readCappedBody(answer.body, timeout)) as IN8nHttpFullResponse['body'];
					last = answer;
				} catch (error) {
					failure = error;
					throw error;
				}
				if (last.statusCode === 429 || last.statusCode >= 500) throw new RetryableAnswer(last);
				return last;
			},
		);
		return { response, attempts };
	} catch (error) {
		if (last) return { response: last, attempts };
		if (error instanceof RefusedTooLong) {
			throw new UserError('The token endpoint is unavailable (HTTP 429): try again later', { description: error.message });
		}
		const tooLarge = answerTooLargeText(failure ?? error);
		if (tooLarge) {
			throw new UserError(tooLarge.message.replace(/^The service's/, "The token endpoint's"), {
				description: `${tooLarge.description} (token endpoint ${shownBaseUrl}${PATHS.grant})`,
			});
		}
		// The original error carries the request, body included: only its code is kept.
		throw networkError(failure ?? error, shownBaseUrl);
	}
}

async function requestToken(
	helpers: IHttpRequestHelper['helpers'],
	baseUrl: string,
	credentials: ICredentialDataDecryptedObject,
): Promise<{ token: string; lifetimeSeconds: number }> {
	const clientId = String(credentials.clientId ?? '');
	const clientSecret = String(credentials.clientSecret ?? '');
	const apiKey = String(credentials.apiKey ?? '');
	const secrets = secretList([clientSecret, apiKey]);
	const shownBaseUrl = displayUrl(baseUrl);
	const tokenUrl = `${shownBaseUrl}${PATHS.grant}`;

	const headers: IDataObject = { 'Content-Type': 'application/json', Accept: 'application/json' };
	if (apiKey) headers['X-API-Key'] = apiKey;
	const options = {
		method: 'POST' as const,
		url: `${baseUrl}${PATHS.grant}`,
		headers,
		body: {
			grantType: 'CLIENT_CREDENTIALS',
			clientId,
			clientSecret,
			scope: 'public_api/full_access',
		},
		json: true,
		timeout: TOKEN_REQUEST_TIMEOUT_MS,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
	};

	const { response, attempts } = await sendTokenRequest(helpers, options, shownBaseUrl);
	if (response.statusCode < 200 || response.statusCode > 299) {
		throw tokenStatusError(response, tokenUrl, secrets, attempts);
	}
	const body = decodeJson(response.body, ANSWERS.token) as IDataObject | undefined;
	const token = body && typeof body === 'object' ? body.access_token : undefined;
	if (typeof token !== 'string' || token === '') {
		throw new UserError('The token endpoint answered without an access token', {
			description: `${tokenUrl} returned HTTP ${response.statusCode} but no access_token: check the Base URL.`,
		});
	}
	return { token, lifetimeSeconds: lifetimeSecondsOf(body?.expires_in) };
}

export class MarketplaceMerchantApi implements ICredentialType {
	name = CREDENTIAL_TYPE;

	displayName = 'Marketplace Merchant API';

	icon: Icon = {
		light: 'file:../icons/marketplace.svg',
		dark: 'file:../icons/marketplace.dark.svg',
	};

	documentationUrl = 'https://github.com/marketplace-merchant/n8n-nodes-marketplace-merchant#credential';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. https://api.example-marketplace.com',
			description:
				'Root address of the merchant API. Production and staging have different hosts, and client credentials work only on the host they were issued for.',
		},
		{
			displayName: 'Client ID',
			name: 'clientId',
			type: 'string',
			default: '',
			required: true,
			description: 'Client ID issued in the merchant portal',
		},
		{
			displayName: 'Client Secret',
			name: 'clientSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'Client secret issued in the merchant portal',
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				'Optional. Sent as the X-API-Key header of the token request when filled in.',
		},
		{
			displayName: 'Access Token',
			name: 'accessToken',
			type: 'hidden',
			typeOptions: { expirable: true, password: true },
			default: '',
		},
	];

	async preAuthentication(this: IHttpRequestHelper, credentials: ICredentialDataDecryptedObject) {
		const baseUrl = normalizeBaseUrl(credentials.baseUrl);
		const key = cacheKey(
			baseUrl,
			String(credentials.clientId ?? ''),
			String(credentials.clientSecret ?? ''),
			String(credentials.apiKey ?? ''),
		);
		const now = Date.now();
		pruneExpiredEntries(now);
		const entry: TokenCacheEntry = tokenCache.get(key) ?? {};
		tokenCache.set(key, entry);

		// The engine asks for a token when the stored one is empty or was just rejected (or for the
		// credential test): a token given here is never the one known to be rejected.
		const callerToken = typeof credentials.accessToken === 'string' ? credentials.accessToken : '';
		if (callerToken !== '') rememberRejected(callerToken, now);
		if (entry.pending) {
			// The token being requested now is newer than the caller's, which was already in use.
			return { accessToken: await entry.pending };
		}
		if (entry.token && entry.expiresAt !== undefined && entry.expiresAt > now && !isRejected(entry.token)) {
			return { accessToken: entry.token };
		}

		entry.pending = requestToken(this.helpers, baseUrl, credentials)
			.then(({ token, lifetimeSeconds }) => {
				const lifetimeMs = lifetimeSeconds * 1000;
				entry.token = token;
				entry.expiresAt = Date.now() + lifetimeMs - expiryMarginMs(lifetimeMs);
				return token;
			})
			.finally(() => {
				entry.pending = undefined;
			});
		return { accessToken: await entry.pending };
	}

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				Authorization: '=Bearer {{$credentials.accessToken}}',
			},
		},
	};

	test: ICredentialTestRequest = {
		request: {
			baseURL: BASE_URL_EXPRESSION,
			url: PATHS.warehouses,
			method: 'GET',
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message: 'The access token was rejected (HTTP 401): check the Client ID and Client Secret',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 403,
					message: 'The client has no permission for the merchant API (HTTP 403)',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message: 'The merchant API was not found (HTTP 404): check the Base URL',
				},
			},
		],
	};
}

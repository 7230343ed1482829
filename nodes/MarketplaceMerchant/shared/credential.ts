/**
 * The credential's own requests, which belong to no node: its token (the client-credentials
 * request, a process-wide cache, the tokens seen rejected or lapsed, the probe of a caller's token)
 * and its Test button (a new token, then one request with it: the warehouses list, the smallest
 * answer, on the host that serves it; why a `credentialTest` method and not a `test` request:
 * docs/architecture.md), all sent by `sendForAnswer` through send.ts.
 */
import { createHash } from 'crypto';
import {
	UserError,
	type ICredentialDataDecryptedObject,
	type ICredentialTestFunctions,
	type ICredentialsDecrypted,
	type IDataObject,
	type IHttpRequestOptions,
	type IN8nHttpFullResponse,
	type INodeCredentialTestResult,
} from 'n8n-workflow';

import { PATHS, SERVICE_HOST_ENDPOINTS, type EndpointGroup } from '../transport/endpoints';
import { processWide } from '../transport/state';
import {
	answerTooLargeText,
	errorCodeOf,
	networkFailureReason,
	notServedText,
	redactText,
	secretList,
	shownUrl,
	serverMessage,
	testStatusWords,
	tokenStatusWords,
	unavailableMessage,
} from '../transport/errors';
import { RefusedTooLong } from '../transport/gate';
import { DEFAULT_TIMEOUT_MS } from '../transport/policy';
import { jsonOrText } from '../transport/body';
import { hostsOf, isNotServedBody, merchantKeyOf, normalizeBaseUrl } from '../transport/hosts';
import { renewedOnlyAfter401, send, type PlainHelper, type Way } from '../transport/send';
import { markedNotSent } from '../transport/outcomes';
import { ANSWERS } from '../answers/schemas';
import { decodeJson, decodedNumber } from '../answers/read';

/** The platform issues 15-minute tokens; used when an answer carries no usable `expires_in`. */
const DEFAULT_TOKEN_LIFETIME_SECONDS = 900;
/** A token is handed out only while this much of its life (at most a tenth) is left: it cannot expire in flight. */
const MAX_EXPIRY_MARGIN_MS = 30_000;
const TOKEN_REQUEST_TIMEOUT_MS = 30_000;
/** Tokens seen rejected are never handed out again: their hashes are kept this long, at most this many. */
const REJECTED_TOKEN_MEMORY_MS = 60 * 60 * 1000;
const MAX_REJECTED_TOKENS = 10_000;

type TokenCacheEntry = { pending?: Promise<string>; token?: string; expiresAt?: number };

/** One token request for all items of the process (n8n calls `preAuthentication` for each at once); keys hash the secret. */
const tokenCache = processWide('tokenCache', () => new Map<string, TokenCacheEntry>());

/** Hashes of tokens seen rejected (another worker or the service may replace a cached one), and when to forget them. */
const rejectedTokens = processWide('rejectedTokens', () => new Map<string, number>());

/** Hashes of the tokens this process received, and when each lapses at the latest (received + its lifetime): past it, known expired. */
const receivedTokens = processWide('receivedTokens', () => new Map<string, number>());

/** One probe per caller's token at a time: n8n calls `preAuthentication` for each failed item at once. */
const tokenProbes = processWide('tokenProbes', () => new Map<string, Promise<boolean>>());

function sha256(text: string): string {
	return createHash('sha256').update(text).digest('hex');
}

/** Keeps `hash` in `memory` until `until`, first forgetting the oldest entries that are due or over the size. */
function remember(memory: Map<string, number>, hash: string, until: number, forgetAfter: number, now: number): void {
	for (const [known, at] of memory) {
		if (at + forgetAfter > now && memory.size < MAX_REJECTED_TOKENS) break;
		memory.delete(known);
	}
	memory.set(hash, until);
}

function rememberRejected(token: string, now: number): void {
	remember(rejectedTokens, sha256(token), now + REJECTED_TOKEN_MEMORY_MS, 0, now);
}

/** Whether this process knows the token dead: seen rejected, or one it received whose lifetime has run out. */
function knownDead(token: string, now: number): boolean {
	const hash = sha256(token);
	const lapsesAt = receivedTokens.get(hash);
	return rejectedTokens.has(hash) || (lapsesAt !== undefined && lapsesAt <= now);
}

// Messages name no host: n8n rewrites an error message that contains a system error code
// (ENOENT, EPERM, ...) anywhere in it, and a host name could contain one. Hosts go in descriptions.
function tokenStatusError(response: IN8nHttpFullResponse, tokenUrl: string, secrets: string[], attempts: number): UserError {
	const status = response.statusCode;
	const detail = serverMessage(response.body);
	const description = detail
		? `The token endpoint answered HTTP ${status}: ${redactText(detail, secrets)}`
		: `The token endpoint ${tokenUrl} answered HTTP ${status}`;
	const words = tokenStatusWords(status, tokenUrl, description, attempts);
	return new UserError(words.message, { description: words.description });
}

/** Who answers a request of no node, as its errors name it ("token endpoint", "merchant API"), its URL and the field that gives it. */
type Answerer = { name: string; baseUrl: string; field: 'Base URL' | 'Service Host URL' };

/** A request of no node under the policy and cap (send.ts): the last answer whatever its status; an error only when none came. */
async function sendForAnswer(
	way: Way,
	options: IHttpRequestOptions & { url: string },
	policy: { merchantKey: string; group: EndpointGroup; timeoutMs: number },
	answerer: Answerer,
): Promise<{ response: IN8nHttpFullResponse; attempts: number }> {
	let attempts = 0;
	let last: IN8nHttpFullResponse | undefined;
	const onAttempt = () => {
		attempts++;
		last = undefined;
	};
	const read = (answer: IN8nHttpFullResponse) => {
		answer.body = jsonOrText(answer.body) as IN8nHttpFullResponse['body'];
		last = answer;
		if (answer.statusCode === 429 || answer.statusCode >= 500) {
			// Thrown with its status and headers, so that the policy retries it.
			const response = { status: answer.statusCode, headers: answer.headers };
			throw Object.assign(new Error(`The service answered HTTP ${answer.statusCode}`), { response });
		}
		return answer;
	};
	try {
		const request = { ...options, ignoreHttpStatusErrors: true };
		const response = await send(way, { ...policy, idempotent: true }, request, { read, onAttempt });
		return { response, attempts };
	} catch (error) {
		// Without a node, the policy throws the last failure as it came (or RefusedTooLong).
		if (last) return { response: last, attempts };
		throw noAnswerError(error, answerer, options.url);
	}
}

/**
 * A UserError, as n8n's own credentials throw (there is no node for a NodeApiError). The original
 * error carries the request, body included: only its code is kept.
 */
function noAnswerError(error: unknown, answerer: Answerer, url: string): UserError {
	if (error instanceof RefusedTooLong) {
		return new UserError(unavailableMessage(answerer.name, 429), { description: error.message });
	}
	const tooLarge = answerTooLargeText(error, answerer.name);
	if (tooLarge) return new UserError(tooLarge.message, { description: `${tooLarge.description} (${answerer.name} ${shownUrl(url, 'site')})` });
	const code = errorCodeOf(error);
	return new UserError(`Could not reach the marketplace API: ${networkFailureReason(error)}`, {
		description: `Check the ${answerer.field} (${shownUrl(answerer.baseUrl, 'site')}) and that its host is reachable from n8n${code ? ` (${code})` : ''}.`,
	});
}

/** A new token, never from the cache (the credential test checks the values as they are now); a UserError says what to check. */
async function requestToken(
	way: Way,
	credentials: ICredentialDataDecryptedObject,
): Promise<{ token: string; lifetimeSeconds: number }> {
	const baseUrl = normalizeBaseUrl(credentials.baseUrl);
	const clientId = String(credentials.clientId ?? '');
	const clientSecret = String(credentials.clientSecret ?? '');
	const apiKey = String(credentials.apiKey ?? '');
	const tokenUrl = shownUrl(`${baseUrl}${PATHS.grant}`, 'site');
	const { response, attempts } = await sendForAnswer(
		way,
		{
			method: 'POST',
			url: `${baseUrl}${PATHS.grant}`,
			headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...(apiKey ? { 'X-API-Key': apiKey } : {}) },
			body: { grantType: 'CLIENT_CREDENTIALS', clientId, clientSecret, scope: 'public_api/full_access' },
			json: true,
		},
		{ merchantKey: `token|${baseUrl}${PATHS.grant}`, group: 'token', timeoutMs: TOKEN_REQUEST_TIMEOUT_MS },
		{ name: 'token endpoint', baseUrl, field: 'Base URL' },
	);
	if (response.statusCode < 200 || response.statusCode > 299) {
		throw tokenStatusError(response, tokenUrl, secretList([clientSecret, apiKey]), attempts);
	}
	const body = decodeJson(response.body, ANSWERS.token) as IDataObject | undefined;
	const token = body && typeof body === 'object' ? body.access_token : undefined;
	if (typeof token !== 'string' || token === '') {
		throw new UserError('The token endpoint answered without an access token', {
			description: `${tokenUrl} returned HTTP ${response.statusCode} but no access_token: check the Base URL.`,
		});
	}
	// `expires_in` as answers/read.ts reads it (a number, also from text such as "900"); anything else gets the default.
	const expiresIn = decodedNumber(body?.expires_in) ?? 0;
	return { token, lifetimeSeconds: expiresIn > 0 ? expiresIn : DEFAULT_TOKEN_LIFETIME_SECONDS };
}

/**
 * Whether the service rejects `token` now (401/403 to one GET of the warehouses, as the Test asks
 * them); any other answer, or none, is no proof: false.
 */
async function rejectedNow(helper: PlainHelper, credentials: ICredentialDataDecryptedObject, token: string): Promise<boolean> {
	const { baseUrl, serviceUrl } = hostsOf(credentials);
	const answerer: Answerer =
		serviceUrl === '' ? { name: 'merchant API', baseUrl, field: 'Base URL' } : { name: 'merchant API', baseUrl: serviceUrl, field: 'Service Host URL' };
	try {
		const { response } = await sendForAnswer(
			{ plain: helper },
			{ method: 'GET', url: `${answerer.baseUrl}${PATHS.warehouses}`, headers: { Accept: 'application/json', Authorization: `Bearer ${token}` } },
			{ merchantKey: merchantKeyOf(baseUrl, credentials.clientId), group: 'orders', timeoutMs: TOKEN_REQUEST_TIMEOUT_MS },
			answerer,
		);
		return response.statusCode === 401 || response.statusCode === 403;
	} catch {
		return false;
	}
}

/**
 * The token this process holds while valid and not seen rejected, else one new token request
 * shared by every caller meanwhile. `credentials.accessToken`: the caller's, empty or failed.
 *
 * Undefined: the caller keeps its token. n8n calls this after a request failed, to resend it with a
 * new token: the helper this package's requests go out with (send.ts) only after a 401, but the
 * legacy helper of the HTTP Request node (n8n-core `requestWithAuthentication`) after ANY failure, a
 * 503 or a timeout of a write the service may have applied. So, unless the call comes from the package's own
 * requests (send.ts `renewedOnlyAfter401`), a caller's token this process does not know dead is
 * probed first: only a token the service rejects now gets a new one (n8n then resends, rightly: a
 * 401 applied nothing); otherwise the answer without a token makes n8n surface the original error
 * instead of resending (its CredentialsHelper returns nothing when the expirable property is absent).
 */
export async function tokenFor(helper: PlainHelper, credentials: ICredentialDataDecryptedObject): Promise<string | undefined> {
	const callerToken = typeof credentials.accessToken === 'string' ? credentials.accessToken : '';
	if (callerToken !== '' && !renewedOnlyAfter401.has(credentials) && !knownDead(callerToken, Date.now())) {
		const hash = sha256(callerToken);
		let probe = tokenProbes.get(hash);
		if (!probe) {
			probe = rejectedNow(helper, credentials, callerToken).finally(() => tokenProbes.delete(hash));
			tokenProbes.set(hash, probe);
		}
		if (!(await probe)) return undefined;
	}

	const { clientId, clientSecret, apiKey } = credentials;
	const secretHash = sha256(`${String(clientSecret ?? '')}\u0000${String(apiKey ?? '')}`);
	const key = `${normalizeBaseUrl(credentials.baseUrl)}\u0000${String(clientId ?? '')}\u0000${secretHash}`;
	const now = Date.now();
	for (const [cachedKey, cached] of tokenCache) {
		if (!cached.pending && (cached.expiresAt === undefined || cached.expiresAt <= now)) tokenCache.delete(cachedKey);
	}
	const entry: TokenCacheEntry = tokenCache.get(key) ?? {};
	tokenCache.set(key, entry);

	// A token given here is never the one known to be rejected.
	if (callerToken !== '') rememberRejected(callerToken, now);
	// The token being requested now is newer than the caller's, which was already in use.
	if (entry.pending) return await entry.pending;
	// Not pending, so not pruned above: unexpired, or new and empty.
	if (entry.token && !rejectedTokens.has(sha256(entry.token))) return entry.token;
	entry.pending = requestToken({ plain: helper }, credentials)
		.then(({ token, lifetimeSeconds }) => {
			const lifetimeMs = lifetimeSeconds * 1000;
			const receivedAt = Date.now();
			entry.token = token;
			entry.expiresAt = receivedAt + lifetimeMs - Math.min(MAX_EXPIRY_MARGIN_MS, lifetimeMs / 10);
			// Issued before it was received: it lapses at the service by then at the latest.
			remember(receivedTokens, sha256(token), receivedAt + lifetimeMs, REJECTED_TOKEN_MEMORY_MS, receivedAt);
			return token;
		})
		// The request that asked for the token never went out: a write waiting for it was not applied.
		.catch((error: unknown) => {
			throw markedNotSent(error);
		})
		.finally(() => {
			entry.pending = undefined;
		});
	return await entry.pending;
}

/** The Test's verdict on the warehouses answer; `answerer.field`: the field whose host answered. */
function verdictOf(response: IN8nHttpFullResponse, secrets: string[], answerer: Answerer): INodeCredentialTestResult {
	const status = response.statusCode;
	// The token came from the Base URL, so a 404 here says where warehouses are not, not that the Base URL is wrong.
	if (status === 401 || status === 403) return { status: 'Error', message: testStatusWords(status, undefined) };
	if (status === 404 || (status === 500 && isNotServedBody(response.body))) {
		const at = answerer.field === 'Base URL' ? 'base' : 'service';
		return { status: 'Error', message: notServedText(SERVICE_HOST_ENDPOINTS.warehouses.what, at, status).message };
	}
	if (status < 200 || status > 299) {
		const detail = serverMessage(response.body);
		return { status: 'Error', message: testStatusWords(status, detail === undefined ? undefined : redactText(detail, secrets)) };
	}
	// A Base URL that points at a web site can answer 200 with a page: the API answers JSON.
	if (!response.body || typeof response.body !== 'object' || Buffer.isBuffer(response.body)) {
		const field = answerer.field;
		return { status: 'Error', message: `The ${field} answered HTTP ${status}, but not as the merchant API (no JSON): check the ${field}` };
	}
	// What n8n answers for a passed `test` request.
	return { status: 'OK', message: 'Connection successful!' };
}

export async function testMerchantCredential(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const values = credential.data ?? {};
	const way: Way = { legacy: this };
	const { baseUrl, serviceUrl } = hostsOf(values);
	// Warehouses live on the service host where one is given (endpoints.ts), as Warehouse › Get Many asks them.
	const answerer: Answerer =
		serviceUrl === '' ? { name: 'merchant API', baseUrl, field: 'Base URL' } : { name: 'merchant API', baseUrl: serviceUrl, field: 'Service Host URL' };
	try {
		const { token } = await requestToken(way, values);
		const { response } = await sendForAnswer(
			way,
			{ method: 'GET', url: `${answerer.baseUrl}${PATHS.warehouses}`, headers: { Accept: 'application/json', Authorization: `Bearer ${token}` } },
			// The gate Warehouse › Get Many waits at for the same request: the merchant's, whichever host.
			{ merchantKey: merchantKeyOf(baseUrl, values.clientId), group: 'orders', timeoutMs: DEFAULT_TIMEOUT_MS },
			answerer,
		);
		return verdictOf(response, secretList([values.clientSecret, values.apiKey, token]), answerer);
	} catch (error) {
		// requestToken and sendForAnswer fail only with UserErrors worded for users, secrets left out.
		return { status: 'Error', message: (error as Error).message };
	}
}

/**
 * What the node, the trigger and the credential agree on about the credential: its type name and
 * how its Base URL is read (trimmed, without trailing slashes). The rule is written twice on
 * purpose, side by side: as a function for code, and as an expression for the description n8n
 * resolves itself (the node's request defaults), which cannot call code.
 */
export const CREDENTIAL_TYPE = 'marketplaceMerchantApi';

/** The base URL as requests use it: trimmed, without trailing slashes. */
export function normalizeBaseUrl(baseUrl: unknown): string {
	return String(baseUrl ?? '').trim().replace(/\/+$/, '');
}

/** `normalizeBaseUrl` as an n8n expression over the credential's Base URL. */
export const BASE_URL_EXPRESSION = '={{ String($credentials.baseUrl ?? "").trim().replace(/\\/+$/, "") }}';

/** The account whose rate limits a request counts against: one per Base URL and client. */
export function merchantKeyOf(baseUrl: string, clientId: unknown): string {
	return `${baseUrl}|${String(clientId ?? '')}`;
}

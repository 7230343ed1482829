/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- benchmark code (`npm run bench`) and never loaded by n8n: it may use fixed test keys of the sandbox (docs/architecture.md, Toolchain). */
/**
 * The baseline a node is compared with: what a user's own script would do with `fetch` to get
 * the same data. It does the same work the node's user gets (every page fetched, its JSON
 * parsed, all products gathered in one array), and nothing more.
 */
import { LIMITS, PATHS } from '../nodes/MarketplaceMerchant/transport/endpoints';
import type { BenchClient } from './remote-sandbox';

export const TOKEN_PATH = '/iam/api/v1/auth/token';

export async function requestToken(baseUrl: string, client: BenchClient): Promise<string> {
	const response = await fetch(`${baseUrl}${TOKEN_PATH}`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
		body: JSON.stringify({
			grantType: 'CLIENT_CREDENTIALS',
			clientId: client.clientId,
			clientSecret: client.clientSecret,
			scope: 'public_api/full_access',
		}),
	});
	if (!response.ok) throw new Error(`token request answered HTTP ${response.status}`);
	return ((await response.json()) as { access_token: string }).access_token;
}

export interface FetchedPages {
	products: object[];
	/** Bytes of JSON received (response bodies). */
	bytes: number;
	requests: number;
}

/** GET basic-products page by page (2,500 a page) until a short page, as Return All does. */
export async function fetchAllBasicProducts(baseUrl: string, token: string): Promise<FetchedPages> {
	const size = LIMITS.basicProductsPageSize;
	const products: object[] = [];
	let bytes = 0;
	for (let page = 0; page < 10_000; page++) {
		const response = await fetch(`${baseUrl}${PATHS.basicProducts}?page=${page}&size=${size}`, {
			headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' },
		});
		const text = await response.text();
		if (!response.ok) throw new Error(`page ${page} answered HTTP ${response.status}`);
		bytes += Buffer.byteLength(text);
		const pageProducts = JSON.parse(text) as object[];
		for (const product of pageProducts) products.push(product);
		if (pageProducts.length < size) return { products, bytes, requests: page + 1 };
	}
	throw new Error('basic-products never answered a short page');
}

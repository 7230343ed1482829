/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-hardcoded-secrets, @typescript-eslint/no-explicit-any -- test code, run by jest and never loaded by n8n: it may use process and timers, fixed test keys of the sandbox, `any` for untyped JSON bodies (docs/architecture.md, Toolchain). */
/** Small HTTP helpers for the sandbox's own tests (real requests with global fetch). */
import type { Sandbox } from '../../sandbox';

export const PRODUCT_API = '/product/api/v1/merchant-integration';
export const ORDER_API = '/order/api/v1/merchant-integration';
export const PAYMENT_API = '/payment/api/v1/merchant-integration';
export const TOKEN_PATH = '/iam/api/v1/auth/token';

export interface Answer<T = any> {
	status: number;
	headers: Headers;
	text: string;
	/** Parsed JSON, or undefined when the body is not JSON. */
	json: T;
}

export async function call<T = any>(
	sandbox: Pick<Sandbox, 'url'>,
	method: string,
	path: string,
	options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer<T>> {
	const headers: Record<string, string> = { ...options.headers };
	if (options.token) headers.Authorization = `Bearer ${options.token}`;
	let body: string | undefined;
	if (options.body !== undefined) {
		body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
		headers['Content-Type'] ??= 'application/json';
	}
	const response = await fetch(`${sandbox.url}${path}`, { method, headers, body });
	const text = await response.text();
	let json: any;
	try {
		json = JSON.parse(text);
	} catch {
		json = undefined;
	}
	return { status: response.status, headers: response.headers, text, json };
}

export function tokenRequest(sandbox: Sandbox): Record<string, string> {
	return {
		grantType: 'CLIENT_CREDENTIALS',
		clientId: sandbox.client.clientId,
		clientSecret: sandbox.client.clientSecret,
		scope: 'public_api/full_access',
	};
}

export async function getToken(sandbox: Sandbox, request = tokenRequest(sandbox)): Promise<string> {
	const answer = await call(sandbox, 'POST', TOKEN_PATH, { body: request });
	if (answer.status !== 200) throw new Error(`token request failed: ${answer.status} ${answer.text}`);
	return answer.json.access_token as string;
}

export function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

/** dd/MM/yyyy of a UTC day offset from a date. */
export function dayMonthYear(from: Date, dayOffset = 0): string {
	const date = new Date(from.getTime() + dayOffset * 86_400_000);
	const iso = date.toISOString();
	return `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;
}

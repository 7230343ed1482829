/* eslint-disable @n8n/community-nodes/no-restricted-imports -- sandbox code (the service twin tests and the bench run) and never loaded by n8n: it may use Node modules (docs/architecture.md, Toolchain). */
/**
 * Per-merchant rate limits of the live service (platform-facts "Rate limits"), as sliding windows:
 * a request is accepted when fewer than `limit` requests were accepted in the last window. Rejected
 * requests do not count. Windows run on real (monotonic) time, not on the sandbox clock.
 */
import { performance } from 'node:perf_hooks';
import type { RateLimitConfig, RouteKey } from './types';

export type RateLimitGroup = 'products' | 'orders' | 'discounts' | 'discountCancellation' | 'labels';

interface Window {
	limit: number;
	lengthMs: number;
}

const SECOND_MS = 1000;
const MINUTE_MS = 60_000;

export const RATE_LIMIT_GROUPS: Record<RateLimitGroup, Window[]> = {
	products: [
		{ limit: 60, lengthMs: MINUTE_MS },
		{ limit: 5, lengthMs: SECOND_MS },
	],
	orders: [
		{ limit: 300, lengthMs: MINUTE_MS },
		{ limit: 5, lengthMs: SECOND_MS },
	],
	discounts: [{ limit: 60, lengthMs: MINUTE_MS }],
	discountCancellation: [{ limit: 500, lengthMs: MINUTE_MS }],
	// Not stated (orders-and-shipments.md): the labels' own service (/lmd/) with the order group's numbers.
	labels: [
		{ limit: 300, lengthMs: MINUTE_MS },
		{ limit: 5, lengthMs: SECOND_MS },
	],
};

export const ROUTE_GROUPS: Partial<Record<RouteKey, RateLimitGroup>> = {
	products: 'products',
	basicProducts: 'products',
	import: 'products',
	productBulk: 'products',
	productUpdate: 'products',
	eanExists: 'products',
	productTypes: 'products',
	warehouses: 'orders',
	invoices: 'orders',
	invoiceCorrections: 'orders',
	invoiceUrls: 'orders',
	invoiceCorrectionUrls: 'orders',
	// The order flow's group: 300 a minute, 5 a second (orders-and-shipments.md).
	orderStatuses: 'orders',
	orderStatusGroups: 'orders',
	orders: 'orders',
	orderConfirm: 'orders',
	shipments: 'orders',
	shipmentPack: 'orders',
	labelV1: 'labels',
	labelV2: 'labels',
	// Not stated: counted with the product endpoints of the same service, the stricter reading.
	productPublish: 'products',
	productUnpublish: 'products',
	prices: 'discounts',
	discountSchedule: 'discounts',
	discountUpdate: 'discounts',
	discountList: 'discounts',
	discountCancel: 'discountCancellation',
};

export type RateDecision = { allowed: true } | { allowed: false; retryAfterMs: number };

export class RateLimiter {
	private scale = 1;
	private enabled = true;
	/** Whether a 429 carries Retry-After (the live service sends it only sometimes). */
	private retryAfter = true;
	/** Accepted request times per merchant and group, oldest first. */
	private readonly accepted = new Map<string, number[]>();

	constructor(config: RateLimitConfig = { scale: 1 }) {
		this.configure(config);
	}

	/** Replaces the limits and forgets the requests seen so far. */
	configure(config: RateLimitConfig): void {
		const scale = config === false ? 1 : (config.scale ?? 1);
		if (!(scale > 0) || !Number.isFinite(scale)) throw new Error('rate limit scale must be a positive number');
		this.enabled = config !== false;
		this.scale = scale;
		this.retryAfter = config === false || config.retryAfter !== false;
		this.accepted.clear();
	}

	get config(): RateLimitConfig {
		if (!this.enabled) return false;
		return this.retryAfter ? { scale: this.scale } : { scale: this.scale, retryAfter: false };
	}

	/** Records the request when accepted; otherwise says when the next one would be. */
	check(merchant: string, group: RateLimitGroup, nowMs = performance.now()): RateDecision {
		if (!this.enabled) return { allowed: true };
		const windows = RATE_LIMIT_GROUPS[group];
		const key = `${group}\n${merchant}`;
		const times = this.accepted.get(key) ?? [];
		const longest = Math.max(...windows.map((window) => window.lengthMs)) / this.scale;
		while (times.length > 0 && times[0] <= nowMs - longest) times.shift();
		let nextAcceptedAt = nowMs;
		for (const window of windows) {
			const lengthMs = window.lengthMs / this.scale;
			const inWindow = times.length - this.firstInWindow(times, nowMs - lengthMs);
			// The request fits once the oldest of the last `limit` accepted ones leaves the window.
			if (inWindow >= window.limit) nextAcceptedAt = Math.max(nextAcceptedAt, times[times.length - window.limit] + lengthMs);
		}
		if (nextAcceptedAt > nowMs) return { allowed: false, retryAfterMs: nextAcceptedAt - nowMs };
		times.push(nowMs);
		this.accepted.set(key, times);
		return { allowed: true };
	}

	/** Retry-After value: whole seconds at the live scale, decimal seconds when scaled; undefined when switched off. */
	formatRetryAfter(retryAfterMs: number): string | undefined {
		if (!this.retryAfter) return undefined;
		if (this.scale === 1) return String(Math.max(1, Math.ceil(retryAfterMs / 1000)));
		return String(Math.max(0.001, Math.ceil(retryAfterMs) / 1000));
	}

	private firstInWindow(times: number[], windowStart: number): number {
		let low = 0;
		let high = times.length;
		while (low < high) {
			const middle = (low + high) >>> 1;
			if (times[middle] <= windowStart) low = middle + 1;
			else high = middle;
		}
		return low;
	}
}

/* eslint-disable @n8n/community-nodes/no-restricted-imports -- benchmark code (`npm run bench`) and never loaded by n8n: it may use Node modules (docs/architecture.md, Toolchain). */
/**
 * A sandbox in its own process (bench/sandbox-process.ts), driven over its HTTP controls
 * (`/__sandbox/…`, see sandbox/README.md). Each sandbox has several clients: every scenario
 * uses a client of its own, so that it starts with no token cached in this process, no
 * pacing state left by an earlier scenario and fresh rate-limit windows on the service.
 */
import { randomBytes } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { paceNodeAs } from '../sandbox/nodePacing';
import {
	scaleOf,
	type AddOrdersOptions,
	type FaultSpec,
	type OrderRecord,
	type RateLimitConfig,
	type RequestLogEntry,
	type RouteKey,
	type SandboxOptions,
	type SandboxVariants,
	type ShipmentRecord,
} from '../sandbox';
import { resultOf, startScript, stopChild } from './processes';

export interface BenchClient {
	clientId: string;
	clientSecret: string;
}

export type RemoteSandboxOptions = Omit<SandboxOptions, 'port' | 'clients'> & {
	/** How many separate clients (merchant accounts) to create. */
	clients?: number;
};

const START_TIMEOUT_MS = 60_000;

export class RemoteSandbox {
	private nextClient = 0;

	private constructor(
		readonly url: string,
		private readonly clients: BenchClient[],
		private readonly child: ChildProcess,
		/** The limits the sandbox applies: the node in this process paces to them (as startSandbox arranges in process). */
		private rateLimits: RateLimitConfig,
	) {
		this.stopPacing = paceNodeAs(() => scaleOf(this.rateLimits));
	}

	private readonly stopPacing: () => void;

	static async start(options: RemoteSandboxOptions = {}): Promise<RemoteSandbox> {
		const { clients: clientCount = 40, ...sandboxOptions } = options;
		const clients = Array.from({ length: clientCount }, (_, index) => ({
			clientId: `bench-client-${index + 1}`,
			clientSecret: `bench-secret-${randomBytes(16).toString('hex')}`,
		}));
		const child = startScript('sandbox-process.ts', {
			BENCH_SANDBOX_OPTIONS: JSON.stringify({ logLimit: 500_000, ...sandboxOptions, clients }),
		});
		const { url } = await resultOf<{ url: string }>(child, START_TIMEOUT_MS);
		return new RemoteSandbox(url, clients, child, sandboxOptions.rateLimits ?? { scale: 1 });
	}

	/** A client no scenario has used yet. */
	freshClient(): BenchClient {
		const client = this.clients[this.nextClient++];
		if (!client) throw new Error('The bench sandbox ran out of clients: start it with more');
		return client;
	}

	/** The credential data a user would enter for a client. */
	credentials(client: BenchClient): ICredentialDataDecryptedObject {
		return { baseUrl: this.url, clientId: client.clientId, clientSecret: client.clientSecret, apiKey: '' };
	}

	async log(route?: RouteKey): Promise<RequestLogEntry[]> {
		return (await this.control('GET', `log${route ? `?route=${route}` : ''}`)) as RequestLogEntry[];
	}

	async clearLog(): Promise<void> {
		await this.control('DELETE', 'log');
	}

	async injectFault(fault: FaultSpec | FaultSpec[]): Promise<void> {
		await this.control('POST', 'faults', fault);
	}

	async clearFaults(): Promise<void> {
		await this.control('DELETE', 'faults');
	}

	async setRateLimits(config: RateLimitConfig): Promise<void> {
		await this.control('POST', 'rate-limits', config === false ? { enabled: false } : config);
		this.rateLimits = config;
	}

	async setVariants(changes: Partial<SandboxVariants>): Promise<void> {
		await this.control('POST', 'variants', changes);
	}

	async resetVariants(): Promise<void> {
		await this.control('DELETE', 'variants');
	}

	async setTokenLifetime(seconds: number): Promise<void> {
		await this.control('POST', 'token-lifetime', { seconds });
	}

	async addInvoice(overrides: object): Promise<void> {
		await this.control('POST', 'invoices', { overrides });
	}

	/** Changes made on the platform's side (sales): stock down by `sold` or set to `stockLevel`, modified now. */
	async recordProductChanges(changes: Array<{ id: number; sold?: number; stockLevel?: number }>): Promise<void> {
		await this.control('POST', 'product-changes', changes);
	}

	/** New orders For Confirmation (`POST /__sandbox/orders`), created now unless `createdDate` says otherwise; answers their records. */
	async addOrders(count = 1, options: AddOrdersOptions = {}): Promise<OrderRecord[]> {
		return (await this.control('POST', 'orders', { count, ...options })) as OrderRecord[];
	}

	/** A shipment one step along the usual path (the carrier's next step), or to `to` (any status by name); answers the shipment. */
	async advanceShipment(suborderId: string, to?: string): Promise<ShipmentRecord> {
		return (await this.control('POST', `shipments/${encodeURIComponent(suborderId)}/advance`, to === undefined ? {} : { to })) as ShipmentRecord;
	}

	/** A collection of the sandbox's state (`orders`, `shipments`, `publications`, `products`, …): `GET /__sandbox/state/<collection>`. */
	async state<T>(collection: string): Promise<T[]> {
		return (await this.control('GET', `state/${collection}`)) as T[];
	}

	/** Sets the sandbox clock (modification times of product changes follow it). */
	async setClock(now: Date): Promise<void> {
		await this.control('POST', 'clock', { set: now.toISOString() });
	}

	async close(): Promise<void> {
		this.stopPacing();
		await stopChild(this.child);
	}

	/** Any `/__sandbox/<action>` control (sandbox/README.md), answered as parsed JSON. */
	async control(method: string, action: string, body?: unknown): Promise<unknown> {
		const response = await fetch(`${this.url}/__sandbox/${action}`, {
			method,
			headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await response.text();
		if (!response.ok) throw new Error(`sandbox control ${method} ${action} answered ${response.status}: ${text.slice(0, 200)}`);
		return text === '' ? undefined : (JSON.parse(text) as unknown);
	}
}

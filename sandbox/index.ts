/* eslint-disable @n8n/community-nodes/require-node-api-error -- sandbox code (the service twin tests and the bench run) and never loaded by n8n: it may use plain errors (docs/architecture.md, Toolchain). */
/**
 * Local implementation of the marketplace's Merchant Integration API for tests, benchmarks and
 * newcomers. See README.md beside this file and docs/architecture.md ("Sandbox").
 */
import { SandboxCore } from './core';
import { paceNodeAs } from './nodePacing';
import { SandboxServer } from './server';
import type { SandboxVariants } from './variants';
import type { AddOrdersOptions, OrderRecord, ShipmentRecord } from './order-types';
import type {
	AddDocumentOptions,
	DeepPartial,
	FaultSpec,
	Invoice,
	InvoiceCorrection,
	LoggedRouteKey,
	RateLimitConfig,
	RequestLogEntry,
	SandboxClient,
	SandboxClockControl,
	SandboxOptions,
	SandboxState,
} from './types';

export * from './types';
export * from './order-types';
export type { ShipmentStatus } from './order-statuses';
export type { SandboxVariants, XmlListStyle } from './variants';

export interface Sandbox {
	/** `http://127.0.0.1:PORT`: the credential's Base URL. */
	readonly url: string;
	readonly port: number;
	/**
	 * The environment's service host, another port on the same state, tokens and limits: it serves
	 * warehouses and prices where variants.ts `warehousesAndPricesOn` says so, nothing else.
	 */
	readonly serviceUrl: string;
	/** The first accepted client (by default `sandbox-client` / `sandbox-secret`). */
	readonly client: SandboxClient;
	/** Every request, oldest first (live array, capped; do not modify). */
	readonly log: RequestLogEntry[];
	count(route: LoggedRouteKey): number;
	clearLog(): void;
	injectFault(fault: FaultSpec): void;
	clearFaults(): void;
	/** Switches the live service's answer variants on or off (variants.ts); the others keep their value. */
	setVariants(changes: Partial<SandboxVariants>): SandboxVariants;
	/** All variants off: answers in the spec's shape. */
	resetVariants(): void;
	setRateLimits(config: RateLimitConfig): void;
	setTokenLifetime(seconds: number): void;
	expireAllTokens(): void;
	readonly clock: SandboxClockControl;
	addInvoice(overrides?: DeepPartial<Invoice>, options?: AddDocumentOptions): Invoice;
	addInvoiceCorrection(overrides?: DeepPartial<InvoiceCorrection>, options?: AddDocumentOptions): InvoiceCorrection;
	/** New orders For Confirmation (default 1), created now, with lines from the catalogue's products. */
	addOrders(count?: number, options?: AddOrdersOptions): OrderRecord[];
	/**
	 * Moves a shipment to `to` (any status name), or one step along the usual path: CREATED is
	 * confirmed in full as ordered (each line from the warehouse it was ordered from), a confirmed one packed in full in one box, a
	 * packed one READY_FOR_COLLECTION, then COLLECTED, ON_DELIVERY, DELIVERED.
	 */
	advanceShipment(suborderId: string, to?: string): ShipmentRecord;
	/** EANs the master catalogue knows from other merchants (not this merchant's products): ean/exists answers true, GET products finds none. */
	addCatalogueEans(eans: string[]): void;
	readonly state: SandboxState;
	close(): Promise<void>;
}

/** The scale a rate-limit configuration applies (false: no limits). */
export function scaleOf(config: RateLimitConfig): number | false {
	return config === false ? false : (config.scale ?? 1);
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
	const core = new SandboxCore(options);
	const server = new SandboxServer(core);
	const serviceServer = new SandboxServer(core, 'service');
	const port = await server.listen(options.port ?? 0);
	const url = `http://127.0.0.1:${port}`;
	core.baseUrl = url;
	try {
		core.serviceUrl = `http://127.0.0.1:${await serviceServer.listen(options.servicePort ?? 0)}`;
	} catch (error) {
		await server.close();
		throw error;
	}
	// The node in this process paces to the limits this sandbox applies (scaled or off), as it
	// paces to the live ones against the service (nodePacing.ts).
	const stopPacing = paceNodeAs(() => scaleOf(core.rateLimiter.config));
	return {
		url,
		port,
		serviceUrl: core.serviceUrl,
		client: core.clients[0],
		get log() {
			return core.log.entries;
		},
		count: (route) => core.log.count(route),
		clearLog: () => core.log.clear(),
		injectFault: (fault) => core.faults.add(fault),
		clearFaults: () => core.faults.clear(),
		setVariants: (changes) => core.variants.set(changes),
		resetVariants: () => core.variants.reset(),
		setRateLimits: (config) => core.rateLimiter.configure(config),
		setTokenLifetime: (seconds) => core.tokens.setLifetime(seconds),
		expireAllTokens: () => core.tokens.expireAll(),
		clock: core.clock,
		addInvoice: (overrides, addOptions) => core.addInvoice(overrides, addOptions),
		addInvoiceCorrection: (overrides, addOptions) => core.addInvoiceCorrection(overrides, addOptions),
		addOrders: (count, orderOptions) => core.addOrders(count, orderOptions),
		addCatalogueEans: (eans) => eans.forEach((ean) => core.catalogueEans.add(ean)),
		advanceShipment: (suborderId, to) => core.orders.advance(suborderId, to),
		state: core.state,
		close: async () => {
			stopPacing();
			await Promise.all([server.close(), serviceServer.close()]);
		},
	};
}

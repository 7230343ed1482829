/* eslint-disable @typescript-eslint/no-this-alias -- sandbox code (the service twin tests and the bench run) and never loaded by n8n: it may use `core` for the outer `this` in getters (docs/architecture.md, Toolchain). */
/** Everything the sandbox holds, shared by the HTTP routes and the in-process controls. */
import { SandboxClock } from './clock';
import { PRODUCT_TYPE_NAMES, seedWarehouses } from './data';
import { toEpochMs } from './dates';
import { DiscountBook } from './discounts';
import { DocumentLinkSigner } from './document-links';
import { DocumentStore } from './document-store';
import { FaultQueue } from './faults';
import { InvoiceFactory, seedDocuments } from './invoice-factory';
import { OrderBook } from './order-book';
import type { AddOrdersOptions, OrderRecord, PublicationRecord } from './order-types';
import { ProductCatalog } from './products';
import { Rng, mixSeed } from './random';
import { RateLimiter } from './rate-limit';
import { RequestLog } from './request-log';
import { TokenStore } from './tokens';
import { VariantSwitches } from './variants';
import type {
	AddDocumentOptions,
	DeepPartial,
	Invoice,
	InvoiceCorrection,
	ProductTypeRecord,
	SandboxClient,
	SandboxOptions,
	SandboxState,
	WarehouseRecord,
} from './types';
import { isRecord } from './values';

export const DEFAULT_CLIENT: SandboxClient = { clientId: 'sandbox-client', clientSecret: 'sandbox-secret' };
const DEFAULT_PRODUCTS = 300;
const DEFAULT_ORDERS = 20;
const DEFAULT_TOKEN_LIFETIME_SECONDS = 900;
const DEFAULT_LOG_LIMIT = 200_000;

/** Overrides merged into a generated document: objects merge field by field, anything else replaces. */
function deepMerge<T>(base: T, overrides: unknown): T {
	if (!isRecord(overrides) || !isRecord(base)) return (overrides === undefined ? base : overrides) as T;
	const merged: Record<string, unknown> = { ...base };
	for (const [key, value] of Object.entries(overrides)) {
		if (value !== undefined) merged[key] = deepMerge(merged[key], value);
	}
	return merged as T;
}

function invoicedMsOf(overrides: { invoiceHeader?: { orderDetails?: { invoicedDate?: string } } }, fallback: number): number {
	const invoicedDate = overrides.invoiceHeader?.orderDetails?.invoicedDate;
	return invoicedDate === undefined ? fallback : toEpochMs(invoicedDate);
}

export class SandboxCore {
	readonly clock: SandboxClock;
	readonly catalog: ProductCatalog;
	/**
	 * EANs the marketplace's master catalogue knows that this merchant does not sell (other
	 * merchants' products): `ean/exists` answers true for them, GET products finds none, and an
	 * import of one is a new listing of this merchant.
	 */
	readonly catalogueEans = new Set<string>();
	readonly warehouses: WarehouseRecord[];
	readonly productTypes: ProductTypeRecord[] = PRODUCT_TYPE_NAMES;
	readonly invoices = new DocumentStore<Invoice>((invoice) => ({
		type: invoice.invoiceHeader.invoiceType,
		suborderId: invoice.invoiceHeader.orderDetails.suborderId,
		correlationId: invoice.invoiceHeader.orderDetails.invoiceId,
		invoicedDate: invoice.invoiceHeader.orderDetails.invoicedDate,
	}));
	readonly corrections = new DocumentStore<InvoiceCorrection>((correction) => ({
		type: correction.invoiceHeader.invoiceType,
		suborderId: correction.invoiceHeader.orderDetails.suborderId,
		correlationId: correction.invoiceHeader.orderDetails.invoiceNumber,
		invoicedDate: correction.invoiceHeader.orderDetails.invoicedDate,
	}));
	readonly discounts: DiscountBook;
	/** Orders and their shipments (order-book.ts). */
	readonly orders: OrderBook;
	/** Every publish / unpublish request, oldest first (routes/publish.ts). */
	readonly publications: PublicationRecord[] = [];
	readonly tokens: TokenStore;
	readonly rateLimiter: RateLimiter;
	readonly faults = new FaultQueue();
	/** Answer-shape and behaviour switches (variants.ts); all off by default. */
	readonly variants = new VariantSwitches();
	readonly log: RequestLog;
	readonly links = new DocumentLinkSigner();
	readonly clients: SandboxClient[];
	/** Set once the server listens; document links point here. */
	baseUrl = '';
	/** The service host's URL (server.ts), set once it listens. */
	serviceUrl = '';
	private readonly factory: InvoiceFactory;

	constructor(options: SandboxOptions = {}) {
		const seed = options.seed ?? 1;
		this.clock = new SandboxClock(options.now);
		const startMs = this.clock.nowMs();
		const productCount = options.products ?? DEFAULT_PRODUCTS;
		if (!Number.isInteger(productCount) || productCount < 0) throw new Error('products must be a non-negative integer');
		this.catalog = new ProductCatalog(seed, productCount, startMs, () => this.clock.nowMs());
		this.warehouses = seedWarehouses(seed);
		this.factory = new InvoiceFactory(seed, this.catalog, this.warehouses);
		const seeded = seedDocuments(this.factory, seed, startMs);
		for (const invoice of seeded.invoices) this.invoices.add(invoice);
		for (const correction of seeded.corrections) this.corrections.add(correction);
		this.discounts = new DiscountBook(seed, this.catalog, this.clock, () => this.variants.current.market, () => this.variants.current.serviceTimeZone);
		this.orders = new OrderBook(seed, this.catalog, this.warehouses, () => this.clock.nowMs(), () => this.variants.current.carrierAllocationMs);
		const orderCount = options.orders ?? DEFAULT_ORDERS;
		if (!Number.isInteger(orderCount) || orderCount < 0) throw new Error('orders must be a non-negative integer');
		this.orders.seed(new Rng(mixSeed(seed, 0x5eed0d)), orderCount, startMs);
		this.tokens = new TokenStore(options.tokenLifetimeSeconds ?? DEFAULT_TOKEN_LIFETIME_SECONDS);
		this.rateLimiter = new RateLimiter(options.rateLimits ?? { scale: 1 });
		this.log = new RequestLog(options.logLimit ?? DEFAULT_LOG_LIMIT);
		this.clients = options.clients && options.clients.length > 0 ? options.clients : [DEFAULT_CLIENT];
	}

	/** A new invoice (invoiced now unless overridden), visible from `visibleAt` or its invoiced date. */
	addInvoice(overrides: DeepPartial<Invoice> = {}, options: AddDocumentOptions = {}): Invoice {
		const base = this.factory.invoice(invoicedMsOf(overrides, this.clock.nowMs()), overrides.invoiceHeader?.invoiceType);
		const invoice = deepMerge(base, overrides);
		this.invoices.add(invoice, options.visibleAt === undefined ? undefined : toEpochMs(options.visibleAt));
		return invoice;
	}

	addInvoiceCorrection(
		overrides: DeepPartial<InvoiceCorrection> = {},
		options: AddDocumentOptions = {},
	): InvoiceCorrection {
		const invoicedMs = invoicedMsOf(overrides, this.clock.nowMs());
		const base = this.factory.correction(invoicedMs, undefined, overrides.invoiceHeader?.invoiceType);
		const correction = deepMerge(base, overrides);
		this.corrections.add(correction, options.visibleAt === undefined ? undefined : toEpochMs(options.visibleAt));
		return correction;
	}

	/** New orders For Confirmation, created now unless `createdDate` says otherwise. */
	addOrders(count = 1, options: AddOrdersOptions = {}): OrderRecord[] {
		const createdMs = options.createdDate === undefined ? this.clock.nowMs() : toEpochMs(options.createdDate);
		return this.orders.add(count, options, createdMs);
	}

	readonly state: SandboxState = (() => {
		const core = this;
		return {
			get products() {
				return core.catalog.all();
			},
			get productCount() {
				return core.catalog.size;
			},
			product: (id: number) => core.catalog.getById(id),
			productByEan: (ean: string) => core.catalog.getByEan(ean),
			get productTypes() {
				return core.productTypes;
			},
			get warehouses() {
				return core.warehouses;
			},
			get invoices() {
				return core.invoices.all();
			},
			get corrections() {
				return core.corrections.all();
			},
			get discounts() {
				return core.discounts.all();
			},
			get orders() {
				return [...core.orders.allOrders()];
			},
			order: (id: string) => core.orders.order(id),
			get shipments() {
				return core.orders.allShipments();
			},
			shipment: (suborderId: string) => core.orders.shipment(suborderId),
			get publications() {
				return core.publications;
			},
		};
	})();
}

/**
 * Public types of the sandbox: the API's resource shapes (as in the spec) and the in-process
 * controls (docs/architecture.md, section "Sandbox").
 */

import type { OrderRecord, ProductStatus, PublicationRecord, ShipmentRecord } from './order-types';

export type RouteKey =
	| 'token'
	| 'products'
	| 'basicProducts'
	| 'import'
	| 'productBulk'
	| 'productUpdate'
	| 'productTypes'
	| 'eanExists'
	| 'warehouses'
	| 'invoices'
	| 'invoiceCorrections'
	| 'invoiceUrls'
	| 'invoiceCorrectionUrls'
	| 'discountSchedule'
	| 'discountUpdate'
	| 'discountList'
	| 'discountCancel'
	| 'prices'
	| 'document'
	| 'orderStatuses'
	| 'orderStatusGroups'
	| 'orders'
	| 'orderConfirm'
	| 'shipments'
	| 'shipmentPack'
	| 'labelV1'
	| 'labelV2'
	| 'labelFile'
	| 'productPublish'
	| 'productUnpublish'
	| 'control';

/** Route key logged for requests that match no route. */
export type LoggedRouteKey = RouteKey | 'unknown';

export interface RequestLogEntry {
	/** Real time (epoch milliseconds) the request arrived. */
	at: number;
	method: string;
	/** URL path without the query string. */
	path: string;
	route: LoggedRouteKey;
	/** Query parameters; a repeated parameter's values are joined with commas. */
	query: Record<string, string>;
	status: number;
	/** Items in the request: array length for bulk bodies, number of ids for prices and /urls. */
	itemCount?: number;
	/** Size of the request body in bytes. */
	bodyBytes: number;
	/** Set only for a request that arrived at the service host (`sandbox.serviceUrl`). */
	host?: 'service';
	/**
	 * Set when an `applyThen` fault replaced the answer: the status the route gave before (2xx: the
	 * request was applied though the client got `status` or a cut connection).
	 */
	appliedStatus?: number;
}

export type { FaultBody, FaultSpec } from './fault-types';

/**
 * `scale` N makes every window N times shorter. `retryAfter: false` answers 429 without a
 * Retry-After header (the live service sends it only sometimes); by default it is sent.
 */
export type RateLimitConfig = false | { scale?: number; retryAfter?: boolean };

export interface SandboxClient {
	clientId: string;
	clientSecret: string;
	/** When set, the token call must carry this X-API-Key header. */
	apiKey?: string;
	/** Routes this client's tokens are not allowed to call (answered 403). */
	deniedRoutes?: RouteKey[];
}

export interface SandboxOptions {
	/** 0 (default) picks a free port; the sandbox always listens on 127.0.0.1. */
	port?: number;
	/** Port of the service host, the environment's second host (variants.ts `warehousesAndPricesOn`); 0 (default): a free port. */
	servicePort?: number;
	/** Lifetime of issued tokens in real seconds; may be fractional. Default 900. */
	tokenLifetimeSeconds?: number;
	/** Live limits by default; `{ scale: N }` makes every window N times shorter; false disables. */
	rateLimits?: RateLimitConfig;
	/** Start of the sandbox clock (default: real now). */
	now?: string | number | Date;
	/** Seed of the generated data. Default 1. */
	seed?: number;
	/** Number of seeded products. Default 300. */
	products?: number;
	/** Number of seeded orders, created over the week before the clock's start, at every stage of their flow. Default 20. */
	orders?: number;
	/** Accepted clients; default one client `sandbox-client` / `sandbox-secret`. */
	clients?: SandboxClient[];
	/** Request log cap (oldest entries are dropped). Default 200,000. */
	logLimit?: number;
}

export interface SandboxClockControl {
	now(): Date;
	set(date: string | number | Date): void;
	advance(ms: number): void;
}

// ---------------------------------------------------------------------------------------------
// Products

export type WarehouseKind = 'PLATFORM_WAREHOUSE' | 'MERCHANT_WAREHOUSE';
export type WeightUnit = 'KG' | 'G';

/** Element of GET products. */
export interface Product {
	id: number;
	externalId: string;
	ean: string;
	platformCode: string;
	name: string;
	description: string;
	/** Serialized JSON object, e.g. `{"id":29785,"name":"Nike"}`. */
	brand: string;
	sku: string;
	productType: string;
	categories: string[];
	newBasePrice: number;
	basePrice: number;
	vat: number;
	stockLevel: number;
	packageWeightValue: number;
	packageWeightUnit: WeightUnit;
	/** Set by updates only (platform facts: product/bulk and product/{id} take them); answered with `packageDimensionUnit: 'cm'`. */
	serviceable?: boolean;
	packageHeightValue?: number;
	packageWidthValue?: number;
	packageLengthValue?: number;
}

/** Element of GET basic-products. */
export interface BasicProduct {
	id: number;
	ean: string;
	sku: string;
	newBasePrice: number;
	basePrice: number;
	stockLevel: number;
	warehouse: WarehouseKind;
}

/** A product as the sandbox stores it: the API fields plus what the API does not show. */
export interface ProductRecord extends Product {
	warehouse: WarehouseKind;
	/** ISO 8601 UTC timestamp of the last change (drives `date-modified-after`). */
	dateModified: string;
	/** UTC midnight (epoch ms) of the day newBasePrice was set; it becomes basePrice the next day. */
	priceChangeDay: number | null;
	parentEan?: string;
	coverImage?: string;
	gallery?: string[];
	attributes?: Record<string, string[]>;
	/** Set by publish / unpublish (product-status.ts reports it); before, the seed decides. */
	status?: ProductStatus;
}

export interface ProductTypeRecord {
	en: string;
	local: string;
}

export interface WarehouseRecord {
	id: number;
	warehouseName: string;
	defaultAddress: boolean;
	street: string;
	city: string;
}

export interface ProductUpdateResult {
	status: 'SUCCESS' | 'FAIL';
	errors: string[];
	myProductId: number | null;
}

// ---------------------------------------------------------------------------------------------
// Invoices and corrections

export type InvoiceType = 'FISCAL' | 'NON_FISCAL';

export interface MerchantDetails {
	name: string;
	businessSpaceCode: string;
	taxIdentificationNumber: string;
	identificationNumber: string;
	taxAdministrationId: string;
	cashier: string;
	contactDetails: { phone: string; email: string };
	address: { street: string; city: string };
}

export interface CustomerDetails {
	firstName: string;
	lastName: string;
	address: { street: string; city: string; postcode: string };
}

interface FiscalDetailsBase {
	invoiceCounter: string | null;
	verificationUrl: string | null;
	fiscalInvoiceDate: string | null;
}

export interface InvoiceFiscalDetails extends FiscalDetailsBase {
	invoiceNumber: string;
}

export interface CorrectionFiscalDetails extends FiscalDetailsBase {
	referentDocumentNumber: string;
}

export interface WarehouseAddress {
	warehouseId: number;
	street: string;
	city: string;
}

export interface InvoiceOrderDetails {
	invoiceId: string;
	invoicedDate: string;
	orderid: string;
	suborderId: string;
	fba: boolean;
	paymentMethods: string[];
	warehouseAddress: WarehouseAddress;
	orderDate: string;
}

export interface CorrectionOrderDetails {
	invoiceNumber: string;
	invoicedDate: string;
	orderid: string;
	suborderId: string;
	fba: string;
	paymentMethods: string[];
	warehouseAddress: WarehouseAddress;
	orderDate: string;
}

export interface PriceDetails {
	unitPrice: number;
	unitPriceWithoutVat: number;
	basePrice: number;
	basePriceWithoutVat: number;
	discountVat: number;
	discountAmount: number;
	vat: number;
	vatAmount: number;
}

export interface InvoiceItem {
	productDetails: { name: string; apId: string; sku: string; ean: string; acode: string };
	quantity: number;
	itemPrice: PriceDetails;
	grandTotalPrice: PriceDetails;
}

export interface ProductSpecification {
	items: InvoiceItem[];
	totalDetails: {
		basePrice: number;
		basePriceWithoutVat: number;
		vatAmount: number;
		chargedPrice: number;
	};
}

export interface TaxRateSpecification {
	taxRateSpecification: Array<{
		label: string;
		name: string;
		basePriceWithoutVat: number;
		vat: number;
		vatAmount: number;
	}>;
	grandTotal: number;
}

export interface Invoice {
	invoiceHeader: {
		invoiceType: InvoiceType;
		merchantDetails: MerchantDetails;
		customerDetails: CustomerDetails;
		fiscalDetails: InvoiceFiscalDetails;
		orderDetails: InvoiceOrderDetails;
	};
	productSpecification: ProductSpecification;
	taxRateSpecification: TaxRateSpecification;
}

export interface InvoiceCorrection {
	invoiceHeader: {
		invoiceType: InvoiceType;
		invoiceCorrectionReason: string;
		merchantDetails: MerchantDetails;
		customerDetails: CustomerDetails;
		fiscalDetails: CorrectionFiscalDetails;
		orderDetails: CorrectionOrderDetails;
	};
	productSpecification: ProductSpecification;
	taxRateSpecification: TaxRateSpecification;
}

export type DeepPartial<T> = T extends Array<infer U>
	? Array<U>
	: T extends object
		? { [K in keyof T]?: DeepPartial<T[K]> }
		: T;

export interface AddDocumentOptions {
	/** Sandbox-clock time from which the document appears in results (default: its invoicedDate). */
	visibleAt?: string | number | Date;
}

// ---------------------------------------------------------------------------------------------
// Discounts and prices

export type DiscountType = 'SALE' | 'SEASONAL_SALE' | 'CLEARANCE_SALE';

export interface DiscountRecord {
	discountId: string;
	merchantInventoryId: number;
	discountPrice: number;
	currency: string;
	discountType: DiscountType;
	/** Requested start day, dd/MM/yyyy. */
	dateFrom: string;
	/** Requested end day, dd/MM/yyyy; null for CLEARANCE_SALE. */
	dateTo: string | null;
	/** When the discount takes effect (epoch ms): at once when dated today, else 00:01 UTC. */
	startsAtMs: number;
	/** 23:59 UTC of the end day (epoch ms); null when open-ended. */
	endsAtMs: number | null;
	cancelled: boolean;
}

/** Element of GET discounts. */
export interface DiscountListItem {
	discountId: string;
	merchantInventoryId: number;
	discountPrice: number;
	dateFrom: string;
	dateTo: string | null;
}

/** Element of GET prices. */
export interface PriceData {
	merchantInventoryId: number;
	basePrice: number;
	sellablePrice: number;
	discountId: string | null;
}

export interface SandboxState {
	/** Snapshot of every product (materialized on each read; use product()/productByEan() for one). */
	readonly products: ProductRecord[];
	readonly productCount: number;
	product(id: number): ProductRecord | undefined;
	productByEan(ean: string): ProductRecord | undefined;
	readonly productTypes: ProductTypeRecord[];
	readonly warehouses: WarehouseRecord[];
	/** Every invoice, visible or not, sorted by invoicedDate. */
	readonly invoices: Invoice[];
	readonly corrections: InvoiceCorrection[];
	readonly discounts: DiscountRecord[];
	/** Every order, newest first. */
	readonly orders: OrderRecord[];
	order(id: string): OrderRecord | undefined;
	/** Every shipment (suborder), newest purchase first. */
	readonly shipments: ShipmentRecord[];
	shipment(suborderId: string): ShipmentRecord | undefined;
	/** Every publish / unpublish request, oldest first, with what it did per id. */
	readonly publications: PublicationRecord[];
}

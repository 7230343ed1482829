/**
 * Where each endpoint lives, its rate-limit group and the size limits the live service enforces
 * (spec + platform facts): everything that knows a path or a limit reads it from here. Groups
 * share a per-merchant rate limit; `documentDownloads` (pre-signed links, another host) and
 * `token` have no published limit: one gate per host still makes a 429 hold back the others.
 */
export type EndpointGroup = 'catalogue' | 'orders' | 'labels' | 'payments' | 'cancellation' | 'documentDownloads' | 'token';

/** At most `limit` requests in any sliding `lengthMs`. */
export interface RateWindow {
	limit: number;
	lengthMs: number;
	/**
	 * Never two closer than half of lengthMs / limit: a burst reaches the service scattered, and the
	 * next burst a window later would meet a window it still counts full. Half, so that a late
	 * timer does not delay every later request.
	 */
	evenly?: boolean;
}

interface GroupLimits {
	windows: RateWindow[];
	/** Open at once per merchant and per item (our choice): five keep 5 a second busy with 1-second answers. */
	inFlight: number;
}

const MINUTE_MS = 60_000;

/** A minute's limit and 5 a second, as the catalogue and orders groups have. */
const perMinuteAndFivePerSecond = (perMinute: number): RateWindow[] => [
	{ limit: perMinute, lengthMs: MINUTE_MS },
	{ limit: 5, lengthMs: 1_000, evenly: true },
];

/** Every group with windows has the minute as its longest: the Requests per Minute option caps it. */
export const RATE_LIMITS: Record<EndpointGroup, GroupLimits> = {
	catalogue: { windows: perMinuteAndFivePerSecond(60), inFlight: 5 },
	orders: { windows: perMinuteAndFivePerSecond(300), inFlight: 5 },
	// Not stated for the label endpoints (another service, /lmd): the order group's numbers, as the sandbox takes them.
	labels: { windows: perMinuteAndFivePerSecond(300), inFlight: 5 },
	// No per-second limit: a Price Get Many of 1,000 ids (10 chunks) can go out at once.
	payments: { windows: [{ limit: 60, lengthMs: MINUTE_MS }], inFlight: 10 },
	cancellation: { windows: [{ limit: 500, lengthMs: MINUTE_MS }], inFlight: 10 },
	documentDownloads: { windows: [], inFlight: 5 },
	token: { windows: [], inFlight: 5 },
};

export const PATHS = {
	grant: '/iam/api/v1/auth/token',
	products: '/product/api/v1/merchant-integration/products',
	basicProducts: '/product/api/v1/merchant-integration/basic-products',
	import: '/product/api/v1/merchant-integration/import',
	productBulk: '/product/api/v1/merchant-integration/product/bulk',
	product: '/product/api/v1/merchant-integration/product',
	productTypes: '/product/api/v1/merchant-integration/product-type',
	eanExists: '/product/api/v1/merchant-integration/ean/exists',
	warehouses: '/order/api/v1/merchant-integration/merchant-warehouses',
	invoices: '/order/api/v1/merchant-integration/invoices',
	invoiceCorrections: '/order/api/v1/merchant-integration/invoice-corrections',
	invoiceUrls: '/order/api/v1/merchant-integration/invoices/urls',
	invoiceCorrectionUrls: '/order/api/v1/merchant-integration/invoice-corrections/urls',
	discounts: '/payment/api/v1/merchant-integration/discounts',
	prices: '/payment/api/v1/merchant-integration/prices',
	// orders-and-shipments.md: the order flow (one rate-limit group with warehouses and invoices), labels, publishing.
	orderStatuses: '/order/api/v1/merchant-integration/outbound-orders/statuses',
	orderStatusGroups: '/order/api/v1/merchant-integration/outbound-orders/status-groups',
	orders: '/order/api/v1/merchant-integration/orders',
	shipments: '/order/api/v1/merchant-integration/outbound-orders/shipments',
	labelsV1: '/lmd/api/v1/merchant-integration/consignment/labels',
	labelsV2: '/lmd/api/v2/merchant-integration/consignment/labels',
	productPublish: '/product/api/v1/merchant-integration/product/publish',
	productUnpublish: '/product/api/v1/merchant-integration/product/unpublish',
	// Paths with an id in them: the id URL-encoded, so that a value with a slash cannot reach another endpoint.
	orderConfirm: (orderId: string) => `/order/api/v1/merchant-integration/orders/${encodeURIComponent(orderId)}/confirm`,
	shipmentPack: (suborderId: string) => `/order/api/v1/merchant-integration/outbound-orders/${encodeURIComponent(suborderId)}/pack`,
} as const;

/**
 * Endpoints the environment's second host serves (platform facts: warehouses, and on staging
 * prices, come from the service host, the main host's name with a `svc` label, with the same
 * token; the main host may or may not serve them too). The credential's Service Host URL names
 * that host; left empty, everything goes to the Base URL. Declared by the operation with its
 * route (never read from the URL); hosts.ts (`onItsHost`) sends there:
 * - `service`: to the service host when one is given (warehouses);
 * - `baseFirst`: to the Base URL, and where it answers that it does not serve the endpoint
 *   ("No static resource": Spring's 404, or a 500 behind a catch-all handler) to the service
 *   host, learned by the first request and kept for the process (prices: production serves
 *   them on the main host, staging only on the service host).
 * The limits stay the merchant's: a request waits at the same gate whichever host it goes to.
 */
export interface HostChoice {
	/** What the endpoint serves, as errors name it. */
	what: string;
	where: 'service' | 'baseFirst';
}

export const SERVICE_HOST_ENDPOINTS = {
	warehouses: { what: 'warehouses', where: 'service' },
	prices: { what: 'prices', where: 'baseFirst' },
} as const satisfies Record<string, HostChoice>;

export const LIMITS = {
	productsPageSize: 200,
	basicProductsPageSize: 2500,
	priceIdsPerRequest: 100,
	/**
	 * EANs asked in one GET products (`ean=A&ean=B…`), each in every form of its code (an EAN-13
	 * and its GTIN-14; a UPC as 12, 13 and 14 digits): 100 EAN-13s are about 3.7 KB of query, 100
	 * UPCs 5.4 KB, below the 8 KB a server or proxy usually allows for a request line;
	 * `eanQueryBytes` keeps any mix there (EAN-8s, 4 forms each, about 85 a request).
	 */
	eansPerProductsRequest: 100,
	eanQueryBytes: 6_000,
	discountsPerRequest: 500,
	productsPerBulkRequest: 30_000,
	/** Ids in one publish or unpublish request: the pages state no limit; the bulk writes' number (30,000 ids are about 240 KB). */
	idsPerPublicationRequest: 30_000,
	/** About 5 MiB per request: we stay a little below. */
	bulkRequestBytes: 5 * 1024 * 1024 - 64 * 1024,
	invoiceWindowMonths: 3,
	/**
	 * Suborder ids in one `/urls` request (comma-separated in one `suborderIds` value): the service
	 * documents no limit; 100 ids of about 10 characters keep the query near 1 KB, and 2,000 bytes
	 * of ids stay far below the 8 KB a server or proxy usually allows for a request line.
	 */
	suborderIdsPerLinksRequest: 100,
	suborderIdsBytesPerLinksRequest: 2_000,
	/** Orders and shipments per page (Spring pages: `size` at most 100; a production client reads 100 at a time). */
	ordersPageSize: 100,
	/** Invoice ranges may not start before this day. */
	earliestInvoiceDate: '2022-05-01T00:00:00.000Z',
} as const;

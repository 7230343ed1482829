/**
 * Switches that make the sandbox answer the way the live service sometimes does (platform facts,
 * "Shapes seen in real responses") or misbehaves, so that tests can prove the node reads every
 * variant the same way. All are off by default: the sandbox then answers in the spec's shape.
 *
 * One home for every switch; each route that honours one says so where it reads it. Set them in
 * process with `sandbox.setVariants({...})` or over HTTP with `POST /__sandbox/variants`.
 */

import { IANAZone } from 'luxon';

import type { RouteKey } from './types';

/** What the import route binds: one product object (the interface reference), a list of them (the current pages), or either. */
export type ImportBodyShape = 'object' | 'list' | 'both';

export type XmlListStyle = 'wrapped' | 'item' | 'unwrapped';

/**
 * The market the merchant's account belongs to (platform facts, "What a second merchant's
 * production client relies on"): the currency it prices in, which is the only one its discounts
 * take and the one its answers carry where they carry one (orders' `currency`, documents' totals),
 * and the VAT rates its product updates and imports take. Serbia by default (RSD, 0/10/20); the
 * Bosnian merchant's account: `{ currency: 'BAM', vatRates: [0, 17] }`; North Macedonia: MKD,
 * 0/5/18.
 */
export interface SandboxMarket {
	currency: string;
	vatRates: number[];
}

export const SERBIAN_MARKET: Readonly<SandboxMarket> = Object.freeze({ currency: 'RSD', vatRates: [0, 10, 20] });

/**
 * Which modified filter basic-products honours: the interface reference's `date-modified-after`
 * (a day, `yyyy-MM-dd`), the current pages' `dateModifiedAfter` (a UTC timestamp,
 * `yyyy-MM-ddTHH:mm:ss`), or both (a product must pass each one sent). A name not honoured is
 * ignored, as Spring ignores an unknown query parameter.
 */
export type ModifiedFilterNames = 'reference' | 'documented' | 'both';

export interface SandboxVariants {
	// --- Shapes of answers (the schema-driven reader must give the same output under each) ---
	/** Keys spelled as some live answers do: trailing spaces, other letter case (`defaultAddress `, `orderId`, `invoiceid`, `aCode`). */
	keySpellings: boolean;
	/** The key of a warehouse's default flag: the field table's `defaultAddress` (default) or the documentation's warehouse table's `defaultAddres` (platform facts, "Warehouses"). */
	warehouseDefaultKey: 'defaultAddress' | 'defaultAddres';
	/** `ean/exists` answers keys without their leading zeros (`740617304350` for `0740617304350`). */
	eanKeysWithoutLeadingZeros: boolean;
	/** `ean/exists` answers its object wrapped in a one-element array. */
	eanAnswerInArray: boolean;
	/** List fields arrive as a JSON string holding a bracketed list: `"[COD, VOUCHER]"`. */
	stringifiedLists: boolean;
	/** How XML answers render a list field: Jackson's wrapped elements (default), `<item>` children, or repeated unwrapped elements. */
	xmlListStyle: XmlListStyle;
	/** XML answers render a null as an empty element instead of leaving it out. */
	xmlNullsAsEmptyElements: boolean;
	/** Numbers arrive as numeric strings (`"1299.00"`). */
	numbersAsStrings: boolean;

	// --- How many results an answer holds ---
	/** GET products takes a repeated `ean` (`?ean=A&ean=B`) and answers the products of every EAN given; off, only the first counts. */
	productsEanRepeats: boolean;
	/** GET prices answers 404 "No prices found…" for a request whose ids match no price. */
	pricesNotFoundWhenNoMatch: boolean;
	/**
	 * Bulk answers (product/bulk, discounts schedule/update) drop this many results from their end;
	 * Infinity (over HTTP: any number at least the list's length) answers an empty list. product/{id}
	 * then answers 200 with an empty body. The entries are applied all the same.
	 */
	bulkResultsDropped: number;
	/**
	 * Bulk answers (product/bulk, discounts schedule/update) repeat their last result this many
	 * times at their end: more results than entries, as a service that reports an entry twice.
	 */
	bulkResultsRepeated: number;
	/**
	 * Bulk answers (product/bulk, discounts schedule/update) list their results in reverse order,
	 * each still naming its entry (`myProductId`, `merchantInventoryId`, `discountId`), as a
	 * service that answers in another order than the entries were sent. product/{id} has one result.
	 */
	bulkResultsReversed: boolean;
	/** `/urls` answers keyed by the literal `suborderIdNumberValue` instead of by suborder id. */
	urlsKeyedBySchemaName: boolean;
	/**
	 * What selects the documents of `/urls`: 'either' (default; the current pages: suborder ids or a
	 * date range, both given = the suborders' documents invoiced in the range) or 'all' (the interface
	 * reference: dateFrom, dateTo and suborderIds are each required; one missing gets Spring's 400).
	 */
	urlsSelection: 'either' | 'all';
	/** The name(s) of basic-products' modified filter the service honours (GET products keeps `date-modified-after` whatever this says). */
	basicProductsModifiedFilter: ModifiedFilterNames;
	/**
	 * The time zone (IANA name) in which the service reads a calendar day: which day is today (a
	 * discount or a price day in the past is refused), when a discount's day begins and ends, and
	 * from when `date-modified-after` counts. 'UTC' by default (the sandbox as it always was); the
	 * live service is Serbian, so Europe/Belgrade is likely (platform facts, "Dates").
	 */
	serviceTimeZone: string;
	// --- What the current pages (2026) show beyond the reference (documented-shapes.ts) ---
	/** GET products carry status, groupId, package dimensions with packageDimensionUnit, specifications, and the platform code under the marketplace's name. */
	documentedProductFields: boolean;
	/**
	 * GET products carry `status` even without documentedProductFields, as the live service's do: on
	 * in the sandbox `npm run dev` and `npm run sandbox` start (a newcomer filters by status and tries
	 * publishing there); off by default, the reference's products, which the tests' outputs were saved with.
	 */
	productStatusField: boolean;
	/** product/bulk and product/{id} results add ean and productName (product/{id}: type "edit"); an unknown product's error is Serbian ("Proizvod ne postoji"), also product/{id}'s 404. */
	documentedUpdateResults: boolean;
	/** Invoices carry their id as orderDetails.invoiceNumber (no invoiceId); corrections' fiscalDetails add invoiceNumber. */
	invoiceIdAsInvoiceNumber: boolean;
	/** Import accepts every row (200 with a progress id) but rows without description or cover image never become products. */
	importFailsAsynchronously: boolean;
	/**
	 * The body shape the import route binds (platform facts, "Import is bulk"): `object` (default,
	 * the reference), `list` (up to 30,000 products, one progress id per request) or `both`. The
	 * wrong shape gets the 400 Spring's JSON binder gives.
	 */
	importBodyShape: ImportBodyShape;

	// --- What the service stores (platform facts, "What the current documentation and production clients add") ---
	/**
	 * Updates and imports store packageWeightValue as kilograms whatever packageWeightUnit says
	 * ("hard-coded KG": `500 G` becomes 500 kg), and GET products writes units in lower case (`kg`).
	 * Off (the interface reference): the value is stored in the unit sent.
	 */
	weightStoredAsKg: boolean;
	/** Updates and imports store a negative stockLevel as 0. Off (the reference's rule, stock >= 0): the item fails. */
	negativeStockStoredAsZero: boolean;

	// --- Broken answers ---
	/**
	 * The 2xx answers of these routes end half-way, as a proxy or a dropped connection can leave
	 * them: XML right after a complete tag, JSON right after a complete element (`}`), so that
	 * what arrived still parses leniently. Content-Length is the cut body's: nothing on the wire
	 * says it is short.
	 */
	cutAnswers: RouteKey[];

	// --- Rules the current documentation states (platform facts, "What the current documentation … add") ---
	/**
	 * Discount update (PUT discounts), per item inside the 200 answer. 'reference': the changes alone
	 * are enough, as the interface reference reads. 'documented': as the current pages say, a running
	 * discount's update carries `merchantInventoryId` (its product), `newDiscountPrice` and
	 * `newDiscountPriceCurrency`, and null for every other field; a pending one's carries every field
	 * (`merchantInventoryId`, both dates, price, currency, type; no `newDateTo` for a CLEARANCE_SALE).
	 * Anything else is refused, so that a partial body fails visibly instead of nulling a date.
	 */
	discountUpdateRules: 'reference' | 'documented';

	// --- Orders, shipments and labels (orders-and-shipments.md, "Known inconsistencies"; default: the pages' examples) ---
	/** The key of an order's payment methods: the example's `paymentMethods` (default) or the field table's `paymentMethod`. */
	orderPaymentKey: 'paymentMethods' | 'paymentMethod';
	/** The key of an order item's attributes (a JSON string): the example's `specifications` (default) or the table's `specificationsTranslations`. */
	orderSpecificationsKey: 'specifications' | 'specificationsTranslations';
	/**
	 * The group names `statusGroup` takes. 'endpoint' (default): each endpoint its own set, as its
	 * section shows (orders SG_FOR_CONFIRMATION / SG_PROCESSED; shipments SG_FOR_PACKAGING /
	 * SG_SHIPMENT_ON_DELIVERY / SG_COMPLETED). 'status-groups': both take only the status-groups
	 * endpoint's SG_ON_HOLD / SG_PROCESSING / SG_ON_DELIVERY / SG_COMPLETED. 'any': every name. A
	 * name not taken is a 400.
	 */
	statusGroupNames: 'endpoint' | 'status-groups' | 'any';
	/** The label routes' query parameter: `reference` (default, every example), `referenceId` (one table), or both. The other is ignored, so a missing one is a 400. */
	labelReferenceParam: 'reference' | 'referenceId' | 'both';
	/** Shipments write the status of goods at customs as the statuses filter lists it (`PACKED_ON_THE_BORDER`, default) or as the status context (`ON_THE_BORDER`). */
	borderStatusName: 'PACKED_ON_THE_BORDER' | 'ON_THE_BORDER';
	/** Shipments' `statusSubgroup` of PENDING: the status-groups table's `SSG_PARTIALLY_CONFIRMED` (default) or the shipments section's `SSG_PENDING`. */
	pendingSubgroup: 'SSG_PARTIALLY_CONFIRMED' | 'SSG_PENDING';
	/** The answer to a label asked before READY_FOR_COLLECTION (not documented): 404 (default), 400, or 200 `{"link": null}`. */
	labelNotReady: 'not-found' | 'bad-request' | 'null-link';
	/**
	 * What an order item's `id` is (orders-and-shipments.md, last section: not shown by anyone outside
	 * the service): the pages' example's merchant inventory id (default, as a string), or a line
	 * identifier of its own (`lineId`, as one ERP client reads it: a number unlike any product's id).
	 * Confirm takes the merchant inventory id either way; shipments' items carry it as `merchantInventoryId`.
	 */
	orderItemId: 'merchantInventoryId' | 'lineId';
	/** Sandbox milliseconds from packing to READY_FOR_COLLECTION (carrier allocation: "fast, but delays can occur"). Default 0. */
	carrierAllocationMs: number;

	// --- The account's market ---
	/** The account's currency and VAT rates (SandboxMarket); a wrong one is refused per entry in the service's words. */
	market: SandboxMarket;

	// --- Tokens ---
	/** Only the newest token issued to a client is valid: issuing one invalidates the others. */
	onlyNewestTokenValid: boolean;

	// --- Hosts ---
	/**
	 * Which host of the environment serves warehouses and prices (platform facts: the service host,
	 * the main host's name with a `svc` label, serves them, prices only on staging; the main host
	 * may or may not serve them too): `main` (the reference; the service host serves nothing),
	 * `service` (the main host answers them as Spring does for an unmapped path: warehouses 404,
	 * prices 500 as one production client saw, `{"message": "No static resource <path>."}`), or
	 * `both`. The service host's URL is `sandbox.serviceUrl`; tokens and limits are the main host's.
	 */
	warehousesAndPricesOn: 'main' | 'service' | 'both';

	// --- Network ---
	/**
	 * Delay before every answer of an API route (not the controls): a fixed part, a part per KiB
	 * of the answer, and a random part of up to `jitterMs` (so that answers overtake each other).
	 */
	latency: { fixedMs: number; perKiBMs: number; jitterMs?: number } | false;
}

export const DEFAULT_VARIANTS: Readonly<SandboxVariants> = Object.freeze({
	keySpellings: false,
	warehouseDefaultKey: 'defaultAddress',
	eanKeysWithoutLeadingZeros: false,
	eanAnswerInArray: false,
	stringifiedLists: false,
	xmlListStyle: 'wrapped',
	xmlNullsAsEmptyElements: false,
	numbersAsStrings: false,
	productsEanRepeats: false,
	pricesNotFoundWhenNoMatch: false,
	bulkResultsDropped: 0,
	bulkResultsRepeated: 0,
	bulkResultsReversed: false,
	urlsKeyedBySchemaName: false,
	urlsSelection: 'either',
	basicProductsModifiedFilter: 'reference',
	serviceTimeZone: 'UTC',
	documentedProductFields: false,
	productStatusField: false,
	documentedUpdateResults: false,
	invoiceIdAsInvoiceNumber: false,
	importFailsAsynchronously: false,
	weightStoredAsKg: false,
	negativeStockStoredAsZero: false,
	importBodyShape: 'object',
	cutAnswers: [],
	discountUpdateRules: 'reference',
	orderPaymentKey: 'paymentMethods',
	orderSpecificationsKey: 'specifications',
	statusGroupNames: 'endpoint',
	labelReferenceParam: 'reference',
	borderStatusName: 'PACKED_ON_THE_BORDER',
	pendingSubgroup: 'SSG_PARTIALLY_CONFIRMED',
	labelNotReady: 'not-found',
	orderItemId: 'merchantInventoryId',
	carrierAllocationMs: 0,
	market: SERBIAN_MARKET,
	onlyNewestTokenValid: false,
	warehousesAndPricesOn: 'main',
	latency: false,
});

/** The switches in force; routes read `current`. */
export class VariantSwitches {
	current: SandboxVariants = { ...DEFAULT_VARIANTS };

	/** Sets the given switches; the others keep their value. Unknown names are refused. */
	set(changes: Partial<SandboxVariants>): SandboxVariants {
		for (const name of Object.keys(changes)) {
			if (!(name in DEFAULT_VARIANTS)) throw new Error(`Unknown sandbox variant: ${name}`);
		}
		if (changes.serviceTimeZone !== undefined && !IANAZone.isValidZone(changes.serviceTimeZone)) {
			throw new Error(`serviceTimeZone: unknown time zone ${changes.serviceTimeZone}`);
		}
		this.current = { ...this.current, ...changes };
		return this.current;
	}

	reset(): void {
		this.current = { ...DEFAULT_VARIANTS };
	}
}

/** The switches `npm run dev` and `npm run sandbox` turn on: the sandbox a newcomer tries, closer to the live service than the tests' default. */
export const NEWCOMER_VARIANTS: Partial<SandboxVariants> = { productStatusField: true };

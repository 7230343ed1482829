/**
 * The shape of every answer of the merchant integration interface, written down once from the
 * spec (../../../shared/spec/merchant-integration-api.md). `decode.ts` reads every answer, JSON or
 * XML, through these schemas; nothing else knows a response field's type.
 *
 * Ids the spec types as strings (EAN, SKU, suborderId, invoiceId, apId, acode, discountId…) are
 * STRING: they keep their leading zeros. Field names are the spec's spelling; the reader matches
 * an answer's keys to them whatever their letter case or surrounding whitespace.
 */

export type ScalarKind = 'string' | 'number' | 'integer' | 'boolean' | 'any';

export type Schema =
	| { readonly kind: ScalarKind; readonly nullable?: boolean }
	| { readonly kind: 'list'; readonly of: Schema; readonly nullable?: boolean }
	| { readonly kind: 'object'; readonly fields: Readonly<Record<string, Schema>>; readonly nullable?: boolean }
	/** An object whose keys are data (EANs, suborder ids), each value of one schema. */
	| { readonly kind: 'map'; readonly values: Schema; readonly nullable?: boolean };

export type ObjectSchema = Extract<Schema, { kind: 'object' }>;

export const STRING: Schema = { kind: 'string' };
export const NUMBER: Schema = { kind: 'number' };
const INTEGER: Schema = { kind: 'integer' };
export const BOOLEAN: Schema = { kind: 'boolean' };
/** A value the spec does not type ("not shown"): passed through as it comes. */
const ANY: Schema = { kind: 'any' };

export function listOf(of: Schema): Schema {
	return { kind: 'list', of };
}

export function objectOf(fields: Record<string, Schema>): ObjectSchema {
	return { kind: 'object', fields };
}

function mapOf(values: Schema): Schema {
	return { kind: 'map', values };
}

/** The spec marks the field nullable (the token's id_token and refresh_token). */
function nullable(schema: Schema): Schema {
	return { ...schema, nullable: true };
}

// --- Products -------------------------------------------------------------------------------

export const PRODUCT = objectOf({
	id: INTEGER,
	externalId: STRING,
	ean: STRING,
	platformCode: STRING,
	name: STRING,
	description: STRING,
	/** A serialized object (`{"id":29785,"name":"Nike"}`) in a string. */
	brand: STRING,
	sku: STRING,
	productType: STRING,
	categories: listOf(STRING),
	newBasePrice: NUMBER,
	basePrice: NUMBER,
	vat: NUMBER,
	stockLevel: NUMBER,
	packageWeightValue: NUMBER,
	packageWeightUnit: STRING,
});

const BASIC_PRODUCT = objectOf({
	id: INTEGER,
	ean: STRING,
	sku: STRING,
	newBasePrice: NUMBER,
	basePrice: NUMBER,
	stockLevel: NUMBER,
	warehouse: STRING,
});

/** The progress id of an import. */
const IMPORT_RESPONSE = objectOf({ id: STRING });

/** Single update: the item type of `errors` is not shown in the spec. */
const PRODUCT_UPDATE_RESULT = objectOf({ status: STRING, errors: listOf(ANY), myProductId: NUMBER });

/** Bulk update: `errors` are strings. */
const BULK_PRODUCT_UPDATE_RESULT = objectOf({ status: STRING, errors: listOf(STRING), myProductId: NUMBER });

const WAREHOUSE = objectOf({ id: NUMBER, warehouseName: STRING, defaultAddress: BOOLEAN });

const WAREHOUSES_RESPONSE = objectOf({ content: listOf(WAREHOUSE) });

/** Requested EAN (a key) → whether it exists. */
const EAN_EXISTENCE = mapOf(BOOLEAN);

export const PRODUCT_TYPES = listOf(STRING);

// --- Invoices and invoice corrections --------------------------------------------------------

const STREET_CITY = objectOf({ street: STRING, city: STRING });

const MERCHANT_DETAILS = objectOf({
	name: STRING,
	businessSpaceCode: STRING,
	taxIdentificationNumber: STRING,
	identificationNumber: STRING,
	taxAdministrationId: STRING,
	cashier: STRING,
	contactDetails: objectOf({ phone: STRING, email: STRING }),
	address: STREET_CITY,
});

const CUSTOMER_DETAILS = objectOf({
	firstName: STRING,
	lastName: STRING,
	address: objectOf({ street: STRING, city: STRING, postcode: STRING }),
});

const FISCAL_DETAILS_COMMON = { invoiceCounter: STRING, verificationUrl: STRING, fiscalInvoiceDate: STRING };

const ORDER_DETAILS_COMMON = {
	invoicedDate: STRING,
	orderid: STRING,
	suborderId: STRING,
	paymentMethods: listOf(STRING),
	warehouseAddress: objectOf({ warehouseId: INTEGER, street: STRING, city: STRING }),
	orderDate: STRING,
};

const PRICE_DETAILS = objectOf({
	unitPrice: NUMBER,
	unitPriceWithoutVat: NUMBER,
	basePrice: NUMBER,
	basePriceWithoutVat: NUMBER,
	discountVat: NUMBER,
	discountAmount: NUMBER,
	vat: NUMBER,
	vatAmount: NUMBER,
});

const PRODUCT_SPECIFICATION = objectOf({
	items: listOf(
		objectOf({
			productDetails: objectOf({ name: STRING, apId: STRING, sku: STRING, ean: STRING, acode: STRING }),
			quantity: INTEGER,
			itemPrice: PRICE_DETAILS,
			grandTotalPrice: PRICE_DETAILS,
		}),
	),
	totalDetails: objectOf({ basePrice: NUMBER, basePriceWithoutVat: NUMBER, vatAmount: NUMBER, chargedPrice: NUMBER }),
});

/** An object holding a list of the same name, and the grand total. */
const TAX_RATE_SPECIFICATION = objectOf({
	taxRateSpecification: listOf(
		objectOf({ label: STRING, name: STRING, basePriceWithoutVat: NUMBER, vat: NUMBER, vatAmount: NUMBER }),
	),
	grandTotal: NUMBER,
});

export const INVOICE = objectOf({
	invoiceHeader: objectOf({
		invoiceType: STRING,
		merchantDetails: MERCHANT_DETAILS,
		customerDetails: CUSTOMER_DETAILS,
		fiscalDetails: objectOf({ ...FISCAL_DETAILS_COMMON, invoiceNumber: STRING }),
		orderDetails: objectOf({ invoiceId: STRING, ...ORDER_DETAILS_COMMON, fba: BOOLEAN }),
	}),
	productSpecification: PRODUCT_SPECIFICATION,
	taxRateSpecification: TAX_RATE_SPECIFICATION,
});

/** As an invoice, with a correction reason, the corrected document's number, and `fba` a string. */
const INVOICE_CORRECTION = objectOf({
	invoiceHeader: objectOf({
		invoiceType: STRING,
		invoiceCorrectionReason: STRING,
		merchantDetails: MERCHANT_DETAILS,
		customerDetails: CUSTOMER_DETAILS,
		fiscalDetails: objectOf({ ...FISCAL_DETAILS_COMMON, referentDocumentNumber: STRING }),
		orderDetails: objectOf({ invoiceNumber: STRING, ...ORDER_DETAILS_COMMON, fba: STRING }),
	}),
	productSpecification: PRODUCT_SPECIFICATION,
	taxRateSpecification: TAX_RATE_SPECIFICATION,
});

const DOCUMENT_LINK = objectOf({ documentCorrelationId: STRING, link: STRING });

/** Keyed by suborder id (the spec's `suborderIdNumberValue` names the key), each a list of links. */
const INVOICE_URLS = mapOf(listOf(DOCUMENT_LINK));

/** A link in a plain list of links, which names its suborder itself. */
const LISTED_DOCUMENT_LINK = objectOf({ suborderId: STRING, documentCorrelationId: STRING, link: STRING });

// --- Discounts and prices --------------------------------------------------------------------

const DISCOUNT_SCHEDULE_RESPONSE = objectOf({
	scheduleResult: listOf(
		objectOf({
			success: BOOLEAN,
			data: objectOf({ merchantInventoryId: INTEGER, discountId: STRING }),
			error: objectOf({ merchantInventoryId: INTEGER, errorMessage: STRING }),
		}),
	),
});

const DISCOUNT_UPDATE_RESPONSE = objectOf({
	updateResult: listOf(
		objectOf({
			success: BOOLEAN,
			data: objectOf({ discountId: STRING }),
			error: objectOf({ discountId: STRING, errorMessage: STRING }),
		}),
	),
});

const DISCOUNT = objectOf({
	discountId: STRING,
	merchantInventoryId: INTEGER,
	discountPrice: NUMBER,
	dateFrom: STRING,
	dateTo: STRING,
});

const PRICE_DATA = objectOf({
	merchantInventoryId: NUMBER,
	basePrice: NUMBER,
	sellablePrice: NUMBER,
	discountId: STRING,
});

// --- Token and messages ----------------------------------------------------------------------

const TOKEN_RESPONSE = objectOf({
	id_token: nullable(STRING),
	access_token: STRING,
	refresh_token: nullable(STRING),
	expires_in: INTEGER,
	token_type: STRING,
});

const MESSAGE_BODY = objectOf({ message: STRING });

// --- Answers of the operations ---------------------------------------------------------------

/** What one endpoint answers, and where in it the output items are. */
export interface AnswerSchema {
	/** The body's schema. */
	readonly body: Schema;
	/**
	 * The property of an object body whose list elements are the output items (`content` of the
	 * warehouses answer, `scheduleResult` of a discount schedule). Without it, a list body gives
	 * one item per element and any other body one item.
	 */
	readonly itemsAt?: string;
	/**
	 * What each element is when the service answers a plain list where the spec has an object
	 * (links not keyed by suborder). Without it, a list where an object is expected is read as a
	 * list of such objects (ean/exists wraps its object in a one-element list).
	 */
	readonly asList?: Schema;
}

export const ANSWERS = {
	products: { body: listOf(PRODUCT) },
	basicProducts: { body: listOf(BASIC_PRODUCT) },
	import: { body: IMPORT_RESPONSE },
	productUpdate: { body: PRODUCT_UPDATE_RESULT },
	productBulkUpdate: { body: listOf(BULK_PRODUCT_UPDATE_RESULT) },
	productTypes: { body: PRODUCT_TYPES },
	eanExists: { body: EAN_EXISTENCE },
	warehouses: { body: WAREHOUSES_RESPONSE, itemsAt: 'content' },
	invoices: { body: listOf(INVOICE) },
	invoiceCorrections: { body: listOf(INVOICE_CORRECTION) },
	invoiceUrls: { body: INVOICE_URLS, asList: LISTED_DOCUMENT_LINK },
	discountSchedule: { body: DISCOUNT_SCHEDULE_RESPONSE, itemsAt: 'scheduleResult' },
	discountUpdate: { body: DISCOUNT_UPDATE_RESPONSE, itemsAt: 'updateResult' },
	discounts: { body: listOf(DISCOUNT) },
	discountCancel: { body: MESSAGE_BODY },
	prices: { body: listOf(PRICE_DATA) },
	token: { body: TOKEN_RESPONSE },
} as const satisfies Record<string, AnswerSchema>;

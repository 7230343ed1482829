/**
 * The shape of every answer, written down once from the spec
 * (../../../shared/spec/merchant-integration-api.md): data only; read.ts reads every answer through it.
 * Ids the spec types as strings (EAN, SKU, suborderId, apId…) are STRING: they keep leading zeros.
 */
export type ScalarKind = 'string' | 'number' | 'integer' | 'boolean' | 'any';

/**
 * `optional`: a field only the newer sources show; read when sent, left out (not null) when not.
 * `spelledAlso`: the other spellings the documentation itself writes for the field (not letter case
 * or spaces, which every key is read through), read as the field.
 */
export type Schema = { readonly optional?: true; readonly spelledAlso?: readonly string[] } & (
	| { readonly kind: ScalarKind }
	| { readonly kind: 'list'; readonly of: Schema }
	| { readonly kind: 'object'; readonly fields: Readonly<Record<string, Schema>> }
	/** An object whose keys are data (EANs, suborder ids), each value of one schema. */
	| { readonly kind: 'map'; readonly values: Schema }
);

export type ObjectSchema = Extract<Schema, { kind: 'object' }>;

export const STRING: Schema = { kind: 'string' };
export const NUMBER: Schema = { kind: 'number' };
const INTEGER: Schema = { kind: 'integer' };
export const BOOLEAN: Schema = { kind: 'boolean' };
/** A value the spec does not type ("not shown"): passed through as it comes. */
const ANY: Schema = { kind: 'any' };

export const listOf = (of: Schema): Schema => ({ kind: 'list', of });
export const objectOf = (fields: Record<string, Schema>): ObjectSchema => ({ kind: 'object', fields });
const mapOf = (values: Schema): Schema => ({ kind: 'map', values });
/**
 * A field the 2026 documentation adds (platform facts, "What the current documentation … add"):
 * absent from a service answering as the reference does, where it stays absent, so that outputs
 * keep their shape there.
 */
const optional = (schema: Schema): Schema => ({ ...schema, optional: true });
/** A field the documentation also spells otherwise (its warehouse table's `defaultAddres`): each spelling is read as the field. */
const spelledAlso = (schema: Schema, ...spellings: string[]): Schema => ({ ...schema, spelledAlso: spellings });
/** Fields of one kind, in the spec's order (the order of the fields a reader fills in). */
function fieldsOf(kind: Schema, ...names: string[]): Record<string, Schema> {
	return Object.fromEntries(names.map((name) => [name, kind]));
}

/** `brand` is a serialized object (`{"id":29785,"name":"Nike"}`) in a string. */
export const PRODUCT = objectOf({
	id: INTEGER,
	...fieldsOf(STRING, 'externalId', 'ean', 'platformCode', 'name', 'description', 'brand', 'sku', 'productType'),
	categories: listOf(STRING),
	...fieldsOf(NUMBER, 'newBasePrice', 'basePrice', 'vat', 'stockLevel', 'packageWeightValue'),
	packageWeightUnit: STRING,
	// The current pages: READY_FOR_PUBLISH, PUBLISHED, SOLD_OUT, UNPUBLISHED, UNPUBLISHED_OOS; the
	// variations of one product share groupId; specifications is a JSON string. The platform code
	// under a key named after the marketplace passes through as sent.
	...fieldsOf(optional(STRING), 'status', 'groupId'),
	...fieldsOf(optional(NUMBER), 'packageHeightValue', 'packageWidthValue', 'packageLengthValue'),
	...fieldsOf(optional(STRING), 'packageDimensionUnit', 'specifications'),
});

const BASIC_PRODUCT = objectOf({
	id: INTEGER,
	...fieldsOf(STRING, 'ean', 'sku'),
	...fieldsOf(NUMBER, 'newBasePrice', 'basePrice', 'stockLevel'),
	warehouse: STRING,
});

const PRICE_DETAILS = objectOf({
	...fieldsOf(NUMBER, 'unitPrice', 'unitPriceWithoutVat', 'basePrice', 'basePriceWithoutVat'),
	...fieldsOf(NUMBER, 'discountVat', 'discountAmount', 'vat', 'vatAmount'),
});

/**
 * An invoice or a correction: they differ in a correction's reason, the last field of fiscalDetails,
 * the id first in orderDetails, and `fba` (a boolean in an invoice, a string in a correction).
 */
function documentOf(reason: Record<string, Schema>, fiscalNumber: string, idField: string, fba: Schema, newerFields: { fiscal?: string; order?: string } = {}): ObjectSchema {
	const newer = (name: string | undefined) => (name === undefined ? {} : { [name]: optional(STRING) });
	return objectOf({
		invoiceHeader: objectOf({
			invoiceType: STRING,
			...reason,
			merchantDetails: objectOf({
				...fieldsOf(STRING, 'name', 'businessSpaceCode', 'taxIdentificationNumber', 'identificationNumber', 'taxAdministrationId', 'cashier'),
				contactDetails: objectOf({ phone: STRING, email: STRING }),
				address: objectOf({ street: STRING, city: STRING }),
			}),
			customerDetails: objectOf({
				firstName: STRING,
				lastName: STRING,
				address: objectOf({ street: STRING, city: STRING, postcode: STRING }),
			}),
			fiscalDetails: objectOf({ ...fieldsOf(STRING, 'invoiceCounter', 'verificationUrl', 'fiscalInvoiceDate', fiscalNumber), ...newer(newerFields.fiscal) }),
			orderDetails: objectOf({
				...fieldsOf(STRING, idField, 'invoicedDate', 'orderid', 'suborderId'),
				...newer(newerFields.order),
				paymentMethods: listOf(STRING),
				warehouseAddress: objectOf({ warehouseId: INTEGER, street: STRING, city: STRING }),
				orderDate: STRING,
				fba,
			}),
		}),
		productSpecification: objectOf({
			items: listOf(
				objectOf({
					productDetails: objectOf({ name: STRING, apId: STRING, sku: STRING, ean: STRING, acode: STRING }),
					quantity: INTEGER,
					itemPrice: PRICE_DETAILS,
					grandTotalPrice: PRICE_DETAILS,
				}),
			),
			totalDetails: objectOf({ basePrice: NUMBER, basePriceWithoutVat: NUMBER, vatAmount: NUMBER, chargedPrice: NUMBER }),
		}),
		taxRateSpecification: objectOf({
			taxRateSpecification: listOf(
				objectOf({ label: STRING, name: STRING, basePriceWithoutVat: NUMBER, vat: NUMBER, vatAmount: NUMBER }),
			),
			grandTotal: NUMBER,
		}),
	});
}

/** The pages' invoice example carries the id as `orderDetails.invoiceNumber`; a correction's fiscalDetails may carry `invoiceNumber`. */
export const INVOICE = documentOf({}, 'invoiceNumber', 'invoiceId', BOOLEAN, { order: 'invoiceNumber' });
const INVOICE_CORRECTION = documentOf({ invoiceCorrectionReason: STRING }, 'referentDocumentNumber', 'invoiceNumber', STRING, { fiscal: 'invoiceNumber' });

/** A discount schedule's or update's answer: under `list`, per entry, `data` on success or `error` with its message. */
function discountResults(list: string, data: Record<string, Schema>, error: Record<string, Schema>): AnswerSchema {
	const entry = objectOf({ success: BOOLEAN, data: objectOf(data), error: objectOf({ ...error, errorMessage: STRING }) });
	return { body: objectOf({ [list]: listOf(entry) }), itemsAt: list };
}

/**
 * No source shows the list carrying the type, the currency or the product's name (under the
 * schedule body's and the update results' names): read where present, absent otherwise.
 */
const DISCOUNT = objectOf({
	discountId: STRING,
	merchantInventoryId: INTEGER,
	discountPrice: NUMBER,
	dateFrom: STRING,
	dateTo: STRING,
	...fieldsOf(optional(STRING), 'discountType', 'discountPriceCurrency', 'productName'),
});
const PRICE_DATA = objectOf({ merchantInventoryId: NUMBER, basePrice: NUMBER, sellablePrice: NUMBER, discountId: STRING });

/** The current pages' update results also name the product (`type: "edit"` in a single result). */
const UPDATE_RESULT_NEWER = fieldsOf(optional(STRING), 'ean', 'productName');

/**
 * Orders and shipments (orders-and-shipments.md): typed where the field tables or examples type them,
 * every other field (billing address, commission, shipping cost, translations…) passed through as sent.
 * The documentation's two spellings are both optional, so an answer keeps the one the service used:
 * `paymentMethods`/`paymentMethod` (a list; a single name is read as a list of one) and
 * `specifications`/`specificationsTranslations` (JSON strings, passed through).
 */
const ORDER_ITEM = objectOf({
	// The merchant inventory id (the pages' example sends it as a string): a number, as everywhere else in the package.
	id: INTEGER,
	suborderWarehouseAddressId: INTEGER,
	...fieldsOf(INTEGER, 'quantity', 'confirmedQuantity', 'packedQuantity', 'shippingEligibleQuantity'),
	...fieldsOf(NUMBER, 'vat', 'basePrice', 'basePriceWithoutVat', 'grandTotal', 'grandTotalWithoutVat'),
	// What bookkeeping reads (the simplified order sums them); absent where the service leaves them out.
	...fieldsOf(optional(NUMBER), 'chargedPrice', 'chargedPriceWithoutVat', 'shippingCost', 'shippingCostWithoutVat', 'takeRateTotal'),
	...fieldsOf(STRING, 'productId', 'productEan', 'productSku', 'productName'),
});

const ORDER = objectOf({
	...fieldsOf(STRING, 'id', 'createdDate'),
	totalPrice: NUMBER,
	currency: STRING,
	paymentMethods: optional(listOf(STRING)),
	paymentMethod: optional(listOf(STRING)),
	...fieldsOf(INTEGER, 'numberOfItems', 'sumOfItemOrderedQuantities'),
	items: listOf(ORDER_ITEM),
});

const SHIPMENT_ITEM = objectOf({
	merchantInventoryId: INTEGER,
	...fieldsOf(INTEGER, 'orderedQuantity', 'confirmedQuantity', 'packedQuantity'),
	...fieldsOf(NUMBER, 'unitPrice', 'totalPrice'),
	...fieldsOf(STRING, 'productName', 'productEan', 'productSku'),
});

const SHIPMENT = objectOf({
	...fieldsOf(STRING, 'orderId', 'suborderId', 'status', 'statusSubgroup'),
	totalPrice: NUMBER,
	...fieldsOf(INTEGER, 'packedQuantity', 'confirmedQuantity'),
	warehouseName: STRING,
	warehouseId: INTEGER,
	...fieldsOf(STRING, 'carrierName', 'type', 'createdDate'),
	items: listOf(SHIPMENT_ITEM),
});

/** A Spring Data page (`content` and where it is in the list); the page fields stay absent where a service leaves them out. */
function springPageOf(element: Schema): AnswerSchema {
	return {
		body: objectOf({
			content: listOf(element),
			...fieldsOf(optional(BOOLEAN), 'last', 'first', 'empty'),
			...fieldsOf(optional(INTEGER), 'totalElements', 'totalPages', 'number', 'size', 'numberOfElements'),
		}),
		itemsAt: 'content',
	};
}

export interface AnswerSchema {
	readonly body: Schema;
	/** The property of an object body whose list elements are the output items. */
	readonly itemsAt?: string;
	/**
	 * Each element's schema for a plain list where the spec has an object (links not keyed by
	 * suborder); without it, each element is read as that object (ean/exists).
	 */
	readonly asList?: Schema;
}

export const ANSWERS = {
	products: { body: listOf(PRODUCT) },
	basicProducts: { body: listOf(BASIC_PRODUCT) },
	/** The progress id of an import. */
	import: { body: objectOf({ id: STRING }) },
	/** The item type of `errors` is not shown in the spec; a bulk update's are strings. */
	productUpdate: { body: objectOf({ status: STRING, errors: listOf(ANY), myProductId: NUMBER, ...UPDATE_RESULT_NEWER, type: optional(STRING) }) },
	productBulkUpdate: { body: listOf(objectOf({ status: STRING, errors: listOf(STRING), myProductId: NUMBER, ...UPDATE_RESULT_NEWER })) },
	productTypes: { body: listOf(STRING) },
	/** Requested EAN (a key) → whether it exists. */
	eanExists: { body: mapOf(BOOLEAN) },
	warehouses: {
		body: objectOf({ content: listOf(objectOf({ id: NUMBER, warehouseName: STRING, defaultAddress: spelledAlso(BOOLEAN, 'defaultAddres') })) }),
		itemsAt: 'content',
	},
	invoices: { body: listOf(INVOICE) },
	invoiceCorrections: { body: listOf(INVOICE_CORRECTION) },
	/** Keyed by suborder id (the spec's `suborderIdNumberValue` names the key); a plain list's links name their suborder. */
	invoiceUrls: {
		body: mapOf(listOf(objectOf({ documentCorrelationId: STRING, link: STRING }))),
		asList: objectOf({ suborderId: STRING, documentCorrelationId: STRING, link: STRING }),
	},
	discountSchedule: discountResults('scheduleResult', { merchantInventoryId: INTEGER, discountId: STRING }, { merchantInventoryId: INTEGER }),
	discountUpdate: discountResults('updateResult', { discountId: STRING }, { discountId: STRING }),
	discounts: { body: listOf(DISCOUNT) },
	discountCancel: { body: objectOf({ message: STRING }) },
	prices: { body: listOf(PRICE_DATA) },
	/** The progress id of a publish or unpublish (orders-and-shipments.md): the service applies it later and e-mails a report. */
	progress: { body: objectOf({ id: STRING }) },
	orders: springPageOf(ORDER),
	shipments: springPageOf(SHIPMENT),
	/** The status names (52 in the pages). */
	orderStatuses: { body: listOf(STRING) },
	/** Group → subgroups → statuses. */
	orderStatusGroups: { body: listOf(objectOf({ group: STRING, subGroups: listOf(objectOf({ subGroup: STRING, statuses: listOf(STRING) })) })) },
	/** A label's pre-signed link (null in one answer to a label not ready yet). */
	labelLink: { body: objectOf({ link: STRING }) },
	/** A write the pages answer with no body (confirm 201, pack 204): whatever a service adds passes through. */
	written: { body: objectOf({}) },
	/** The spec marks id_token and refresh_token nullable: the reader keeps null as null. */
	token: { body: objectOf({ id_token: STRING, access_token: STRING, refresh_token: STRING, expires_in: INTEGER, token_type: STRING }) },
} as const satisfies Record<string, AnswerSchema>;

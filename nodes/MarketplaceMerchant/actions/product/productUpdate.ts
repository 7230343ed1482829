/**
 * What Update and Update Many share: the fields a product update may change, how an update entry
 * is checked and built, and how its results are sent and read.
 */
import type { IDataObject, IExecutePaginationFunctions, IExecuteSingleFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { finishBulkResults, pairProductResults } from '../../answers/bulkResults';
import { sendRequest, type RequestData } from '../../transport/send';
import { invalidInput, isBlank, readPrice, readStockLevel, readText, readVat, type ValueContext } from '../../values/values';
import { readSimplify } from '../common';
import { readProductRef, resolveProductIds, type NamedProductRef } from '../productLocator';
import { PRICE_FORMS, PRODUCT_FIELDS, readWeight, readWeightUnit } from '../productValues';

/** The optional fields of a product update, as collection options (Update Fields, UI rows). */
export const productUpdateFieldOptions: INodeProperties[] = [
	{
		...PRODUCT_FIELDS.basePrice,
		description: `New price with VAT included; above 0. The service applies it from the next day. ${PRICE_FORMS}.`,
	},
	PRODUCT_FIELDS.packageWeightUnit,
	PRODUCT_FIELDS.packageWeightValue,
	PRODUCT_FIELDS.sku,
	PRODUCT_FIELDS.stockLevel,
	PRODUCT_FIELDS.vat,
];

type ValueReader = (ctx: ValueContext, field: string, value: unknown) => string | number;

const UPDATE_FIELD_READERS: Record<string, ValueReader> = {
	basePrice: readPrice,
	vat: readVat,
	stockLevel: readStockLevel,
	sku: readText,
	packageWeightValue: readWeight,
	packageWeightUnit: readWeightUnit,
};

export const UPDATE_FIELD_NAMES = Object.keys(UPDATE_FIELD_READERS);

/** The update fields by label and key, for hints that serve the panel's fields and JSON keys alike: `Base Price (basePrice)`. */
const UPDATE_FIELDS_NAMED = productUpdateFieldOptions.map(({ name, displayName }) => `${displayName} (${name})`).join(', ');

/** An update entry checked, its product still as the user named it (an EAN is looked up before sending). */
export interface CheckedProductUpdate {
	product: NamedProductRef;
	/** The given update fields, numbers as numbers. */
	fields: IDataObject;
}

/**
 * What reads a property of an entry that comes from the panel (Update's fields, Update Many's
 * rows and mapped items): a reader that knows the property's parameter (values.ts
 * `readingParameter`), so that a value an expression did not give says why.
 */
type PanelReaders = (property: string) => ValueContext;

/**
 * Checks one update entry: the product (a locator, or a plain ID) and the given update fields.
 * Other properties of the entry are not sent, so items read from Get Many can be passed in as
 * they are. `fieldName` names a property (or, without one, the entry) in error messages.
 *
 * From the panel (`fromPanel` given), a field the merchant added to Update Fields must have
 * a value: left empty it fails the item as missing before anything is sent, rather than being
 * dropped unseen, and an expression that gave nothing says which field of the input item it read
 * (values.ts, `missingBecauseOfExpression`). In a JSON entry a blank value means "not given" (a
 * sheet's empty cell).
 */
export function buildProductUpdate(
	ctx: ValueContext,
	source: IDataObject,
	fieldName: (property?: string) => string,
	fromPanel?: PanelReaders,
): CheckedProductUpdate {
	const readerOf = fromPanel ?? ((): ValueContext => ctx);
	const product = { field: fieldName('id'), ref: readProductRef(readerOf('id'), fieldName('id'), source.id) };
	const fields: IDataObject = {};
	for (const [property, read] of Object.entries(UPDATE_FIELD_READERS)) {
		const given = fromPanel ? Object.prototype.hasOwnProperty.call(source, property) : !isBlank(source[property]);
		if (given) fields[property] = read(readerOf(property), fieldName(property), source[property]);
	}
	if (Object.keys(fields).length === 0) {
		throw invalidInput(
			ctx,
			fieldName(),
			'nothing to update',
			`Give at least one of: ${UPDATE_FIELDS_NAMED}`,
		);
	}
	return { product, fields };
}

/** The bodies the service expects (`{ id, ...fields }`), once every entry is checked: EANs are looked up now. */
export async function productUpdateBodies(ctx: IExecuteSingleFunctions, updates: CheckedProductUpdate[]): Promise<IDataObject[]> {
	const ids = await resolveProductIds(ctx, updates.map(({ product }) => product));
	return updates.map(({ fields }, index) => ({ id: ids[index], ...fields }));
}

/**
 * Pagination strategy of Update: sends the one update and shapes its result like a bulk result
 * (`id`, `success`, `error`, `input`), failing the item on FAIL only when the user asked for it.
 */
export async function sendProductUpdate(
	this: IExecutePaginationFunctions,
	requestData: RequestData,
): Promise<INodeExecutionData[]> {
	const sent = requestData.options.body as IDataObject;
	const results = await sendRequest(this, requestData);
	return finishBulkResults.call(this, pairProductResults(results, [sent]), readSimplify(this));
}

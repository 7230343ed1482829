/**
 * Product › Update, and what Update Many shares with it: the fields a product update may change and
 * how an update entry is checked and built.
 */
import {
	updateDisplayOptions,
	type IDataObject,
	type IExecutePaginationFunctions,
	type IExecuteSingleFunctions,
	type IHttpRequestOptions,
	type INodeExecutionData,
	type INodeProperties,
	type INodePropertyOptions,
} from 'n8n-workflow';

import { ANSWERS, finishBulkResults, pairProductResults, readAnswer } from '../../answers/answers';
import { PATHS } from '../../transport/endpoints';
import { sendRequest, type RequestData } from '../../transport/engine';
import {
	invalidInput,
	isBlank,
	readPrice,
	readSimplify,
	readStockLevel,
	readText,
	readVat,
	readingParameter,
	type ValueContext,
} from '../../values/values';
import { bulkResultFields, pacedRouting, panelLabels } from '../common';
import { CATALOGUE, PRICE_FORMS, PRODUCT_FIELDS, productLocatorField, readProductRef, readWeight, readWeightUnit, resolveProductIds, type NamedProductRef } from '../products';
import type { EntryRead } from '../bulkInput';
import type { OperationModule } from '../contract';

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

/** Update Fields, of Update and of an Update Many row. */
export function updateFieldsCollection(description: string): INodeProperties {
	const options = productUpdateFieldOptions;
	return { displayName: 'Update Fields', name: 'updateFields', type: 'collection', placeholder: 'Add Field', default: {}, description, options };
}

const UPDATE_FIELD_READERS: Record<string, (ctx: ValueContext, field: string, value: unknown) => string | number> = {
	basePrice: readPrice,
	vat: readVat,
	stockLevel: readStockLevel,
	sku: readText,
	packageWeightValue: readWeight,
	packageWeightUnit: readWeightUnit,
};

export const UPDATE_FIELD_NAMES = Object.keys(UPDATE_FIELD_READERS);

/** For hints that serve the panel's fields and JSON keys alike: `Base Price (basePrice)`. */
const UPDATE_FIELDS_NAMED = productUpdateFieldOptions.map(({ name, displayName }) => `${displayName} (${name})`).join(', ');

/** An update entry checked, its product still as the user named it (an EAN is looked up before sending). */
export interface CheckedProductUpdate {
	product: NamedProductRef;
	fields: IDataObject;
	/** Update Many's, once the product is resolved. */
	productId?: number;
}

/** An entry of Update Many, or Update's parameters as one. */
type UpdateEntry = Pick<EntryRead, 'raw' | 'label' | 'reader' | 'fromPanel'> & { ctx: ValueContext };

/**
 * Other properties of the entry are not sent, so items from Get Many pass as they are. From the
 * panel (`fromPanel`), a field added but left empty fails as missing rather than being dropped
 * unseen; in a JSON entry a blank value means "not given" (a sheet's empty cell).
 */
export function buildProductUpdate({ ctx, raw, label, reader, fromPanel }: UpdateEntry): CheckedProductUpdate {
	const product = { field: label('id'), ref: readProductRef(reader('id'), label('id'), raw.id) };
	const fields: IDataObject = {};
	for (const [property, read] of Object.entries(UPDATE_FIELD_READERS)) {
		const given = fromPanel ? Object.prototype.hasOwnProperty.call(raw, property) : !isBlank(raw[property]);
		if (given) fields[property] = read(reader(property), label(property), raw[property]);
	}
	if (Object.keys(fields).length === 0) {
		throw invalidInput(ctx, label(), 'nothing to update', `Give at least one of: ${UPDATE_FIELDS_NAMED}`);
	}
	return { product, fields };
}

async function buildUpdateRequest(this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	const { product, fields } = buildProductUpdate({
		ctx: this,
		raw: { ...(this.getNodeParameter('updateFields', {}) as IDataObject), id: this.getNodeParameter('productId', '') },
		label: (property) => FIELD_LABELS[property === 'id' ? 'productId' : (property ?? 'updateFields')],
		reader: (property) => readingParameter(this, property === 'id' ? 'productId' : `updateFields.${property}`),
		fromPanel: true,
	});
	const [id] = await resolveProductIds(this, [product]);
	requestOptions.url = `${PATHS.product}/${String(id)}`;
	requestOptions.body = { id, ...fields };
	return requestOptions;
}

/** Sends the one update and shapes its result like a bulk result (`id`, `success`, `error`, `input`). */
async function sendProductUpdate(this: IExecutePaginationFunctions, requestData: RequestData): Promise<INodeExecutionData[]> {
	const sent = requestData.options.body as IDataObject;
	const results = await sendRequest(this, requestData);
	return finishBulkResults.call(this, pairProductResults(results, [sent]), readSimplify(this));
}

const updateProduct: INodePropertyOptions = {
	name: 'Update',
	value: 'update',
	action: 'Update a product',
	description:
		"Change one product, named by its product ID (or EAN): base price (RSD, VAT included, plain digits; applies from the next day), VAT (0, 10 or 20), stock level (a whole number, 0 or more), SKU or package weight. Fields not given keep their value. Outputs one item: the product's ID, success true or false, the service's reason in error, and the input sent.",
	routing: pacedRouting({
		...CATALOGUE,
		request: { method: 'PUT', url: PATHS.product },
		preSend: [buildUpdateRequest],
		strategy: sendProductUpdate,
		postReceive: [readAnswer(ANSWERS.productUpdate)],
	}),
};

const displayOptions = { show: { resource: ['product'], operation: ['update'] } };

const updateProductFields = updateDisplayOptions(displayOptions, [
	productLocatorField({ name: 'productId' }),
	updateFieldsCollection('Fields to change; give at least one. Fields not added keep their current value.'),
	...bulkResultFields(),
]);

const FIELD_LABELS = panelLabels(updateProductFields);

export const operation: OperationModule = { option: updateProduct, fields: updateProductFields };

/**
 * Product › Update: one product's fields changed, its result shaped like a bulk result. The fields
 * an update may change and how an update entry is checked are the product family's (products/update.ts),
 * shared with Update Many.
 */
import {
	updateDisplayOptions,
	type IDataObject,
	type IExecutePaginationFunctions,
	type IExecuteSingleFunctions,
	type IHttpRequestOptions,
	type INodeExecutionData,
	type INodePropertyOptions,
} from 'n8n-workflow';

import { ANSWERS } from '../../answers/schemas';
import { finishBulkResults, pairProductResults } from '../../answers/bulkResults';
import { PATHS } from '../../transport/endpoints';
import { sendRequest, type RequestData } from '../../transport/send';
import { readingParameter } from '../../values/labels';
import { readSimplify } from '../../values/values';
import { NUMBER_FORMAT_OPTION, bulkResultFields, pacedRouting, panelLabels } from '../common';
import { CATALOGUE, NEGATIVE_STOCK_OPTION } from '../products/fields';
import { foundBy, productLocatorField, resolveProducts } from '../products/locator';
import { buildProductUpdate, updateFieldsCollection } from '../products/update';
import type { OperationModule } from '../contract';

/** The notes of a body the preSend built (a weight converted, a stock below 0 sent as 0), for its output item. */
const NOTES_OF_BODY = new WeakMap<IDataObject, string[]>();
/** How the product of a body was found (`matchedEan` when named By EAN), for its output item. */
const FOUND_OF_BODY = new WeakMap<IDataObject, IDataObject>();

async function buildUpdateRequest(this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	const { product, fields, notes } = buildProductUpdate({
		ctx: this,
		raw: { ...(this.getNodeParameter('updateFields', {}) as IDataObject), id: this.getNodeParameter('productId', '') },
		label: (property) => FIELD_LABELS[property === 'id' ? 'productId' : (property ?? 'updateFields')],
		reader: (property) => readingParameter(this, property === 'id' ? 'productId' : `updateFields.${property}`),
		fromPanel: true,
	});
	const [found] = await resolveProducts(this, [product]);
	const { id } = found;
	requestOptions.url = `${PATHS.product}/${String(id)}`;
	const body = { id, ...fields };
	if (notes) NOTES_OF_BODY.set(body, notes);
	FOUND_OF_BODY.set(body, foundBy(found));
	requestOptions.body = body;
	return requestOptions;
}

/** Sends the one update and shapes its result like a bulk result (`id`, `success`, `error`, `input`). */
async function sendProductUpdate(this: IExecutePaginationFunctions, requestData: RequestData): Promise<INodeExecutionData[]> {
	const sent = requestData.options.body as IDataObject;
	const results = await sendRequest(this, requestData);
	const items = finishBulkResults.call(this, pairProductResults(results, [sent]), readSimplify(this));
	const notes = NOTES_OF_BODY.get(sent);
	if (notes) for (const { json } of items) json.notes = notes;
	for (const { json } of items) Object.assign(json, FOUND_OF_BODY.get(sent));
	return items;
}

const updateProduct: INodePropertyOptions = {
	name: 'Update',
	value: 'update',
	action: 'Update a product',
	description:
		"Change one product, named by its product ID (or EAN): base price (in the currency of the account, VAT included, plain digits; applies from the next day), VAT (the rate of the market in percent, e.g. 20 in Serbia, 17 in Bosnia and Herzegovina; the service judges it), stock level (a whole number; below 0 goes out as 0 by default), SKU, package weight (sent in kilograms), package dimensions (cm) or serviceable. Fields not given keep their value. Outputs one item: the product's ID, success true or false, the service's reason in error, the input sent, and notes when a value was sent converted.",
	routing: pacedRouting({
		...CATALOGUE,
		request: { method: 'PUT', url: PATHS.product },
		preSend: [buildUpdateRequest],
		strategy: sendProductUpdate,
		answer: ANSWERS.productUpdate,
	}),
};

const displayOptions = { show: { resource: ['product'], operation: ['update'] } };

const updateProductFields = updateDisplayOptions(displayOptions, [
	productLocatorField({ name: 'productId' }),
	updateFieldsCollection('Fields to change; give at least one. Fields not added keep their current value.'),
	...bulkResultFields([NEGATIVE_STOCK_OPTION, NUMBER_FORMAT_OPTION]),
]);

const FIELD_LABELS = panelLabels(updateProductFields);

export const operation: OperationModule = { option: updateProduct, fields: updateProductFields };

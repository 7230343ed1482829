/**
 * Product › Update: one product's fields changed, its result shaped like a bulk result. The fields
 * an update may change and how an update entry is checked are the product family's (products.ts),
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

import { ANSWERS, finishBulkResults, pairProductResults, readAnswer } from '../../answers/answers';
import { PATHS } from '../../transport/endpoints';
import { sendRequest, type RequestData } from '../../transport/engine';
import { readSimplify, readingParameter } from '../../values/values';
import { bulkResultFields, pacedRouting, panelLabels } from '../common';
import { CATALOGUE, buildProductUpdate, productLocatorField, resolveProductIds, updateFieldsCollection } from '../products';
import type { OperationModule } from '../contract';

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

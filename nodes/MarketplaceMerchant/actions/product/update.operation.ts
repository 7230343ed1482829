import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteSingleFunctions,
	type IHttpRequestOptions,
	type INodePropertyOptions,
} from 'n8n-workflow';

import { readAnswer } from '../../answers/decode';
import { PATHS } from '../../transport/endpoints';
import { ANSWERS } from '../../answers/schema';
import { readingParameter } from '../../values/values';
import { panelLabels, simplifyResultsField } from '../bulkInput';
import { pacedRouting, failOnItemErrorsOptions } from '../common';
import { productLocatorField } from '../productLocator';
import { buildProductUpdate, productUpdateBodies, productUpdateFieldOptions, sendProductUpdate } from './productUpdate';
import type { OperationModule } from '../contract';

async function buildUpdateRequest(this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	const source: IDataObject = {
		...(this.getNodeParameter('updateFields', {}) as IDataObject),
		id: this.getNodeParameter('productId', ''),
	};
	// Labels as the panel shows them: Product ID, Update Fields › Base Price.
	const update = buildProductUpdate(
		this,
		source,
		(property) => FIELD_LABELS[property === 'id' ? 'productId' : (property ?? 'updateFields')],
		(property) => readingParameter(this, property === 'id' ? 'productId' : `updateFields.${property}`),
	);
	const [body] = await productUpdateBodies(this, [update]);
	requestOptions.url = `${PATHS.product}/${String(body.id)}`;
	requestOptions.body = body;
	return requestOptions;
}

const updateProduct: INodePropertyOptions = {
	name: 'Update',
	value: 'update',
	action: 'Update a product',
	description:
		"Change one product, named by its product ID (or EAN): base price (RSD, VAT included, plain digits; applies from the next day), VAT (0, 10 or 20), stock level (a whole number, 0 or more), SKU or package weight. Fields not given keep their value. Outputs one item: the product's ID, success true or false, the service's reason in error, and the input sent.",
	routing: pacedRouting({
		group: 'catalogue',
		// Setting the same values again changes nothing.
		idempotent: true,
		request: { method: 'PUT', url: PATHS.product },
		preSend: [buildUpdateRequest],
		strategy: sendProductUpdate,
		postReceive: [readAnswer(ANSWERS.productUpdate)],
	}),
};

const displayOptions = { show: { resource: ['product'], operation: ['update'] } };

const updateProductFields = updateDisplayOptions(displayOptions, [
	productLocatorField({ name: 'productId' }),
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		description: 'Fields to change; give at least one. Fields not added keep their current value.',
		options: productUpdateFieldOptions,
	},
	simplifyResultsField(),
	failOnItemErrorsOptions(),
]);

const FIELD_LABELS = panelLabels(updateProductFields);

export const operation: OperationModule = { option: updateProduct, fields: updateProductFields };

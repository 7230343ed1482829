import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteSingleFunctions,
	type IHttpRequestOptions,
	type INodePropertyOptions,
} from 'n8n-workflow';

import { readAnswer } from '../../transport/decode';
import { PATHS } from '../../transport/endpoints';
import { ANSWERS } from '../../transport/schema';
import { pacedRouting, failOnItemErrorsOptions } from '../common';
import { productLocatorField } from './productLocator';
import { buildProductUpdate, productUpdateBodies, productUpdateFieldOptions, sendProductUpdate } from './productUpdate';

const FIELD_LABELS: Record<string, string> = Object.fromEntries(
	productUpdateFieldOptions.map(({ name, displayName }) => [name, `Update Fields > ${displayName}`]),
);

async function buildUpdateRequest(this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	const source: IDataObject = {
		...(this.getNodeParameter('updateFields', {}) as IDataObject),
		id: this.getNodeParameter('productId', ''),
	};
	const update = buildProductUpdate(this, source, (property) =>
		property === 'id' ? 'Product ID' : property ? FIELD_LABELS[property] : 'Update Fields',
	);
	const [body] = await productUpdateBodies(this, [update]);
	requestOptions.url = `${PATHS.product}/${String(body.id)}`;
	requestOptions.body = body;
	return requestOptions;
}

export const updateProduct: INodePropertyOptions = {
	name: 'Update',
	value: 'update',
	action: 'Update a product',
	description:
		"Change one product's price, VAT, stock, SKU or package weight by its ID. Outputs the result with success true or false and the service's reason in error.",
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

export const updateProductFields = updateDisplayOptions(displayOptions, [
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
	failOnItemErrorsOptions(),
]);

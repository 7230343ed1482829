import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteSingleFunctions,
	type IHttpRequestOptions,
	type INodePropertyOptions,
} from 'n8n-workflow';

import { finishBulkResults, pairProductResults } from '../../transport/bulkResults';
import { readAnswer } from '../../transport/decode';
import { LIMITS, PATHS } from '../../transport/endpoints';
import { splitBodyList } from '../../transport/pagination';
import { ANSWERS } from '../../transport/schema';
import { bulkInputFields, readBulkEntries, simplifyResultsField, type BulkInput } from '../bulkInput';
import { pacedRouting, failOnItemErrorsOptions } from '../common';
import { productLocatorField } from '../productLocator';
import { UPDATE_FIELD_NAMES, buildProductUpdate, productUpdateBodies, productUpdateFieldOptions } from './productUpdate';

const JSON_HINT = `An array of objects such as [{"id": 100001, "stockLevel": 5}], each with "id" and at least one of: ${UPDATE_FIELD_NAMES.join(', ')}`;

const BULK_INPUT: BulkInput = {
	entries: 'products to update',
	call: 'one bulk call',
	json: {
		name: 'productsJson',
		displayName: 'Products (JSON)',
		itemProperty: 'products',
		description: `List of updates. ${JSON_HINT}. Numbers may be given as text.`,
		placeholder: '[{"id": 100001, "stockLevel": 5}, {"id": 100002, "basePrice": 1299.9}]',
		hint: JSON_HINT,
	},
	rows: {
		name: 'productRows',
		displayName: 'Products',
		row: {
			name: 'product',
			displayName: 'Product',
			values: [
				productLocatorField({ name: 'id' }),
				{
					displayName: 'Update Fields',
					name: 'updateFields',
					type: 'collection',
					placeholder: 'Add Field',
					default: {},
					description: 'Fields to change; give at least one',
					options: productUpdateFieldOptions,
				},
			],
		},
		toEntry: (row) => ({ ...((row.updateFields as IDataObject | undefined) ?? {}), id: row.id }),
	},
	emptyProblem: 'the list is empty',
};

async function buildBulkUpdateBody(this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	const { entries, label } = readBulkEntries(this, BULK_INPUT);
	const updates = entries.map((entry, index) => buildProductUpdate(this, entry, (property) => label(index, property)));
	requestOptions.body = await productUpdateBodies(this, updates);
	return requestOptions;
}

export const updateManyProducts: INodePropertyOptions = {
	name: 'Update Many',
	value: 'updateMany',
	action: 'Update many products',
	description:
		'Change price, VAT, stock, SKU or package weight of a list of products in bulk (any number; sent in requests of up to 30,000). Outputs one item per product, in the order given, with the product ID, success, error and the input sent.',
	routing: pacedRouting({
		group: 'catalogue',
		// Setting the same values again changes nothing.
		idempotent: true,
		request: { method: 'PUT', url: PATHS.productBulk },
		preSend: [buildBulkUpdateBody],
		strategy: splitBodyList({
			maxItems: LIMITS.productsPerBulkRequest,
			maxBytes: LIMITS.bulkRequestBytes,
			pairResults: pairProductResults,
			idOf: (entry) => String(entry.id),
			finish: finishBulkResults,
		}),
		postReceive: [readAnswer(ANSWERS.productBulkUpdate)],
	}),
};

const displayOptions = { show: { resource: ['product'], operation: ['updateMany'] } };

export const updateManyProductsFields = updateDisplayOptions(displayOptions, [
	...bulkInputFields(BULK_INPUT),
	simplifyResultsField(),
	failOnItemErrorsOptions(),
]);

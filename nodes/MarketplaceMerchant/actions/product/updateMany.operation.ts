import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { ANSWERS } from '../../answers/schemas';
import { pairProductResults } from '../../answers/bulkResults';
import { LIMITS, PATHS } from '../../transport/endpoints';
import type { BulkInput } from '../bulk/fields';
import { bulkOperationModule } from '../bulk/run';
import { bulkWrite, type BulkRequests } from '../bulk/write';
import { NUMBER_FORMAT_OPTION } from '../common';
import { CATALOGUE, NEGATIVE_STOCK_OPTION } from '../catalogue/fields';
import { foundBy, productLocatorField, productNamedBy, resolveEntryProducts } from '../catalogue/locator';
import { buildProductUpdate, UPDATE_FIELD_NAMES, updateFieldsCollection, type CheckedProductUpdate } from '../catalogue/update';
import type { OperationModule } from '../contract';

const JSON_HINT = `An array of objects such as [{"id": 100001, "stockLevel": 5}], each with "id" and at least one of: ${UPDATE_FIELD_NAMES.join(', ')}`;

/** The product list of Update Many and Sync Stock and Prices: one set of parameter names and labels. */
export function productListInput(
	entries: string,
	json: Pick<BulkInput['json'], 'description' | 'placeholder' | 'hint' | 'labels'>,
	values: INodeProperties[],
	nameEntry: BulkInput['nameEntry'],
	toEntry?: BulkInput['rows']['toEntry'],
): BulkInput {
	return {
		entries,
		entry: 'Product',
		json: { name: 'productsJson', displayName: 'Products (JSON)', itemProperty: 'products', ...json },
		rows: { name: 'productRows', displayName: 'Products', row: { name: 'product', displayName: 'Product', values }, toEntry },
		nameEntry,
	};
}

const BULK_INPUT = productListInput(
	'products to update',
	{
		description: `List of updates. ${JSON_HINT}. Numbers may be given as text.`,
		placeholder: '[{"id": 100001, "stockLevel": 5}, {"id": 100002, "basePrice": 1299.9}]',
		hint: JSON_HINT,
	},
	[productLocatorField({ name: 'id' }), updateFieldsCollection('Fields to change; give at least one')],
	(ctx, entry) => productNamedBy(ctx, entry.id),
	(row) => ({ ...((row.updateFields as IDataObject | undefined) ?? {}), id: row.id }),
);

/** PUT product/bulk, as Sync Stock and Prices sends it too. */
export const PRODUCT_BULK_UPDATE: BulkRequests = {
	route: CATALOGUE,
	request: { method: 'PUT', url: PATHS.productBulk },
	maxItems: LIMITS.productsPerBulkRequest,
	answer: ANSWERS.productBulkUpdate,
	pairResults: pairProductResults,
	// Two updates of one product go in separate requests, in order: each result names its product.
	idOf: (body) => String(body.id),
};

const bulkModule = bulkOperationModule<CheckedProductUpdate>(
	'product',
	{
		name: 'Update Many',
		value: 'updateMany',
		action: 'Update many products',
		description:
			'Change price, VAT, stock, SKU, package weight and dimensions or serviceable of many products in bulk: one product per input item (a sheet row) or a list, sent in as few requests as the service allows (up to 30,000 each). Outputs one item per product, in the order given, with the product ID, success, error (only when rejected) and the input sent.',
	},
	{
		input: BULK_INPUT,
		check: buildProductUpdate,
		resolve: resolveEntryProducts,
		send: bulkWrite({
			...PRODUCT_BULK_UPDATE,
			body: ({ productId, fields }) => ({ id: productId, ...fields }),
			idOfInvalid: (raw) => raw.id,
			notesOf: ({ notes }) => notes,
			foundOf: (value) => foundBy(value),
		}),
		options: [NEGATIVE_STOCK_OPTION, NUMBER_FORMAT_OPTION],
	},
);

export const operation: OperationModule = {
	...bulkModule,
	tool: { keepOut: 'it changes many products from one list a model would write, with nobody to check it first; for one product use Product Update' },
};

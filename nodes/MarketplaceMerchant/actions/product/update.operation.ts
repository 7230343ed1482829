/**
 * Product › Update: one product's fields changed, its result shaped like a bulk result. The fields
 * an update may change and how an update entry is checked are the product family's (catalogue/update.ts),
 * shared with Update Many.
 */
import {
	updateDisplayOptions,
	type IDataObject,
	type IHttpRequestOptions,
	type INodeExecutionData,
	type INodePropertyOptions,
} from 'n8n-workflow';

import { ANSWERS } from '../../answers/schemas';
import { finishBulkResults, pairProductResults } from '../../answers/bulkResults';
import { PATHS } from '../../transport/endpoints';
import { sendRequest, type ItemFunctions } from '../../transport/send';
import { readInto } from '../../answers/read';
import { readingParameter } from '../../values/labels';
import { readSimplify } from '../../values/values';
import { NUMBER_FORMAT_OPTION, bulkResultFields, panelLabels } from '../common';
import { steps } from '../run';
import { CATALOGUE, NEGATIVE_STOCK_OPTION } from '../catalogue/fields';
import { foundBy, lookUpNamedProducts, productLocatorField, productsFound } from '../catalogue/locator';
import type { FoundProduct } from '../catalogue/eans';
import { buildProductUpdate, updateFieldsCollection, type CheckedProductUpdate } from '../catalogue/update';
import type { OperationModule } from '../contract';

/** One item's update as read (values/ readers), then with its product found (`productId`, `matchedEan` when named By EAN). */
type ItemUpdate = CheckedProductUpdate & { productId?: number; matchedEan?: string };

function readUpdate(ctx: ItemFunctions): ItemUpdate {
	return buildProductUpdate({
		ctx,
		raw: { ...(ctx.getNodeParameter('updateFields', {}) as IDataObject), id: ctx.getNodeParameter('productId', '') as IDataObject[string] },
		label: (property) => FIELD_LABELS[property === 'id' ? 'productId' : (property ?? 'updateFields')],
		reader: (property) => readingParameter(ctx, property === 'id' ? 'productId' : `updateFields.${property}`),
		fromPanel: true,
	});
}

/** Sends the one update and shapes its result like a bulk result (`id`, `success`, `error`, `input`), with its notes and how its product was found. */
async function sendProductUpdate(ctx: ItemFunctions, update: ItemUpdate): Promise<INodeExecutionData[]> {
	const id = update.productId as number;
	const sent = { id, ...update.fields };
	const options = { method: 'PUT', url: `${PATHS.product}/${String(id)}`, body: sent, qs: {}, headers: { Accept: 'application/json', 'Content-Type': 'application/json' }, json: true } as IHttpRequestOptions;
	const results = await sendRequest(ctx, { options, route: CATALOGUE, read: readInto(ANSWERS.productUpdate) });
	const items = finishBulkResults.call(ctx, pairProductResults(results, [sent]), readSimplify(ctx));
	for (const { json } of items) {
		if (update.notes) json.notes = update.notes;
		Object.assign(json, foundBy(update));
	}
	return items;
}

/** Read every item, look up the run's EANs together (one request per 100), then send each item's update. */
const updateSteps = steps<ItemUpdate, Map<string, FoundProduct[]>>({
	read: readUpdate,
	plan: async (exec, items) => await lookUpNamedProducts(exec, items.map(({ entry }) => entry.product)),
	complete: (ctx, update, found) => {
		const [product] = productsFound(ctx, [update.product], found);
		return { ...update, productId: product.id, ...(product.matchedEan === undefined ? {} : { matchedEan: product.matchedEan }) };
	},
	act: sendProductUpdate,
});

const updateProduct: INodePropertyOptions = {
	name: 'Update',
	value: 'update',
	action: 'Update a product',
	description:
		"Change one product, named by its product ID (or EAN): base price (in the currency of the account, VAT included, plain digits; applies from the next day), VAT (the rate of the market in percent, e.g. 20 in Serbia, 17 in Bosnia and Herzegovina; the service judges it), stock level (a whole number; below 0 goes out as 0 by default), SKU, package weight (sent in kilograms), package dimensions (cm) or serviceable. Fields not given keep their value. Outputs one item: the product's ID, success true or false, the service's reason in error, the input sent, and notes when a value was sent converted.",
};

const displayOptions = { show: { resource: ['product'], operation: ['update'] } };

const updateProductFields = updateDisplayOptions(displayOptions, [
	productLocatorField({ name: 'productId' }),
	updateFieldsCollection('Fields to change; give at least one. Fields not added keep their current value.'),
	...bulkResultFields([NEGATIVE_STOCK_OPTION, NUMBER_FORMAT_OPTION]),
]);

const FIELD_LABELS = panelLabels(updateProductFields);

export const operation: OperationModule = { steps: updateSteps, option: updateProduct, fields: updateProductFields };

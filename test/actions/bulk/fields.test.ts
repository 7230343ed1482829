/**
 * The panel of the bulk operations (actions/bulk/fields.ts), through n8n's real engine against the
 * sandbox: with Input Mode "One Item per …" (the default of node version 2) every input item is
 * one entry, and all items of the run are one plan.
 */
import { sandbox, sent } from '../helpers';
import { NEW_NODE, SYNC_MAPPED, hintsOf, pairedItems, run, settledProducts, sheetRows, start } from './helpers';

describe('bulk operations: one entry per input item, one batch per run', () => {
	it('Sync: a new node reads one product per input item; six rows read the catalogue once and write once, one output item per row, paired with it', async () => {
		await start();
		const products = settledProducts(6);

		const result = await run(SYNC_MAPPED, sheetRows(products), NEW_NODE);

		expect(result.error).toBeUndefined();
		const items = result.output('Node');
		expect(items.map(({ json }) => [json.id, json.success, json.status])).toEqual(products.map((product) => [product.id, true, 'updated']));
		expect(pairedItems(items)).toEqual(products.map((_, item) => ({ item })));
		expect(items[0].json).toEqual({
			id: products[0].id,
			sku: products[0].sku,
			success: true,
			status: 'updated',
			input: { ean: products[0].ean, stockLevel: products[0].stockLevel + 1, basePrice: products[0].basePrice },
			changes: { stockLevel: { from: products[0].stockLevel, to: products[0].stockLevel + 1 } },
		});
		expect(sent('productBulk').map((entry) => entry.itemCount)).toEqual([6]);
		expect(products.every((product) => sandbox.state.product(product.id)?.stockLevel === product.stockLevel + 1)).toBe(true);
		expect(hintsOf(result)).toEqual([]);
	});
});

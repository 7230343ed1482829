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

	it('refuses an Input Mode or Invalid Entries no choice names (a workflow made through the API), reading nothing, sending nothing (issue 41)', async () => {
		await start();
		const products = settledProducts(2);

		const mode = await run({ ...SYNC_MAPPED, inputMode: 'sheet' }, sheetRows(products), NEW_NODE);
		expect(mode.error?.message).toMatch(/^Input Mode: "sheet" is not one of json, rows, items/);
		const invalid = await run({ ...SYNC_MAPPED, invalidEntries: 'ignore' }, sheetRows(products), NEW_NODE);
		expect(invalid.error?.message).toMatch(/^Invalid Entries: "ignore" is not one of stop, skip/);
		expect([...sent('basicProducts'), ...sent('productBulk')]).toEqual([]);
	});
});

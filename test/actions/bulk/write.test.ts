/**
 * The writes of a bulk operation (actions/bulk/write.ts), through n8n's real engine against the
 * sandbox: the rows of a run go out in as few requests as the same list in one item would.
 */
import { sandbox } from '../helpers';
import { NEW_NODE, SYNC_MAPPED, neededPages, requestCounts, run, settledProducts, sheetRows, start } from './helpers';

describe('bulk operations: one entry per input item, one batch per run', () => {
	it('Sync: the rows of a run cost the same requests as the same list in one item', async () => {
		await start(3000);
		const products = settledProducts(40);

		await run(SYNC_MAPPED, sheetRows(products), NEW_NODE);
		const perItem = { counts: requestCounts(), pages: neededPages() };
		sandbox.clearLog();
		const list = products.map((product) => ({ ean: product.ean, stockLevel: product.stockLevel + 2 }));
		await run({ resource: 'product', operation: 'syncStockAndPrices', inputMode: 'json', productsJson: '={{ $json.products }}' }, [{ products: list }]);

		// 3,000 products are two pages of 2,500, each read once; pages sent ahead past the last one
		// (at most 4, as many as the gate let through before the short page came back) vary with timing.
		expect(perItem.pages).toEqual(['0', '1']);
		expect(neededPages()).toEqual(['0', '1']);
		expect(perItem.counts.basicProducts).toBeLessThanOrEqual(2 + 4);
		expect(perItem.counts.productBulk).toBe(1);
		expect(requestCounts().productBulk).toBe(1);
	});
});

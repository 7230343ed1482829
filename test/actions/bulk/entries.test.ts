/**
 * Input items read into entries (actions/bulk/entries.ts), through n8n's real engine against the
 * sandbox: mapped fields and dragged columns, JSON lists and rows, the labels that name an entry,
 * other nodes' outputs (Product Get Many, Discount Schedule) as entries without renaming.
 */
import type { IDataObject } from 'n8n-workflow';

import { YEAR, apiRequests, freshProducts, goodPrice, saleDays, sandbox } from '../helpers';
import { NEW_NODE, SYNC_MAPPED, discountStart, hintsOf, pairedItems, run, settledProducts, sheetRows, start } from './helpers';

describe('bulk operations: one entry per input item, one batch per run', () => {
	it('a mapped field whose expression gives nothing says so: which field of the row it read, and which the row has', async () => {
		await start();
		const products = settledProducts(2);

		const result = await run({ ...SYNC_MAPPED, itemMatch: '={{ $json.ean }}' }, sheetRows(products), NEW_NODE);

		const why = "`{{ $json.ean }}` gave no value: the input item has no field 'ean' (it has: EAN, Qty, Price)";
		expect(result.error?.message).toBe(`2 entries are invalid, nothing was sent: row 1 › Match Value: ${why}; row 2 › Match Value: ${why}.`);
		expect(apiRequests()).toEqual([]);
	});

	it('a column mapped by dragging ({{ $json.Column }}, read from the item) gives what n8n\'s own evaluation of the column gives, for every kind of value', async () => {
		await start();
		const products = settledProducts(12);
		const odd: unknown[] = ['5', 5, ' 7 ', null, undefined, 5.5, '1,299', true, '', 0, '12abc', { n: 1 }];
		const rows = products.map((product, index) => {
			const row: IDataObject = { EAN: index === 3 ? Number(product.ean) : product.ean, Price: String(product.basePrice) };
			if (odd[index] !== undefined) row.Qty = odd[index] as IDataObject[string];
			return row;
		});
		const outputOf = async (qty: string, match: string) =>
			(await run({ ...SYNC_MAPPED, itemMatch: match, itemStockLevel: qty, invalidEntries: 'skip', dryRun: true }, rows, NEW_NODE)).json('Node');

		const read = await outputOf('={{ $json.Qty }}', '={{ $json.EAN }}');
		const evaluated = await outputOf('={{ $json["Qty"] }}', '={{ $json["EAN"] }}');

		expect(read).toEqual(evaluated);
		expect(read.map((item) => item.status)).toContain('invalid');
		expect(read.map((item) => item.status)).toContain('planned');
	});

	it('Skip and Report in a JSON list: the same per-entry behaviour, in the list\'s own words', async () => {
		await start();
		const [a, b] = settledProducts(2);

		const result = await run(
			{ resource: 'product', operation: 'syncStockAndPrices', inputMode: 'json', productsJson: '={{ $json.products }}', invalidEntries: 'skip' },
			[{ products: [{ ean: a.ean, stockLevel: 'many' }, { ean: b.ean, stockLevel: b.stockLevel + 1 }] }],
			{ node: { onError: 'continueRegularOutput' } },
		);

		expect(result.json('Node').map((item) => [item.status, item.error])).toEqual([
			['invalid', expect.stringMatching(/^Products \(JSON\) › entry 1 › Stock Level \(stockLevel\): "many"/)],
			['updated', undefined],
		]);
		expect(hintsOf(result)).toHaveLength(1);
	});

	it('Update Many: Product Get Many\'s output feeds it as it is (its id)', async () => {
		await start();
		const products = settledProducts(3);

		const result = await run(
			{ resource: 'product', operation: 'updateMany', itemId: '={{ $json.id }}', itemUpdateFields: { stockLevel: 0 } },
			products.map((product) => ({ id: product.id, name: product.name, stockLevel: product.stockLevel })),
			NEW_NODE,
		);

		expect(result.json('Node').map((item) => item.success)).toEqual([true, true, true]);
		expect(products.every((product) => sandbox.state.product(product.id)?.stockLevel === 0)).toBe(true);
	});
});

describe('discounts: one per input item', () => {
	it('Schedule: Product Get Many\'s items (their id) become discounts without renaming, one request, each result with the product\'s id', async () => {
		await discountStart();
		const products = freshProducts(3);

		const result = await run(
			{
				resource: 'discount',
				operation: 'schedule',
				itemMerchantInventoryId: '={{ $json.id }}',
				itemDiscountPrice: '={{ $json.salePrice }}',
				itemDateFrom: `01/08/${YEAR}`,
				itemDateTo: `10/08/${YEAR}`,
			},
			products.map((product) => ({ id: product.id, name: product.name, salePrice: goodPrice(product) })),
			NEW_NODE,
		);

		expect(result.error).toBeUndefined();
		const items = result.output('Node');
		expect(items.map(({ json }) => [json.success, json.productId])).toEqual(products.map((product) => [true, product.id]));
		expect(pairedItems(items)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(sandbox.log.filter((entry) => entry.route === 'discountSchedule').map((entry) => entry.itemCount)).toEqual([3]);
	});

	it('Schedule in JSON: entries may name their product by id, as Product Get Many outputs it', async () => {
		await discountStart();
		const [product] = freshProducts(1);

		const result = await run(
			{ resource: 'discount', operation: 'schedule', inputMode: 'json', discountsJson: '={{ $json.discounts }}' },
			[{ discounts: [{ id: product.id, discountPrice: goodPrice(product), dateFrom: `01/08/${YEAR}`, dateTo: `10/08/${YEAR}`, discountType: 'SALE' }] }],
		);

		expect(result.json('Node')).toEqual([expect.objectContaining({ success: true, productId: product.id })]);
	});

	it('Update: the discounts Schedule output (their id) are changed row by row in one request', async () => {
		// A sandbox clock before today: dates within the year ahead Update reads the discounts of are upcoming for both.
		await start();
		const products = freshProducts(2);
		const [dateFrom, dateTo] = saleDays();
		const scheduled = await run(
			{ resource: 'discount', operation: 'schedule', itemMerchantInventoryId: '={{ $json.id }}', itemDiscountPrice: '={{ $json.salePrice }}', itemDateFrom: dateFrom, itemDateTo: dateTo },
			products.map((product) => ({ id: product.id, salePrice: goodPrice(product) })),
			NEW_NODE,
		);
		sandbox.clearLog();

		const result = await run(
			{ resource: 'discount', operation: 'update', itemDiscountId: '={{ $json.id }}', itemNewDateTo: saleDays(30, 12)[1] },
			scheduled.json('Node'),
			NEW_NODE,
		);

		expect(result.json('Node').map((item) => item.success)).toEqual([true, true]);
		expect(sandbox.log.filter((entry) => entry.route === 'discountUpdate').map((entry) => entry.itemCount)).toEqual([2]);
	});
});

/**
 * Product › Update Many: one item per product, rows from the UI or JSON, validation and bulk splitting, through n8n's real engine (RoutingNode) against the sandbox.
 */
import type { INodeParameters } from 'n8n-workflow';

import { NOW, apiRequests, runner, sandbox, sandboxPerTest } from '../helpers';

const start = sandboxPerTest((products: number) => ({ now: NOW, products }));
const run = runner('product');
/** On Error = Continue: a run with a rejected product gives its item (under the default it fails naming it, test/actions/bulk/run.test.ts). */
const CONTINUE = { node: { onError: 'continueRegularOutput' as const } };

describe('Product: Update Many', () => {
	const UNKNOWN_ID = 999_999;

	/** Update Many reading the list from the input item's `products`, as by default. */
	function bulkUpdate(options: INodeParameters = {}): INodeParameters {
		return { operation: 'updateMany', inputMode: 'json', productsJson: '={{ $json.products }}', options };
	}

	it('outputs one item per product; a product the service rejects comes out with success false', async () => {
		await start(10);
		const [first, second] = sandbox.state.products;
		const products = [
			{ id: String(first.id), stockLevel: '11', vat: '0', name: 'ignored, not an update field' },
			{ id: UNKNOWN_ID, stockLevel: 5 },
			{ id: second.id, basePrice: 999, packageWeightUnit: 'g', packageWeightValue: 300 },
		];

		const result = await run(bulkUpdate(), [{ products }], CONTINUE);

		expect(result.error).toBeUndefined();
		expect(result.json('Node')).toEqual([
			{ id: first.id, success: true, input: { id: first.id, stockLevel: 11, vat: 0 } },
			{ id: UNKNOWN_ID, success: false, error: `Product ${UNKNOWN_ID} does not exist`, input: { id: UNKNOWN_ID, stockLevel: 5 } },
			{
				id: second.id,
				success: true,
				input: { id: second.id, basePrice: 999, packageWeightUnit: 'KG', packageWeightValue: 0.3 },
				notes: ['Package Weight 300 G sent as 0.3 KG, as the service stores kilograms'],
			},
		]);
		expect(sandbox.state.product(first.id)).toEqual(expect.objectContaining({ stockLevel: 11, vat: 0 }));
		expect(sandbox.state.product(second.id)).toEqual(
			expect.objectContaining({ newBasePrice: 999, packageWeightUnit: 'KG', packageWeightValue: 0.3 }),
		);
		expect(sandbox.log.filter((entry) => entry.route === 'productBulk').map((entry) => entry.itemCount)).toEqual([3]);
	});

	it("carries the product's name and EAN the service returns; a Serbian item error gets its English meaning beside it", async () => {
		await start(10);
		sandbox.setVariants({ documentedUpdateResults: true });
		const [first] = sandbox.state.products;

		const result = await run(bulkUpdate(), [{ products: [{ id: first.id, stockLevel: 4 }, { id: UNKNOWN_ID, stockLevel: 5 }] }], CONTINUE);

		expect(result.json('Node')).toEqual([
			{ id: first.id, success: true, productName: first.name, ean: first.ean, input: { id: first.id, stockLevel: 4 } },
			{ id: UNKNOWN_ID, success: false, error: 'Proizvod ne postoji (product does not exist)', input: { id: UNKNOWN_ID, stockLevel: 5 } },
		]);
		// Simplify off: the service's own result, as it came.
		const full = await run({ ...bulkUpdate(), simplify: false }, [{ products: [{ id: first.id, stockLevel: 6 }] }]);
		expect(full.json('Node')[0]).toEqual(expect.objectContaining({ status: 'SUCCESS', productName: first.name, ean: first.ean }));
	});

	it('Fail on Item Errors: under the default On Error the run fails naming the rejected product (as without it); under Continue the item fails, as an error item', async () => {
		await start(10);
		const products = [
			{ id: 100_001, stockLevel: 1 },
			{ id: UNKNOWN_ID, stockLevel: 2 },
		];
		const parameters = bulkUpdate({ failOnItemErrors: true });

		const failed = await run(parameters, [{ products }]);
		expect(failed.error?.message).toBe(`1 of 2 entries rejected (the other 1 went through): Products (JSON) › entry 2: Product ${UNKNOWN_ID} does not exist.`);

		const continued = await run(parameters, [{ products }, { products: [{ id: 100_002, stockLevel: 3 }] }], {
			node: { onError: 'continueRegularOutput' },
		});
		expect(continued.error).toBeUndefined();
		const output = continued.json('Node');
		expect(output).toHaveLength(2);
		expect(JSON.stringify(output[0])).toContain('1 of 2 entries were rejected by the service');
		expect(output[1]).toEqual(expect.objectContaining({ success: true, id: 100_002 }));
	});

	it('takes the products from rows entered in the UI', async () => {
		await start(10);

		const result = await run({
			operation: 'updateMany',
			inputMode: 'rows',
			productRows: {
				product: [
					{ id: '100004', updateFields: { stockLevel: 40 } },
					{ id: '100005', updateFields: { vat: 10, sku: 'ROW-SKU' } },
				],
			},
		});

		expect(result.error).toBeUndefined();
		expect(result.json('Node').map((item) => item.success)).toEqual([true, true]);
		expect(sandbox.state.product(100_004)?.stockLevel).toBe(40);
		expect(sandbox.state.product(100_005)).toEqual(expect.objectContaining({ vat: 10, sku: 'ROW-SKU' }));
	});

	it.each([
		['VAT -1', [{ id: 100_001, stockLevel: 1 }, { id: 100_002, vat: -1 }], /^Products \(JSON\) › entry 2 › VAT \(vat\): must be at least 0, got -1 \(item 0\)/],
		['a package width that is not a number', [{ id: 100_001, packageWidthValue: '12,5' }], /^Products \(JSON\) › entry 1 › Package Width \(cm\) \(packageWidthValue\): "12,5" is not a length in centimetres/],
		['a fractional stock level', [{ id: 100_001, stockLevel: '2.5' }], /^Products \(JSON\) › entry 1 › Stock Level \(stockLevel\): "2\.5" is not a stock level/],
		['a zero price', [{ id: 100_001, basePrice: 0 }], /^Products \(JSON\) › entry 1 › Base Price \(basePrice\): must be above 0, got 0/],
		['a negative weight', [{ id: 100_001, packageWeightValue: -2 }], /^Products \(JSON\) › entry 1 › Package Weight Value \(packageWeightValue\): must be above 0/],
		['an unknown unit', [{ id: 100_001, packageWeightUnit: 'LB' }], /^Products \(JSON\) › entry 1 › Package Weight Unit \(packageWeightUnit\): "LB" is not one of KG, G/],
		['an id that is not a whole number', [{ id: '1.5', stockLevel: 1 }], /^Products \(JSON\) › entry 1 › Product ID \(id\): "1.5" is not a product ID/],
		['an entry with nothing to update', [{ id: 100_001 }], /^Products \(JSON\) › entry 1: nothing to update/],
		['an empty list', [], /Products \(JSON\): the list is empty \(item 0\)/],
		['a list that is null', null, /Products \(JSON\): the list is empty \(item 0\)/],
		// A node added from the node creator reads {{ $json.products }}: an item without it is told so.
		['a missing list', undefined, /^Products \(JSON\): the input item has no field 'products' \(the field reads \{\{ \$json\.products \}\}\) \(item 0\)$/],
	])('rejects %s and sends nothing', async (_case, products, message) => {
		await start(10);

		const result = await run(bulkUpdate(), [products === undefined ? {} : { products }]);

		expect(result.error?.message).toMatch(message);
		expect(apiRequests()).toHaveLength(0);
	});

	it('names a row by its position and the labels the row shows', async () => {
		await start(10);

		const result = await run({
			operation: 'updateMany',
			inputMode: 'rows',
			// An expression that gives nothing (n8n itself flags a row whose Product ID is left empty).
			productRows: { product: [{ id: '100004', updateFields: { stockLevel: 40 } }, { id: '={{ $json.nothing }}', updateFields: { stockLevel: 1 } }] },
		});

		expect(result.error?.message).toBe("Products › row 2 › Product ID: `{{ $json.nothing }}` gave no value: the input item has no field 'nothing' (it has no fields) (item 0)");
		const third = await run({
			operation: 'updateMany',
			inputMode: 'rows',
			productRows: { product: [{ id: '100004', updateFields: { stockLevel: 40 } }, { id: '100005', updateFields: { basePrice: '1,299' } }] },
		});
		expect(third.error?.message).toBe('Products › row 2 › Update Fields › Base Price: "1,299" is not a price (item 0)');
		expect(apiRequests()).toHaveLength(0);
	});

	it('with On Error = Continue, only the invalid rows of Define Below fail, each an error item in its place; the valid rows are sent (issue 38, point 4)', async () => {
		await start(10);

		const result = await run(
			{
				operation: 'updateMany',
				inputMode: 'rows',
				productRows: {
					product: [
						{ id: '100004', updateFields: { stockLevel: 40 } },
						{ id: '100005', updateFields: { basePrice: '1,299' } },
						{ id: '100006', updateFields: { stockLevel: 41 } },
						{ id: '100007', updateFields: { vat: 101 } },
					],
				},
			},
			[{}],
			// Node version 2 on: version 1 fails the whole input item, as its saved workflows do.
			{ node: { typeVersion: 4, onError: 'continueRegularOutput' } },
		);

		expect(result.error).toBeUndefined();
		expect(result.output('Node').map((item) => item.error?.message ?? item.json.id)).toEqual([
			100004,
			'Products › row 2 › Update Fields › Base Price: "1,299" is not a price (item 0)',
			100006,
			expect.stringMatching(/^Products › row 4 › Update Fields › VAT/),
		]);
		expect(apiRequests().map((entry) => entry.itemCount)).toEqual([2]);
		expect([sandbox.state.product(100004)?.stockLevel, sandbox.state.product(100006)?.stockLevel]).toEqual([40, 41]);
	});

	it('rejects an empty row list and sends nothing', async () => {
		await start(10);

		const result = await run({ operation: 'updateMany', inputMode: 'rows', productRows: {} });

		expect(result.error?.message).toMatch(/Products: the list is empty \(item 0\)/);
		expect(apiRequests()).toHaveLength(0);
	});

	it('sends 30,001 products of one item in two requests', async () => {
		await start(30_001);
		const products = Array.from({ length: 30_001 }, (_, index) => ({ id: 100_001 + index, stockLevel: index % 100 }));

		const result = await run(bulkUpdate(), [{ products }]);

		expect(result.error).toBeUndefined();
		// No id repeats across the two requests, so they may overlap and arrive in either order.
		const bulkRequests = sandbox.log.filter((entry) => entry.route === 'productBulk');
		expect(bulkRequests.map((entry) => [entry.status, entry.itemCount]).sort((a, b) => b[1]! - a[1]!)).toEqual([
			[200, 30_000],
			[200, 1],
		]);
		const output = result.json('Node');
		expect(output).toHaveLength(30_001);
		expect(output.every((item) => item.success === true)).toBe(true);
		expect(output[30_000]).toEqual(expect.objectContaining({ id: 130_001, input: { id: 130_001, stockLevel: 0 } }));
		expect(sandbox.state.product(130_001)?.stockLevel).toBe(0);
		expect(sandbox.state.product(129_999)?.stockLevel).toBe(98);
	});

	it('sends weights in kilograms, a stock below 0 as 0, serviceable and package dimensions, in one request', async () => {
		await start(10);
		sandbox.setVariants({ weightStoredAsKg: true });
		const [first, second, third] = sandbox.state.products;
		const products = [
			{ id: first.id, packageWeightValue: '1234.567', packageWeightUnit: 'g', stockLevel: '-3' },
			{ id: second.id, serviceable: 'true', packageHeightValue: '10', packageWidthValue: 20.5, packageLengthValue: '30' },
			{ id: third.id, packageWeightValue: 2, packageWeightUnit: 'KG' },
		];

		const result = await run(bulkUpdate(), [{ products }]);

		expect(result.error).toBeUndefined();
		expect(result.json('Node')).toEqual([
			{
				id: first.id,
				success: true,
				input: { id: first.id, packageWeightValue: 1.234567, packageWeightUnit: 'KG', stockLevel: 0 },
				notes: ['Stock Level -3 sent as 0, as the service stores it', 'Package Weight 1234.567 G sent as 1.234567 KG, as the service stores kilograms'],
			},
			{ id: second.id, success: true, input: { id: second.id, serviceable: true, packageHeightValue: 10, packageWidthValue: 20.5, packageLengthValue: 30 } },
			{ id: third.id, success: true, input: { id: third.id, packageWeightValue: 2, packageWeightUnit: 'KG' } },
		]);
		expect(sandbox.state.product(first.id)).toEqual(expect.objectContaining({ packageWeightValue: 1.234567, packageWeightUnit: 'KG', stockLevel: 0 }));
		expect(sandbox.state.product(second.id)).toEqual(expect.objectContaining({ serviceable: true, packageHeightValue: 10, packageWidthValue: 20.5, packageLengthValue: 30 }));
		expect(sandbox.log.filter((entry) => entry.route === 'productBulk').map((entry) => entry.itemCount)).toEqual([3]);
	});

	describe('an ERP feed with an oversold item (stock below 0), one item per product', () => {
		const NEW_NODE = { node: { typeVersion: 2 } };
		const feed = (ids: number[]) => ids.map((id, index) => ({ id, stock: index === 1 ? '-3' : String(10 + index) }));
		const parameters = (options: INodeParameters = {}, more: INodeParameters = {}) => ({
			operation: 'updateMany',
			itemId: '={{ $json.id }}',
			itemUpdateFields: { stockLevel: '={{ $json.stock }}' },
			options,
			...more,
		});

		it.each([
			['refuses it per item (the reference)', false],
			['stores it as 0', true],
		])('sends every row, the oversold one as 0 with a note, to a service that %s', async (_case, negativeStockStoredAsZero) => {
			await start(10);
			sandbox.setVariants({ negativeStockStoredAsZero });
			const ids = sandbox.state.products.slice(0, 3).map((product) => product.id);

			const result = await run(parameters(), feed(ids), NEW_NODE);

			expect(result.error).toBeUndefined();
			expect(result.json('Node')).toEqual([
				{ id: ids[0], success: true, input: { id: ids[0], stockLevel: 10 } },
				{ id: ids[1], success: true, input: { id: ids[1], stockLevel: 0 }, notes: ['Stock Level -3 sent as 0, as the service stores it'] },
				{ id: ids[2], success: true, input: { id: ids[2], stockLevel: 12 } },
			]);
			expect(ids.map((id) => sandbox.state.product(id)?.stockLevel)).toEqual([10, 0, 12]);
		});

		it('Negative Stock: Treat as Invalid makes it an invalid entry: the run stops, or it is skipped and reported', async () => {
			await start(10);
			const ids = sandbox.state.products.slice(0, 3).map((product) => product.id);

			const stopped = await run(parameters({ negativeStock: 'invalid' }), feed(ids), NEW_NODE);
			expect(stopped.error?.message).toBe(`row 2 (Product ID ${ids[1]}) › Update Fields › Stock Level: must be at least 0, got -3 (item 1)`);
			expect(stopped.error?.description).toMatch(/Options › Negative Stock is Treat as Invalid/);
			expect(apiRequests()).toHaveLength(0);

			const skipped = await run(parameters({ negativeStock: 'invalid' }, { invalidEntries: 'skip' }), feed(ids), { node: { ...NEW_NODE.node, ...CONTINUE.node } });
			expect(skipped.json('Node').map((item) => [item.id, item.success])).toEqual([
				[ids[0], true],
				[ids[1], false],
				[ids[2], true],
			]);
			expect(skipped.json('Node')[1].error).toBe(`row 2 (Product ID ${ids[1]}) › Update Fields › Stock Level: must be at least 0, got -3`);
			expect(sandbox.log.filter((entry) => entry.route === 'productBulk').map((entry) => entry.itemCount)).toEqual([2]);
		});
	});
});

describe('Product: Update Many, Options › Number Format', () => {
	it('English reads "1,299.50" as 1299.5 and a JSON number as it is; a Serbian "1.299,50" is refused naming the format', async () => {
		await start(10);
		const [first, second, third] = sandbox.state.products;
		const products = [
			{ id: first.id, basePrice: '1,299.50', stockLevel: '1,000' },
			{ id: second.id, basePrice: 1234.5 },
		];
		const parameters = { operation: 'updateMany', inputMode: 'json', productsJson: '={{ $json.products }}', options: { numberFormat: 'english' } };

		const result = await run(parameters, [{ products }]);

		expect(result.error).toBeUndefined();
		expect(result.json('Node').map((item) => item.success)).toEqual([true, true]);
		expect(sandbox.state.product(first.id)).toEqual(expect.objectContaining({ newBasePrice: 1299.5, stockLevel: 1000 }));
		expect(sandbox.state.product(second.id)?.newBasePrice).toBe(1234.5);

		const refused = await run(parameters, [{ products: [{ id: third.id, basePrice: '1.299,50' }] }]);
		expect(refused.error?.message).toBe('Products (JSON) › entry 1 › Base Price (basePrice): "1.299,50" is not a price in Number Format English (item 0)');
		expect(refused.error?.description).toContain('Number Format is English: a comma groups thousands and a point marks decimals (1,299, 1,299.50 or 1299.50), e.g. 1,299.50');
	});
});


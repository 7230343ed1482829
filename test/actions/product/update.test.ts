/**
 * Product › Update: one product by id, unknown products, and the values it rejects before sending, through n8n's real engine (RoutingNode) against the sandbox.
 */
import { productUpdateFieldOptions } from '../../../nodes/MarketplaceMerchant/actions/catalogue/update';
import { NOW, apiRequests, runner, sandbox, sandboxPerTest } from '../helpers';

const start = sandboxPerTest((products: number) => ({ now: NOW, products }));
const run = runner('product');

describe('Product: Update', () => {
	it('updates one product by id, numbers given as text', async () => {
		await start(10);
		const product = sandbox.state.products[3];
		const newPrice = product.basePrice + 100;

		const result = await run(
			{
				operation: 'update',
				productId: '={{ $json.id }}',
				updateFields: {
					basePrice: '={{ $json.price }}',
					vat: '={{ $json.vat }}',
					stockLevel: '={{ $json.stock }}',
					sku: 'NEW-SKU',
					packageWeightValue: '0.5',
					packageWeightUnit: 'KG',
				},
			},
			[{ id: String(product.id), price: String(newPrice), vat: '10', stock: '17' }],
		);

		expect(result.error).toBeUndefined();
		const expectedInput = {
			id: product.id,
			basePrice: newPrice,
			vat: 10,
			stockLevel: 17,
			sku: 'NEW-SKU',
			packageWeightValue: 0.5,
			packageWeightUnit: 'KG',
		};
		expect(result.json('Node')).toEqual([
			{ id: product.id, success: true, input: expectedInput },
		]);
		expect(sandbox.state.product(product.id)).toEqual(
			expect.objectContaining({ newBasePrice: newPrice, vat: 10, stockLevel: 17, sku: 'NEW-SKU', packageWeightValue: 0.5, packageWeightUnit: 'KG' }),
		);
		expect(sandbox.log.filter((entry) => entry.route === 'productUpdate').map((entry) => entry.path)).toEqual([
			`/product/api/v1/merchant-integration/product/${product.id}`,
		]);
	});

	it('makes an unknown product an item error, or an error item with continue on fail', async () => {
		await start(10);
		const parameters = { operation: 'update', productId: '999999', updateFields: { stockLevel: 1 } };

		const failed = await run(parameters);
		expect(failed.error).toEqual(
			expect.objectContaining({ httpCode: '404', description: 'Product 999999 does not exist' }),
		);

		const continued = await run(parameters, [{}], { node: { onError: 'continueRegularOutput' } });
		expect(continued.error).toBeUndefined();
		const output = continued.output('Node');
		expect(output).toHaveLength(1);
		expect(output[0].error?.description).toBe('Product 999999 does not exist');
	});

	it("carries the product's name and EAN where the service names them, and says in English what a Serbian 404 means", async () => {
		await start(10);
		sandbox.setVariants({ documentedUpdateResults: true });
		const product = sandbox.state.products[4];

		const result = await run({ operation: 'update', productId: String(product.id), updateFields: { stockLevel: '3' } });
		expect(result.json('Node')).toEqual([{ id: product.id, success: true, productName: product.name, ean: product.ean, input: { id: product.id, stockLevel: 3 } }]);

		// The pages: an unknown id gets 404, with the service's own words.
		const unknown = await run({ operation: 'update', productId: '999999', updateFields: { stockLevel: 1 } }, [{}], { node: { onError: 'continueRegularOutput' } });
		expect(unknown.output('Node')[0].error).toEqual(expect.objectContaining({ httpCode: '404', description: 'Proizvod ne postoji (product does not exist)' }));
	});

	it.each([
		['no field to update', { productId: '100001', updateFields: {} }, /Update Fields: nothing to update \(item 0\)/],
		['VAT 100.5', { productId: '100001', updateFields: { vat: 100.5 } }, /Update Fields › VAT: must be at most 100, got 100.5/],
		[
			'a negative stock level under Negative Stock: Treat as Invalid',
			{ productId: '100001', updateFields: { stockLevel: '-3' }, options: { negativeStock: 'invalid' } },
			/^Update Fields › Stock Level: must be at least 0, got -3 \(item 0\)$/,
		],
		['a fractional negative stock level', { productId: '100001', updateFields: { stockLevel: '-2.5' } }, /Update Fields › Stock Level: "-2\.5" is not a stock level/],
		['a package height of 0', { productId: '100001', updateFields: { packageHeightValue: '0' } }, /Update Fields › Package Height \(cm\): must be above 0, got "0"/],
		['serviceable that is not true or false', { productId: '100001', updateFields: { serviceable: '={{ "yes" }}' } }, /Update Fields › Serviceable: "yes" is not true or false/],
		['an id that is not a number', { productId: 'abc', updateFields: { stockLevel: 1 } }, /Product ID: "abc" is not a product ID/],
		['a Base Price added and left empty', { productId: '100001', updateFields: { basePrice: '', stockLevel: '4' } }, /^Update Fields › Base Price: is missing \(item 0\)$/],
		['a Stock Level added and left empty', { productId: '100001', updateFields: { stockLevel: ' ' } }, /^Update Fields › Stock Level: is missing \(item 0\)$/],
		['a Base Price of 0', { productId: '100001', updateFields: { basePrice: '0' } }, /Update Fields › Base Price: must be above 0, got "0"/],
	])('rejects %s and sends nothing', async (_case, parameters, message) => {
		await start(10);

		const result = await run({ operation: 'update', ...parameters });

		expect(result.error?.message).toMatch(message);
		expect(apiRequests()).toHaveLength(0);
	});

	it('starts the fields the merchant adds empty: nothing is 0 that was not typed', async () => {
		await start(10);
		const product = sandbox.state.products[2];

		// Saved workflows hold numbers, new ones hold the text typed: both read the same.
		const result = await run({ operation: 'update', productId: String(product.id), updateFields: { basePrice: 1299.5, stockLevel: '0' } });

		expect(result.error).toBeUndefined();
		expect(result.json('Node')[0]).toEqual(expect.objectContaining({ success: true, input: { id: product.id, basePrice: 1299.5, stockLevel: 0 } }));
		const fields = Object.fromEntries(productUpdateFieldOptions.map((field) => [field.name, field.default]));
		expect(fields).toEqual({
			basePrice: '',
			packageHeightValue: '',
			packageLengthValue: '',
			packageWeightUnit: 'KG',
			packageWeightValue: '',
			packageWidthValue: '',
			serviceable: false,
			sku: '',
			stockLevel: '',
			vat: 20,
		});
	});

	it('says which field of the input item an expression read when it gave nothing, without a format hint', async () => {
		await start(10);
		const item = { productId: 100001, qty: 4 };

		const wrongId = await run({ operation: 'update', productId: { __rl: true, mode: 'id', value: '={{ $json.productid }}' }, updateFields: { stockLevel: '={{ $json.qty }}' } }, [item]);
		expect(wrongId.error?.message).toBe("Product ID: `{{ $json.productid }}` gave no value: the input item has no field 'productid' (it has: productId, qty) (item 0)");
		expect(wrongId.error?.description).toBeFalsy();

		const wrongStock = await run({ operation: 'update', productId: '={{ $json.productId }}', updateFields: { stockLevel: '={{ $json.stock }}' } }, [item]);
		expect(wrongStock.error?.message).toBe("Update Fields › Stock Level: `{{ $json.stock }}` gave no value: the input item has no field 'stock' (it has: productId, qty) (item 0)");

		const emptyPrice = await run({ operation: 'update', productId: '={{ $json.productId }}', updateFields: { basePrice: '={{ $json.price }}' } }, [{ ...item, price: '' }]);
		expect(emptyPrice.error?.message).toBe("Update Fields › Base Price: `{{ $json.price }}` gave no value: the input item's field 'price' is empty (item 0)");
		expect(apiRequests()).toHaveLength(0);
	});

	describe('kilograms (platform facts: the live service stores the number as kg whatever the unit)', () => {
		it.each([
			['a service that stores kilograms (weightStoredAsKg)', true],
			['a service that honours the unit (the reference)', false],
		])('sends Package Weight 500 G as 0.5 KG and says so: %s holds 0.5 kg', async (_case, weightStoredAsKg) => {
			await start(10);
			sandbox.setVariants({ weightStoredAsKg });
			const product = sandbox.state.products[1];

			const result = await run({ operation: 'update', productId: String(product.id), updateFields: { packageWeightValue: '500', packageWeightUnit: 'G' } });

			expect(result.error).toBeUndefined();
			expect(result.json('Node')).toEqual([
				{
					id: product.id,
					success: true,
					input: { id: product.id, packageWeightValue: 0.5, packageWeightUnit: 'KG' },
					notes: ['Package Weight 500 G sent as 0.5 KG, as the service stores kilograms'],
				},
			]);
			expect(sandbox.state.product(product.id)).toEqual(expect.objectContaining({ packageWeightValue: 0.5, packageWeightUnit: 'KG' }));
		});

		it('sends a weight without a unit as KG, and a unit without a weight not at all', async () => {
			await start(10);
			const product = sandbox.state.products[1];

			const weight = await run({ operation: 'update', productId: String(product.id), updateFields: { packageWeightValue: '1.25' } });
			expect(weight.json('Node')[0]).toEqual({ id: product.id, success: true, input: { id: product.id, packageWeightValue: 1.25, packageWeightUnit: 'KG' } });

			const unitAndStock = await run({ operation: 'update', productId: String(product.id), updateFields: { packageWeightUnit: 'G', stockLevel: '4' } });
			expect(unitAndStock.json('Node')[0]).toEqual({
				id: product.id,
				success: true,
				input: { id: product.id, stockLevel: 4 },
				notes: ['Package Weight Unit G not sent: no Package Weight Value was given'],
			});
			const unitAlone = await run({ operation: 'update', productId: String(product.id), updateFields: { packageWeightUnit: 'G' } });
			expect(unitAlone.error?.message).toBe('Update Fields: nothing to update (item 0)');
			expect(sandbox.state.product(product.id)).toEqual(expect.objectContaining({ packageWeightValue: 1.25, packageWeightUnit: 'KG', stockLevel: 4 }));
		});
	});

	describe('negative stock (platform facts: the service stores it as 0)', () => {
		it.each([
			['refuses it per item (the reference)', false],
			['stores it as 0', true],
		])('sends -3 as 0 by default and says so, to a service that %s', async (_case, negativeStockStoredAsZero) => {
			await start(10);
			sandbox.setVariants({ negativeStockStoredAsZero });
			const product = sandbox.state.products.find((candidate) => candidate.stockLevel > 0)!;

			const result = await run({ operation: 'update', productId: '={{ $json.id }}', updateFields: { stockLevel: '={{ $json.stock }}' } }, [{ id: product.id, stock: '-3' }]);

			expect(result.error).toBeUndefined();
			expect(result.json('Node')).toEqual([
				{ id: product.id, success: true, input: { id: product.id, stockLevel: 0 }, notes: ['Stock Level -3 sent as 0, as the service stores it'] },
			]);
			expect(sandbox.state.product(product.id)?.stockLevel).toBe(0);
		});
	});

	it('sets serviceable and the package dimensions in centimetres', async () => {
		await start(10);
		const product = sandbox.state.products[4];

		const result = await run({
			operation: 'update',
			productId: String(product.id),
			updateFields: { serviceable: true, packageHeightValue: '12.5', packageWidthValue: '30', packageLengthValue: 40 },
		});

		expect(result.error).toBeUndefined();
		const input = { id: product.id, serviceable: true, packageHeightValue: 12.5, packageWidthValue: 30, packageLengthValue: 40 };
		expect(result.json('Node')).toEqual([{ id: product.id, success: true, input }]);
		expect(sandbox.state.product(product.id)).toEqual(expect.objectContaining({ serviceable: true, packageHeightValue: 12.5, packageWidthValue: 30, packageLengthValue: 40 }));
	});
});

describe('Product: Update, Options › Number Format', () => {
	it('Serbian reads 2.729,00 as 2729, 1.000 as 1000 and 0,5 as 0.5; Plain (the default) refuses the same price, naming where to state the format', async () => {
		await start(10);
		const product = sandbox.state.products[2];
		const updateFields = { basePrice: '={{ $json.price }}', stockLevel: '={{ $json.stock }}', packageWeightValue: '={{ $json.weight }}', packageWeightUnit: 'KG' };
		const row = { price: '2.729,00', stock: '1.000', weight: '0,5' };

		const result = await run({ operation: 'update', productId: String(product.id), updateFields, options: { numberFormat: 'serbian' } }, [row]);

		expect(result.error).toBeUndefined();
		expect(result.json('Node')[0]).toEqual(expect.objectContaining({ success: true, input: expect.objectContaining({ basePrice: 2729, stockLevel: 1000, packageWeightValue: 0.5 }) }));
		expect(sandbox.state.product(product.id)).toEqual(expect.objectContaining({ newBasePrice: 2729, stockLevel: 1000 }));

		const plain = await run({ operation: 'update', productId: String(product.id), updateFields }, [row]);
		expect(plain.error?.message).toBe('Update Fields › Base Price: "2.729,00" is not a price (item 0)');
		expect(plain.error?.description).toContain('set Options › Number Format');
	});
});


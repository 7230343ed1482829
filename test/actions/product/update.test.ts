/**
 * Product resource through n8n's real engine (RoutingNode) against the sandbox: every operation,
 * paging, bulk splitting, per-entry failures and validation (which must send nothing).
 */
import type { INodeParameters } from 'n8n-workflow';

import { startSandbox, type RequestLogEntry, type Sandbox } from '../../../sandbox';
import { eanCheckDigit, toProduct } from '../../../sandbox/products';
import { runNode, type RunNodeOptions, sandboxCredential, type WorkflowRunResult } from '../../harness';

const NODE = 'marketplaceMerchant';
const NOW = '2025-06-15T10:00:00Z';

let sandbox: Sandbox;

async function start(products: number): Promise<void> {
	sandbox = await startSandbox({ rateLimits: false, now: NOW, products });
}

afterEach(async () => {
	await sandbox?.close();
});

async function run(
	parameters: INodeParameters,
	inputItems: unknown[] = [{}],
	options: RunNodeOptions = {},
): Promise<WorkflowRunResult> {
	return await runNode(NODE, { resource: 'product', ...parameters }, inputItems, {
		credentials: {
			marketplaceMerchantApi: sandboxCredential(sandbox),
		},
		...options,
	});
}

/** Requests the node made to the API (the token request is not one of them). */
function apiRequests(): RequestLogEntry[] {
	return sandbox.log.filter((entry) => entry.route !== 'token');
}

function pages(route: RequestLogEntry['route']): Array<{ page: string; size: string }> {
	return sandbox.log.filter((entry) => entry.route === route).map(({ query }) => ({ page: query.page, size: query.size }));
}

/** A valid EAN-13 that no seeded product has (seeded EANs start with 860). */
function newEan(body: string): string {
	const twelve = `400${body.padStart(9, '0')}`;
	return `${twelve}${eanCheckDigit(twelve)}`;
}

describe('Product: Get Many', () => {
	it('returns every product with all fields over several pages of 200 (Simplify off)', async () => {
		await start(450);

		const result = await run({ operation: 'getMany', returnAll: true, simplify: false });

		expect(result.error).toBeUndefined();
		expect(result.json('Node')).toEqual(sandbox.state.products.map(toProduct));
		// Pages go out ahead of the answers: up to 4 more past the last one, in any arrival order.
		const requested = pages('products').sort((a, b) => Number(a.page) - Number(b.page));
		expect(requested.slice(0, 3)).toEqual([
			{ page: '0', size: '200' },
			{ page: '1', size: '200' },
			{ page: '2', size: '200' },
		]);
		expect(requested.length).toBeLessThanOrEqual(3 + 4);
	});

	it('stops after the pages a limit needs', async () => {
		await start(450);

		const result = await run({ operation: 'getMany', returnAll: false, limit: 250 });

		expect(result.json('Node').map((product) => product.id)).toEqual(
			sandbox.state.products.slice(0, 250).map((product) => product.id),
		);
		expect(pages('products').sort((a, b) => Number(a.page) - Number(b.page))).toEqual([
			{ page: '0', size: '125' },
			{ page: '1', size: '125' },
		]);
	});

	it('simplifies products to flat main fields with the brand name', async () => {
		await start(20);

		const result = await run({ operation: 'getMany', returnAll: true, simplify: true });

		const expected = sandbox.state.products.map((product) => ({
			id: product.id,
			externalId: product.externalId,
			ean: product.ean,
			sku: product.sku,
			name: product.name,
			brand: (JSON.parse(product.brand) as { name: string }).name,
			basePrice: product.basePrice,
			newBasePrice: product.newBasePrice,
			vat: product.vat,
			stockLevel: product.stockLevel,
			productType: product.productType,
		}));
		expect(result.json('Node')).toEqual(expected);
		expect(expected[0].brand).not.toContain('{');
	});

	it('sends the filters, with the modified-after date as yyyy-MM-dd in UTC', async () => {
		await start(300);
		const target = sandbox.state.products[42];
		const modifiedAfter = '2025-03-01T00:00:00';

		const byDate = await run({ operation: 'getMany', returnAll: true, filters: { modifiedAfter } });
		const byEan = await run({ operation: 'getMany', returnAll: true, filters: { ean: target.ean } });
		const bySearch = await run({ operation: 'getMany', returnAll: true, filters: { search: target.sku } });

		const expectedByDate = sandbox.state.products.filter((product) => product.dateModified >= '2025-03-01T00:00:00.000Z');
		expect(expectedByDate.length).toBeGreaterThan(0);
		expect(expectedByDate.length).toBeLessThan(300);
		expect(byDate.json('Node').map((product) => product.id)).toEqual(expectedByDate.map((product) => product.id));
		expect(byEan.json('Node').map((product) => product.id)).toEqual([target.id]);
		expect(bySearch.json('Node').map((product) => product.id)).toEqual([target.id]);
		// Each run's first page (Return All also sends a few pages ahead of the answers).
		const queries = sandbox.log.filter((entry) => entry.route === 'products' && entry.query.page === '0').map((entry) => entry.query);
		expect(queries).toHaveLength(3);
		expect(queries[0]['date-modified-after']).toBe('2025-03-01');
		expect(queries[1].ean).toBe(target.ean);
		expect(queries[2].search).toBe(target.sku);
	});

	it('rejects a date that is not one and sends nothing', async () => {
		await start(10);

		const result = await run({ operation: 'getMany', returnAll: true, filters: { modifiedAfter: 'last tuesday' } });

		expect(result.error?.message).toMatch(/Modified After: "last tuesday" is not a date \(item 0\)/);
		expect(apiRequests()).toHaveLength(0);
	});
});

describe('Product: Get Many Basic', () => {
	it('returns every basic product over pages of 2500', async () => {
		await start(5_100);

		const result = await run({ operation: 'getManyBasic', returnAll: true });

		const output = result.json('Node');
		expect(output).toHaveLength(5_100);
		const products = sandbox.state.products;
		expect(output[5_099]).toEqual({
			id: products[5_099].id,
			ean: products[5_099].ean,
			sku: products[5_099].sku,
			newBasePrice: products[5_099].newBasePrice,
			basePrice: products[5_099].basePrice,
			stockLevel: products[5_099].stockLevel,
			warehouse: products[5_099].warehouse,
		});
		expect(output.map((product) => product.id)).toEqual(products.map((product) => product.id));
		// Pages go out ahead of the answers: up to 4 more past the last one, in any arrival order.
		const requested = pages('basicProducts').sort((a, b) => Number(a.page) - Number(b.page));
		expect(requested.slice(0, 3)).toEqual([
			{ page: '0', size: '2500' },
			{ page: '1', size: '2500' },
			{ page: '2', size: '2500' },
		]);
		expect(requested.length).toBeLessThanOrEqual(3 + 4);
	});

	it('honours a limit and the modified-after filter', async () => {
		await start(5_100);

		const limited = await run({ operation: 'getManyBasic', returnAll: false, limit: 3_000 });
		expect(limited.json('Node')).toHaveLength(3_000);
		expect(pages('basicProducts').sort((a, b) => Number(a.page) - Number(b.page))).toEqual([
			{ page: '0', size: '1500' },
			{ page: '1', size: '1500' },
		]);

		sandbox.clearLog();
		const filtered = await run({ operation: 'getManyBasic', returnAll: true, filters: { modifiedAfter: '2025-06-01' } });
		const expected = sandbox.state.products.filter((product) => product.dateModified >= '2025-06-01T00:00:00.000Z');
		expect(expected.length).toBeGreaterThan(0);
		expect(filtered.json('Node').map((product) => product.id)).toEqual(expected.map((product) => product.id));
		expect(sandbox.log.find((entry) => entry.route === 'basicProducts')?.query['date-modified-after']).toBe('2025-06-01');
	});
});

describe('Product: Import', () => {
	it('imports one product per input item and outputs the progress id with the EAN', async () => {
		await start(10);
		const parent = sandbox.state.products[0];
		const eans = [newEan('1'), newEan('2')];

		const result = await run(
			{
				operation: 'import',
				name: '={{ $json.title }}',
				ean: '={{ $json.code }}',
				basePrice: '={{ $json.price }}',
				vat: '={{ $json.vat }}',
				stockLevel: '={{ $json.stock }}',
				description: 'A sturdy pan',
				coverImage: 'https://example.com/cover.jpg',
				category: 'Kitchen',
				productType: 'Kuhinja',
				additionalFields: {
					brand: 'Tefal',
					gallery: 'https://example.com/1.jpg, https://example.com/2.jpg',
					parentEan: parent.ean,
					packageWeightValue: '1.25',
					packageWeightUnit: 'KG',
					sku: '={{ "SKU-" + $json.code }}',
					externalId: '={{ "ERP-" + $json.code }}',
					attributesJson: '{"color": ["red"], "material": "steel, aluminium"}',
					attributes: { attribute: [{ name: 'color', values: 'dark blue, red' }, { name: 'size', values: '28 cm' }] },
				},
			},
			[
				{ title: 'Pan 28', code: eans[0], price: '2499.90', vat: '20', stock: '7' },
				{ title: 'Pan 24', code: eans[1], price: 1999, vat: 10, stock: 0 },
			],
		);

		expect(result.error).toBeUndefined();
		const output = result.json('Node');
		const notice = expect.stringContaining('The service applies an import asynchronously');
		expect(output).toEqual([
			{ id: expect.any(String), ean: eans[0], name: 'Pan 28', sku: `SKU-${eans[0]}`, externalId: `ERP-${eans[0]}`, notice },
			{ id: expect.any(String), ean: eans[1], name: 'Pan 24', sku: `SKU-${eans[1]}`, externalId: `ERP-${eans[1]}`, notice },
		]);
		expect(output[0].id).not.toBe(output[1].id);
		expect(sandbox.count('import')).toBe(2);
		const imported = sandbox.state.productByEan(eans[0]);
		expect(imported).toEqual(
			expect.objectContaining({
				name: 'Pan 28',
				basePrice: 2499.9,
				vat: 20,
				stockLevel: 7,
				categories: ['Kitchen'],
				productType: 'Kuhinja',
				description: 'A sturdy pan',
				coverImage: 'https://example.com/cover.jpg',
				gallery: ['https://example.com/1.jpg', 'https://example.com/2.jpg'],
				parentEan: parent.ean,
				packageWeightValue: 1.25,
				packageWeightUnit: 'KG',
				sku: `SKU-${eans[0]}`,
				externalId: `ERP-${eans[0]}`,
				attributes: { color: ['red', 'dark blue'], material: ['steel', 'aluminium'], size: ['28 cm'] },
			}),
		);
		expect(JSON.parse(imported?.brand ?? '{}')).toEqual(expect.objectContaining({ name: 'Tefal' }));
		expect(sandbox.state.productByEan(eans[1])).toEqual(expect.objectContaining({ vat: 10, stockLevel: 0 }));
	});

	it.each([
		['an EAN of 7 digits', { ean: '4006381' }, /EAN: "4006381" is not an EAN \(item 0\)/],
		['an EAN with a letter', { ean: '400638133393X' }, /EAN: "400638133393X" is not an EAN \(item 0\)/],
		// An expression reading a column the sheet does not have (n8n itself stops an empty required field).
		['no description', { description: '={{ $json.description }}' }, /Description: is missing \(item 0\)/],
		['no cover image', { coverImage: '={{ $json.cover }}' }, /Cover Image URL: is missing \(item 0\)/],
		['a cover image that is not a URL', { coverImage: 'cover.jpg' }, /Cover Image URL: "cover.jpg" is not an http\(s\) URL \(item 0\)/],
		['VAT 15', { vat: 15 }, /VAT: must be one of 0, 10, 20, got 15 \(item 0\)/],
		['a negative stock level', { stockLevel: -1 }, /Stock Level: must be at least 0, got -1 \(item 0\)/],
		['a zero price', { basePrice: 0 }, /Base Price: must be above 0, got 0 \(item 0\)/],
		['a price with a thousands separator', { basePrice: '1,299' }, /Base Price: "1,299" is not a price \(item 0\)/],
		['a gallery entry that is not a URL', { additionalFields: { gallery: 'https://a.example/1.jpg, photo.jpg' } }, /^Additional Fields › Gallery URLs › entry 2: "photo.jpg" is not an http\(s\) URL/],
		[
			'an attribute row without a name',
			{ additionalFields: { attributes: { attribute: [{ name: 'color', values: 'red' }, { name: ' ', values: 'M' }] } } },
			/^Additional Fields › Attributes › row 2 › Name: is missing \(item 0\)$/,
		],
		['attributes JSON that is not an object', { additionalFields: { attributesJson: '[1]' } }, /^Additional Fields › Attributes \(JSON\): must be an object \(item 0\)$/],
	])('rejects %s and sends nothing', async (_case, override, message) => {
		await start(10);

		const result = await run({
			operation: 'import',
			name: 'Pan',
			ean: newEan('3'),
			description: 'A pan',
			coverImage: 'https://example.com/cover.jpg',
			basePrice: 100,
			vat: 20,
			stockLevel: 1,
			...override,
		});

		expect(result.error?.message).toMatch(message);
		expect(apiRequests()).toHaveLength(0);
		expect(sandbox.state.productByEan(newEan('3'))).toBeUndefined();
	});
});

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
					packageWeightUnit: 'G',
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
			packageWeightUnit: 'G',
		};
		expect(result.json('Node')).toEqual([
			{ id: product.id, success: true, error: null, input: expectedInput },
		]);
		expect(sandbox.state.product(product.id)).toEqual(
			expect.objectContaining({ newBasePrice: newPrice, vat: 10, stockLevel: 17, sku: 'NEW-SKU', packageWeightValue: 0.5, packageWeightUnit: 'G' }),
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

	it.each([
		['no field to update', { productId: '100001', updateFields: {} }, /Update Fields: nothing to update \(item 0\)/],
		['VAT 15', { productId: '100001', updateFields: { vat: 15 } }, /Update Fields › VAT: must be one of 0, 10, 20, got 15/],
		['a negative stock level', { productId: '100001', updateFields: { stockLevel: -3 } }, /Update Fields › Stock Level: must be at least 0, got -3/],
		['an id that is not a number', { productId: 'abc', updateFields: { stockLevel: 1 } }, /Product ID: "abc" is not a product ID/],
	])('rejects %s and sends nothing', async (_case, parameters, message) => {
		await start(10);

		const result = await run({ operation: 'update', ...parameters });

		expect(result.error?.message).toMatch(message);
		expect(apiRequests()).toHaveLength(0);
	});
});

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

		const result = await run(bulkUpdate(), [{ products }]);

		expect(result.error).toBeUndefined();
		expect(result.json('Node')).toEqual([
			{ id: first.id, success: true, error: null, input: { id: first.id, stockLevel: 11, vat: 0 } },
			{ id: UNKNOWN_ID, success: false, error: `Product ${UNKNOWN_ID} does not exist`, input: { id: UNKNOWN_ID, stockLevel: 5 } },
			{ id: second.id, success: true, error: null, input: { id: second.id, basePrice: 999, packageWeightUnit: 'G', packageWeightValue: 300 } },
		]);
		expect(sandbox.state.product(first.id)).toEqual(expect.objectContaining({ stockLevel: 11, vat: 0 }));
		expect(sandbox.state.product(second.id)).toEqual(
			expect.objectContaining({ newBasePrice: 999, packageWeightUnit: 'G', packageWeightValue: 300 }),
		);
		expect(sandbox.log.filter((entry) => entry.route === 'productBulk').map((entry) => entry.itemCount)).toEqual([3]);
	});

	it('fails the item on rejected products when asked, or outputs the error with continue on fail', async () => {
		await start(10);
		const products = [
			{ id: 100_001, stockLevel: 1 },
			{ id: UNKNOWN_ID, stockLevel: 2 },
		];
		const parameters = bulkUpdate({ failOnItemErrors: true });

		const failed = await run(parameters, [{ products }]);
		expect(failed.error?.message).toBe('1 of 2 entries were rejected by the service');
		expect(failed.error?.description).toContain(`Product ${UNKNOWN_ID} does not exist`);

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
		['VAT 15', [{ id: 100_001, stockLevel: 1 }, { id: 100_002, vat: 15 }], /^Products \(JSON\) › entry 2 › VAT \(vat\): must be one of 0, 10, 20, got 15 \(item 0\)/],
		['a negative stock level', [{ id: 100_001, stockLevel: -1 }], /^Products \(JSON\) › entry 1 › Stock Level \(stockLevel\): must be at least 0, got -1 \(item 0\)/],
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

		expect(result.error?.message).toBe('Products › row 2 › Product ID: is missing (item 0)');
		const third = await run({
			operation: 'updateMany',
			inputMode: 'rows',
			productRows: { product: [{ id: '100004', updateFields: { stockLevel: 40 } }, { id: '100005', updateFields: { basePrice: '1,299' } }] },
		});
		expect(third.error?.message).toBe('Products › row 2 › Update Fields › Base Price: "1,299" is not a price (item 0)');
		expect(apiRequests()).toHaveLength(0);
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
});

describe('Product: Get Types', () => {
	it('lists the type names in the service language or in English', async () => {
		await start(1);

		const local = await run({ operation: 'getTypes' });
		const english = await run({ operation: 'getTypes', language: 'en' });

		expect(local.json('Node')).toEqual(sandbox.state.productTypes.map((type) => ({ name: type.local })));
		expect(english.json('Node')).toEqual(sandbox.state.productTypes.map((type) => ({ name: type.en })));
		expect(english.json('Node')).not.toEqual(local.json('Node'));
	});
});

describe('Product: Check EANs', () => {
	it('outputs one item per EAN with whether it exists, from text or a list', async () => {
		await start(10);
		const [first, second] = sandbox.state.products;
		const unknown = newEan('77');

		const fromText = await run({ operation: 'checkEans', eans: `${first.ean},\n${unknown}; ${second.ean}` });
		const fromList = await run({ operation: 'checkEans', eans: '={{ $json.codes }}' }, [{ codes: [unknown, first.ean] }]);

		expect(fromText.json('Node')).toEqual([
			{ ean: first.ean, exists: true },
			{ ean: unknown, exists: false },
			{ ean: second.ean, exists: true },
		]);
		expect(fromList.json('Node')).toEqual([
			{ ean: unknown, exists: false },
			{ ean: first.ean, exists: true },
		]);
		expect(sandbox.log.filter((entry) => entry.route === 'eanExists').map((entry) => entry.itemCount)).toEqual([3, 2]);
	});

	it.each([
		['a code too short to be an EAN', `${newEan('5')}, 12345`, /^EANs › entry 2: "12345" is not an EAN \(item 0\)/],
		['an empty list', ' ,\n ', /EANs: the list is empty \(item 0\)/],
	])('rejects %s and sends nothing', async (_case, eans, message) => {
		await start(10);

		const result = await run({ operation: 'checkEans', eans });

		expect(result.error?.message).toMatch(message);
		expect(apiRequests()).toHaveLength(0);
	});
});

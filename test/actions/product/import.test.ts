/**
 * Product › Import: one product per input item, and the values it rejects before sending, through n8n's real engine (RoutingNode) against the sandbox.
 */
import { NOW, apiRequests, newEan, runner, sandbox, sandboxPerTest } from '../helpers';

const start = sandboxPerTest((products: number) => ({ now: NOW, products }));
const run = runner('product');

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
		// It says so, with the fields the item has, and no format hint (the format was never the problem).
		['no description', { description: '={{ $json.description }}' }, /^Description: `\{\{ \$json.description \}\}` gave no value: the input item has no field 'description' \(it has no fields\) \(item 0\)$/],
		['no cover image', { coverImage: '={{ $json.cover }}' }, /^Cover Image URL: `\{\{ \$json.cover \}\}` gave no value: the input item has no field 'cover' \(it has no fields\) \(item 0\)$/],
		['a price from a column the sheet does not have', { basePrice: '={{ $json.Price }}' }, /^Base Price: `\{\{ \$json.Price \}\}` gave no value: the input item has no field 'Price' \(it has no fields\) \(item 0\)$/],
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

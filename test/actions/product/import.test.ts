/* eslint-disable @typescript-eslint/no-unused-vars -- test code, run by jest and never loaded by n8n: it may use rest siblings that drop keys (docs/architecture.md, Toolchain). */
/**
 * Product › Import through n8n's real engine against the sandbox: at node versions 1 and 2 (saved
 * workflows) one product per input item from the top-level fields, and the values it rejects before
 * sending; from version 3 a bulk operation (Input Mode, Invalid Entries) that tells the three EAN
 * states apart (one of yours, known to the catalogue, new to it: onboarding) and requires, for an EAN
 * not yours, what the service needs to add a product. The body shapes (list, one object) are
 * in importRequests.test.ts.
 */
import { NOW, apiRequests, newEan, runner, sandbox, sandboxPerTest, sent } from '../helpers';

const start = sandboxPerTest((products: number) => ({ now: NOW, products }));
const run = runner('product');

describe('Product: Import', () => {
	it('imports one product per input item and outputs the progress id with the EAN; a service that binds one object costs one extra request, once', async () => {
		await start(10);
		const parent = sandbox.state.products[0];
		const eans = [newEan('1'), newEan('2')];

		const parameters = {
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
				attributes: {
					attribute: [
						{ name: 'color', values: 'dark blue, red' },
						{ name: 'size', values: '28 cm' },
					],
				},
			},
		};
		const result = await run(parameters, [
			{
				title: 'Pan 28',
				code: eans[0],
				price: '2499.90',
				vat: '20',
				stock: '7',
			},
			{ title: 'Pan 24', code: eans[1], price: 1999, vat: 10, stock: 0 },
		]);

		expect(result.error).toBeUndefined();
		const output = result.json('Node');
		const notice = expect.stringMatching(/^The service applies an import asynchronously.*The service takes one product per request, not a list/);
		const sentAs = 'one object per request';
		expect(output).toEqual([
			{
				id: expect.any(String),
				success: true,
				ean: eans[0],
				name: 'Pan 28',
				sku: `SKU-${eans[0]}`,
				externalId: `ERP-${eans[0]}`,
				sentAs,
				notice,
			},
			{
				id: expect.any(String),
				success: true,
				ean: eans[1],
				name: 'Pan 24',
				sku: `SKU-${eans[1]}`,
				externalId: `ERP-${eans[1]}`,
				sentAs,
				notice,
			},
		]);
		expect(output[0].id).not.toBe(output[1].id);
		// The sandbox binds one object (the reference): the list was refused, then one request per product.
		expect(sent('import').map(({ status, itemCount }) => [status, itemCount])).toEqual([
			[400, 2],
			[200, 1],
			[200, 1],
		]);
		expect(apiRequests().filter(({ route }) => route !== 'import')).toEqual([]);
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
				attributes: {
					color: ['red', 'dark blue'],
					material: ['steel', 'aluminium'],
					size: ['28 cm'],
				},
			}),
		);
		expect(JSON.parse(imported?.brand ?? '{}')).toEqual(expect.objectContaining({ name: 'Tefal' }));
		expect(sandbox.state.productByEan(eans[1])).toEqual(expect.objectContaining({ vat: 10, stockLevel: 0 }));

		// Remembered for the Base URL: the next run sends one object per product at once.
		sandbox.clearLog();
		const again = await run({
			...parameters,
			name: 'Pan',
			ean: newEan('4'),
			basePrice: 100,
			vat: 20,
			stockLevel: 1,
			additionalFields: {},
		});
		expect(again.error).toBeUndefined();
		expect(sent('import').map(({ status }) => status)).toEqual([200]);
	});

	it.each([
		['an EAN of 7 digits', { ean: '4006381' }, /EAN: "4006381" is not an EAN \(item 0\)/],
		['an EAN with a letter', { ean: '400638133393X' }, /EAN: "400638133393X" is not an EAN \(item 0\)/],
		// An expression reading a column the sheet does not have (n8n itself stops an empty required field).
		// It says so, with the fields the item has, and no format hint (the format was never the problem).
		[
			'no description',
			{ description: '={{ $json.description }}' },
			/^Description: `\{\{ \$json.description \}\}` gave no value: the input item has no field 'description' \(it has no fields\) \(item 0\)$/,
		],
		[
			'no cover image',
			{ coverImage: '={{ $json.cover }}' },
			/^Cover Image URL: `\{\{ \$json.cover \}\}` gave no value: the input item has no field 'cover' \(it has no fields\) \(item 0\)$/,
		],
		[
			'a price from a column the sheet does not have',
			{ basePrice: '={{ $json.Price }}' },
			/^Base Price: `\{\{ \$json.Price \}\}` gave no value: the input item has no field 'Price' \(it has no fields\) \(item 0\)$/,
		],
		['a cover image that is not a URL', { coverImage: 'cover.jpg' }, /Cover Image URL: "cover.jpg" is not an http\(s\) URL \(item 0\)/],
		// Any rate 0 to 100 is the market's to judge (the service refuses one the account does not take); 101 is no rate.
		['VAT 101', { vat: 101 }, /VAT: must be at most 100, got 101 \(item 0\)/],
		['a negative stock level', { stockLevel: -1 }, /Stock Level: must be at least 0, got -1 \(item 0\)/],
		['a zero price', { basePrice: 0 }, /Base Price: must be above 0, got 0 \(item 0\)/],
		['a price with a thousands separator', { basePrice: '1,299' }, /Base Price: "1,299" is not a price \(item 0\)/],
		[
			'a gallery entry that is not a URL',
			{ additionalFields: { gallery: 'https://a.example/1.jpg, photo.jpg' } },
			/^Additional Fields › Gallery URLs › entry 2: "photo.jpg" is not an http\(s\) URL/,
		],
		[
			'an attribute row without a name',
			{
				additionalFields: {
					attributes: {
						attribute: [
							{ name: 'color', values: 'red' },
							{ name: ' ', values: 'M' },
						],
					},
				},
			},
			/^Additional Fields › Attributes › row 2 › Name: is missing \(item 0\)$/,
		],
		[
			'attributes JSON that is not an object',
			{ additionalFields: { attributesJson: '[1]' } },
			/^Additional Fields › Attributes \(JSON\): must be an object \(item 0\)$/,
		],
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

const V3 = { node: { typeVersion: 3 } };
/** Version 3 with On Error = Continue: products not sent come out as items (under the default the run fails naming them). */
const V3_CONTINUE = { node: { typeVersion: 3, onError: 'continueRegularOutput' as const } };

/** A row as a sheet gives it, with every field a new EAN needs. */
function sheetRow(ean: string, more: Record<string, unknown> = {}) {
	return {
		Name: `Tiganj ${ean.slice(-4)}`,
		EAN: ean,
		Text: 'Liveno gvožđe',
		Image: 'https://example.com/pan.jpg',
		Brand: 'Tefal',
		Gallery: 'https://example.com/pan-2.jpg',
		Price: '2499.90',
		Vat: 20,
		Stock: 7,
		SKU: `PAN-${ean.slice(-4)}`,
		Weight: '1.2',
		Unit: 'KG',
		...more,
	};
}

const MAPPED = {
	operation: 'import',
	itemName: '={{ $json.Name }}',
	itemEan: '={{ $json.EAN }}',
	itemDescription: '={{ $json.Text }}',
	itemCoverImage: '={{ $json.Image }}',
	itemProductFields: {
		brand: '={{ $json.Brand }}',
		gallery: '={{ $json.Gallery }}',
		basePrice: '={{ $json.Price }}',
		vat: '={{ $json.Vat }}',
		stockLevel: '={{ $json.Stock }}',
		sku: '={{ $json.SKU }}',
		packageWeightValue: '={{ $json.Weight }}',
		packageWeightUnit: '={{ $json.Unit }}',
	},
};

describe('Product: Import, node version 3', () => {
	it('One Item per Product (the default): all items in one list, one product look-up and one EAN check, each output paired with its item', async () => {
		await start(10);
		sandbox.setVariants({ importBodyShape: 'list', productsEanRepeats: true });
		const eans = ['11', '12', '13', '14', '15'].map(newEan);

		const result = await run(
			MAPPED,
			eans.map((ean) => sheetRow(ean)),
			V3,
		);

		expect(result.error).toBeUndefined();
		const items = result.output('Node');
		expect(items.map((item) => item.pairedItem)).toEqual(eans.map((_, item) => ({ item })));
		const ids = new Set(items.map((item) => item.json.id));
		expect(ids.size).toBe(1);
		expect(items.map((item) => item.json)).toEqual(
			eans.map((ean) => ({
				id: expect.any(String),
				success: true,
				ean,
				name: `Tiganj ${ean.slice(-4)}`,
				sku: `PAN-${ean.slice(-4)}`,
				eanState: 'onboarding',
				newProduct: true,
				matchedEan: null,
				nextStep: `E-mail the marketplace's onboarding team to add EAN ${ean}, giving the progress ID ${String(items[0].json.id)}: the catalogue does not know this EAN, so the product appears only once they have added it.`,
				sentAs: 'list',
				notice: expect.stringContaining("The marketplace's catalogue does not know its EAN (onboarding): E-mail the marketplace's onboarding team"),
			})),
		);
		expect(items[0].json.notice).toContain('A changed base price applies from the next day.');
		// Every form of each code (the EAN-13 and its GTIN-14). An answer with no product cannot say
		// whether the service took every ean: one product read and the EANs asked again with its EAN
		// among them prove it (once per service).
		expect(apiRequests().map(({ route, itemCount, query }) => [route, itemCount ?? query.ean?.split(',').length])).toEqual([
			['products', 10],
			['products', undefined],
			['products', 11],
			['eanExists', 10],
			['import', 5],
		]);
		expect(sandbox.state.productByEan(eans[4])).toEqual(
			expect.objectContaining({ basePrice: 2499.9, stockLevel: 7, sku: `PAN-${eans[4].slice(-4)}`, packageWeightValue: 1.2 }),
		);
	});

	it('the writers\' rules of Update apply: grams go out as kilograms, a stock below 0 as 0 (or invalid, as Options › Negative Stock says), dimensions as given', async () => {
		await start(10);
		sandbox.setVariants({ importBodyShape: 'list', weightStoredAsKg: true });
		const [grams, oversold] = ['21', '22'].map(newEan);
		const mapped = {
			...MAPPED,
			itemProductFields: { ...MAPPED.itemProductFields, packageHeightValue: '={{ $json.Height }}', productWeightValue: '={{ $json.Net }}' },
		};
		const rows = [sheetRow(grams, { Weight: '500', Unit: 'G', Height: '12.5', Net: '0.45' }), sheetRow(oversold, { Stock: '-3', Height: '4', Net: '1' })];

		const result = await run(mapped, rows, V3);

		expect(result.error).toBeUndefined();
		expect(result.json('Node').map((json) => [json.ean, json.success, json.notes])).toEqual([
			[grams, true, ['Package Weight 500 G sent as 0.5 KG, as the service stores kilograms']],
			[oversold, true, ['Stock Level -3 sent as 0, as the service stores it']],
		]);
		// The sandbox stores the number as kilograms whatever the unit: 500 G sent as such would weigh 500 kg.
		expect(sandbox.state.productByEan(grams)).toEqual(expect.objectContaining({ packageWeightValue: 0.5, packageWeightUnit: 'KG', packageHeightValue: 12.5 }));
		expect(sandbox.state.productByEan(oversold)).toEqual(expect.objectContaining({ stockLevel: 0 }));

		const strict = await run({ ...mapped, options: { negativeStock: 'invalid' } }, [sheetRow(newEan('23'), { Stock: '-3', Height: '4', Net: '1' })], V3);
		expect(strict.error?.message).toContain('must be at least 0, got -3');
		expect(sent('import')).toHaveLength(1);
	});

	it('an EAN of yours (a product look-up finds it) needs only the four fields; the others it leaves out keep their values', async () => {
		await start(10);
		sandbox.setVariants({ importBodyShape: 'list' });
		const linked = sandbox.state.products[0];

		const result = await run(
			{ operation: 'import', itemName: 'Nova krema', itemEan: linked.ean, itemDescription: 'Nova formula', itemCoverImage: 'https://example.com/k.jpg' },
			[{}],
			V3,
		);

		expect(result.error).toBeUndefined();
		expect(result.json('Node')).toEqual([
			expect.objectContaining({
				success: true,
				ean: linked.ean,
				name: 'Nova krema',
				eanState: 'yours',
				newProduct: false,
				matchedEan: linked.ean,
				notice: expect.stringContaining('Its EAN is one of your products (a product look-up found it): the product is edited'),
			}),
		]);
		expect(result.json('Node')[0].notice).not.toContain('base price');
		expect(sandbox.state.productByEan(linked.ean)).toEqual(
			expect.objectContaining({ name: 'Nova krema', basePrice: linked.basePrice, stockLevel: linked.stockLevel, vat: linked.vat, sku: linked.sku }),
		);
	});

	it("a new EAN without a field the service needs to add it stops the run before any import, named in the panel's words", async () => {
		await start(10);
		sandbox.setVariants({ importBodyShape: 'list' });
		const eans = [newEan('21'), newEan('22')];

		const result = await run(
			MAPPED,
			[sheetRow(eans[0]), sheetRow(eans[1], { Brand: undefined, SKU: undefined })].map((row) => JSON.parse(JSON.stringify(row)) as object),
			V3,
		);

		// A mapped column the row lacks: missing whatever the EAN (the field was added in the panel).
		expect(result.error?.message).toBe(
			`row 2 (EAN ${eans[1]}) › Product Fields › Brand: \`{{ $json.Brand }}\` gave no value: the input item has no field 'Brand' (it has: Name, EAN, Text, Image, Gallery, Price, Vat, Stock, Weight, Unit) (item 1)`,
		);
		expect(apiRequests()).toHaveLength(0);

		// Not mapped at all: only a new EAN needs it, known after the one EAN check.
		const { brand: _brand, ...withoutBrand } = MAPPED.itemProductFields;
		const unmapped = await run({ ...MAPPED, itemProductFields: withoutBrand }, [sheetRow(eans[0])], V3);
		expect(unmapped.error?.message).toBe(
			`row 1 (EAN ${eans[0]}) › Product Fields › Brand: is required to add a product: EAN ${eans[0]} is new to the marketplace's catalogue, so the import adds a new product (onboarding) (missing: Brand) (item 0)`,
		);
		expect(apiRequests().map(({ route }) => route)).toEqual(['products', 'products', 'eanExists']);
	});

	it('Skip and Report: sends the valid products; an incomplete new one comes out with success false and the reason', async () => {
		await start(10);
		sandbox.setVariants({ importBodyShape: 'list' });
		const eans = [newEan('31'), newEan('32'), newEan('33')];
		const rows = eans.map((ean) => sheetRow(ean));
		const { brand: _brand, ...withoutBrand } = MAPPED.itemProductFields;
		const parameters = { ...MAPPED, itemProductFields: withoutBrand, invalidEntries: 'skip' };

		// Under the default On Error: nothing went through, and the run fails naming every product.
		const loud = await run(parameters, rows, V3);
		expect(loud.error?.message).toMatch(new RegExp(`^3 of 3 entries rejected: row 1 \\(EAN ${eans[0]}\\) › Product Fields › Brand: is required`));

		const result = await run(parameters, rows, V3_CONTINUE);

		expect(result.error).toBeUndefined();
		const json = result.json('Node');
		expect(json).toHaveLength(3);
		for (const [index, ean] of eans.entries()) {
			expect(json[index]).toEqual(
				expect.objectContaining({
					id: null,
					success: false,
					ean,
					error: `row ${index + 1} (EAN ${ean}) › Product Fields › Brand: is required to add a product: EAN ${ean} is new to the marketplace's catalogue, so the import adds a new product (onboarding) (missing: Brand)`,
				}),
			);
		}
		expect(sent('import')).toHaveLength(0);
	});

	it('Skip and Report with a linked and a new EAN: the linked one goes out alone, the new one is reported', async () => {
		await start(10);
		sandbox.setVariants({ importBodyShape: 'list' });
		const linked = sandbox.state.products[1];
		const fresh = newEan('41');

		const result = await run(
			{
				operation: 'import',
				itemName: '={{ $json.Name }}',
				itemEan: '={{ $json.EAN }}',
				itemDescription: 'Opis',
				itemCoverImage: 'https://example.com/c.jpg',
				invalidEntries: 'skip',
			},
			[
				{ Name: 'Majica', EAN: linked.ean },
				{ Name: 'Nova', EAN: fresh },
			],
			V3_CONTINUE,
		);

		expect(result.error).toBeUndefined();
		const items = result.output('Node');
		expect(items.map((item) => [item.json.success, item.json.ean, item.pairedItem])).toEqual([
			[true, linked.ean, { item: 0 }],
			[false, fresh, { item: 1 }],
		]);
		expect(items[1].json.error).toMatch(
			/^row 2 \(EAN \d+\) › Product Fields › Base Price: is required to add a product: EAN \d+ is new to the marketplace's catalogue, so the import adds a new product \(onboarding\) \(missing: Base Price, Brand, Gallery URLs, Package Weight Unit, Package Weight Value, SKU, Stock Level, VAT\)$/,
		);
		expect(sent('import').map(({ itemCount }) => itemCount)).toEqual([1]);
		expect(sandbox.state.productByEan(linked.ean)?.name).toBe('Majica');
		expect(sandbox.state.productByEan(fresh)).toBeUndefined();
	});

	it("an EAN the catalogue knows from another merchant is a new listing of yours: refused before sending without the new product's fields, imported as new with them", async () => {
		await start(10);
		sandbox.setVariants({ importBodyShape: 'list', productsEanRepeats: true });
		const known = newEan('61');
		sandbox.addCatalogueEans([known]);
		const { brand: _brand, ...withoutBrand } = MAPPED.itemProductFields;

		// The four basic fields do not suffice: the catalogue knows the EAN, but no product of yours has it.
		const refused = await run({ ...MAPPED, itemProductFields: withoutBrand }, [sheetRow(known)], V3);

		expect(refused.error?.message).toBe(
			`row 1 (EAN ${known}) › Product Fields › Brand: is required to add a product: EAN ${known} is known to the marketplace's catalogue but is not one of your products, so the import adds a new listing of yours (missing: Brand) (item 0)`,
		);
		expect(sent('import')).toHaveLength(0);

		sandbox.clearLog();
		const imported = await run(MAPPED, [sheetRow(known)], V3);

		expect(imported.error).toBeUndefined();
		expect(imported.json('Node')).toEqual([
			expect.objectContaining({
				success: true,
				ean: known,
				eanState: 'catalogue',
				newProduct: true,
				matchedEan: known,
				notice: expect.stringContaining("The marketplace's catalogue knows its EAN, but it is not one of your products: the import adds a new listing of yours."),
			}),
		]);
		expect(imported.json('Node')[0]).not.toHaveProperty('nextStep');
		// One EAN alone: asked in its forms (EAN-13, GTIN-14), then the catalogue asked.
		expect(apiRequests().map(({ route }) => route)).toEqual(['products', 'products', 'eanExists', 'import']);
		expect(sandbox.state.productByEan(known)).toEqual(expect.objectContaining({ basePrice: 2499.9, stockLevel: 7 }));
	});

	it('an EAN of yours given in another form (a 12-digit UPC of a product stored with its leading zero) goes out as your product has it, said in notes', async () => {
		await start(10);
		sandbox.setVariants({ importBodyShape: 'list', productsEanRepeats: true });
		const mine = sandbox.state.products[2];
		await fetch(`${sandbox.url}/__sandbox/product-eans`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({ id: mine.id, ean: '0740617304350' }),
		});

		const result = await run(
			{ operation: 'import', itemName: 'Nova krema', itemEan: '740617304350', itemDescription: 'Nova formula', itemCoverImage: 'https://example.com/k.jpg' },
			[{}],
			V3,
		);

		expect(result.error).toBeUndefined();
		expect(result.json('Node')).toEqual([
			expect.objectContaining({
				success: true,
				ean: '0740617304350',
				eanState: 'yours',
				newProduct: false,
				matchedEan: '0740617304350',
				notes: ['EAN 740617304350 went out as 0740617304350, the same code as your product has it'],
			}),
		]);
		expect(sandbox.state.product(mine.id)?.name).toBe('Nova krema');
		expect(sent('eanExists')).toHaveLength(0);
	});

	it('where the service takes one ean, many EANs are told yours or not by one read of the basic product list, not a request or two each', async () => {
		await start(10);
		sandbox.setVariants({ importBodyShape: 'list' });
		const mine = sandbox.state.products[4];
		const fresh = Array.from({ length: 25 }, (_, index) => newEan(`7${index}`));

		const result = await run(MAPPED, [sheetRow(mine.ean), ...fresh.map((ean) => sheetRow(ean))], V3);

		expect(result.error).toBeUndefined();
		expect(result.json('Node').map((json) => json.eanState)).toEqual(['yours', ...fresh.map(() => 'onboarding')]);
		// The 26 EANs together (the answer holds the first one's product only), again with a product's
		// EAN among them (read first): the answer lacks it, so the service takes one ean; 25 left
		// alone would cost 50 requests, the basic product list one.
		expect(apiRequests().map(({ route }) => route)).toEqual(['products', 'products', 'products', 'basicProducts', 'eanExists', 'import']);
		expect(sent('eanExists').map(({ itemCount }) => itemCount)).toEqual([50]);
	});

	it("JSON: one item's list is one batch; the EAN check reads keys without leading zeros", async () => {
		await start(10);
		sandbox.setVariants({ importBodyShape: 'both', eanKeysWithoutLeadingZeros: true });
		const zeroLed = '0740617304350';
		const products = [newEan('51'), zeroLed].map((ean) => ({
			ean,
			name: `P ${ean}`,
			description: 'D',
			coverImage: 'https://example.com/c.jpg',
			brand: 'B',
			gallery: ['https://example.com/g.jpg'],
			basePrice: '100',
			vat: 20,
			stockLevel: 1,
			sku: `S-${ean}`,
			packageWeightValue: 0.5,
			packageWeightUnit: 'KG',
		}));

		const result = await run({ operation: 'import', inputMode: 'json' }, [{ products }], V3);

		expect(result.error).toBeUndefined();
		expect(result.json('Node').map((json) => [json.ean, json.success, json.newProduct, json.sentAs])).toEqual([
			[products[0].ean, true, true, 'list'],
			[zeroLed, true, true, 'list'],
		]);
		expect(sent('import').map(({ itemCount }) => itemCount)).toEqual([2]);
	});

	it('Define Below: rows entered in the panel, a linked EAN with a new price', async () => {
		await start(10);
		sandbox.setVariants({ importBodyShape: 'list' });
		const linked = sandbox.state.products[2];

		const result = await run(
			{
				operation: 'import',
				inputMode: 'rows',
				productRows: {
					product: [{ name: 'Ime', ean: linked.ean, description: 'Opis', coverImage: 'https://example.com/c.jpg', productFields: { basePrice: '999.50' } }],
				},
			},
			[{}],
			V3,
		);

		expect(result.error).toBeUndefined();
		expect(result.json('Node')).toEqual([
			expect.objectContaining({ success: true, newProduct: false, notice: expect.stringContaining('A changed base price applies from the next day.') }),
		]);
		expect(sandbox.state.productByEan(linked.ean)?.newBasePrice).toBe(999.5);
	});
});

describe('Product: Import, node version 3, mapped Product Fields', () => {
	it('a collection of dragged columns ({{ $json.Column }}, read from the item) gives what n8n\'s own evaluation of the columns gives, for every kind of value', async () => {
		const odd: unknown[] = ['5', 5, ' 7 ', null, undefined, 5.5, '1,299', true, '', 0, '12abc', { n: 1 }];
		const rows = odd.map((stock, index) => {
			const row: Record<string, unknown> = sheetRow(newEan(String(700 + index)));
			delete row.Stock;
			if (stock !== undefined) row.Stock = stock;
			return row;
		});
		const outcome = async (stockLevel: string, sku: string) => {
			await start(1);
			sandbox.setVariants({ importBodyShape: 'list' });
			const parameters = { ...MAPPED, itemProductFields: { ...MAPPED.itemProductFields, stockLevel, sku }, invalidEntries: 'skip' };
			const result = await run(parameters, rows, V3_CONTINUE);
			expect(result.error).toBeUndefined();
			return result.json('Node').map(({ success, error, ean }) => ({ success, error, ean, stock: sandbox.state.productByEan(String(ean))?.stockLevel }));
		};

		const read = await outcome('={{ $json.Stock }}', '={{ $json.SKU }}');
		const evaluated = await outcome('={{ $json["Stock"] }}', '={{ $json["SKU"] }}');

		// The messages quote the expression as written.
		const asRead = evaluated.map((outcome) => ({ ...outcome, error: outcome.error?.toString().replaceAll('$json["Stock"]', '$json.Stock') }));
		expect(read).toEqual(asRead);
		expect(read.map(({ success }) => success)).toContain(true);
		expect(read.map(({ success }) => success)).toContain(false);
	});
});

describe('Product: Import (v3), Options › Number Format', () => {
	it('Serbian reads a sheet\'s "2.499,90", "1.000" and "1,25" kg', async () => {
		await start(10);
		sandbox.setVariants({ importBodyShape: 'list' });
		const ean = newEan('291');

		const result = await run({ ...MAPPED, options: { numberFormat: 'serbian' } }, [sheetRow(ean, { Price: '2.499,90', Stock: '1.000', Weight: '1,25' })], V3);

		expect(result.error).toBeUndefined();
		expect(result.json('Node')[0].success).toBe(true);
		expect(sandbox.state.productByEan(ean)).toEqual(expect.objectContaining({ basePrice: 2499.9, stockLevel: 1000, packageWeightValue: 1.25 }));
	});
});


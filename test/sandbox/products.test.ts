import { startSandbox, type Product, type Sandbox } from '../../sandbox';
import { isValidEan13 } from '../../sandbox/products';
import { PRODUCT_API, TOKEN_PATH, call, getToken, sleep, tokenRequest } from './helpers';

describe('sandbox: token', () => {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await startSandbox({
			now: '2025-06-15T10:00:00Z',
			rateLimits: false,
			tokenLifetimeSeconds: 0.4,
			clients: [
				{ clientId: 'sandbox-client', clientSecret: 'sandbox-secret' },
				{ clientId: 'keyed', clientSecret: 'keyed-secret', apiKey: 'key-1', deniedRoutes: ['prices'] },
			],
		});
	});
	afterAll(() => sandbox.close());

	it('issues opaque bearer tokens in the spec shape, from JSON or XML', async () => {
		const json = await call(sandbox, 'POST', TOKEN_PATH, { body: tokenRequest(sandbox), headers: { 'X-API-Key': 'any' } });
		expect(json.status).toBe(200);
		expect(json.json).toEqual({
			id_token: null,
			access_token: expect.stringMatching(/^[\w-]{20,}$/),
			refresh_token: null,
			expires_in: 0.4,
			token_type: 'Bearer',
		});
		const xml = await call(sandbox, 'POST', TOKEN_PATH, {
			body:
				'<TokenRequest><grantType>CLIENT_CREDENTIALS</grantType><clientId>sandbox-client</clientId>' +
				'<clientSecret>sandbox-secret</clientSecret><scope>public_api/full_access</scope></TokenRequest>',
			headers: { 'Content-Type': 'application/xml' },
		});
		expect(xml.status).toBe(200);
		expect(xml.json.access_token).not.toBe(json.json.access_token);
	});

	it('validates grant type, scope, credentials and a configured API key without echoing secrets', async () => {
		const request = tokenRequest(sandbox);
		const wrongGrant = await call(sandbox, 'POST', TOKEN_PATH, { body: { ...request, grantType: 'PASSWORD' } });
		expect(wrongGrant.status).toBe(400);
		expect(wrongGrant.json.message).toMatch(/grantType/);
		expect((await call(sandbox, 'POST', TOKEN_PATH, { body: { ...request, scope: 'x' } })).status).toBe(400);
		const wrongSecret = await call(sandbox, 'POST', TOKEN_PATH, { body: { ...request, clientSecret: 'guess-secret' } });
		expect(wrongSecret.status).toBe(401);
		expect(wrongSecret.text).not.toContain('guess-secret');
		const keyed = { ...request, clientId: 'keyed', clientSecret: 'keyed-secret' };
		expect((await call(sandbox, 'POST', TOKEN_PATH, { body: keyed })).status).toBe(401);
		expect((await call(sandbox, 'POST', TOKEN_PATH, { body: keyed, headers: { 'X-API-Key': 'key-1' } })).status).toBe(200);
	});

	it('answers 401 for missing, unknown and expired tokens, and 403 for denied routes', async () => {
		const path = `${PRODUCT_API}/product-type`;
		expect((await call(sandbox, 'GET', path)).status).toBe(401);
		expect((await call(sandbox, 'GET', path, { token: 'made-up' })).status).toBe(401);
		const token = await getToken(sandbox);
		expect((await call(sandbox, 'GET', path, { token })).status).toBe(200);
		await sleep(450);
		const expired = await call(sandbox, 'GET', path, { token });
		expect(expired.status).toBe(401);
		expect(expired.json).toEqual({ message: expect.any(String) });

		sandbox.setTokenLifetime(60);
		const longLived = await getToken(sandbox);
		expect((await call(sandbox, 'GET', path, { token: longLived })).status).toBe(200);
		sandbox.expireAllTokens();
		expect((await call(sandbox, 'GET', path, { token: longLived })).status).toBe(401);

		const keyedToken = await getToken(sandbox, { ...tokenRequest(sandbox), clientId: 'keyed', clientSecret: 'keyed-secret' }).catch(
			() => undefined,
		);
		expect(keyedToken).toBeUndefined(); // needs its API key
		const keyed = await call(sandbox, 'POST', TOKEN_PATH, {
			body: { ...tokenRequest(sandbox), clientId: 'keyed', clientSecret: 'keyed-secret' },
			headers: { 'X-API-Key': 'key-1' },
		});
		const denied = await call(sandbox, 'GET', '/payment/api/v1/merchant-integration/prices?dateFrom=15/06/2025&merchantInventoryIds=100001', {
			token: keyed.json.access_token,
		});
		expect(denied.status).toBe(403);
		expect(sandbox.log.filter((entry) => entry.status === 401).length).toBeGreaterThanOrEqual(4);
	});
});

describe('sandbox: products', () => {
	let sandbox: Sandbox;
	let token: string;
	beforeAll(async () => {
		sandbox = await startSandbox({ now: '2025-06-15T10:00:00Z', rateLimits: false, products: 450, seed: 7 });
		token = await getToken(sandbox);
	});
	afterAll(() => sandbox.close());

	const get = (path: string, headers?: Record<string, string>) => call(sandbox, 'GET', path, { token, headers });

	it('lists products in the spec shape with realistic, valid data', async () => {
		const { status, json } = await get(`${PRODUCT_API}/products?size=200`);
		expect(status).toBe(200);
		expect(json).toHaveLength(200);
		const products = json as Product[];
		for (const product of products) {
			expect(Object.keys(product).sort()).toEqual(
				[
					'id', 'externalId', 'ean', 'platformCode', 'name', 'description', 'brand', 'sku', 'productType', 'categories',
					'newBasePrice', 'basePrice', 'vat', 'stockLevel', 'packageWeightValue', 'packageWeightUnit',
				].sort(),
			);
			expect(isValidEan13(product.ean)).toBe(true);
			expect([0, 10, 20]).toContain(product.vat);
			expect(product.basePrice).toBeGreaterThan(0);
			expect(['KG', 'G']).toContain(product.packageWeightUnit);
			expect(JSON.parse(product.brand)).toEqual({ id: expect.any(Number), name: expect.any(String) });
			expect(product.categories.length).toBeGreaterThan(0);
		}
		expect(new Set(products.map((product) => product.ean)).size).toBe(200);
		expect(new Set(products.map((product) => product.vat)).size).toBeGreaterThan(1);
		expect(products.some((product) => product.newBasePrice !== product.basePrice)).toBe(true);
	});

	it('is deterministic for a seed', async () => {
		const other = await startSandbox({ now: '2025-06-15T10:00:00Z', rateLimits: false, products: 450, seed: 7 });
		try {
			const otherToken = await getToken(other);
			const mine = await get(`${PRODUCT_API}/products?size=5&page=3`);
			const theirs = await call(other, 'GET', `${PRODUCT_API}/products?size=5&page=3`, { token: otherToken });
			expect(theirs.json).toEqual(mine.json);
		} finally {
			await other.close();
		}
	});

	it('pages from 0 with caps of 200 and 2500, a short page being the last', async () => {
		expect((await get(`${PRODUCT_API}/products?size=201`)).status).toBe(400);
		expect((await get(`${PRODUCT_API}/basic-products?size=2501`)).status).toBe(400);
		expect((await get(`${PRODUCT_API}/products?page=-1`)).status).toBe(400);
		const sizes: number[] = [];
		for (let page = 0; page < 5; page++) {
			const answer = await get(`${PRODUCT_API}/basic-products?size=200&page=${page}`);
			sizes.push(answer.json.length);
			if (answer.json.length < 200) break;
		}
		expect(sizes).toEqual([200, 200, 50]);
		const basic = (await get(`${PRODUCT_API}/basic-products?size=2500`)).json;
		expect(basic).toHaveLength(450);
		expect(Object.keys(basic[0]).sort()).toEqual(['basePrice', 'ean', 'id', 'newBasePrice', 'sku', 'stockLevel', 'warehouse']);
		expect(new Set(basic.map((product: { warehouse: string }) => product.warehouse))).toEqual(
			new Set(['PLATFORM_WAREHOUSE', 'MERCHANT_WAREHOUSE']),
		);
	});

	it('filters by search, ean and date-modified-after', async () => {
		const target = sandbox.state.product(100_123)!;
		const byEan = await get(`${PRODUCT_API}/products?ean=${target.ean}`);
		expect(byEan.json.map((product: Product) => product.id)).toEqual([target.id]);
		const bySku = await get(`${PRODUCT_API}/products?search=${encodeURIComponent(target.sku.toLowerCase())}`);
		expect(bySku.json.map((product: Product) => product.id)).toContain(target.id);
		const word = target.name.split(' ')[0];
		const byName = await get(`${PRODUCT_API}/products?size=200&search=${encodeURIComponent(word)}`);
		expect(byName.json.length).toBeGreaterThan(0);
		const lowerWord = word.toLowerCase();
		expect(
			byName.json.every((product: Product) => `${product.name} ${product.sku}`.toLowerCase().includes(lowerWord)),
		).toBe(true);

		const since = '2025-03-01';
		const expected = sandbox.state.products.filter((product) => product.dateModified >= '2025-03-01T00:00:00.000Z').length;
		const recent = await get(`${PRODUCT_API}/basic-products?size=2500&date-modified-after=${since}`);
		expect(recent.json).toHaveLength(expected);
		expect(expected).toBeGreaterThan(0);
		expect(expected).toBeLessThan(450);
		expect((await get(`${PRODUCT_API}/products?date-modified-after=01.03.2025`)).status).toBe(400);
	});

	it('counts only the first of repeated ean filters, or every one with productsEanRepeats; product-eans makes an EAN name several products', async () => {
		const [a, b, c] = [100_010, 100_011, 100_012].map((id) => sandbox.state.product(id)!);
		const ids = async (query: string) => (await get(`${PRODUCT_API}/products?${query}`)).json.map((product: Product) => product.id);
		const repeated = `ean=${b.ean}&ean=${a.ean}&ean=4006381333931`;
		expect(await ids(repeated)).toEqual([b.id]);
		sandbox.setVariants({ productsEanRepeats: true });
		try {
			expect(await ids(repeated)).toEqual([a.id, b.id]);
			expect(await ids(`ean=${a.ean}`)).toEqual([a.id]);
			const shared = await call(sandbox, 'POST', '/__sandbox/product-eans', { body: { id: c.id, ean: a.ean } });
			expect(shared.status).toBe(200);
			expect(await ids(repeated)).toEqual([a.id, b.id, c.id]);
			expect(await ids(`ean=${a.ean}`)).toEqual([a.id, c.id]);
		} finally {
			sandbox.resetVariants();
		}
		expect((await call(sandbox, 'POST', '/__sandbox/product-eans', { body: { id: 1, ean: a.ean } })).status).toBe(404);
		expect((await call(sandbox, 'POST', '/__sandbox/product-eans', { body: { id: c.id, ean: 'x' } })).status).toBe(400);
	});

	it('lists product types in English or in the local language', async () => {
		const english = await get(`${PRODUCT_API}/product-type`, { 'Accept-Language': 'en' });
		const local = await get(`${PRODUCT_API}/product-type`);
		expect(english.json).toContain('Shoes');
		expect(local.json).toContain('Obuća');
		expect(english.json).toHaveLength(local.json.length);
	});

	it('checks EANs (JSON or XML body)', async () => {
		const known = sandbox.state.product(100_001)!.ean;
		const answer = await call(sandbox, 'POST', `${PRODUCT_API}/ean/exists`, { token, body: [known, '4006381333931'] });
		expect(answer.json).toEqual({ [known]: true, '4006381333931': false });
		const xml = await call(sandbox, 'POST', `${PRODUCT_API}/ean/exists`, {
			token,
			body: `<List><item>${known}</item></List>`,
			headers: { 'Content-Type': 'application/xml' },
		});
		expect(xml.json).toEqual({ [known]: true });
		expect(sandbox.log.at(-1)).toMatchObject({ route: 'eanExists', itemCount: 1 });
	});

	it('imports new products and edits existing ones by EAN', async () => {
		const body = {
			name: 'Test lampa',
			ean: '4006381333931',
			brand: 'Philips',
			basePrice: 2990,
			vat: 20,
			stockLevel: 4,
			sku: 'LAMP-1',
			category: 'Rasveta',
			packageWeightValue: 800,
			packageWeightUnit: 'G',
			attributes: { boja: ['bela'] },
		};
		const created = await call(sandbox, 'POST', `${PRODUCT_API}/import`, { token, body });
		expect(created.status).toBe(200);
		expect(created.json).toEqual({ id: expect.any(String) });
		const listed = (await get(`${PRODUCT_API}/products?ean=4006381333931`)).json[0];
		expect(listed).toMatchObject({ name: 'Test lampa', sku: 'LAMP-1', basePrice: 2990, stockLevel: 4, categories: ['Rasveta'] });
		expect(JSON.parse(listed.brand)).toEqual({ id: 14310, name: 'Philips' });
		expect(listed.id).toBe(100_001 + 450);

		const xml =
			'<ProductImport><ean>4006381333931</ean><stockLevel>9</stockLevel><name>Test lampa 2</name></ProductImport>';
		const edited = await call(sandbox, 'POST', `${PRODUCT_API}/import`, { token, body: xml, headers: { 'Content-Type': 'text/xml' } });
		expect(edited.status).toBe(200);
		const basic = (await get(`${PRODUCT_API}/basic-products?size=1&page=450`)).json;
		expect(basic).toEqual([expect.objectContaining({ ean: '4006381333931', stockLevel: 9 })]);
		expect(sandbox.state.productCount).toBe(451);

		const invalid = await call(sandbox, 'POST', `${PRODUCT_API}/import`, { token, body: { ...body, ean: '5901234123457', vat: 15 } });
		expect(invalid.status).toBe(400);
		expect(invalid.json.message).toContain('VAT must be one of 0, 10, 20');
	});

	it('updates one product; a base price change waits for the next day', async () => {
		const before = sandbox.state.product(100_010)!;
		const answer = await call(sandbox, 'PUT', `${PRODUCT_API}/product/100010`, {
			token,
			body: { id: 100010, basePrice: before.basePrice + 100, stockLevel: 77, sku: 'NEW-SKU' },
		});
		expect(answer.json).toEqual({ status: 'SUCCESS', errors: [], myProductId: 100010 });
		const after = (await get(`${PRODUCT_API}/products?ean=${before.ean}`)).json[0];
		expect(after).toMatchObject({ basePrice: before.basePrice, newBasePrice: before.basePrice + 100, stockLevel: 77, sku: 'NEW-SKU' });
		sandbox.clock.advance(24 * 3_600_000);
		const nextDay = (await get(`${PRODUCT_API}/products?ean=${before.ean}`)).json[0];
		expect(nextDay.basePrice).toBe(before.basePrice + 100);
		sandbox.clock.set('2025-06-15T10:00:00Z');

		expect((await call(sandbox, 'PUT', `${PRODUCT_API}/product/999`, { token, body: { stockLevel: 1 } })).status).toBe(404);
		const failed = await call(sandbox, 'PUT', `${PRODUCT_API}/product/100010`, { token, body: { vat: 18 } });
		expect(failed.json).toEqual({ status: 'FAIL', errors: ['VAT must be one of 0, 10, 20'], myProductId: 100010 });
	});

	it('updates in bulk with per-item results', async () => {
		const items = [
			{ id: 100020, stockLevel: 5, vat: 10, packageWeightValue: 1.5, packageWeightUnit: 'KG' },
			{ id: 100021, vat: 15, basePrice: -1, stockLevel: -2, packageWeightValue: 0 },
			{ id: 1, stockLevel: 1 },
		];
		const answer = await call(sandbox, 'PUT', `${PRODUCT_API}/product/bulk`, { token, body: items });
		expect(answer.status).toBe(200);
		expect(answer.json).toEqual([
			{ status: 'SUCCESS', errors: [], myProductId: 100020 },
			{
				status: 'FAIL',
				errors: [
					'basePrice must be positive',
					'VAT must be one of 0, 10, 20',
					'stockLevel must be an integer >= 0',
					'packageWeightValue must be positive',
				],
				myProductId: 100021,
			},
			{ status: 'FAIL', errors: ['Product 1 does not exist'], myProductId: 1 },
		]);
		expect(sandbox.state.product(100020)).toMatchObject({ stockLevel: 5, vat: 10, packageWeightValue: 1.5, packageWeightUnit: 'KG' });
		expect(sandbox.log.at(-1)).toMatchObject({ route: 'productBulk', itemCount: 3, bodyBytes: JSON.stringify(items).length });

		const xml =
			'<List><item><id>100022</id><stockLevel>3</stockLevel></item><item><id>100023</id><stockLevel>4</stockLevel></item></List>';
		const xmlAnswer = await call(sandbox, 'PUT', `${PRODUCT_API}/product/bulk`, { token, body: xml, headers: { 'Content-Type': 'application/xml' } });
		expect(xmlAnswer.json.map((result: { status: string }) => result.status)).toEqual(['SUCCESS', 'SUCCESS']);
		expect(sandbox.state.product(100023)?.stockLevel).toBe(4);

		expect((await call(sandbox, 'PUT', `${PRODUCT_API}/product/bulk`, { token, body: [{ id: 5, stockLevel: 1 }] })).status).toBe(404);
		expect((await call(sandbox, 'PUT', `${PRODUCT_API}/product/bulk`, { token, body: [] })).status).toBe(400);
		const tooMany = Array.from({ length: 30_001 }, (_, index) => ({ id: 100_001 + (index % 400), stockLevel: 1 }));
		expect((await call(sandbox, 'PUT', `${PRODUCT_API}/product/bulk`, { token, body: tooMany })).status).toBe(400);
		const tooBig = await call(sandbox, 'PUT', `${PRODUCT_API}/product/bulk`, { token, body: `[${' '.repeat(5 * 1024 * 1024)}]` });
		expect(tooBig.status).toBe(413);
	});
});

describe('sandbox: large catalogues', () => {
	it('seeds 50,000 products and pages through them', async () => {
		const sandbox = await startSandbox({ products: 50_000, rateLimits: false });
		try {
			const token = await getToken(sandbox);
			const seen = new Set<number>();
			for (let page = 0; page < 30; page++) {
				const { json } = await call(sandbox, 'GET', `${PRODUCT_API}/basic-products?size=2500&page=${page}`, { token });
				for (const product of json) seen.add(product.id);
				if (json.length < 2500) break;
			}
			expect(seen.size).toBe(50_000);
			expect(sandbox.state.productByEan(sandbox.state.product(149_999)!.ean)?.id).toBe(149_999);
		} finally {
			await sandbox.close();
		}
	});
});

describe('sandbox: what updates store (platform facts 2026)', () => {
	let sandbox: Sandbox;
	let token: string;
	beforeAll(async () => {
		sandbox = await startSandbox({ now: '2025-06-15T10:00:00Z', rateLimits: false, products: 20, seed: 7 });
		token = await getToken(sandbox);
	});
	afterEach(() => sandbox.setVariants({ weightStoredAsKg: false, negativeStockStoredAsZero: false }));
	afterAll(() => sandbox.close());

	const bulk = (body: unknown) => call(sandbox, 'PUT', `${PRODUCT_API}/product/bulk`, { token, body });
	const answered = async (id: number) => {
		const ean = sandbox.state.product(id)!.ean;
		return (await call(sandbox, 'GET', `${PRODUCT_API}/products?ean=${ean}`, { token })).json[0] as Record<string, unknown>;
	};

	it('stores a weight in the unit sent; with weightStoredAsKg the number as kilograms, answered in lower case', async () => {
		await bulk([{ id: 100001, packageWeightValue: 500, packageWeightUnit: 'G' }]);
		expect(sandbox.state.product(100001)).toMatchObject({ packageWeightValue: 500, packageWeightUnit: 'G' });

		sandbox.setVariants({ weightStoredAsKg: true });
		const answer = await bulk([{ id: 100002, packageWeightValue: 500, packageWeightUnit: 'G' }]);
		expect(answer.json).toEqual([{ status: 'SUCCESS', errors: [], myProductId: 100002 }]);
		expect(sandbox.state.product(100002)).toMatchObject({ packageWeightValue: 500, packageWeightUnit: 'KG' });
		expect(await answered(100002)).toMatchObject({ packageWeightValue: 500, packageWeightUnit: 'kg' });
		// What was stored in grams before reads as kilograms.
		expect(await answered(100001)).toMatchObject({ packageWeightValue: 0.5, packageWeightUnit: 'kg' });
	});

	it('refuses a negative stock per item; with negativeStockStoredAsZero stores 0', async () => {
		const refused = await bulk([{ id: 100003, stockLevel: -3 }]);
		expect(refused.json).toEqual([{ status: 'FAIL', errors: ['stockLevel must be an integer >= 0'], myProductId: 100003 }]);

		sandbox.setVariants({ negativeStockStoredAsZero: true });
		const single = await call(sandbox, 'PUT', `${PRODUCT_API}/product/100003`, { token, body: { id: 100003, stockLevel: -3 } });
		expect(single.json).toEqual({ status: 'SUCCESS', errors: [], myProductId: 100003 });
		expect(sandbox.state.product(100003)?.stockLevel).toBe(0);
		const fraction = await bulk([{ id: 100003, stockLevel: -2.5 }]);
		expect(fraction.json).toEqual([{ status: 'FAIL', errors: ['stockLevel must be an integer >= 0'], myProductId: 100003 }]);
	});

	it('stores serviceable and package dimensions (cm), and checks them; other unknown fields are ignored', async () => {
		const answer = await bulk([
			{ id: 100004, serviceable: true, packageHeightValue: 12.5, packageWidthValue: '30', packageLengthValue: 40, productWidthValue: 9, color: 'red' },
			{ id: 100005, serviceable: 'maybe', packageHeightValue: 0 },
		]);
		expect(answer.json).toEqual([
			{ status: 'SUCCESS', errors: [], myProductId: 100004 },
			{ status: 'FAIL', errors: ['serviceable must be true or false', 'packageHeightValue must be positive'], myProductId: 100005 },
		]);
		expect(sandbox.state.product(100004)).toMatchObject({ serviceable: true, packageHeightValue: 12.5, packageWidthValue: 30, packageLengthValue: 40 });
		expect(sandbox.state.product(100004)).not.toHaveProperty('productWidthValue');
		expect(sandbox.state.product(100004)).not.toHaveProperty('color');
		expect(await answered(100004)).toMatchObject({ serviceable: true, packageHeightValue: 12.5, packageDimensionUnit: 'cm' });
		expect(await answered(100005)).not.toHaveProperty('packageDimensionUnit');
	});
});

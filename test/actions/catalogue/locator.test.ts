/**
 * "Pick, don't type" (issue 13): the product locator (actions/catalogue/locator.ts) through n8n-core's
 * real LoadOptionsContext (the editor's list searches) and RoutingNode (runs with locator values),
 * against the sandbox over HTTP.
 */
import type { INodeParameters } from 'n8n-workflow';

import type { SandboxOptions } from '../../../sandbox';
import { NODE_UNDER_TEST_NAME, TestCredentialsHelper, runListSearch, sandboxCredential } from '../../harness';
import { CREDENTIAL_TYPE, NODE, credentials, locator, runner, sandbox, sandboxPerTest, sent } from '../helpers';

const start = sandboxPerTest((options: SandboxOptions = {}) => ({ products: 120, ...options }));
const run = runner();

async function searchProducts(filter?: string, paginationToken?: string) {
	const { result } = await runListSearch(NODE, 'searchProducts', {
		credentials: credentials(),
		parameters: { resource: 'product', operation: 'update' },
		path: 'parameters.productId',
		filter,
		paginationToken,
	});
	return result;
}

describe('Product locator: From List', () => {
	it('lists products by name with price, stock, SKU and EAN, a page at a time', async () => {
		await start();
		const products = sandbox.state.products;

		const first = await searchProducts();
		expect(first.results).toHaveLength(50);
		// Grouped by a no-break space, which neither a Serbian nor an English reader misreads (31,129 reads as 31.129 in sr-RS).
		const grouped = (price: number) => String(price).replace(/\B(?=(\d{3})+(?!\d))/g, '\u00a0');
		expect(first.results[0]).toEqual({
			name: `${products[0].name} · ${grouped(products[0].basePrice)}\u00a0RSD · stock ${products[0].stockLevel} · SKU ${products[0].sku} · EAN ${products[0].ean}`,
			value: String(products[0].id),
		});
		// Prices with thousands grouped as a merchant of either locale reads them: "Blender J375 · 31 129 RSD · stock 127".
		const priced = first.results.map(({ name }) => /· ([\d\u00a0.]+)\u00a0RSD ·/.exec(name)?.[1]);
		expect(priced.every((price) => price !== undefined && /^\d{1,3}(\u00a0\d{3})*(\.\d{2})?$/.test(price))).toBe(true);
		expect(priced.some((price) => price?.includes('\u00a0'))).toBe(true);
		expect(first.paginationToken).toBe('1');

		const third = await searchProducts(undefined, '2');
		expect(third.results.map((entry) => entry.value)).toEqual(products.slice(100, 120).map((product) => String(product.id)));
		expect(third.paginationToken).toBeUndefined();
		expect(sent('products').map(({ query }) => [query.page, query.size])).toEqual([
			['0', '50'],
			['2', '50'],
		]);
	});

	it('searches by name, SKU and EAN through the search query', async () => {
		await start();
		const product = sandbox.state.products[37];
		const word = product.name.split(' ').find((part) => part.length > 4) ?? product.name;

		const byName = await searchProducts(word);
		const bySku = await searchProducts(product.sku);
		const byEan = await searchProducts(product.ean);

		const namesMatch = sandbox.state.products.filter((candidate) => candidate.name.toLowerCase().includes(word.toLowerCase()));
		expect(byName.results.map((entry) => entry.value)).toEqual(namesMatch.slice(0, 50).map((candidate) => String(candidate.id)));
		expect(bySku.results.map((entry) => entry.value)).toContain(String(product.id));
		expect(byEan.results.map((entry) => entry.value)).toEqual([String(product.id)]);
		expect(sent('products').map(({ query }) => query.search)).toEqual([word, product.sku, product.ean]);
	});

	it('answers an empty list when nothing matches', async () => {
		await start();

		const result = await searchProducts('no such product anywhere');

		expect(result).toEqual({ results: [], paginationToken: undefined });
	});
});

describe('Product locator: the engine behind the list', () => {
	it('renews an expired token after a 401 and answers the list', async () => {
		await start();
		const credentialsHelper = new TestCredentialsHelper();
		credentialsHelper.add(CREDENTIAL_TYPE, sandboxCredential(sandbox));
		const search = async () =>
			(await runListSearch(NODE, 'searchProducts', { credentialsHelper, parameters: { resource: 'product', operation: 'update' } })).result;
		await search();
		const firstToken = credentialsHelper.storedData(CREDENTIAL_TYPE).accessToken;
		sandbox.expireAllTokens();
		sandbox.clearLog();

		const result = await search();

		expect(result.results).toHaveLength(50);
		expect(sandbox.log.map((entry) => [entry.route, entry.status])).toEqual([
			['products', 401],
			['token', 200],
			['products', 200],
		]);
		expect(credentialsHelper.storedData(CREDENTIAL_TYPE).accessToken).not.toBe(firstToken);
	});

	it('waits at the catalogue gate: many searches at once stay within 5 a second', async () => {
		await start({ rateLimits: { scale: 1 } });

		const results = await Promise.all(Array.from({ length: 12 }, (_, index) => searchProducts(index % 2 === 0 ? undefined : 'a')));

		expect(results.every((result) => result.results.length > 0)).toBe(true);
		const answers = sent('products');
		// Without the gate 7 of the 12 would be refused at once; a busy machine may delay an answer
		// enough for the sandbox to count one arrival in the wrong second, so allow a stray one.
		expect(answers.filter((entry) => entry.status === 429).length).toBeLessThanOrEqual(1);
		// 12 requests at 5 a second cannot all arrive within the first second.
		expect(answers[answers.length - 1].at - answers[0].at).toBeGreaterThanOrEqual(1_000);
	});
});

describe('Product locator: values in a run', () => {
	it('updates the product given By EAN, looked up with the ean filter first', async () => {
		await start();
		const product = sandbox.state.products[12];

		const result = await run({ resource: 'product', operation: 'update', productId: locator('ean', product.ean), updateFields: { stockLevel: 321 } });

		expect(result.error).toBeUndefined();
		expect(result.json(NODE_UNDER_TEST_NAME)).toEqual([expect.objectContaining({ success: true })]);
		expect(sent('products').map(({ query }) => query.ean)).toEqual([product.ean]);
		expect(sent('productUpdate').map(({ path }) => path)).toEqual([expect.stringMatching(new RegExp(`/product/${product.id}$`))]);
		expect(sandbox.state.products[12].stockLevel).toBe(321);
	});

	it('fails an EAN no product has, naming the field and the item, and sends no update', async () => {
		await start();

		const result = await run({ resource: 'product', operation: 'update', productId: locator('ean', '4006381333931'), updateFields: { stockLevel: 1 } });

		expect(result.error?.message).toBe('Product ID: no product has the EAN "4006381333931" (item 0)');
		expect(sent('productUpdate')).toEqual([]);
	});

	it('holds back every item while one item\'s EAN is not found (On Error = Stop)', async () => {
		await start();
		const [first, second] = sandbox.state.products;

		const result = await run(
			{ resource: 'product', operation: 'update', productId: '={{ $json.product }}', updateFields: { stockLevel: 5 } },
			[{ product: first.id }, { product: second.id }],
		);
		expect(result.error).toBeUndefined();
		sandbox.clearLog();

		const rows = await run({
			resource: 'product',
			operation: 'updateMany',
			inputMode: 'rows',
			productRows: {
				product: [
					{ id: locator('id', first.id), updateFields: { stockLevel: 7 } },
					{ id: locator('ean', '4006381333931'), updateFields: { stockLevel: 8 } },
				],
			},
		});

		expect(rows.error?.message).toBe('Products › row 2 › Product ID: no product has the EAN "4006381333931" (item 0)');
		expect(sent('productBulk')).toEqual([]);

		const items = await run(
			{ resource: 'product', operation: 'update', productId: '={{ $json.product }}', updateFields: { stockLevel: 9 } },
			[{ product: locator('id', first.id) }, { product: locator('ean', '4006381333931') }],
		);
		expect(items.error?.message).toBe('Product ID: no product has the EAN "4006381333931" (item 1)');
		expect(sent('productUpdate')).toEqual([]);
		expect(sandbox.state.products[0].stockLevel).toBe(5);
	});

	it('still takes a plain ID, as workflows made before the locator hold it', async () => {
		await start();
		const product = sandbox.state.products[3];

		const plain = await run({ resource: 'product', operation: 'update', productId: String(product.id), updateFields: { stockLevel: 11 } });
		const byId = await run({ resource: 'product', operation: 'update', productId: locator('id', ` ${product.id} `), updateFields: { stockLevel: 12 } });
		const fromList = await run({ resource: 'product', operation: 'update', productId: locator('list', String(product.id)), updateFields: { stockLevel: 13 } });

		for (const result of [plain, byId, fromList]) expect(result.error).toBeUndefined();
		expect(sent('productUpdate')).toHaveLength(3);
		expect(sent('products')).toEqual([]);
		expect(sandbox.state.products[3].stockLevel).toBe(13);
	});

	it('rejects an ID that is not digits and an EAN of the wrong length before sending', async () => {
		await start();

		// Typed into the field or from an expression, the node's reader refuses it (the modes hold no
		// regex for n8n to check at the execution's start: test/actions/editor.test.ts says why).
		const typedId = await run({ resource: 'product', operation: 'update', productId: locator('id', '1e3'), updateFields: { stockLevel: 1 } });
		expect(typedId.error?.message).toBe('Product ID: "1e3" is not a product ID (a whole number) (item 0)');
		const badId = await run({ resource: 'product', operation: 'update', productId: locator('id', '={{ "1e3" }}'), updateFields: { stockLevel: 1 } });
		const badEan = await run({ resource: 'product', operation: 'update', productId: locator('ean', '={{ "12345" }}'), updateFields: { stockLevel: 1 } });

		expect(badId.error?.message).toBe('Product ID: "1e3" is not a product ID (a whole number) (item 0)');
		expect(badEan.error?.message).toBe('Product ID: "12345" is not an EAN (item 0)');
		expect(sandbox.log.filter((entry) => entry.route !== 'token')).toEqual([]);
	});

	it('Price Get Many: the Product IDs list and picked products together', async () => {
		await start();
		const [a, b, c] = sandbox.state.products;

		const result = await run({
			resource: 'price',
			operation: 'getMany',
			merchantInventoryIds: String(a.id),
			products: { product: [{ id: locator('list', b.id) }, { id: locator('ean', c.ean) }] },
		});
		const onlyPicked = await run({ resource: 'price', operation: 'getMany', products: { product: [{ id: locator('id', c.id) }] } });

		expect(result.error).toBeUndefined();
		expect(result.json(NODE_UNDER_TEST_NAME).map((price) => price.merchantInventoryId)).toEqual([a.id, b.id, c.id]);
		expect(onlyPicked.json(NODE_UNDER_TEST_NAME).map((price) => price.merchantInventoryId)).toEqual([c.id]);
		expect(sent('prices').map(({ query }) => query.merchantInventoryIds)).toEqual([`${a.id},${b.id},${c.id}`, `${c.id}`]);
	});

	it('Discount Schedule: a row\'s product By EAN is scheduled for that product', async () => {
		await start();
		const product = sandbox.state.products[40];
		const today = new Date();
		const day = (offset: number) => new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + offset)).toISOString().slice(0, 10);

		const result = await run({
			resource: 'discount',
			operation: 'schedule',
			inputMode: 'rows',
			discountsUi: {
				discount: [
					{
						merchantInventoryId: locator('ean', product.ean),
						discountPrice: Math.floor(product.basePrice * 0.5),
						dateFrom: day(40),
						dateTo: day(45),
						discountType: 'SALE',
					},
				],
			},
		});

		expect(result.error).toBeUndefined();
		const [scheduled] = result.json(NODE_UNDER_TEST_NAME);
		expect(scheduled.success).toBe(true);
		expect(sandbox.state.discounts.find((discount) => discount.discountId === scheduled.id)?.merchantInventoryId).toBe(product.id);
	});
});

/**
 * Issue 28, point 7: EANs looked up in batches (catalogue/eans.ts, `productIdsByEan`). The current pages
 * say GET products' `ean` may repeat; the reference has one. The sandbox's `productsEanRepeats`
 * answers every EAN given; off, it counts only the first, as it always did.
 */
describe('Product locator: EANs looked up many per request', () => {
	const eanRows = (products: Array<{ ean: string }>, stock = (index: number) => index + 1) =>
		products.map(({ ean }, index) => ({ id: locator('ean', ean), updateFields: { stockLevel: stock(index) } }));
	// On Error = Continue: the rows whose EAN is not found or ambiguous come out as items (under the default the run fails naming them).
	const updateManyRows = (rows: INodeParameters[], more: INodeParameters = {}) =>
		run({ resource: 'product', operation: 'updateMany', inputMode: 'rows', productRows: { product: rows }, ...more }, [{}], { node: { onError: 'continueRegularOutput' } });
	// Codes per look-up: each goes out in every form (8, 12, 13, 14 digits) that holds it, e.g. an EAN-13 and its GTIN-14.
	const eansAsked = () => sent('products').map(({ query }) => new Set(query.ean?.split(',').map((ean) => ean.replace(/^0+/, ''))).size);
	const shareEan = async (ids: number[], ean: string) => {
		const answer = await fetch(`${sandbox.url}/__sandbox/product-eans`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify(ids.map((id) => ({ id, ean }))),
		});
		expect(answer.status).toBe(200);
	};

	it('Update Many of 150 rows by EAN: 2 look-ups where the service takes a repeated ean, every product right', async () => {
		await start({ products: 300 });
		sandbox.setVariants({ productsEanRepeats: true });
		const products = sandbox.state.products.slice(100, 250);

		const result = await updateManyRows(eanRows(products));

		expect(result.error).toBeUndefined();
		expect(result.json(NODE_UNDER_TEST_NAME).map((item) => [item.id, item.success])).toEqual(products.map(({ id }) => [id, true]));
		expect(eansAsked()).toEqual([100, 50]);
		expect(sent('products').map(({ query }) => query.size)).toEqual(['200', '200']);
		expect(sent('productBulk')).toHaveLength(1);
		expect(products.map(({ id }) => sandbox.state.product(id)?.stockLevel)).toEqual(products.map((_, index) => index + 1));
	});

	it('still right where the service takes one ean: three extra requests, then one EAN per request', async () => {
		await start({ products: 300 });
		const products = sandbox.state.products.slice(100, 250);

		const result = await updateManyRows(eanRows(products));

		expect(result.error).toBeUndefined();
		expect(result.json(NODE_UNDER_TEST_NAME).map((item) => [item.id, item.success])).toEqual(products.map(({ id }) => [id, true]));
		// The first 100 together: the answer holds the first EAN's product only, so the other 99 are
		// asked again with a product's EAN among them (read first: no ean): the answer lacks it, which
		// proves the service takes one ean, and the 149 others go one by one.
		expect(eansAsked()).toEqual([100, 0, 100, ...Array<number>(149).fill(1)]);
		expect(products.map(({ id }) => sandbox.state.product(id)?.stockLevel)).toEqual(products.map((_, index) => index + 1));
	});

	it.each([
		['takes a repeated ean', true, [4]],
		// The unknown EAN first: the answer holds nothing; asked again with a product's EAN among them,
		// it lacks that one too, so each of the four is asked alone (the unknown one in its two forms).
		['takes one ean', false, [4, 0, 5, 1, 1, 1, 1, 1]],
	])('found, not found and ambiguous EANs in one batch, where the service %s', async (_case, repeats, asked) => {
		await start({ products: 60 });
		sandbox.setVariants({ productsEanRepeats: repeats });
		const [a, b, c, d] = sandbox.state.products.slice(10, 14);
		await shareEan([d.id], c.ean);
		const unknown = '4006381333931';

		const result = await updateManyRows(eanRows([{ ean: unknown }, a, c, b, { ean: a.ean }]), { invalidEntries: 'skip' });

		expect(result.error).toBeUndefined();
		const output = result.json(NODE_UNDER_TEST_NAME);
		expect(output.map((item) => item.success)).toEqual([false, true, false, true, true]);
		expect(String(output[0].error)).toContain(`no product has the EAN "${unknown}"`);
		expect(String(output[2].error)).toContain(`2 products have the EAN "${c.ean}" (IDs ${c.id}, ${d.id})`);
		expect(eansAsked()).toEqual(asked);
		expect(sandbox.state.product(a.id)?.stockLevel).toBe(5);
		expect(sandbox.state.product(b.id)?.stockLevel).toBe(4);
		expect(sandbox.state.product(c.id)?.stockLevel).toBe(c.stockLevel);
	});

	it('Update Many by EAN finds a 12-digit UPC of a product stored as its 0-prefixed EAN-13, in the same look-up request, and says which form matched', async () => {
		await start({ products: 60 });
		sandbox.setVariants({ productsEanRepeats: true });
		const [a, b, c] = sandbox.state.products.slice(20, 23);
		await shareEan([b.id], '0740617304350');

		const result = await updateManyRows(eanRows([a, { ean: '740617304350' }, { ean: `0${c.ean}` }]));

		expect(result.error).toBeUndefined();
		expect(result.json(NODE_UNDER_TEST_NAME).map((item) => [item.id, item.success, item.matchedEan])).toEqual([
			[a.id, true, undefined],
			[b.id, true, '0740617304350'],
			[c.id, true, c.ean],
		]);
		// One request: each code in every form that holds it (the UPC as 12, 13 and 14 digits).
		expect(sent('products').map(({ query }) => query.ean)).toEqual([
			[a.ean, `0${a.ean}`, '740617304350', '0740617304350', '00740617304350', `0${c.ean}`, c.ean].join(','),
		]);
		expect(sandbox.state.product(b.id)?.stockLevel).toBe(2);
	});

	it('Product Update by EAN outputs the form that matched; one EAN alone is asked form by form where the service may take one ean', async () => {
		await start({ products: 60 });
		const product = sandbox.state.products[5];
		await shareEan([product.id], '0740617304350');

		const result = await run({ resource: 'product', operation: 'update', productId: locator('ean', '740617304350'), updateFields: { stockLevel: 9 } });

		expect(result.error).toBeUndefined();
		expect(result.json(NODE_UNDER_TEST_NAME)).toEqual([expect.objectContaining({ id: product.id, success: true, matchedEan: '0740617304350' })]);
		expect(sent('products').map(({ query }) => query.ean)).toEqual(['740617304350', '0740617304350']);
	});

	it('reads every page of a batch answer: 200 products sharing one EAN do not hide the others', async () => {
		await start({ products: 400 });
		sandbox.setVariants({ productsEanRepeats: true });
		const products = sandbox.state.products.slice(300, 400);
		// Products 1-200 come first in the answer, all with the first asked EAN: a full page of one EAN.
		await shareEan(sandbox.state.products.slice(0, 200).map(({ id }) => id), products[0].ean);

		const result = await updateManyRows(eanRows(products), { invalidEntries: 'skip' });

		expect(result.error).toBeUndefined();
		const output = result.json(NODE_UNDER_TEST_NAME);
		expect(String(output[0].error)).toContain(`201 products have the EAN "${products[0].ean}"`);
		expect(output.slice(1).map((item) => [item.id, item.success])).toEqual(products.slice(1).map(({ id }) => [id, true]));
		expect(sent('products').map(({ query }) => query.page)).toEqual(['0', '1']);
	});

	it('Product Update over 100 input items by EAN: the items\' look-ups go out together', async () => {
		await start({ products: 150 });
		sandbox.setVariants({ productsEanRepeats: true });
		const products = sandbox.state.products.slice(20, 120);

		const result = await run(
			{ resource: 'product', operation: 'update', productId: '={{ $json.product }}', updateFields: { stockLevel: '={{ $json.stock }}' } },
			products.map(({ ean }, index) => ({ product: locator('ean', ean), stock: index + 3 })),
		);

		expect(result.error).toBeUndefined();
		expect(result.json(NODE_UNDER_TEST_NAME).map((item) => [item.id, item.success])).toEqual(products.map(({ id }) => [id, true]));
		expect(eansAsked()).toEqual([100]);
		expect(products.map(({ id }) => sandbox.state.product(id)?.stockLevel)).toEqual(products.map((_, index) => index + 3));
	});

	it('Product Publish over 3 input items by EAN: one look-up for the run before anything is sent (each item asked alone before issue 41)', async () => {
		await start({ products: 60 });
		sandbox.setVariants({ productsEanRepeats: true });
		const products = sandbox.state.products.slice(40, 43);

		const result = await run(
			{ resource: 'product', operation: 'publish', products: { product: [{ id: '={{ $json.product }}' }] } },
			products.map(({ ean }) => ({ product: locator('ean', ean) })),
		);

		expect(result.error).toBeUndefined();
		expect(result.json(NODE_UNDER_TEST_NAME).map((item) => item.productIds)).toEqual(products.map(({ id }) => [id]));
		expect(eansAsked()).toEqual([3]);
		expect(sent('productPublish')).toHaveLength(1);
	});

	it('Price Get Many and Discount Schedule rows by EAN: one look-up each', async () => {
		await start({ products: 60 });
		const today = new Date();
		const day = (offset: number) => new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + offset)).toISOString().slice(0, 10);
		sandbox.setVariants({ productsEanRepeats: true });
		const [a, b, c] = sandbox.state.products.slice(30, 33);
		const byEan = (product: { ean: string }) => ({ id: locator('ean', product.ean) });

		const prices = await run({ resource: 'price', operation: 'getMany', products: { product: [a, b, c].map(byEan) } });
		expect(prices.error).toBeUndefined();
		expect(prices.json(NODE_UNDER_TEST_NAME).map((price) => price.merchantInventoryId)).toEqual([a.id, b.id, c.id]);
		expect(eansAsked()).toEqual([3]);
		sandbox.clearLog();

		const discounts = await run({
			resource: 'discount',
			operation: 'schedule',
			inputMode: 'rows',
			discountsUi: {
				discount: [a, b].map((product) => ({
					merchantInventoryId: locator('ean', product.ean),
					discountPrice: Math.floor(product.basePrice * 0.5),
					dateFrom: day(40),
					dateTo: day(45),
					discountType: 'SALE',
				})),
			},
		});
		expect(discounts.error).toBeUndefined();
		expect(discounts.json(NODE_UNDER_TEST_NAME).map((item) => item.success)).toEqual([true, true]);
		expect(eansAsked()).toEqual([2]);
		expect(sandbox.state.discounts.filter((discount) => [a.id, b.id].includes(discount.merchantInventoryId))).toHaveLength(2);
	});
});

/**
 * Product › Get Many: pages of 200, a limit, Simplify and the filters, through n8n's real engine (RoutingNode) against the sandbox.
 */
import { toProduct } from '../../../sandbox/products';
import { NOW, apiRequests, pages, runner, sandbox, sandboxPerTest } from '../helpers';

const start = sandboxPerTest((products: number) => ({ now: NOW, products }));
const run = runner('product');

/** GET products as the sandbox answers it under the current switches (a token of its client). */
async function sandboxProducts(): Promise<Array<Record<string, unknown> & { id: number }>> {
	const token = await fetch(`${sandbox.url}/iam/api/v1/auth/token`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify({ grantType: 'CLIENT_CREDENTIALS', ...sandbox.client, scope: 'public_api/full_access' }),
	});
	const { access_token: accessToken } = (await token.json()) as { access_token: string };
	const response = await fetch(`${sandbox.url}/product/api/v1/merchant-integration/products?size=200`, { headers: { Authorization: `Bearer ${accessToken}` } });
	return ((await response.json()) as Array<Record<string, unknown>>).map((product) => ({ ...product, id: Number(product.id) }));
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
		// basic-products' second name (`dateModifiedAfter`) is not GET products' filter.
		expect(queries[0]).not.toHaveProperty('dateModifiedAfter');
		expect(queries[1].ean).toBe(target.ean);
		expect(queries[2].search).toBe(target.sku);
	});

	it('rejects a date that is not one and sends nothing', async () => {
		await start(10);

		const result = await run({ operation: 'getMany', returnAll: true, filters: { modifiedAfter: 'last tuesday' } });

		expect(result.error?.message).toMatch(/Modified After: "last tuesday" is not a date \(item 0\)/);
		expect(apiRequests()).toHaveLength(0);
	});

	it("keeps the fields the current pages add: status, group and package dimensions in Simplify, every field without it, read by their schema", async () => {
		await start(20);
		sandbox.setVariants({ documentedProductFields: true, numbersAsStrings: true });

		const simplified = await run({ operation: 'getMany', returnAll: true, simplify: true });
		const full = await run({ operation: 'getMany', returnAll: true, simplify: false });

		const raw = await sandboxProducts();
		expect(raw[0]).toEqual(expect.objectContaining({ status: expect.any(String), groupId: expect.any(String), packageDimensionUnit: 'cm' }));
		const summaries = simplified.json('Node');
		expect(summaries).toHaveLength(20);
		for (const [index, summary] of summaries.entries()) {
			expect(summary).toEqual(
				expect.objectContaining({
					id: raw[index].id,
					status: raw[index].status,
					groupId: raw[index].groupId,
					// Numbers sent as text are read as numbers, by the schema.
					packageHeightValue: Number(raw[index].packageHeightValue),
					packageWidthValue: Number(raw[index].packageWidthValue),
					packageLengthValue: Number(raw[index].packageLengthValue),
					packageDimensionUnit: 'cm',
				}),
			);
		}
		expect(new Set(summaries.map((summary) => summary.status))).toEqual(new Set(raw.map((product) => product.status)));
		// Without Simplify: every field, the specifications string and the platform code under the marketplace's key as sent.
		expect(full.json('Node')[0]).toEqual(expect.objectContaining({ specifications: raw[0].specifications, marketplaceCode: raw[0].marketplaceCode }));
	});

	it('reads Simplify as every Simplify is read: text from an expression counts, anything else is an error naming the field', async () => {
		await start(5);

		const asText = await run({ operation: 'getMany', limit: 1, simplify: '={{ "false" }}' });
		expect(asText.json('Node')).toEqual(sandbox.state.products.slice(0, 1).map(toProduct));

		const unreadable = await run({ operation: 'getMany', limit: 1, simplify: '={{ "maybe" }}' });
		expect(unreadable.error?.message).toMatch(/^Simplify: "maybe" is not true or false/);
	});

	describe('Filters › Status (applied to the answers: the service takes no status in its query)', () => {
		it('keeps the products in one of the statuses, over every page, Limit counting matches', async () => {
			await start(450);
			sandbox.setVariants({ documentedProductFields: true });
			const [a, b] = sandbox.state.products.slice(300, 302);
			expect((await runner('product')({ operation: 'unpublish', productIds: `${a.id}, ${b.id}` })).error).toBeUndefined();
			sandbox.clearLog();

			const all = await run({ operation: 'getMany', returnAll: true, filters: { status: ['UNPUBLISHED', 'UNPUBLISHED_OOS'] } });
			const limited = await run({ operation: 'getMany', limit: 2, filters: { status: ['UNPUBLISHED', 'UNPUBLISHED_OOS'] } });

			expect(all.error).toBeUndefined();
			// The catalogue as the answers show it, unfiltered.
			const catalogue = (await run({ operation: 'getMany', returnAll: true })).json('Node');
			const expected = catalogue.filter((product) => ['UNPUBLISHED', 'UNPUBLISHED_OOS'].includes(String(product.status)));
			expect(all.json('Node').map((product) => product.id)).toEqual(expected.map((product) => product.id));
			expect(all.json('Node').map((product) => product.id)).toEqual(expect.arrayContaining([a.id, b.id]));
			expect(limited.json('Node').map((product) => product.id)).toEqual(expected.slice(0, 2).map((product) => product.id));
			// Pages of 200 whatever the Limit: how many match is not known before reading.
			expect(pages('products').every(({ size }) => size === '200')).toBe(true);
			expect(expected.length).toBeLessThan(catalogue.length);
		});

		it('applies to the whole product whatever Output keeps (node version 4, Selected Fields without status)', async () => {
			await start(30);
			sandbox.setVariants({ documentedProductFields: true });
			const [a] = sandbox.state.products.slice(5, 6);
			expect((await runner('product')({ operation: 'unpublish', productIds: String(a.id) })).error).toBeUndefined();

			const result = await run({ operation: 'getMany', returnAll: true, filters: { status: ['UNPUBLISHED', 'UNPUBLISHED_OOS'] }, output: 'selected', fieldsToReturn: 'id, name' }, [{}], { node: { typeVersion: 4 } });

			expect(result.error).toBeUndefined();
			const whole = await run({ operation: 'getMany', returnAll: true, filters: { status: ['UNPUBLISHED', 'UNPUBLISHED_OOS'] }, simplify: false });
			expect(whole.json('Node').length).toBeGreaterThan(0);
			expect(result.json('Node')).toEqual(whole.json('Node').map((product) => ({ id: product.id, name: product.name })));
			expect(result.json('Node')).toContainEqual({ id: a.id, name: a.name });
		});

		it("works on the default sandbox (npm run dev's): its products carry a status, as the live service's do", async () => {
			await start(10);
			sandbox.setVariants({ productStatusField: true });
			const result = await run({ operation: 'getMany', returnAll: true, filters: { status: ['READY_FOR_PUBLISH', 'PUBLISHED', 'SOLD_OUT', 'UNPUBLISHED', 'UNPUBLISHED_OOS'] } });
			expect(result.error).toBeUndefined();
			expect(result.json('Node')).toHaveLength(10);
			expect(result.json('Node').every((product) => typeof product.status === 'string')).toBe(true);
		});

		it('stops with an error naming the filter when the products carry no status, instead of returning nothing', async () => {
			await start(10);

			const result = await run({ operation: 'getMany', returnAll: true, filters: { status: ['PUBLISHED'] } });

			expect(result.error?.message).toMatch(/^Filters › Status/);
			expect(result.error?.message).toMatch(/carry no status/);
		});
	});
});

/**
 * Product › Get Many Basic: pages of 2,500, a limit and the modified-after filter, through n8n's real engine (RoutingNode) against the sandbox.
 */
import { NOW, pages, runner, sandbox, sandboxPerTest, sent } from '../helpers';

const start = sandboxPerTest((products: number) => ({ now: NOW, products }));
const run = runner('product');

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

	// The reference names the filter `date-modified-after` (a day), the current pages `dateModifiedAfter`
	// (a UTC timestamp); a service ignores the name it does not know, and would answer the whole catalogue.
	// The filter is an instant (issue 37): a service honouring the timestamp answers from 15:30; one
	// honouring only the day answers that whole day, as its answer alone says.
	it.each(['reference', 'documented', 'both'] as const)(
		'answers only the products modified since the time, with a service honouring the %s filter name(s)',
		async (names) => {
			await start(3_000);
			sandbox.setVariants({ basicProductsModifiedFilter: names });

			const result = await run({ operation: 'getManyBasic', returnAll: true, filters: { modifiedAfter: '2025-06-01T15:30:00' } });

			const since = names === 'reference' ? '2025-06-01T00:00:00.000Z' : '2025-06-01T15:30:00.000Z';
			const expected = sandbox.state.products.filter((product) => product.dateModified >= since);
			expect(expected.length).toBeGreaterThan(0);
			expect(expected.length).toBeLessThan(sandbox.state.products.length);
			expect(result.json('Node').map((product) => product.id)).toEqual(expected.map((product) => product.id));
			expect(sent('basicProducts').map((entry) => entry.query)).toEqual([
				{ 'date-modified-after': '2025-06-01', dateModifiedAfter: '2025-06-01T15:30:00', page: '0', size: '2500' },
			]);
		},
	);
});

/**
 * How Import's products go out (actions/product/importRequests.ts), through n8n's real engine
 * against the sandbox under each `importBodyShape`: a list where the service takes one (one request
 * for many products), one object per product where it binds no list (one extra request to learn
 * it, remembered per Base URL), and requests within the item and byte limits.
 */
import { NOW, apiRequests, newEan, runner, sandbox, sandboxPerTest, sent } from '../helpers';

const start = sandboxPerTest(() => ({ now: NOW, products: 5 }));
const run = runner('product');
const V3 = { node: { typeVersion: 3 } };

/** `count` new products with every field a new EAN needs; `description` pads each body. */
function products(count: number, from = 0, description = 'Opis') {
	return Array.from({ length: count }, (_, index) => {
		const ean = newEan(String(from + index + 1));
		return {
			ean,
			name: `Proizvod ${from + index + 1}`,
			description,
			coverImage: 'https://example.com/c.jpg',
			brand: 'Marka',
			gallery: 'https://example.com/g.jpg',
			basePrice: 100 + index,
			vat: 20,
			stockLevel: 3,
			sku: `SKU-${ean}`,
			packageWeightValue: 0.5,
			packageWeightUnit: 'KG',
		};
	});
}

async function importJson(list: unknown[]) {
	return await run({ operation: 'import', inputMode: 'json' }, [{ products: list }], V3);
}

const importStatuses = () => sent('import').map(({ status, itemCount }) => [status, itemCount]);

describe('Product: Import, body shapes', () => {
	it('list only: 300 products in one request, one progress id for all', async () => {
		await start();
		sandbox.setVariants({ importBodyShape: 'list' });
		const list = products(300);

		const result = await importJson(list);

		expect(result.error).toBeUndefined();
		const json = result.json('Node');
		expect(json).toHaveLength(300);
		expect(new Set(json.map((item) => item.id)).size).toBe(1);
		expect(json.every((item) => item.success === true && item.sentAs === 'list')).toBe(true);
		expect(importStatuses()).toEqual([[200, 300]]);
		expect(sandbox.state.productByEan(list[299].ean)).toBeDefined();
	});

	it('object only (the reference): the list is refused once, then one object per product; the next run sends objects at once', async () => {
		await start();
		const list = products(4);

		const result = await importJson(list);

		expect(result.error).toBeUndefined();
		const json = result.json('Node');
		expect(json.map((item) => [item.ean, item.success, item.sentAs])).toEqual(list.map(({ ean }) => [ean, true, 'one object per request']));
		expect(new Set(json.map((item) => item.id)).size).toBe(4);
		expect(json[0].notice).toContain('The service takes one product per request, not a list: this run sent each product in a request of its own.');
		expect(importStatuses()).toEqual([
			[400, 4],
			[200, 1],
			[200, 1],
			[200, 1],
			[200, 1],
		]);
		for (const { ean } of list) expect(sandbox.state.productByEan(ean)).toBeDefined();

		sandbox.clearLog();
		expect((await importJson(products(2, 10))).error).toBeUndefined();
		expect(importStatuses()).toEqual([
			[200, 1],
			[200, 1],
		]);
	});

	it('both: one list', async () => {
		await start();
		sandbox.setVariants({ importBodyShape: 'both' });

		const result = await importJson(products(50));

		expect(result.error).toBeUndefined();
		expect(importStatuses()).toEqual([[200, 50]]);
	});

	it('where one object is refused, sends a list: a service that moved to lists costs one extra request', async () => {
		await start();
		expect((await importJson(products(1))).error).toBeUndefined(); // learns: one object
		sandbox.setVariants({ importBodyShape: 'list' });
		sandbox.clearLog();

		const result = await importJson(products(3, 20));

		expect(result.error).toBeUndefined();
		expect(result.json('Node').every((item) => item.sentAs === 'list')).toBe(true);
		expect(importStatuses()).toEqual([
			[400, 1],
			[200, 3],
		]);
	});

	it('a 400 that is not about the shape is an ordinary error: no fallback, nothing resent', async () => {
		await start();
		sandbox.setVariants({ importBodyShape: 'list' });
		const list = products(2).map((product) => ({
			...product,
			parentEan: newEan('999'),
		}));

		const result = await importJson(list);

		expect(result.error?.message).toMatch(/400|Bad request/i);
		expect(String(result.error?.description)).toContain('[0]: parentEan');
		expect(importStatuses()).toEqual([[400, 2]]);
	});

	it('splits at 5 MiB: products with long descriptions go out in two lists', async () => {
		await start();
		sandbox.setVariants({ importBodyShape: 'list' });
		const list = products(2_600, 0, 'Opis proizvoda. '.repeat(125));

		const result = await importJson(list);

		expect(result.error).toBeUndefined();
		const requests = sent('import');
		expect(requests.map(({ status }) => status)).toEqual([200, 200]);
		expect(requests.reduce((sum, { itemCount }) => sum + (itemCount ?? 0), 0)).toBe(2_600);
		for (const { bodyBytes } of requests) expect(bodyBytes).toBeLessThanOrEqual(5 * 1024 * 1024);
		const json = result.json('Node');
		const firstId = json[0].id;
		const switchAt = json.findIndex((item) => item.id !== firstId);
		expect(switchAt).toBe(requests[0].itemCount);
		expect(apiRequests().filter(({ route }) => route === 'eanExists')).toHaveLength(1);
	});
	// The item limit (30,000 per request) is chunkBySize's, shared with Update Many: test/transport/pagination.test.ts.
});

/**
 * How Import's products go out (actions/product/importRequests.ts), through n8n's real engine
 * against the sandbox under each `importBodyShape`: a list where the service takes one (one request
 * for many products), one object per product where it binds no list (one extra request to learn
 * it, remembered per Base URL), and requests within the item and byte limits.
 */
import { NodeApiError, type IExecuteFunctions, type INodeType } from 'n8n-workflow';

import { TestNodeTypes, packageNodeTypeName } from '../../harness';
import { NODE, NOW, apiRequests, newEan, runner, sandbox, sandboxPerTest, sent } from '../helpers';

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

async function importJson(list: unknown[], options: Parameters<typeof run>[2] = {}) {
	return await run({ operation: 'import', inputMode: 'json' }, [{ products: list }], { ...V3, ...options });
}

const importStatuses = () => sent('import').map(({ status, itemCount }) => [status, itemCount]);

/**
 * The node as n8n 1.x runs it. n8n-core 1.x wraps a failed request in the same NodeApiError as 2.x,
 * but n8n-workflow 1.x's ExecutionBaseError declares `cause` as a class field, which resets the
 * cause (the axios error) to undefined after the constructor: the answer's body stays only as
 * `context.data`, the unread response stream. Checked on n8n 1.123.81's own n8n-workflow with a
 * real 400: `cause` undefined, `context.data` an IncomingMessage, message and description the same
 * as 2.x's. The jest suite runs n8n 2.x, so its helper's error is given that shape here, exactly:
 * an own, enumerable `cause` that is undefined. Everything else is the real engine over real HTTP.
 */
function asOnN8n1(): TestNodeTypes {
	const nodeTypes = new TestNodeTypes();
	const real = nodeTypes.getByNameAndVersion(packageNodeTypeName(NODE), 3);
	const reshaped = async function (ctx: IExecuteFunctions, args: unknown[]) {
		try {
			return await (ctx.helpers.httpRequestWithAuthentication as (...a: unknown[]) => Promise<unknown>).apply(ctx, args);
		} catch (error) {
			// n8n-core wraps every failure of this helper in a NodeApiError, on 1.x as on 2.x.
			expect(error).toBeInstanceOf(NodeApiError);
			const wrapped = error as NodeApiError;
			Object.defineProperty(wrapped, 'cause', { value: undefined, enumerable: true, writable: true, configurable: true });
			throw wrapped;
		}
	};
	const onN8n1Context = (ctx: IExecuteFunctions): IExecuteFunctions => {
		const helpers = new Proxy(ctx.helpers, {
			get: (target, name) => (name === 'httpRequestWithAuthentication' ? async (...args: unknown[]) => await reshaped(ctx, args) : Reflect.get(target, name)),
		});
		return new Proxy(ctx, {
			get: (target, name) => {
				if (name === 'helpers') return helpers;
				const value: unknown = Reflect.get(target, name);
				return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
			},
		});
	};
	// Import is one of the node's custom operations, which n8n calls with the node's context.
	const customOperations = Object.fromEntries(
		Object.entries(real.customOperations ?? {}).map(([resource, operations]) => [
			resource,
			Object.fromEntries(
				Object.entries(operations).map(([operation, run]) => [
					operation,
					async function (this: IExecuteFunctions) {
						return await run.call(onN8n1Context(this));
					},
				]),
			),
		]),
	);
	const onN8n1: INodeType = { ...real, description: real.description, customOperations };
	nodeTypes.register(packageNodeTypeName(NODE), onN8n1);
	return nodeTypes;
}

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

	it("object only, on n8n 1 (its NodeApiError keeps the 400's body only as an unread stream): the same fallback", async () => {
		await start();
		const list = products(3);

		const result = await importJson(list, { nodeTypes: asOnN8n1() });

		expect(result.error).toBeUndefined();
		expect(result.json('Node').map((item) => [item.success, item.sentAs])).toEqual(list.map(() => [true, 'one object per request']));
		expect(importStatuses()).toEqual([
			[400, 3],
			[200, 1],
			[200, 1],
			[200, 1],
		]);
	});

	it("on n8n 1, any other 400 names the service's own words, as on n8n 2", async () => {
		await start();
		sandbox.setVariants({ importBodyShape: 'list' });
		const list = products(2).map((product) => ({ ...product, parentEan: newEan('999') }));

		const result = await importJson(list, { nodeTypes: asOnN8n1() });

		expect(result.error?.message).toMatch(/400|Bad request/i);
		expect(String(result.error?.description)).toContain('[0]: parentEan');
		expect(importStatuses()).toEqual([[400, 2]]);
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
	// The item limit (30,000 per request) is chunkBySize's, shared with Update Many: test/transport/batches.test.ts.
});

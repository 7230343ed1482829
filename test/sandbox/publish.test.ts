import { startSandbox, type Sandbox } from '../../sandbox';
import { PRODUCT_API, call, getToken } from './helpers';

const NOW = '2025-06-15T10:00:00Z';

describe('sandbox: publish and unpublish', () => {
	let sandbox: Sandbox;
	let token: string;

	beforeEach(async () => {
		sandbox = await startSandbox({ now: NOW, rateLimits: false, orders: 0 });
		token = await getToken(sandbox);
	});
	afterEach(async () => {
		await sandbox.close();
	});

	const statusOf = async (id: number): Promise<string> => {
		const ean = sandbox.state.product(id)?.ean as string;
		const answer = await call(sandbox, 'GET', `${PRODUCT_API}/products?ean=${ean}`, { token });
		return answer.json[0].status;
	};

	it('publishes a batch in one request, answers a progress id and reports each id', async () => {
		const ids = [100_001, 100_002, 100_003];
		const published = await call(sandbox, 'POST', `${PRODUCT_API}/product/publish`, { token, body: [...ids, 999] });
		expect(published.status).toBe(200);
		expect(published.json).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
		const [record] = sandbox.state.publications;
		expect(record).toMatchObject({ id: published.json.id, action: 'publish' });
		expect(record.results).toEqual([
			...ids.map((merchantInventoryId) => ({ merchantInventoryId, applied: true })),
			{ merchantInventoryId: 999, applied: false, error: 'Proizvod ne postoji' },
		]);
		expect(sandbox.log.at(-1)).toMatchObject({ route: 'productPublish', itemCount: 4 });
		for (const id of ids) expect(sandbox.state.product(id)?.status).toBe('PUBLISHED');

		sandbox.setVariants({ documentedProductFields: true });
		const inStock = ids.find((id) => (sandbox.state.product(id)?.stockLevel ?? 0) > 0) as number;
		expect(await statusOf(inStock)).toBe('PUBLISHED');

		const unpublished = await call(sandbox, 'POST', `${PRODUCT_API}/product/unpublish`, { token, body: [inStock] });
		expect(unpublished.status).toBe(200);
		expect(await statusOf(inStock)).toBe('UNPUBLISHED');
		expect(sandbox.state.publications.map((entry) => entry.action)).toEqual(['publish', 'unpublish']);
	});

	it('reports SOLD_OUT and UNPUBLISHED_OOS while out of stock', async () => {
		sandbox.setVariants({ documentedProductFields: true });
		const id = 100_004;
		expect((await call(sandbox, 'POST', '/__sandbox/product-changes', { body: { id, stockLevel: 0 } })).status).toBe(200);
		await call(sandbox, 'POST', `${PRODUCT_API}/product/publish`, { token, body: [id] });
		expect(await statusOf(id)).toBe('SOLD_OUT');
		await call(sandbox, 'POST', `${PRODUCT_API}/product/unpublish`, { token, body: [String(id)] });
		expect(await statusOf(id)).toBe('UNPUBLISHED_OOS');
		const publications = await call(sandbox, 'GET', '/__sandbox/state/publications');
		expect(publications.json).toHaveLength(2);
	});

	it('refuses a body that is not a list of ids', async () => {
		for (const body of [[], {}, ['abc'], [1.5]]) {
			expect((await call(sandbox, 'POST', `${PRODUCT_API}/product/publish`, { token, body })).status).toBe(400);
		}
		expect(sandbox.state.publications).toHaveLength(0);
	});

	it('applies a publish and then answers the fault\'s status (504 here) with applyThen', async () => {
		sandbox.injectFault({ route: 'productPublish', count: 1, applyThen: true, status: 504 });
		expect((await call(sandbox, 'POST', `${PRODUCT_API}/product/publish`, { token, body: [100_005] })).status).toBe(504);
		expect(sandbox.state.publications).toHaveLength(1);
		expect(sandbox.log.at(-1)).toMatchObject({ status: 504, appliedStatus: 200 });
	});
});

/**
 * The shared request policy seen from a real workflow: 1,000 items against the sandbox's live
 * rate limits (scaled so the test is quick), Retry-After, 503 backoff, a service that stays
 * unavailable, and an answer that is not JSON.
 */
import type { INodeParameters } from 'n8n-workflow';

import { startSandbox, type Sandbox, type SandboxOptions } from '../../sandbox';
import { runNode, sandboxCredential, type WorkflowRunResult } from '../harness';

const NODE = 'marketplaceMerchant';
const FIRST_PRODUCT_ID = 100_001;

let sandbox: Sandbox;

async function start(options: SandboxOptions): Promise<void> {
	sandbox = await startSandbox({ now: '2025-06-15T10:00:00Z', products: 1_000, ...options });
}

afterEach(async () => {
	await sandbox?.close();
});

/** Update of the product whose id the input item carries, to the stock level it carries. */
const UPDATE_FROM_ITEM: INodeParameters = {
	resource: 'product',
	operation: 'update',
	productId: '={{ $json.id }}',
	updateFields: { stockLevel: '={{ $json.stock }}' },
};

async function updateProducts(inputItems: Array<{ id: number; stock: number }>): Promise<WorkflowRunResult> {
	return await runNode(NODE, UPDATE_FROM_ITEM, inputItems, {
		credentials: {
			marketplaceMerchantApi: sandboxCredential(sandbox),
		},
	});
}

function updateStatuses(): number[] {
	return sandbox.log.filter((entry) => entry.route === 'productUpdate').map((entry) => entry.status);
}

function updateTimes(): number[] {
	return sandbox.log.filter((entry) => entry.route === 'productUpdate').map((entry) => entry.at);
}

describe('Request policy through the node', () => {
	it('gets 1,000 single updates through the live limits (scaled 120×) without a failed item', async () => {
		// 60 a minute and 5 a second at 120× are 60 per 500 ms and 5 per 8.3 ms: 1,000 requests
		// need at least 8.3 s however well they are paced.
		await start({ rateLimits: { scale: 120 } });
		const inputItems = Array.from({ length: 1_000 }, (_, index) => ({ id: FIRST_PRODUCT_ID + index, stock: index }));

		const result = await updateProducts(inputItems);

		expect(result.error).toBeUndefined();
		const output = result.output('Node');
		expect(output).toHaveLength(1_000);
		expect(output.filter((item) => item.error !== undefined || item.json.success !== true)).toEqual([]);
		expect(output.map((item) => item.json.myProductId)).toEqual(inputItems.map((item) => item.id));
		const statuses = updateStatuses();
		expect(statuses.filter((status) => status === 200)).toHaveLength(1_000);
		// The limits did bite: the policy had to wait them out rather than never reaching them.
		expect(statuses.filter((status) => status === 429).length).toBeGreaterThan(0);
		expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([]);
		expect(sandbox.state.product(FIRST_PRODUCT_ID + 999)?.stockLevel).toBe(999);
		expect(sandbox.state.product(FIRST_PRODUCT_ID + 500)?.stockLevel).toBe(500);
	});

	it('spreads a run of 429s over the waiting items instead of failing the one that probes', async () => {
		// 20 answers in a row are 429: more than one request's own attempts, fewer than the items'.
		await start({ rateLimits: false });
		sandbox.injectFault({ route: 'productUpdate', status: 429, count: 20, retryAfterSeconds: 0.05 });
		const inputItems = Array.from({ length: 50 }, (_, index) => ({ id: FIRST_PRODUCT_ID + index, stock: 7 }));

		const output = (await updateProducts(inputItems)).output('Node');

		expect(output.filter((item) => item.error !== undefined || item.json.success !== true)).toEqual([]);
		expect(updateStatuses().filter((status) => status === 429)).toHaveLength(20);
	});

	it('points every output item at its input item (n8n does not when counts differ)', async () => {
		await start({ rateLimits: false });
		const result = await runNode(
			NODE,
			{ resource: 'product', operation: 'getManyBasic', returnAll: false, limit: '={{ $json.limit }}' },
			[{ limit: 2 }, { limit: 3 }],
			{
				credentials: {
					marketplaceMerchantApi: sandboxCredential(sandbox),
				},
			},
		);

		expect(result.output('Node').map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 0 },
			{ item: 1 },
			{ item: 1 },
			{ item: 1 },
		]);
	});

	it('waits as Retry-After asks after a 429, then succeeds', async () => {
		await start({ rateLimits: false });
		sandbox.injectFault({ route: 'productUpdate', status: 429, count: 1, retryAfterSeconds: 0.4 });

		const result = await updateProducts([{ id: FIRST_PRODUCT_ID, stock: 3 }]);

		expect(result.error).toBeUndefined();
		expect(result.json('Node')).toEqual([expect.objectContaining({ success: true, myProductId: FIRST_PRODUCT_ID })]);
		expect(updateStatuses()).toEqual([429, 200]);
		const [first, second] = updateTimes();
		expect(second - first).toBeGreaterThanOrEqual(380);
		expect(sandbox.state.product(FIRST_PRODUCT_ID)?.stockLevel).toBe(3);
	});

	it('retries a 503 twice with backoff (1 s, then 2 s), then succeeds', async () => {
		await start({ rateLimits: false });
		sandbox.injectFault({ route: 'productUpdate', status: 503, count: 2 });

		const result = await updateProducts([{ id: FIRST_PRODUCT_ID, stock: 4 }]);

		expect(result.error).toBeUndefined();
		expect(result.json('Node')).toEqual([expect.objectContaining({ success: true })]);
		expect(updateStatuses()).toEqual([503, 503, 200]);
		const [first, second, third] = updateTimes();
		expect(second - first).toBeGreaterThanOrEqual(950);
		expect(third - second).toBeGreaterThanOrEqual(1_950);
		expect(sandbox.state.product(FIRST_PRODUCT_ID)?.stockLevel).toBe(4);
	});

	it('gives up on a service that stays unavailable after 4 attempts, with a clear error', async () => {
		// Retry-After keeps the waits short; without it the three waits are 1 + 2 + 4 = 7 s.
		await start({ rateLimits: false });
		sandbox.injectFault({ route: 'productUpdate', status: 503, count: 1_000, retryAfterSeconds: 0.05 });
		const startedAt = Date.now();

		const result = await updateProducts([{ id: FIRST_PRODUCT_ID, stock: 5 }]);

		expect(Date.now() - startedAt).toBeLessThan(5_000);
		expect(result.error).toEqual(expect.objectContaining({ httpCode: '503', attempts: 4 }));
		expect(result.error?.message).toMatch(/unavailable|try again/i);
		expect(updateStatuses()).toEqual([503, 503, 503, 503]);
		expect(sandbox.state.product(FIRST_PRODUCT_ID)?.stockLevel).not.toBe(5);
	});

	it('reports an answer that is not valid JSON as a clear error, without retrying it', async () => {
		await start({ rateLimits: false });
		sandbox.injectFault({ route: 'productUpdate', body: 'malformed-json', count: 1 });

		const result = await updateProducts([{ id: FIRST_PRODUCT_ID, stock: 6 }]);

		expect(result.error?.message).toBe('The service answered with a body that is not valid JSON');
		expect(result.error?.description).toMatch(/^HTTP 200; the answer starts with: /);
		expect(updateStatuses()).toEqual([200]);
	});
});

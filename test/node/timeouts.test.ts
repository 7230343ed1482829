/**
 * Slow answers: every request has a timeout (node option Request Options › Timeout (Seconds)),
 * and the retries of one request stop within their time budget with an error saying what was tried.
 */
import { startSandbox, type Sandbox } from '../../sandbox';
import { NODE_UNDER_TEST_NAME, runNode, sandboxCredential } from '../harness';

const LIST_WAREHOUSES = { resource: 'warehouse', operation: 'getMany' };

let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, rateLimits: false });
});

afterAll(async () => {
	await sandbox.close();
});

beforeEach(() => {
	sandbox.clearFaults();
	sandbox.clearLog();
});

async function listWarehouses(timeoutSeconds: number) {
	return await runNode('marketplaceMerchant', { ...LIST_WAREHOUSES, requestOptions: { timeoutSeconds } }, [{}], {
		credentials: { marketplaceMerchantApi: sandboxCredential(sandbox) },
	});
}

describe('request timeout', () => {
	it('gives up on an answer slower than the Timeout option and tries again', async () => {
		sandbox.injectFault({ route: 'warehouses', delayMs: 4_000, count: 1 });
		const startedAt = Date.now();

		const result = await listWarehouses(1);

		expect(result.error).toBeUndefined();
		expect(result.json(NODE_UNDER_TEST_NAME)).toHaveLength(sandbox.state.warehouses.length);
		// One attempt cut at 1 s, a 1 s wait, then the answer: well before the slow answer's 4 s.
		expect(Date.now() - startedAt).toBeLessThan(3_900);
	});

	it('stops retrying when the retries would outlast their budget, saying what was tried', async () => {
		sandbox.injectFault({ route: 'warehouses', delayMs: 20_000, count: 10 });
		const startedAt = Date.now();

		const result = await listWarehouses(1);

		const elapsed = Date.now() - startedAt;
		expect(result.error).toBeDefined();
		expect(result.error?.description).toMatch(
			/gave up after 2 attempts in 3 s \(no answer within 1 s; no answer within 1 s\) — the retries of one request may take at most 3 s\./,
		);
		expect(elapsed).toBeLessThan(6_000);
	});
});

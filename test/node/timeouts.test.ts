/**
 * Slow answers: every request has a timeout (node option Request Options › Timeout (Seconds)),
 * and the retries of one request stop within their time budget with an error saying what was tried.
 */
import { setTimeout as sleep } from 'node:timers/promises';

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

		const result = await listWarehouses(1);

		expect(result.error).toBeUndefined();
		expect(result.json(NODE_UNDER_TEST_NAME)).toHaveLength(sandbox.state.warehouses.length);
		// The sandbox logs a request when it answers: the retry was answered while the first
		// request was still held back, so the node did not wait for the slow answer.
		for (let waited = 0; sandbox.count('warehouses') < 2 && waited < 10_000; waited += 100) await sleep(100);
		const answered = sandbox.log.filter((entry) => entry.route === 'warehouses');
		expect(answered).toHaveLength(2);
		expect(answered[0].at).toBeGreaterThan(answered[1].at);
	});

	it('gives up on an answer whose bytes trickle in longer than the timeout, and tries again', async () => {
		sandbox.injectFault({ route: 'warehouses', body: 'trickle', sizeBytes: 40, count: 1 });

		const result = await listWarehouses(1);

		expect(result.error).toBeUndefined();
		expect(result.json(NODE_UNDER_TEST_NAME)).toHaveLength(sandbox.state.warehouses.length);
		// The trickling answer was stopped (logged when the sandbox gave up on it, or not yet): the
		// answers read are the retry's.
		expect(sandbox.log.filter((entry) => entry.route === 'warehouses' && entry.status === 200).length).toBeGreaterThanOrEqual(1);
	});

	it('stops retrying when the retries would outlast their budget, saying what was tried', async () => {
		sandbox.injectFault({ route: 'warehouses', delayMs: 20_000, count: 10 });

		const result = await listWarehouses(1);

		expect(result.error).toBeDefined();
		expect(result.error?.description).toMatch(
			/gave up after 2 attempts in 3 s \(no answer within 1 s; no answer within 1 s\) — the retries of one request may take at most 3 s\./,
		);
		// Two attempts, not the four the retry count alone would allow.
		expect(result.error?.description).not.toMatch(/3 attempts/);
	});
});

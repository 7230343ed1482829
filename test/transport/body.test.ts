/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, run by jest and never loaded by n8n: it may use process and timers, Node modules (docs/architecture.md, Toolchain). */
/**
 * Hostile answers. Slow ones: every request has a timeout (node option Request Options › Timeout
 * (Seconds)), and the retries of one request stop within their time budget with an error saying
 * what was tried. Large ones: a gzip bomb (small on the wire, 1 GiB inflated) or a 300 MB JSON
 * body fails that request with a clear error, the process holding at most the answer cap
 * meanwhile (precise memory numbers live in the bench drills; here the bound is checked loosely).
 */
import { setTimeout as sleep } from 'node:timers/promises';

import { startSandbox, type Sandbox } from '../../sandbox';
import { NODE_UNDER_TEST_NAME, TestCredentialsHelper, runNode, runPoll, sandboxCredential, testCredential } from '../harness';

const LIST_WAREHOUSES = { resource: 'warehouse', operation: 'getMany' };
const MIB = 1024 * 1024;
/** The bound for the process's growth while a hostile answer is read. */
const MAX_GROWTH_BYTES = 512 * MIB;

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

async function listWarehouses(timeoutSeconds?: number) {
	const parameters = timeoutSeconds === undefined ? LIST_WAREHOUSES : { ...LIST_WAREHOUSES, requestOptions: { timeoutSeconds } };
	return await runNode('marketplaceMerchant', parameters, [{}], {
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

/** Runs `work` while sampling the resident set size; returns its result and the largest growth seen. */
async function measuringGrowth<T>(work: () => Promise<T>): Promise<{ result: T; growthBytes: number }> {
	global.gc?.();
	const before = process.memoryUsage().rss;
	let peak = before;
	const sampler = setInterval(() => {
		peak = Math.max(peak, process.memoryUsage().rss);
	}, 20);
	try {
		const result = await work();
		peak = Math.max(peak, process.memoryUsage().rss);
		return { result, growthBytes: peak - before };
	} finally {
		clearInterval(sampler);
	}
}

describe('answers larger than the cap', () => {
	it('a gzip bomb fails the request with a clear error, the process growing by less than 512 MiB', async () => {
		sandbox.injectFault({ route: 'warehouses', body: 'gzip-bomb', sizeBytes: 1024 * MIB, count: 1 });

		const { result, growthBytes } = await measuringGrowth(listWarehouses);

		expect(result.error?.message).toBe("The service's answer is larger than 256 MiB: the request was stopped");
		expect(result.error?.description).toMatch(/counted after inflating/);
		expect(growthBytes).toBeLessThan(MAX_GROWTH_BYTES);
		// Not retried: the same answer would come again.
		expect(sandbox.count('warehouses')).toBe(1);
	});

	it('five bombs read at once hold no more than the cap together', async () => {
		sandbox.injectFault({ route: 'warehouses', body: 'gzip-bomb', sizeBytes: 1024 * MIB, count: 5 });

		const { result, growthBytes } = await measuringGrowth(
			async () =>
				await runNode('marketplaceMerchant', LIST_WAREHOUSES, [{}, {}, {}, {}, {}], {
					credentials: { marketplaceMerchantApi: sandboxCredential(sandbox) },
					node: { onError: 'continueRegularOutput' },
				}),
		);

		const errors = result.nodes[NODE_UNDER_TEST_NAME].itemErrors.map(({ error }) => error.message);
		expect(errors).toHaveLength(5);
		for (const message of errors) expect(message).toMatch(/larger than 256 MiB/);
		expect(growthBytes).toBeLessThan(MAX_GROWTH_BYTES);
	});

	it('a 300 MB JSON body fails the request with a clear error', async () => {
		sandbox.injectFault({ route: 'warehouses', body: 'huge-json', sizeBytes: 300 * 1000 * 1000, count: 1 });

		const { result, growthBytes } = await measuringGrowth(listWarehouses);

		expect(result.error?.message).toBe("The service's answer is larger than 256 MiB: the request was stopped");
		expect(growthBytes).toBeLessThan(MAX_GROWTH_BYTES);
	});

	it('an answer under the cap is read as before, also when gzipped', async () => {
		sandbox.injectFault({ route: 'warehouses', body: 'gzip-bomb', sizeBytes: 8 * MIB, count: 1 });

		const result = await listWarehouses();

		// `[0,0,0,…` cut at 8 MiB is no valid JSON: the request got past the cap and failed in the reader.
		expect(result.error?.message).toBe('The service answered with a body that is not valid JSON: it ends before the document does (cut off)');
	});

	it('the trigger stops a gzip bomb the same way', async () => {
		const credentialsHelper = new TestCredentialsHelper();
		credentialsHelper.add('marketplaceMerchantApi', sandboxCredential(sandbox));
		sandbox.injectFault({ route: 'invoices', body: 'gzip-bomb', sizeBytes: 1024 * MIB, count: 1 });

		const { result, growthBytes } = await measuringGrowth(
			async () => await runPoll('marketplaceMerchantTrigger', { event: 'invoice' }, { credentialsHelper, staticData: {} }),
		);

		expect(result.error?.message).toMatch(/larger than 256 MiB/);
		expect(growthBytes).toBeLessThan(MAX_GROWTH_BYTES);
	});

	// The token cache is per client: a client of its own makes the credential ask the (bombing) token endpoint.
	let tokenClients = 0;
	const freshClient = () => ({ clientId: `bombed-client-${++tokenClients}`, clientSecret: `bombed-secret-${tokenClients}` });

	it('the token request stops a gzip bomb from the token endpoint the same way', async () => {
		sandbox.injectFault({ route: 'token', body: 'gzip-bomb', sizeBytes: 1024 * MIB, count: 1 });

		// A route no other test of this file calls: the late answers of their held-back warehouse
		// requests may still be logged while this test runs on a busy machine.
		const { result, growthBytes } = await measuringGrowth(
			async () =>
				await runNode('marketplaceMerchant', { resource: 'product', operation: 'getManyBasic' }, [{}], {
					credentials: { marketplaceMerchantApi: sandboxCredential(sandbox, freshClient()) },
				}),
		);

		expect(result.error?.message).toBe("The token endpoint's answer is larger than 256 MiB: the request was stopped");
		expect(result.error?.description).toMatch(/counted after inflating.*token endpoint http:\/\/127\.0\.0\.1:\d+\/iam\/api\/v1\/auth\/token/s);
		expect(growthBytes).toBeLessThan(MAX_GROWTH_BYTES);
		// Not retried: the same answer would come again.
		expect(sandbox.count('token')).toBe(1);
		expect(sandbox.count('basicProducts')).toBe(0);
	});

	it('the credential test stops a gzip bomb from the token endpoint the same way', async () => {
		sandbox.injectFault({ route: 'token', body: 'gzip-bomb', sizeBytes: 1024 * MIB, count: 1 });

		const { result, growthBytes } = await measuringGrowth(async () => await testCredential(sandboxCredential(sandbox, freshClient())));

		expect(result).toEqual({ status: 'Error', message: "The token endpoint's answer is larger than 256 MiB: the request was stopped" });
		expect(growthBytes).toBeLessThan(MAX_GROWTH_BYTES);
	});

	it("the credential test's own request to the API stops a gzip bomb too", async () => {
		sandbox.injectFault({ route: 'warehouses', body: 'gzip-bomb', sizeBytes: 1024 * MIB, count: 1 });

		const { result, growthBytes } = await measuringGrowth(async () => await testCredential(sandboxCredential(sandbox)));

		expect(result).toEqual({ status: 'Error', message: "The merchant API's answer is larger than 256 MiB: the request was stopped" });
		expect(growthBytes).toBeLessThan(MAX_GROWTH_BYTES);
		expect(sandbox.count('warehouses')).toBe(1);
	});
});

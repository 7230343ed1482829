/**
 * Bounded answers: a gzip bomb (small on the wire, 1 GiB inflated) or a 300 MB JSON body fails
 * that request with a clear error, and the process holds at most the answer cap meanwhile.
 * (Precise memory numbers live in the bench drills; here the bound is checked loosely.)
 */
import { startSandbox, type Sandbox } from '../../sandbox';
import { NODE_UNDER_TEST_NAME, TestCredentialsHelper, runNode, runPoll, sandboxCredential } from '../harness';

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

async function listWarehouses() {
	return await runNode('marketplaceMerchant', LIST_WAREHOUSES, [{}], {
		credentials: { marketplaceMerchantApi: sandboxCredential(sandbox) },
	});
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
		expect(result.error?.message).toBe('The service answered with a body that is not valid JSON');
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
});

/**
 * One state per n8n process (transport/state.ts). n8n loads the node, the trigger and the credential
 * from three bundles, each with its own copy of every module; here the three are built as
 * `npm run build` builds them and loaded together into this one process, as n8n loads them. A
 * Product Changed poll (the trigger's bundle), a Sync Stock and Prices and a Product Update Many
 * (the node's) then run at once against the sandbox at the live limits: they share the merchant's
 * catalogue limits (60 a minute, 5 a second), so they must share one gate. With a gate per bundle
 * each sends at the whole limits and the service answers 429.
 */
import { RemoteSandbox } from '../../bench/remote-sandbox';
import { startSandbox } from '../../sandbox';
import { RATE_LIMITS, type RateWindow } from '../../nodes/MarketplaceMerchant/transport/endpoints';
import {
	TestCredentialTypes,
	TestCredentialsHelper,
	TestNodeTypes,
	runNode,
	runPoll,
	type BuiltPackage,
	loadBuiltPackage,
} from '../harness';

/**
 * Products Update Many gives by EAN. The sandbox's GET products takes one `ean`, as the interface
 * reference has it, so each is looked up by a request of its own: with the poll's and Sync's
 * requests, past the minute's 60, so that the minute decides how long the three must take.
 */
const UPDATED_BY_EAN = 58;

/**
 * The least time the limits allow between the first and the last of `count` requests: each as
 * early as every window lets it (the earliest schedule is the greedy one).
 */
function limitsMinimumMs(count: number, windows: RateWindow[]): number {
	const at: number[] = [];
	for (let index = 0; index < count; index++) {
		at.push(Math.max(0, ...windows.map(({ limit, lengthMs }) => (index >= limit ? at[index - limit] + lengthMs : 0))));
	}
	return at.at(-1) ?? 0;
}

describe('one state per n8n process', () => {
	describe('the built node, trigger and credential in one process', () => {
		let built: BuiltPackage;
		let sandbox: RemoteSandbox | undefined;

		beforeAll(async () => {
			built = await loadBuiltPackage();
		}, 120_000);

		afterAll(async () => {
			built?.remove();
			await sandbox?.close();
		});

		it('a Product Changed poll, a Sync Stock and Prices and an Update Many at once: no 429, no slower than the limits × 1.05', async () => {
			// The sandbox in a process of its own, as the service is: it counts requests as they arrive, not
			// when this process's event loop, busy with the three runs, would get to them.
			const options = { seed: 7, products: 300 };
			sandbox = await RemoteSandbox.start({ ...options, clients: 1 });
			const nodeTypes = new TestNodeTypes(built.nodeTypes);
			const credentialsHelper = new TestCredentialsHelper(new TestCredentialTypes(built.credentialTypes));
			credentialsHelper.add('marketplaceMerchantApi', sandbox.credentials(sandbox.freshClient()));
			const run = { nodeTypes, credentialsHelper };
			// The same seed gives the same products: read here from a sandbox of this process.
			const local = await startSandbox({ ...options, rateLimits: false });
			const products = local.state.products.map(({ ean, stockLevel }) => ({ ean, stockLevel }));
			await local.close();
			const synced = products.slice(0, 50).map((product) => ({ ean: product.ean, stockLevel: product.stockLevel + 1 }));
			const updated = products.slice(50, 50 + UPDATED_BY_EAN).map((product) => ({ id: { __rl: true, mode: 'ean', value: product.ean }, stockLevel: product.stockLevel + 2 }));

			const startedAt = Date.now();
			const [poll, sync, updateMany] = await Promise.all([
				runPoll('marketplaceMerchantTrigger', { event: 'productChanged', simplify: false }, run),
				runNode('marketplaceMerchant', { resource: 'product', operation: 'syncStockAndPrices', inputMode: 'json', productsJson: '={{ $json.products }}' }, [{ products: synced }], run),
				runNode('marketplaceMerchant', { resource: 'product', operation: 'updateMany', inputMode: 'json', productsJson: '={{ $json.products }}' }, [{ products: updated }], run),
			]);
			const tookMs = Date.now() - startedAt;

			expect([poll.error?.message, sync.error?.message, updateMany.error?.message]).toEqual([undefined, undefined, undefined]);
			expect(updateMany.json('Node').filter((item) => item.success !== true)).toEqual([]);
			const log = await sandbox.log();
			const catalogue = log.filter((entry) => entry.route !== 'token');
			const minimumMs = limitsMinimumMs(catalogue.length, RATE_LIMITS.catalogue.windows);
			expect(log.filter((entry) => entry.status === 429).map(({ route, at }) => `${route} at ${at - log[0].at} ms`)).toEqual([]);
			expect(catalogue.length).toBeGreaterThan(60);
			expect(tookMs).toBeLessThanOrEqual(minimumMs * 1.05);
		}, 240_000);
	});
});

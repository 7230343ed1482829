/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code, run by jest and never loaded by n8n: it may use Node modules (docs/architecture.md, Toolchain). */
/**
 * One state per n8n process (transport/state.ts). n8n loads the node, the trigger and the credential
 * from three bundles, each with its own copy of every module; here the three are built as
 * `npm run build` builds them and loaded together into this one process, as n8n loads them. A
 * Product Changed poll (the trigger's bundle), then a Sync Stock and Prices and a Product Update Many
 * (the node's) at once, run against the sandbox: they share the merchant's catalogue limits,
 * so they must share one gate, the one in the process's single `transport/state.js`. With a gate
 * per bundle each would send at the whole limits and the service would answer 429.
 *
 * What this asserts is the sharing itself, read from the built state file: one catalogue gate,
 * through which every catalogue request of the three runs went. What it is worth against the
 * clock at the live limits (no 429, no slower than the limits force) is a timing claim and lives
 * in the bench (`npm run bench -- --only one-state`, bench/rows/one-state.ts), not in `npm test`.
 */
import path from 'node:path';
import { startSandbox, type Sandbox } from '../../sandbox';
import { TestCredentialTypes, TestCredentialsHelper, TestNodeTypes, runNode, runPoll, sandboxCredential, type BuiltPackage, loadBuiltPackage } from '../harness';

/** What the gate module keeps per merchant and group (transport/gate.ts), as far as this test reads it. */
interface GateSeen {
	group: string;
	reached: number[];
	inFlight: number;
}

describe('one state per n8n process', () => {
	describe('the built node, trigger and credential in one process', () => {
		let built: BuiltPackage;
		let sandbox: Sandbox | undefined;

		beforeAll(async () => {
			built = await loadBuiltPackage();
		}, 120_000);

		afterAll(async () => {
			built?.remove();
			await sandbox?.close();
		});

		it('a Product Changed poll, then a Sync Stock and Prices and an Update Many at once, go through one catalogue gate, the built state file’s', async () => {
			// Rate limits off: the sharing is the behaviour here, not the service's windows.
			const service = await startSandbox({ seed: 7, products: 300, rateLimits: false });
			sandbox = service;
			const credentialsHelper = new TestCredentialsHelper(new TestCredentialTypes(built.credentialTypes));
			credentialsHelper.add('marketplaceMerchantApi', sandboxCredential(service));
			const run = { nodeTypes: new TestNodeTypes(built.nodeTypes), credentialsHelper };
			const products = service.state.products.map(({ ean, stockLevel }) => ({ ean, stockLevel }));
			const synced = products.slice(0, 10).map((product) => ({ ean: product.ean, stockLevel: product.stockLevel + 1 }));
			const updated = products.slice(10, 15).map((product) => ({ id: { __rl: true, mode: 'ean', value: product.ean }, stockLevel: product.stockLevel + 2 }));

			// The process's one state file, as the bundles require it (not a copy of this test's own).
			// eslint-disable-next-line @typescript-eslint/no-require-imports -- the built file, loaded as the bundles load it
			const state = require(path.join(built.folder, 'dist', 'nodes', 'MarketplaceMerchant', 'transport', 'state.js')) as {
				processWide: <T>(name: string, create: () => T) => T;
			};
			const gates: unknown = state.processWide<unknown>('gates', () => 'never made by a bundle');
			expect(gates).toBeInstanceOf(Map);
			const catalogueGates = () => [...(gates as Map<string, GateSeen>).values()].filter((gate) => gate.group === 'catalogue');
			const catalogueRequests = () => service.log.filter((entry) => entry.route !== 'token');

			// The trigger's bundle first: its requests go through the state file's gate.
			const poll = await runPoll('marketplaceMerchantTrigger', { event: 'productChanged', simplify: false }, run);
			expect(poll.error?.message).toBeUndefined();
			expect(catalogueRequests().length).toBeGreaterThan(0);
			expect(catalogueGates().map((gate) => gate.reached.length + gate.inFlight)).toEqual([catalogueRequests().length]);

			// Then the node's bundle, two runs at once: the same gate, no second one.
			const [sync, updateMany] = await Promise.all([
				runNode('marketplaceMerchant', { resource: 'product', operation: 'syncStockAndPrices', inputMode: 'json', productsJson: '={{ $json.products }}' }, [{ products: synced }], run),
				runNode('marketplaceMerchant', { resource: 'product', operation: 'updateMany', inputMode: 'json', productsJson: '={{ $json.products }}' }, [{ products: updated }], run),
			]);
			expect([sync.error?.message, updateMany.error?.message]).toEqual([undefined, undefined]);
			expect(updateMany.json('Node').filter((item) => item.success !== true)).toEqual([]);
			expect(catalogueRequests().filter((entry) => entry.method === 'PUT').length).toBeGreaterThanOrEqual(2);
			// Fewer than the live minute's 60: the gate forgets none of them while they run.
			expect(catalogueRequests().length).toBeLessThan(60);
			expect(catalogueGates().map((gate) => gate.reached.length + gate.inFlight)).toEqual([catalogueRequests().length]);
		}, 120_000);
	});
});

/**
 * One state per n8n process (transport/state.ts). n8n loads the node, the trigger and the credential
 * from three bundles, each with its own copy of every module; here the three are built as
 * `npm run build` builds them and loaded together into this one process, as n8n loads them. A
 * Product Changed poll (the trigger's bundle), a Sync Stock and Prices and a Product Update Many
 * (the node's) then run at once against the sandbox at the live limits: they share the merchant's
 * catalogue limits (60 a minute, 5 a second), so they must share one gate. With a gate per bundle
 * each sends at the whole limits and the service answers 429.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { startSandbox, type Sandbox } from '../../sandbox';
import { PACKAGE_VERSION, STATE_KEY } from '../../nodes/MarketplaceMerchant/transport/state';
import { RATE_LIMITS, type RateWindow } from '../../nodes/MarketplaceMerchant/transport/endpoints';
import {
	TestCredentialTypes,
	TestCredentialsHelper,
	TestNodeTypes,
	runNode,
	runPoll,
	sandboxCredential,
	type BuiltPackage,
	loadBuiltPackage,
} from '../harness';
import { PROJECT_ROOT } from '../harness/source-loader';

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
	it("keeps its registry under package.json's version", () => {
		const { version } = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string };
		expect(PACKAGE_VERSION).toBe(version);
		expect(STATE_KEY).toBe(Symbol.for(`n8n-nodes-marketplace-merchant/state@${version}`));
	});

	describe('the built node, trigger and credential in one process', () => {
		let built: BuiltPackage;
		let sandbox: Sandbox;

		beforeAll(async () => {
			built = await loadBuiltPackage();
		}, 120_000);

		afterAll(async () => {
			built?.remove();
			await sandbox?.close();
		});

		it('a Product Changed poll, a Sync Stock and Prices and an Update Many at once: no 429, no slower than the limits × 1.05', async () => {
			sandbox = await startSandbox({ seed: 7, products: 300 });
			const nodeTypes = new TestNodeTypes(built.nodeTypes);
			const credentialsHelper = new TestCredentialsHelper(new TestCredentialTypes(built.credentialTypes));
			credentialsHelper.add('marketplaceMerchantApi', sandboxCredential(sandbox));
			const options = { nodeTypes, credentialsHelper };
			const products = sandbox.state.products;
			const synced = products.slice(0, 50).map((product) => ({ ean: product.ean, stockLevel: product.stockLevel + 1 }));
			const updated = products.slice(50, 50 + UPDATED_BY_EAN).map((product) => ({ id: { __rl: true, mode: 'ean', value: product.ean }, stockLevel: product.stockLevel + 2 }));

			const startedAt = Date.now();
			const [poll, sync, updateMany] = await Promise.all([
				runPoll('marketplaceMerchantTrigger', { event: 'productChanged', simplify: false }, options),
				runNode('marketplaceMerchant', { resource: 'product', operation: 'syncStockAndPrices', inputMode: 'json', productsJson: '={{ $json.products }}' }, [{ products: synced }], options),
				runNode('marketplaceMerchant', { resource: 'product', operation: 'updateMany', inputMode: 'json', productsJson: '={{ $json.products }}' }, [{ products: updated }], options),
			]);
			const tookMs = Date.now() - startedAt;

			expect([poll.error?.message, sync.error?.message, updateMany.error?.message]).toEqual([undefined, undefined, undefined]);
			expect(updateMany.json('Node').filter((item) => item.success !== true)).toEqual([]);
			const catalogue = sandbox.log.filter((entry) => entry.route !== 'token');
			const statuses = sandbox.log.map((entry) => entry.status);
			expect(statuses.filter((status) => status === 429)).toEqual([]);
			expect(catalogue.length).toBeGreaterThan(60);
			expect(tookMs).toBeLessThanOrEqual(limitsMinimumMs(catalogue.length, RATE_LIMITS.catalogue.windows) * 1.05);
		}, 240_000);
	});
});

/**
 * One state per n8n process, timed (moved here from test/transport/state.test.ts by issue 40: `npm
 * test` asserts that the bundles share one gate, this row what that is worth against the clock).
 * The node, trigger and credential built as `npm run build` builds them and loaded into this one
 * process as n8n loads them; a Product Changed poll (the trigger's bundle), a Sync Stock and Prices
 * and a Product Update Many (the node's) run at once against a sandbox in a process of its own at
 * the live limits. They share the merchant's catalogue limits (60 a minute, 5 a second): with one
 * gate the service never answers 429 and the three take no longer than the limits force (× 1.05).
 */
import { RATE_LIMITS, type RateWindow } from '../../nodes/MarketplaceMerchant/transport/endpoints';
import { startSandbox } from '../../sandbox';
import { TestCredentialTypes, TestCredentialsHelper, TestNodeTypes, loadBuiltPackage, runNode, runPoll } from '../../test/harness';
import { RemoteSandbox } from '../remote-sandbox';
import type { Row } from '../report';
import { formatMs, formatRatio } from '../stats';

/**
 * Products Update Many gives by EAN. The sandbox's GET products takes one `ean`, so each is looked
 * up by a request of its own: with the poll's and Sync's requests, past the minute's 60, so that
 * the minute decides how long the three must take.
 */
const UPDATED_BY_EAN = 58;
const TIME_TARGET = 1.05;

/** The least time the limits allow between the first and the last of `count` requests (the greedy schedule). */
function limitsMinimumMs(count: number, windows: RateWindow[]): number {
	const at: number[] = [];
	for (let index = 0; index < count; index++) {
		at.push(Math.max(0, ...windows.map(({ limit, lengthMs }) => (index >= limit ? at[index - limit] + lengthMs : 0))));
	}
	return at.at(-1) ?? 0;
}

export async function measureOneState(): Promise<Row[]> {
	const built = await loadBuiltPackage();
	const options = { seed: 7, products: 300 };
	const sandbox = await RemoteSandbox.start({ ...options, clients: 1 });
	try {
		const credentialsHelper = new TestCredentialsHelper(new TestCredentialTypes(built.credentialTypes));
		credentialsHelper.add('marketplaceMerchantApi', sandbox.credentials(sandbox.freshClient()));
		const run = { nodeTypes: new TestNodeTypes(built.nodeTypes), credentialsHelper };
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
		const ms = Date.now() - startedAt;

		const errors = [poll.error?.message, sync.error?.message, updateMany.error?.message].filter((message) => message !== undefined);
		const failedItems = updateMany.json('Node').filter((item) => item.success !== true).length;
		const log = await sandbox.log();
		const catalogue = log.filter((entry) => entry.route !== 'token');
		const rejected = log.filter((entry) => entry.status === 429).length;
		const minimumMs = limitsMinimumMs(catalogue.length, RATE_LIMITS.catalogue.windows);
		const ratio = ms / minimumMs;
		const counts = `${catalogue.length} catalogue requests, ${rejected} answered 429, ${errors.length} runs failed${errors.length ? ` (${errors.join('; ')})` : ''}, ${failedItems} items failed`;
		const ok = errors.length === 0 && failedItems === 0 && catalogue.length > 60;
		return [
			{
				measure: 'A Product Changed poll, a Sync and an Update Many at once from the built bundles: requests answered 429',
				figure: String(rejected),
				target: '0',
				met: ok && rejected === 0,
				runs: '1',
				details: counts,
			},
			{
				measure: "The same: time ÷ the limits' theoretical minimum",
				figure: formatRatio(ratio),
				target: `≤ ${TIME_TARGET}`,
				met: ok && ratio <= TIME_TARGET,
				runs: '1',
				details: `${formatMs(ms)} against ${formatMs(minimumMs)}; ${counts}`,
			},
		];
	} finally {
		await sandbox.close();
		built.remove();
	}
}

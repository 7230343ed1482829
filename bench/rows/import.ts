/**
 * Issue 28: Product › Import of 5,000 products from 5,000 input items (node version 3, One Item
 * per Product, every field a new EAN needs mapped from the item's columns) at the live limits, 1 s
 * per answer, against a sandbox that takes a list and one that takes either shape: requests made
 * and time ÷ the limits' minimum. Where the service binds one object per request, 5,000 products
 * are 5,001 requests at 60 a minute (83 minutes): the learning that costs is proven by the tests
 * (test/actions/product/importRequests.test.ts), not timed here.
 */
import type { INodeParameters } from 'n8n-workflow';

import { RATE_LIMITS } from '../../nodes/MarketplaceMerchant/transport/endpoints';
import { RATE_LIMIT_GROUPS } from '../../sandbox/rate-limit';
import { newProductRows } from '../../sandbox/sheets';
import type { ImportBodyShape } from '../../sandbox/variants';
import { runMerchant } from '../merchant-node';
import { RemoteSandbox } from '../remote-sandbox';
import type { Row } from '../report';
import { formatMs, formatRatio, listOf, median } from '../stats';
import { warmAccountWithLatency, type Scenario } from './concurrency';
import { limitsMinimumMs } from './rate-limit';

const PRODUCTS = 5_000;
const LATENCY_MS = 1_000;
const TIME_TARGET = 1.3;

/**
 * The EAN check answers before the import can go (it decides what the import needs): two requests
 * one after the other, each at the earliest the limits allow, 1 s each.
 */
const MINIMUM_MS = 2 * limitsMinimumMs(1, RATE_LIMIT_GROUPS.products, RATE_LIMITS.catalogue.inFlight, LATENCY_MS);

const PER_ITEM: INodeParameters = {
	resource: 'product',
	operation: 'import',
	itemName: '={{ $json.Name }}',
	itemEan: '={{ $json.EAN }}',
	itemDescription: '={{ $json.Text }}',
	itemCoverImage: '={{ $json.Image }}',
	itemProductFields: {
		basePrice: '={{ $json.Price }}',
		brand: '={{ $json.Brand }}',
		gallery: '={{ $json.Gallery }}',
		packageWeightUnit: '={{ $json.Unit }}',
		packageWeightValue: '={{ $json.Weight }}',
		sku: '={{ $json.SKU }}',
		stockLevel: '={{ $json.Stock }}',
		vat: '={{ $json.Vat }}',
	},
};

/** What warmAccountWithLatency needs of a scenario: its latency. */
const SCENARIO: Scenario = { measure: 'import', latencyMs: LATENCY_MS, minimumMs: MINIMUM_MS, minimumText: '', parameters: PER_ITEM };

/** A sheet of new products, EANs no other run used. */
function sheet(run: number, shape: string): Array<Record<string, unknown>> {
	return newProductRows(`4${shape === 'list' ? 1 : 2}${run}`, PRODUCTS);
}

export async function measureImport(runs: number): Promise<Row[]> {
	const sandbox = await RemoteSandbox.start({ products: 10, rateLimits: { scale: 1 }, clients: 2 * runs + 2 });
	try {
		const rows: Row[] = [];
		for (const shape of ['list', 'both'] as ImportBodyShape[]) {
			const times: number[] = [];
			const imports: number[] = [];
			const checks: number[] = [];
			for (let run = 0; run < runs; run++) {
				const helper = await warmAccountWithLatency(sandbox, SCENARIO);
				await sandbox.setVariants({ importBodyShape: shape });
				await sandbox.clearLog();
				const { result } = await runMerchant(helper, PER_ITEM, sheet(run, shape), { typeVersion: 3 });
				const output = result.json('Node');
				const succeeded = output.filter((json) => json.success === true).length;
				if (result.error || succeeded !== PRODUCTS) throw new Error(`Import (${shape}): ${succeeded} of ${PRODUCTS} imported (${result.error?.message ?? 'no error'})`);
				// The node's time as n8n records it (the harness building 5,000 input items is not the node's).
				const nodeMs = result.nodes.Node?.runs[0]?.executionTime;
				if (nodeMs === undefined) throw new Error('the node did not run');
				times.push(nodeMs);
				imports.push((await sandbox.log('import')).length);
				checks.push((await sandbox.log('eanExists')).length);
			}
			const takes = shape === 'list' ? 'takes only lists' : 'takes a list or one object';
			const ratio = median(times) / MINIMUM_MS;
			rows.push(
				{
					measure: `Import of ${PRODUCTS.toLocaleString('en-US')} products from as many items, sandbox ${takes}: import requests`,
					figure: String(median(imports)),
					target: '1',
					met: imports.every((count) => count === 1),
					runs: String(runs),
					details: `import requests per run ${listOf(imports, String)}; EAN checks ${listOf(checks, String)} (one request per product before: ${PRODUCTS.toLocaleString('en-US')}, 83 minutes at 60 a minute)`,
				},
				{
					measure: `Import of ${PRODUCTS.toLocaleString('en-US')} products from as many items, sandbox ${takes}, 1 s per answer, live limits: time ÷ the limits' minimum`,
					figure: formatRatio(ratio),
					target: `≤ ${TIME_TARGET}`,
					met: ratio <= TIME_TARGET,
					runs: String(runs),
					details: `node execution times ${listOf(times, formatMs)}; minimum ${formatMs(MINIMUM_MS)}: the EAN check, then the import (it needs the check's answer), 1 s each`,
				},
			);
		}
		await sandbox.resetVariants();
		return rows;
	} finally {
		await sandbox.close();
	}
}

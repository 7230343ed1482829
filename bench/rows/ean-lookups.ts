/**
 * Issue 28, point 7: what 1,000 products given By EAN cost in look-ups. Product Update Many of
 * 1,000 entries by EAN in one item (limits off: only requests are counted), once against a sandbox
 * whose GET products takes a repeated `ean` (`productsEanRepeats`, as the current pages say) and
 * once against one that counts only the first `ean` (the interface reference). Each case has a
 * sandbox of its own: the node remembers per base URL, for the process, what the service does.
 */
import type { IDataObject } from 'n8n-workflow';

import { credentialsFor, runMerchant } from '../merchant-node';
import { RemoteSandbox } from '../remote-sandbox';
import type { Row } from '../report';
import { listOf, median } from '../stats';

const ENTRIES = 1_000;

interface EanCase {
	measure: string;
	productsEanRepeats: boolean;
	/** GET products requests: 1,000 EANs at 100 a request; or the one request that learns, then one per EAN. */
	target: number;
}

const CASES: EanCase[] = [
	{ measure: 'Look-ups for 1,000 products by EAN, service takes a repeated ean (Product Update Many, one item)', productsEanRepeats: true, target: 10 },
	{ measure: 'Look-ups for 1,000 products by EAN, service takes one ean (Product Update Many, one item)', productsEanRepeats: false, target: ENTRIES + 1 },
];

export async function measureEanLookups(runs: number): Promise<Row[]> {
	const rows: Row[] = [];
	for (const eanCase of CASES) {
		const sandbox = await RemoteSandbox.start({ products: ENTRIES + 200, rateLimits: false, clients: runs });
		try {
			await sandbox.setVariants({ productsEanRepeats: eanCase.productsEanRepeats });
			const products = ((await sandbox.control('GET', 'state/products')) as IDataObject[]).slice(100, 100 + ENTRIES);
			const lookUps: number[] = [];
			const writes: number[] = [];
			const askedPerRequest = new Set<string>();
			for (let run = 0; run < runs; run++) {
				// A fresh client is a fresh token; the base URL (and so what the node learned) is the sandbox's.
				const credentialsHelper = credentialsFor(sandbox, sandbox.freshClient());
				await sandbox.clearLog();
				const entries = products.map((product, index) => ({ id: { __rl: true, mode: 'ean', value: product.ean }, stockLevel: (index + run) % 100 }));
				const { result } = await runMerchant(credentialsHelper, { resource: 'product', operation: 'updateMany', inputMode: 'json', productsJson: '={{ $json.products }}' }, [
					{ products: entries },
				]);
				if (result.error) throw new Error(`${eanCase.measure}: ${result.error.message}`);
				const output = result.json('Node');
				const updated = output.filter((json) => json.success === true).length;
				if (updated !== ENTRIES) throw new Error(`${eanCase.measure}: ${updated} of ${ENTRIES} products updated`);
				const requests = await sandbox.log('products');
				lookUps.push(requests.length);
				writes.push((await sandbox.log('productBulk')).length);
				for (const request of requests.slice(0, 3)) askedPerRequest.add(String(request.query.ean.split(',').length));
			}
			rows.push({
				measure: eanCase.measure,
				figure: String(median(lookUps)),
				target: `≤ ${eanCase.target}`,
				met: lookUps.every((count) => count <= eanCase.target),
				runs: String(runs),
				details:
					`GET products per run ${listOf(lookUps, String)} (the first run learns what the service does; later runs in the process know it); ` +
					`EANs in the first requests ${[...askedPerRequest].join(', ')}; product/bulk requests per run ${listOf(writes, String)}; every product updated`,
			});
		} finally {
			await sandbox.close();
		}
	}
	return rows;
}

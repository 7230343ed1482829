/**
 * How many requests the node makes for work that the service's limits force it to split: price
 * ids (100 a request), an invoice range (3 months a request), a bulk product update (30,000 a
 * request) and discounts (500 a request). Each case runs in one node item, as users run it.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { addMonths, formatDayMonthYear } from '../../nodes/MarketplaceMerchant/values/dates';
import { credentialsFor, runMerchant } from '../merchant-node';
import { RemoteSandbox } from '../remote-sandbox';
import type { Row } from '../report';
import type { RouteKey } from '../../sandbox';
import { listOf, median, runLengths } from '../stats';

const FIRST_PRODUCT_ID = 100_001;
const DAY_MS = 86_400_000;

interface SplitCase {
	measure: string;
	route: RouteKey;
	target: number;
	parameters: INodeParameters;
	/** The one input item; `run` lets each run pick products no earlier run touched. */
	inputItem: (run: number) => IDataObject;
	/** Output items expected, or undefined when it depends on the data (invoices). */
	outputItems?: number;
	/** Catalogue size this case needs. */
	products: number;
}

const productIds = (count: number, offset = 0) => Array.from({ length: count }, (_, index) => FIRST_PRODUCT_ID + offset + index);

function sevenMonthRange(now: Date): { dateFrom: string; dateTo: string } {
	const thisMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
	return { dateFrom: addMonths(thisMonth, -7).toISOString(), dateTo: new Date(thisMonth.getTime() - 1).toISOString() };
}

function discountsFor(run: number): IDataObject {
	const from = new Date(Date.now() + DAY_MS);
	const to = new Date(from.getTime() + 9 * DAY_MS);
	const discounts = productIds(1_200, run * 1_200).map((merchantInventoryId) => ({
		merchantInventoryId,
		// Far below any regular price: the service wants at least 5% off.
		discountPrice: 1,
		dateFrom: formatDayMonthYear(from),
		dateTo: formatDayMonthYear(to),
		discountType: 'SALE',
	}));
	return { discounts };
}

const CASES: SplitCase[] = [
	{
		measure: 'Requests made for 10,000 price ids (Price Get Many, one item)',
		route: 'prices',
		target: 100,
		parameters: { resource: 'price', operation: 'getMany', merchantInventoryIds: '={{ $json.ids }}' },
		inputItem: () => ({ ids: productIds(10_000) }),
		outputItems: 10_000,
		products: 10_000,
	},
	{
		measure: 'Requests made for a 7-month invoice range (Invoice Get Many, one item)',
		route: 'invoices',
		target: 3,
		parameters: { resource: 'invoice', operation: 'getMany', dateFrom: '={{ $json.dateFrom }}', dateTo: '={{ $json.dateTo }}', returnAll: true, simplify: false },
		inputItem: () => sevenMonthRange(new Date()),
		products: 0,
	},
	{
		measure: 'Requests made for 30,000 bulk product updates in one item (Product Update Many)',
		route: 'productBulk',
		target: 1,
		parameters: { resource: 'product', operation: 'updateMany', inputMode: 'json', productsJson: '={{ $json.products }}' },
		inputItem: (run) => ({ products: productIds(30_000).map((id, index) => ({ id, stockLevel: (index + run) % 100 })) }),
		outputItems: 30_000,
		products: 30_000,
	},
	{
		measure: 'Requests made for 1,200 discounts (Discount Schedule, one item)',
		route: 'discountSchedule',
		target: 3,
		parameters: { resource: 'discount', operation: 'schedule', inputMode: 'json', discountsJson: '={{ $json.discounts }}' },
		inputItem: discountsFor,
		outputItems: 1_200,
		products: 1_200,
	},
];

export async function measureRequestCounts(runs: number): Promise<Row[]> {
	const products = Math.max(...CASES.map((splitCase) => splitCase.products), 1_200 * runs);
	const sandbox = await RemoteSandbox.start({ products, rateLimits: false, clients: CASES.length });
	try {
		const rows: Row[] = [];
		for (const splitCase of CASES) {
			const credentialsHelper = credentialsFor(sandbox, sandbox.freshClient());
			const counts: number[] = [];
			const outputs: number[] = [];
			const rejected: number[] = [];
			const chunkSizes = new Set<string>();
			for (let run = 0; run < runs; run++) {
				await sandbox.clearLog();
				const { result } = await runMerchant(credentialsHelper, splitCase.parameters, [splitCase.inputItem(run)]);
				const output = result.json('Node');
				if (result.error) throw new Error(`${splitCase.measure}: ${result.error.message}`);
				if (splitCase.outputItems !== undefined && output.length !== splitCase.outputItems) {
					throw new Error(`${splitCase.measure}: ${output.length} output items, expected ${splitCase.outputItems}`);
				}
				const requests = await sandbox.log(splitCase.route);
				counts.push(requests.length);
				outputs.push(output.length);
				rejected.push(output.filter((json) => json.success === false).length);
				chunkSizes.add(runLengths(requests.map((entry) => entry.itemCount ?? `${entry.query.dateFrom?.slice(0, 10)}..${entry.query.dateTo?.slice(0, 10)}`)));
			}
			const figure = median(counts);
			rows.push({
				measure: splitCase.measure,
				figure: String(figure),
				target: String(splitCase.target),
				met: counts.every((count) => count === splitCase.target),
				runs: String(runs),
				details:
					`requests per run ${listOf(counts, String)}; per request ${[...chunkSizes].join(' / ')}; ` +
					`output items ${listOf(outputs, String)}, of which the service rejected by its business rules ${listOf(rejected, String)}`,
			});
		}
		return rows;
	} finally {
		await sandbox.close();
	}
}

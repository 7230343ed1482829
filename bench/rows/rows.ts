/**
 * Rows in, one batch out (issue 18): what a sheet's rows cost as input items (node version 2,
 * Input Mode "One Item per Product", fields mapped by expressions) against the same list in one
 * item (Input Mode JSON), for Sync Stock and Prices over a catalogue of 50,000 products, limits
 * off (the node's work, not the rate limit):
 * - 1,000 rows: requests made (must be equal: one catalogue read, the same writes) and the node's
 *   time, alternately in the same run;
 * - 50,000 rows: peak RSS of a run, each in a fresh child process (bench/memory-child.ts).
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { LIMITS } from '../../nodes/MarketplaceMerchant/transport/endpoints';
import type { WorkflowRunResult } from '../../test/harness';
import { collectGarbage } from '../gc';
import type { MemoryJob, MemoryReport } from '../memory-child';
import { credentialsFor, runMerchant } from '../merchant-node';
import { fetchAllBasicProducts, requestToken } from '../plain-fetch';
import { resultOf, startScript } from '../processes';
import { RemoteSandbox, type BenchClient } from '../remote-sandbox';
import type { Row } from '../report';
import { formatBytes, formatMs, formatRatio, listOf, median } from '../stats';

const PRODUCTS = 50_000;
const TIMED_ROWS = 1_000;
const TIME_TARGET = 1.05;
const MEMORY_TARGET = 1.2;
const CHILD_TIMEOUT_MS = 300_000;
const NODE_VERSION = 2;
/** The last page of the catalogue (2,500 a page): the empty one after 20 full pages. */
const CATALOGUE_PAGES = PRODUCTS / LIMITS.basicProductsPageSize;

/** Sync with one entry per input item, its fields mapped from the item as a user maps a sheet's columns. */
const PER_ITEM: INodeParameters = {
	resource: 'product',
	operation: 'syncStockAndPrices',
	inputMode: 'items',
	itemMatch: '={{ $json.ean }}',
	itemStockLevel: '={{ $json.stockLevel }}',
	itemBasePrice: '={{ $json.basePrice }}',
};
/** Sync with the whole list in one item. */
const ONE_LIST: INodeParameters = { resource: 'product', operation: 'syncStockAndPrices', inputMode: 'json', productsJson: '={{ $json.products }}' };
const WARM_UP: INodeParameters = { resource: 'product', operation: 'getManyBasic', returnAll: false, limit: 10 };

interface BasicProduct {
	ean: string;
	stockLevel: number;
	newBasePrice: number;
}

function nodeTimeOf(result: WorkflowRunResult): number {
	const time = result.nodes.Node?.runs[0]?.executionTime;
	if (time === undefined) throw new Error('the node did not run');
	return time;
}

export function rowsNote(): string {
	return (
		'**Rows.** "Items" is Sync Stock and Prices of node version 2 with Input Mode "One Item per Product" (every input item one entry, ' +
		'Match Value, Stock Level and Base Price mapped by `{{ $json.… }}` expressions, all items one batch); "one list" is Input Mode JSON ' +
		'reading `{{ $json.products }}` of a single item. Time is the node\'s execution time as n8n records it (the input node making ' +
		'the items is not counted); peak RSS is the whole child process\'s, the input already built.'
	);
}

async function measureTime(sandbox: RemoteSandbox, runs: number): Promise<Row> {
	const client = sandbox.freshClient();
	const credentialsHelper = credentialsFor(sandbox, client);
	const catalogue = (await fetchAllBasicProducts(sandbox.url, await requestToken(sandbox.url, client))).products as BasicProduct[];
	let run = 0;
	/** Every row a change of stock, so that each run writes all of them. */
	const feed = (): IDataObject[] =>
		catalogue.slice(0, TIMED_ROWS).map((product) => ({ ean: product.ean, stockLevel: product.stockLevel + ++run, basePrice: product.newBasePrice }));
	const timeSync = async (shape: 'items' | 'list') => {
		const entries = feed();
		collectGarbage();
		await sandbox.clearLog();
		const input = shape === 'items' ? entries : [{ products: entries }];
		const { result } = await runMerchant(credentialsHelper, shape === 'items' ? PER_ITEM : ONE_LIST, input, { typeVersion: NODE_VERSION });
		const items = result.json('Node');
		const updated = items.filter((item) => item.status === 'updated').length;
		if (result.error || items.length !== TIMED_ROWS || updated !== TIMED_ROWS) {
			throw new Error(`Sync (${shape}) gave ${items.length} items, ${updated} updated (${result.error?.message ?? 'no error'})`);
		}
		const writes = (await sandbox.log('productBulk')).map((entry) => entry.itemCount);
		// Pages go out ahead of the answers (up to 4 past the empty last page, as the answers race):
		// the pages needed must be read once each; how many were sent ahead is reported apart.
		const pages = (await sandbox.log('basicProducts')).map((entry) => Number(entry.query.page)).sort((a, b) => a - b);
		const needed = pages.filter((page) => page <= CATALOGUE_PAGES);
		const readOnce = needed.length === CATALOGUE_PAGES + 1 && new Set(needed).size === needed.length;
		return {
			ms: nodeTimeOf(result),
			requests: `${readOnce ? `pages 0-${CATALOGUE_PAGES} once each` : `pages ${pages.join(',')}`} + writes of ${writes.join(', ')}`,
			ahead: pages.length - needed.length,
		};
	};

	// The first run of each pays for compiling code and getting a token.
	await timeSync('items');
	await timeSync('list');
	const items: Array<{ ms: number; requests: string; ahead: number }> = [];
	const list: Array<{ ms: number; requests: string; ahead: number }> = [];
	for (let pair = 0; pair < runs * 3; pair++) {
		if (pair % 2 === 0) {
			items.push(await timeSync('items'));
			list.push(await timeSync('list'));
		} else {
			list.push(await timeSync('list'));
			items.push(await timeSync('items'));
		}
	}
	const requestsItems = [...new Set(items.map(({ requests }) => requests))];
	const requestsList = [...new Set(list.map(({ requests }) => requests))];
	const requestsEqual = requestsItems.length === 1 && requestsList.length === 1 && requestsItems[0] === requestsList[0];
	const ratios = items.map((timing, pair) => timing.ms / list[pair].ms);
	const ratio = median(ratios);
	return {
		measure: `Sync of ${TIMED_ROWS.toLocaleString('en-US')} rows over ${PRODUCTS.toLocaleString('en-US')} products: ${TIMED_ROWS.toLocaleString('en-US')} items ÷ one item with the list (time; requests equal)`,
		figure: formatRatio(ratio),
		target: `≤ ${TIME_TARGET}, requests equal`,
		met: requestsEqual && ratio <= TIME_TARGET,
		runs: `${ratios.length} pairs`,
		details:
			`requests: items ${requestsItems.join(' / ')}; one list ${requestsList.join(' / ')}${requestsEqual ? ' (equal)' : ' (DIFFER)'}; pages sent ahead: items ${items.map(({ ahead }) => ahead).join(', ')}, one list ${list.map(({ ahead }) => ahead).join(', ')}; ` +
			`items ${listOf(items.map(({ ms }) => ms), formatMs)}, one list ${listOf(list.map(({ ms }) => ms), formatMs)}; ratios ${listOf(ratios, formatRatio)}`,
	};
}

async function peakInChild(sandbox: RemoteSandbox, client: BenchClient, shape: 'items' | 'list'): Promise<MemoryReport> {
	const job: MemoryJob = {
		kind: 'node',
		baseUrl: sandbox.url,
		client,
		parameters: shape === 'items' ? PER_ITEM : ONE_LIST,
		warmUpParameters: WARM_UP,
		feed: { shape, count: PRODUCTS },
		typeVersion: NODE_VERSION,
	};
	const report = await resultOf<MemoryReport>(startScript('memory-child.ts', { BENCH_MEMORY_JOB: JSON.stringify(job) }), CHILD_TIMEOUT_MS);
	if (report.error || report.outputItems !== PRODUCTS) throw new Error(`Sync (${shape}) in the memory child gave ${report.outputItems} items (${report.error ?? 'no error'})`);
	return report;
}

async function measureMemory(sandbox: RemoteSandbox, runs: number): Promise<Row> {
	const items: MemoryReport[] = [];
	const list: MemoryReport[] = [];
	for (let run = 0; run < runs; run++) {
		items.push(await peakInChild(sandbox, sandbox.freshClient(), 'items'));
		list.push(await peakInChild(sandbox, sandbox.freshClient(), 'list'));
	}
	const ratios = items.map((report, run) => report.peakRss / list[run].peakRss);
	const ratio = median(ratios);
	const growth = (report: MemoryReport) => report.peakRss - report.baselineRss;
	return {
		measure: `Sync of ${PRODUCTS.toLocaleString('en-US')} rows: peak RSS of ${PRODUCTS.toLocaleString('en-US')} items ÷ one item with the list`,
		figure: formatRatio(ratio),
		target: `≤ ${MEMORY_TARGET}`,
		met: ratio <= MEMORY_TARGET,
		runs: String(runs),
		details:
			`peak RSS: items ${listOf(items.map(({ peakRss }) => peakRss), formatBytes)}, one list ${listOf(list.map(({ peakRss }) => peakRss), formatBytes)} (ratios ${listOf(ratios, formatRatio)}); ` +
			`growth over the baseline (input built): items ${listOf(items.map(growth), formatBytes)}, one list ${listOf(list.map(growth), formatBytes)}; ` +
			`retained heap: items ${formatBytes(median(items.map(({ retainedHeap }) => retainedHeap)))}, one list ${formatBytes(median(list.map(({ retainedHeap }) => retainedHeap)))}; ` +
			`run time: items ${formatMs(median(items.map(({ ms }) => ms)))}, one list ${formatMs(median(list.map(({ ms }) => ms)))}`,
	};
}

export async function measureRows(runs: number): Promise<Row[]> {
	const sandbox = await RemoteSandbox.start({ products: PRODUCTS, rateLimits: false, clients: 2 * runs + 2 });
	try {
		return [await measureTime(sandbox, runs), await measureMemory(sandbox, runs)];
	} finally {
		await sandbox.close();
	}
}

/**
 * Sync Stock and Prices and the Product Changed trigger, limits off (these rows measure the
 * node's work, not the rate limit):
 * - a full feed of 50,000 products of which 1 % differ: requests made, time ÷ Get Many Basic
 *   Return All alone (alternately in the same run), and the writes of a Dry Run;
 * - the trigger over 50,000 products: requests of a poll with nothing new, and static data after
 *   a day with 2,000 changes (and after two such days): the baseline of the whole catalogue,
 *   which makes the trigger exact about what changed, so bounded per product.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { LIMITS } from '../../nodes/MarketplaceMerchant/transport/endpoints';
import { runPoll, type PollRunResult, type WorkflowRunResult } from '../../test/harness';
import { cpuSharesOf, type CpuShares } from '../cpu-shares';
import { collectGarbage } from '../gc';
import { MERCHANT_TRIGGER, credentialsFor, runMerchant, type TokenRecordingCredentialsHelper } from '../merchant-node';
import { fetchAllBasicProducts, requestToken } from '../plain-fetch';
import { RemoteSandbox } from '../remote-sandbox';
import type { Row } from '../report';
import { formatCount, formatMs, formatRatio, listOf, median } from '../stats';

const PRODUCTS = 50_000;
/** Every 100th entry differs from the catalogue: 1 %. */
const CHANGED_EVERY = 100;
const TIME_TARGET = 1.2;
const CHANGES_PER_DAY = 2_000;
const POLLS_PER_DAY = 24;
/** The baseline holds every product: about 9 bytes each (id step, stock, price in base 36). */
const STATE_TARGET_BYTES_PER_PRODUCT = 10;
const STATE_TARGET_BYTES = STATE_TARGET_BYTES_PER_PRODUCT * PRODUCTS;
const DAY_MS = 86_400_000;

const RETURN_ALL_BASIC = { resource: 'product', operation: 'getManyBasic', returnAll: true };

function syncParameters(dryRun: boolean): INodeParameters {
	return { resource: 'product', operation: 'syncStockAndPrices', matchBy: 'ean', inputMode: 'json', productsJson: '={{ $json.products }}', dryRun };
}

/**
 * The node's own execution time as n8n records it: the sync's input item (50,000 entries) is made
 * by the input node before, which Get Many Basic does not have, and is not the node's work.
 */
function nodeTimeOf(result: WorkflowRunResult): number {
	const time = result.nodes.Node?.runs[0]?.executionTime;
	if (time === undefined) throw new Error('the node did not run');
	return time;
}

interface BasicProduct {
	id: number;
	ean: string;
	stockLevel: number;
	newBasePrice: number;
}

/** The full feed for run `run`: every product as it is, except every 100th whose stock differs from the last run's. */
function feed(catalogue: BasicProduct[], run: number): IDataObject[] {
	return catalogue.map((product, index) => ({
		ean: product.ean,
		stockLevel: index % CHANGED_EVERY === 0 ? product.stockLevel + run + 1 : product.stockLevel,
		basePrice: product.newBasePrice,
	}));
}

export async function measureSync(runs: number): Promise<Row[]> {
	const sandbox = await RemoteSandbox.start({ products: PRODUCTS, rateLimits: false, clients: 2 });
	try {
		const client = sandbox.freshClient();
		const credentialsHelper = credentialsFor(sandbox, client);
		const catalogue = (await fetchAllBasicProducts(sandbox.url, await requestToken(sandbox.url, client))).products as BasicProduct[];
		const expectedChanges = Math.ceil(PRODUCTS / CHANGED_EVERY);

		let run = 0;
		const timeSync = async (dryRun: boolean) => {
			const products = feed(catalogue, run++);
			collectGarbage();
			await sandbox.clearLog();
			const { result } = await runMerchant(credentialsHelper, syncParameters(dryRun), [{ products }]);
			const ms = nodeTimeOf(result);
			const items = result.json('Node');
			const sent = items.filter((item) => item.status === (dryRun ? 'planned' : 'updated')).length;
			if (result.error || items.length !== PRODUCTS || sent !== expectedChanges) {
				throw new Error(`Sync gave ${items.length} items, ${sent} ${dryRun ? 'planned' : 'updated'} (${result.error?.message ?? 'no error'})`);
			}
			const reads = (await sandbox.log('basicProducts')).length;
			const writes = (await sandbox.log('productBulk')).length;
			return { ms, reads, writes };
		};
		const timeBasic = async () => {
			collectGarbage();
			const { result } = await runMerchant(credentialsHelper, RETURN_ALL_BASIC);
			if (result.error || result.output('Node').length !== PRODUCTS) throw new Error(`Get Many Basic failed (${result.error?.message ?? 'wrong count'})`);
			return nodeTimeOf(result);
		};

		// The first run of each pays for compiling code and getting a token.
		await timeSync(false);
		await timeBasic();

		const syncRuns: Array<{ ms: number; reads: number; writes: number }> = [];
		const basicMs: number[] = [];
		for (let pair = 0; pair < runs * 2; pair++) {
			if (pair % 2 === 0) {
				syncRuns.push(await timeSync(false));
				basicMs.push(await timeBasic());
			} else {
				basicMs.push(await timeBasic());
				syncRuns.push(await timeSync(false));
			}
		}
		// Whose code the time beyond Get Many Basic's is: profiled runs of each, alternating, apart from the timed ones.
		const syncCpu: CpuShares[] = [];
		const basicCpu: CpuShares[] = [];
		for (let pair = 0; pair < runs; pair++) {
			syncCpu.push(await cpuSharesOf(async () => await timeSync(false)));
			basicCpu.push(await cpuSharesOf(timeBasic));
		}
		const dryRuns = [];
		for (let index = 0; index < runs; index++) dryRuns.push(await timeSync(true));

		const fullPages = Math.ceil(PRODUCTS / LIMITS.basicProductsPageSize);
		const ratios = syncRuns.map((timing, pair) => timing.ms / basicMs[pair]);
		const ratio = median(ratios);
		const requestCounts = [...new Set(syncRuns.map(({ reads, writes }) => `${reads} reads + ${writes} write${writes === 1 ? '' : 's'}`))];
		const maxReads = Math.max(...syncRuns.map(({ reads }) => reads));
		const maxWrites = Math.max(...syncRuns.map(({ writes }) => writes));
		const dryWrites = Math.max(...dryRuns.map(({ writes }) => writes));
		const setup = `${formatCount(PRODUCTS)} products, a full feed by EAN with ${formatCount(expectedChanges)} stock changes (1 %)`;
		return [
			{
				measure: `Sync Stock and Prices, ${setup}: requests made`,
				figure: requestCounts.join('; '),
				target: `${fullPages} reads (+ the empty page that ends the list) + 1 write`,
				met: maxReads <= fullPages + 1 && maxWrites === 1,
				runs: String(syncRuns.length),
				details: `reads are Get Many Basic pages of 2,500: ${fullPages} full pages and the empty page ${fullPages} that tells the list is over (the service gives no total); one PUT product/bulk with the ${formatCount(expectedChanges)} changed entries only`,
			},
			{
				measure: `Sync Stock and Prices, ${setup}: time ÷ Get Many Basic Return All alone, same run`,
				figure: formatRatio(ratio),
				target: `≤ ${TIME_TARGET}`,
				met: ratio <= TIME_TARGET,
				runs: `${syncRuns.length} alternating pairs`,
				details:
					`node execution time as n8n records it: median sync ${formatMs(median(syncRuns.map(({ ms }) => ms)))} (checking ${formatCount(PRODUCTS)} entries, the catalogue, comparing, one write, ${formatCount(PRODUCTS)} output items), Get Many Basic ${formatMs(median(basicMs))}; pair ratios ${listOf(ratios, formatRatio)}; ` +
					`${cpuBeyond(syncCpu, basicCpu)}`,
			},
			{
				measure: `Sync Stock and Prices with Dry Run, ${setup}: writes`,
				figure: String(dryWrites),
				target: '0',
				met: dryWrites === 0,
				runs: String(dryRuns.length),
				details: `${formatCount(expectedChanges)} entries planned per run; reads ${listOf(dryRuns.map(({ reads }) => reads), String)}; time ${listOf(dryRuns.map(({ ms }) => ms), formatMs)}`,
			},
		];
	} finally {
		await sandbox.close();
	}
}

/** The CPU Sync spends beyond Get Many Basic, by whose code (bench/cpu-shares.ts), medians of the profiled runs: how much of the gap is n8n's own. */
function cpuBeyond(sync: CpuShares[], basic: CpuShares[]): string {
	const total = (shares: CpuShares) => shares.node + shares.n8n + shares.gc + shares.other;
	const of = (runs: CpuShares[], share: keyof CpuShares) => median(runs.map((shares) => shares[share]));
	const beyond = (share: keyof CpuShares) => formatMs(of(sync, share) - of(basic, share));
	return (
		`time on the CPU profile (idle left out; the profiler slows both), median of ${sync.length} profiled runs each: sync ${formatMs(median(sync.map(total)))}, Get Many Basic ${formatMs(median(basic.map(total)))}; beyond Get Many Basic's: ` +
		`the package's code ${beyond('node')}, n8n-core's and n8n-workflow's ${beyond('n8n')}, garbage collection ${beyond('gc')}, the rest (HTTP, runtime) ${beyond('other')}`
	);
}

async function poll(credentialsHelper: TokenRecordingCredentialsHelper, parameters: INodeParameters, staticData: IDataObject): Promise<PollRunResult> {
	const result = await runPoll(MERCHANT_TRIGGER, parameters, { credentialsHelper, staticData });
	if (result.error) throw new Error(`Product Changed poll failed: ${result.error.message}`);
	return result;
}

const stateBytes = (staticData: IDataObject) => Buffer.byteLength(JSON.stringify(staticData));

/**
 * A day of 2,000 sales in 24 rounds, each followed by a poll; every sold product must fire once.
 * Returns the static data after the day.
 */
async function dayOfSales(
	sandbox: RemoteSandbox,
	credentialsHelper: TokenRecordingCredentialsHelper,
	ids: number[],
	staticData: IDataObject,
): Promise<IDataObject> {
	const parameters = { event: 'productChanged' };
	const fired = new Set<number>();
	let state = staticData;
	for (let round = 0; round < POLLS_PER_DAY; round++) {
		const batch = ids.slice(Math.floor((round * ids.length) / POLLS_PER_DAY), Math.floor(((round + 1) * ids.length) / POLLS_PER_DAY));
		await sandbox.recordProductChanges(batch.map((id) => ({ id, sold: 1 })));
		const result = await poll(credentialsHelper, parameters, state);
		for (const item of result.emitted?.[0] ?? []) fired.add(Number(item.json.id));
		state = result.staticData;
	}
	if (fired.size !== ids.length || !ids.every((id) => fired.has(id))) throw new Error(`the trigger fired for ${fired.size} of ${ids.length} sold products`);
	return state;
}

export async function measureProductTrigger(runs: number): Promise<Row[]> {
	const idleRequests: number[] = [];
	const afterOneDay: number[] = [];
	const afterTwoDays: number[] = [];
	for (let run = 0; run < runs; run++) {
		// A sandbox per run: the changes of one run must not be in the next run's window.
		const sandbox = await RemoteSandbox.start({ products: PRODUCTS, rateLimits: false, clients: 1 });
		try {
			const client = sandbox.freshClient();
			const inStock = ((await fetchAllBasicProducts(sandbox.url, await requestToken(sandbox.url, client))).products as BasicProduct[]).filter(
				(product) => product.stockLevel > 2,
			);
			const credentialsHelper = credentialsFor(sandbox, client);
			const now = new Date();
			const parameters = { event: 'productChanged' };
			const seeded = (await poll(credentialsHelper, parameters, {})).staticData;

			// Yesterday's 2,000 sales (the sandbox clock a day back), then today's 2,000 other products.
			const yesterdayIds = inStock.slice(0, CHANGES_PER_DAY).map(({ id }) => id);
			const todayIds = inStock.slice(CHANGES_PER_DAY, 2 * CHANGES_PER_DAY).map(({ id }) => id);
			await sandbox.setClock(new Date(now.getTime() - DAY_MS));
			const afterYesterday = await dayOfSales(sandbox, credentialsHelper, yesterdayIds, seeded);
			await sandbox.setClock(new Date());
			afterOneDay.push(stateBytes(afterYesterday));
			const afterToday = await dayOfSales(sandbox, credentialsHelper, todayIds, afterYesterday);
			afterTwoDays.push(stateBytes(afterToday));

			await sandbox.clearLog();
			const idle = await poll(credentialsHelper, parameters, afterToday);
			if (idle.emitted !== null) throw new Error('the idle poll fired');
			idleRequests.push((await sandbox.log('basicProducts')).length);
		} finally {
			await sandbox.close();
		}
	}
	const worst = afterOneDay.map((bytes, run) => Math.max(bytes, afterTwoDays[run]));
	return [
		{
			measure: `Product Changed trigger over ${formatCount(PRODUCTS)} products: requests per poll with nothing new`,
			figure: String(median(idleRequests)),
			target: '≤ 2 (today + yesterday pages)',
			met: Math.max(...idleRequests) <= 2,
			runs: String(runs),
			details: `one GET basic-products?date-modified-after=<yesterday> per 2,500 products modified since yesterday; here ${formatCount(2 * CHANGES_PER_DAY)} sold in the two days plus the sandbox's own modification dates; requests ${listOf(idleRequests, String)}`,
		},
		{
			measure: `Product Changed trigger: static data bytes after a day with ${formatCount(CHANGES_PER_DAY)} changes out of ${formatCount(PRODUCTS)}`,
			figure: formatCount(median(worst)),
			target: `≤ ${formatCount(STATE_TARGET_BYTES)} (${STATE_TARGET_BYTES_PER_PRODUCT} a product)`,
			met: Math.max(...worst) <= STATE_TARGET_BYTES,
			runs: String(runs),
			details:
				`after one day ${listOf(afterOneDay, formatCount)}; after the second such day (the worst case: two days of changes in the window) ${listOf(afterTwoDays, formatCount)}; ` +
				`${POLLS_PER_DAY} polls a day, every sold product fired once; the baseline holds a fingerprint of every product of the catalogue, read whole on activation, ${(median(worst) / PRODUCTS).toFixed(1)} bytes a product`,
		},
	];
}

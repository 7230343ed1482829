/* eslint-disable @n8n/community-nodes/no-restricted-globals -- benchmark code (`npm run bench`) and never loaded by n8n: it may use process and timers (docs/architecture.md, Toolchain). */
/**
 * `npm run bench`: what the node costs its users (requests, tokens, time against the rate limit,
 * memory), measured as ratios in one run against the sandbox through n8n-core's real engine.
 * `npm run bench -- --faults`: the fault drills instead. Each prints its table and rewrites its
 * section of bench/results.md; the command exits 1 when a target is missed.
 *
 * Options: `--runs N` (default 3) times each row runs; `--only a,b` runs some rows only
 * (throughput, tokens, requests, rate-limit, live-limits, concurrency, http-request, memory, trigger, sync, product-trigger, rows, ean-lookups, import, orders, order-trigger, one-state, merchant-day, two-workers; with --faults, drill keys such as
 * 429-bursts) and leaves results.md alone.
 */
import { DRILL_KEYS, runFaultDrills } from './drills';
import { stopAllChildren } from './processes';
import { consoleTable, drillsMarkdown, measuresMarkdown, writeSection, type DrillResult, type Row, type RunInfo } from './report';
import { measureReturnAllMemory, memoryNote } from './rows/memory';
import { concurrencyNote, measureConcurrency } from './rows/concurrency';
import { measureHttpRequestComparison } from './rows/http-request';
import { measureLiveLimitWrites } from './rows/live-limits';
import { measureRateLimitedUpdates, rateLimitFormulaNote } from './rows/rate-limit';
import { measureRequestCounts } from './rows/request-counts';
import { measureEanLookups } from './rows/ean-lookups';
import { measureImport } from './rows/import';
import { measureMerchantDay } from './rows/merchant-day';
import { measureOneState } from './rows/one-state';
import { measureOrdersReturnAll, measureOrderTriggerCosts } from './rows/orders';
import { measureRows, rowsNote } from './rows/rows';
import { measureProductTrigger, measureSync } from './rows/sync';
import { measureReturnAllSpeed, throughputNote } from './rows/throughput';
import { measureTokenRequests } from './rows/tokens';
import { measureTriggerCosts } from './rows/trigger';
import { measureTwoWorkers } from './rows/two-workers';
import { formatMs } from './stats';

interface RowGroup {
	key: string;
	measure: (runs: number) => Promise<Row[]>;
	/** What the row is when it could not be measured at all. */
	title: string;
}

/** The throughput ratio is the noisiest figure (absolute times drift on a shared machine): more pairs. */
const PAIRS_PER_RUN = 7;

const GROUPS: RowGroup[] = [
	{ key: 'throughput', title: 'Get Many Basic, Return All: node ÷ plain fetch', measure: (runs) => measureReturnAllSpeed(runs * PAIRS_PER_RUN) },
	{ key: 'tokens', title: 'Token requests for 1,000 concurrent items', measure: measureTokenRequests },
	{ key: 'requests', title: 'Requests made for split work', measure: measureRequestCounts },
	{ key: 'rate-limit', title: '1,000 single updates under the limits', measure: measureRateLimitedUpdates },
	// Minutes each at 60 a minute: run once, side by side (about 4.5 min).
	{ key: 'live-limits', title: 'Single updates at the live limits, with and without Retry-After', measure: measureLiveLimitWrites },
	{ key: 'concurrency', title: 'Pages, chunks and windows of one item at once, sandbox latency on', measure: measureConcurrency },
	// Needs the n8n that e2e/install-n8n.sh installs (n8n's HTTP Request node); "not measured" (missed) without it.
	{ key: 'http-request', title: "Same scenarios through n8n's HTTP Request node as a user builds it", measure: measureHttpRequestComparison },
	{ key: 'memory', title: 'Peak RSS growth ÷ JSON bytes', measure: measureReturnAllMemory },
	{ key: 'trigger', title: 'Trigger costs', measure: measureTriggerCosts },
	{ key: 'sync', title: 'Sync Stock and Prices over 50,000 products', measure: measureSync },
	{ key: 'product-trigger', title: 'Product Changed trigger costs', measure: measureProductTrigger },
	{ key: 'rows', title: 'Sync from one item per row vs one item with the list', measure: measureRows },
	{ key: 'ean-lookups', title: '1,000 products by EAN: look-ups', measure: measureEanLookups },
	{ key: 'import', title: 'Import of 5,000 products from as many items', measure: measureImport },
	{ key: 'orders', title: 'Order Get Many, Return All over 10,000 orders at the live limits', measure: measureOrdersReturnAll },
	{ key: 'order-trigger', title: 'New Order to Confirm and Shipment Status Changed trigger costs', measure: measureOrderTriggerCosts },
	// Over a minute at the live limits (the built bundles in one process): run once, whatever --runs says.
	{ key: 'one-state', title: 'One gate for the built node, trigger and credential in one process', measure: measureOneState },
	// Minutes at the live limits (the day's requests of the busiest group at 5 a second): run once, whatever --runs says.
	{ key: 'merchant-day', title: "A merchant's day in one n8n process at the live limits", measure: measureMerchantDay },
	// Two worker processes, one merchant, over 5 minutes at the live limits: run once, whatever --runs says.
	{ key: 'two-workers', title: 'Two queue-mode workers, one merchant, at the live limits', measure: measureTwoWorkers },
];

interface Options {
	faults: boolean;
	runs: number;
	only?: Set<string>;
}

function parseOptions(args: string[]): Options {
	const valueOf = (name: string) => {
		const index = args.indexOf(`--${name}`);
		return index >= 0 ? args[index + 1] : args.find((arg) => arg.startsWith(`--${name}=`))?.split('=')[1];
	};
	const runs = Number(valueOf('runs') ?? 3);
	if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs must be a whole number of at least 1');
	const only = valueOf('only');
	const options: Options = { faults: args.includes('--faults'), runs, only: only ? new Set(only.split(',')) : undefined };
	const known: string[] = options.faults ? DRILL_KEYS : GROUPS.map((group) => group.key);
	const unknown = [...(options.only ?? [])].filter((key) => !known.includes(key));
	if (unknown.length > 0) throw new Error(`unknown rows in --only: ${unknown.join(', ')}`);
	return options;
}

const runStartedAt = performance.now();

function log(text: string): void {
	process.stdout.write(`${text}\n`);
}

async function runMeasures(options: Options, info: RunInfo): Promise<boolean> {
	const rows: Row[] = [];
	const durations: string[] = [];
	for (const group of GROUPS.filter(({ key }) => !options.only || options.only.has(key))) {
		log(`… ${group.title}`);
		const startedAt = performance.now();
		try {
			const groupRows = await group.measure(options.runs);
			rows.push(...groupRows);
			for (const row of groupRows) {
				log(`  ${row.met ? 'ok  ' : 'MISS'} ${row.measure}: ${row.figure} (target ${row.target})`);
				log(`       ${row.details}`);
			}
		} catch (error) {
			const message = (error as Error).message;
			rows.push({ measure: group.title, figure: `failed: ${message}`, target: '—', met: false, runs: '—', details: '' });
			log(`  FAILED ${group.title}: ${message}`);
		}
		durations.push(`${group.key} ${formatMs(performance.now() - startedAt)}`);
	}
	info.ms = performance.now() - runStartedAt;
	info.notes.push(`**Durations.** ${durations.join(', ')}.`, throughputNote(), rateLimitFormulaNote(), concurrencyNote(), memoryNote(), rowsNote());

	log('');
	log(consoleTable(['Measure', 'Figure', 'Target', 'Met', 'Runs'], rows.map((row) => [row.measure, row.figure, row.target, row.met ? 'yes' : 'NO', row.runs])));
	log(`\n${durations.join(', ')}; total ${formatMs(info.ms)}`);
	if (!options.only) writeSection('measures', measuresMarkdown(rows, info));
	return rows.every((row) => row.met);
}

async function runDrills(options: Options, info: RunInfo): Promise<boolean> {
	const results = await runFaultDrills((result: DrillResult) => {
		log(`  ${result.met ? 'ok  ' : 'MISS'} ${result.name}: ${result.succeeded} succeeded, ${result.failed} failed, ${result.requests} requests, ${formatMs(result.ms)}`);
		log(`       ${result.verdict}${result.errorTexts.length > 0 ? `; error: ${result.errorTexts[0]}` : ''}`);
	}, options.only);
	info.ms = performance.now() - runStartedAt;
	log('');
	log(
		consoleTable(
			['Drill', 'Succeeded', 'Failed', 'Requests', 'Time', 'Met'],
			results.map((result) => [result.name, String(result.succeeded), String(result.failed), String(result.requests), formatMs(result.ms), result.met ? 'yes' : 'NO']),
		),
	);
	log(`\ntotal ${formatMs(info.ms)}`);
	if (!options.only) writeSection('drills', drillsMarkdown(results, info));
	return results.every((result) => result.met);
}

async function main(): Promise<void> {
	const options = parseOptions(process.argv.slice(2));
	const info: RunInfo = {
		command: options.faults ? 'npm run bench -- --faults' : 'npm run bench',
		startedAt: new Date(),
		ms: 0,
		notes: [],
	};
	const allMet = options.faults ? await runDrills(options, info) : await runMeasures(options, info);
	log(allMet ? 'Every target met.' : 'Some target was missed: see above and bench/results.md.');
	process.exitCode = allMet ? 0 : 1;
}

main()
	.catch((error: unknown) => {
		process.stderr.write(`bench: ${(error as Error).stack ?? String(error)}\n`);
		process.exitCode = 1;
	})
	.finally(() => stopAllChildren());

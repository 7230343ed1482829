/**
 * Peak RSS growth of Get Many Basic with Return All over 100,000 products against a plain fetch
 * loop's (bench/plain-fetch.ts) doing the same work, side by side: each run is a fresh child process
 * (bench/memory-child.ts) holding nothing but the engine and the node, or the loop.
 */
import type { MemoryJob, MemoryReport } from '../memory-child';
import { fetchAllBasicProducts, requestToken } from '../plain-fetch';
import { resultOf, startScript } from '../processes';
import { RemoteSandbox, type BenchClient } from '../remote-sandbox';
import type { Row } from '../report';
import { formatBytes, formatRatio, listOf, median } from '../stats';

const PRODUCTS = 100_000;
/** The node's growth ÷ the plain fetch loop's, same run. */
const TARGET = 1;
const CHILD_TIMEOUT_MS = 180_000;
/** V8's young generation capped at 1 MiB semi-spaces: shows how much of the growth is the collector's reserve. */
const SMALL_YOUNG_GENERATION = ['--max-semi-space-size=1'];

async function measureInChild(kind: MemoryJob['kind'], baseUrl: string, client: BenchClient, nodeArgs: string[] = []): Promise<MemoryReport> {
	const job: MemoryJob = {
		kind,
		baseUrl,
		client,
		parameters: { resource: 'product', operation: 'getManyBasic', returnAll: true },
		warmUpParameters: { resource: 'product', operation: 'getManyBasic', returnAll: false, limit: 10 },
	};
	const child = startScript('memory-child.ts', { BENCH_MEMORY_JOB: JSON.stringify(job) }, nodeArgs);
	const report = await resultOf<MemoryReport>(child, CHILD_TIMEOUT_MS);
	if (report.error || report.outputItems !== PRODUCTS) {
		throw new Error(`${kind} memory run got ${report.outputItems} products (${report.error ?? 'no error'})`);
	}
	return report;
}

export function memoryNote(): string {
	return (
		'**Memory.** RSS counts what V8 reserves, not only live data: under a high allocation rate its young generation ' +
		'(two semi-spaces, whose maximum V8 derives from the heap limit, i.e. from the machine\'s memory) grows by tens of MiB ' +
		'whatever the size of the data kept, and old-space pages go back to the system only after a full collection. So the ' +
		'figure is the node\'s growth ÷ the plain-fetch loop\'s, each run a pair of fresh processes side by side (median of the pairs). ' +
		'"Retained heap" is the heap still used after a full collection with the output held, i.e. the live data; the node holds ' +
		'more than the fetch loop because n8n wraps every product in an item `{json, pairedItem}`. ' +
		`"Small young generation" reruns both with \`${SMALL_YOUNG_GENERATION.join(' ')}\`, where the collector's reserve is small and the ` +
		'growth is mostly what each holds. The node reads each page\'s JSON in place (answers/read.ts: no second copy of every ' +
		'product beside the parsed page) and gives every item its pairedItem from the start (no property added to 100,000 objects).'
	);
}

export async function measureReturnAllMemory(runs: number): Promise<Row[]> {
	const sandbox = await RemoteSandbox.start({ products: PRODUCTS, rateLimits: false, clients: 4 * runs + 1 });
	try {
		const probe = sandbox.freshClient();
		const { bytes } = await fetchAllBasicProducts(sandbox.url, await requestToken(sandbox.url, probe));

		const node: MemoryReport[] = [];
		const plain: MemoryReport[] = [];
		const nodeSmall: MemoryReport[] = [];
		const plainSmall: MemoryReport[] = [];
		for (let run = 0; run < runs; run++) {
			node.push(await measureInChild('node', sandbox.url, sandbox.freshClient()));
			plain.push(await measureInChild('fetch', sandbox.url, sandbox.freshClient()));
			nodeSmall.push(await measureInChild('node', sandbox.url, sandbox.freshClient(), SMALL_YOUNG_GENERATION));
			plainSmall.push(await measureInChild('fetch', sandbox.url, sandbox.freshClient(), SMALL_YOUNG_GENERATION));
		}
		const growth = (report: MemoryReport) => report.peakRss - report.baselineRss;
		const growthRatio = (report: MemoryReport) => growth(report) / bytes;
		const retainedRatio = (report: MemoryReport) => report.retainedHeap / bytes;
		const medianGrowth = (reports: MemoryReport[]) => formatRatio(median(reports.map(growthRatio)));
		const pairRatios = (nodeReports: MemoryReport[], plainReports: MemoryReport[]) => nodeReports.map((report, run) => growth(report) / growth(plainReports[run]));
		const ratios = pairRatios(node, plain);
		const smallRatios = pairRatios(nodeSmall, plainSmall);
		const ratio = median(ratios);
		return [
			{
				measure: `Peak RSS growth for Return All over ${PRODUCTS.toLocaleString('en-US')} basic products ÷ a plain fetch loop's, side by side`,
				figure: formatRatio(ratio),
				target: `≤ ${TARGET}`,
				met: ratio <= TARGET,
				runs: `${runs} pairs`,
				details:
					`pair ratios ${listOf(ratios, formatRatio)}; ${formatBytes(bytes)} of JSON; node growth ${listOf(node.map(growth), formatBytes)} ` +
					`(÷ JSON bytes ${listOf(node.map(growthRatio), formatRatio)}), plain fetch loop ${listOf(plain.map(growth), formatBytes)} ` +
					`(${listOf(plain.map(growthRatio), formatRatio)}); small young generation: node ÷ plain fetch ${formatRatio(median(smallRatios))} ` +
					`(${listOf(smallRatios, formatRatio)}; ÷ JSON bytes node ${medianGrowth(nodeSmall)}, plain fetch ${medianGrowth(plainSmall)}); ` +
					`retained heap ÷ bytes: node ${formatRatio(median(node.map(retainedRatio)))}, plain fetch ${formatRatio(median(plain.map(retainedRatio)))}`,
			},
		];
	} finally {
		await sandbox.close();
	}
}

/* eslint-disable @n8n/community-nodes/no-restricted-globals -- benchmark code (`npm run bench`) and never loaded by n8n: it may use process and timers (docs/architecture.md, Toolchain). */
/**
 * Get Many Basic with Return All over 50,000 products (20 full pages of 2,500, then the empty
 * page that tells the list is over), limits off: the node through the engine against a plain
 * `fetch` loop over the same pages, alternately in this process, so both see the same machine.
 */
import { LIMITS } from '../../nodes/MarketplaceMerchant/transport/endpoints';
import { collectGarbage } from '../gc';
import { credentialsFor, runMerchant } from '../merchant-node';
import { fetchAllBasicProducts, requestToken, type FetchedPages } from '../plain-fetch';
import { RemoteSandbox } from '../remote-sandbox';
import type { Row } from '../report';
import { formatBytes, formatMs, formatRatio, listOf, median } from '../stats';

const PRODUCTS = 50_000;
const TARGET = 1.2;
const RETURN_ALL_BASIC = { resource: 'product', operation: 'getManyBasic', returnAll: true };

interface Timing {
	ms: number;
	/** CPU time of this process: the client's own work, without waiting for the service. */
	cpuMs: number;
	requests: number;
}

/** Times `run` from a clean heap, and counts the pages it asked for. */
async function timed(sandbox: RemoteSandbox, run: () => Promise<void>): Promise<Timing> {
	collectGarbage();
	await sandbox.clearLog();
	const cpuBefore = process.cpuUsage();
	const startedAt = performance.now();
	await run();
	const ms = performance.now() - startedAt;
	const cpu = process.cpuUsage(cpuBefore);
	return { ms, cpuMs: (cpu.user + cpu.system) / 1000, requests: (await sandbox.log('basicProducts')).length };
}

export function throughputNote(): string {
	return (
		'**Return All speed.** Both timings include the service building each page (the sandbox generates and serializes ' +
		'2,500 products per request), so the wall-time ratio is the client overhead diluted by the service; the client CPU ' +
		'ratio in Details shows it undiluted. On this shared 2-CPU machine the wall ratio moves with the load (waiting for ' +
		'the sandbox dominates when the machine is busy). Where the node\'s extra client time goes (CPU profile of 12 runs): ' +
		'n8n-core opens a new TCP connection for every request (its HTTP client builds a new agent per request), evaluates ' +
		'the credential\'s Authorization expression on every request, gives every output item its own pairedItem object, and ' +
		'collects the extra garbage; the package\'s own code (nodes/MarketplaceMerchant/transport) is about 8 ms of a ~350 ms run. ' +
		'Over a real network each page costs tens of milliseconds more on both sides, and the ratio moves towards 1.'
	);
}

export async function measureReturnAllSpeed(pairs: number): Promise<Row[]> {
	const sandbox = await RemoteSandbox.start({ products: PRODUCTS, rateLimits: false, clients: 1 });
	try {
		const client = sandbox.freshClient();
		const credentialsHelper = credentialsFor(sandbox, client);
		const token = await requestToken(sandbox.url, client);

		const timeNode = async () =>
			await timed(sandbox, async () => {
				const { result } = await runMerchant(credentialsHelper, RETURN_ALL_BASIC);
				const products = result.output('Node').length;
				if (result.error || products !== PRODUCTS) {
					throw new Error(`Get Many Basic returned ${products} products (${result.error?.message ?? 'no error'})`);
				}
			});
		let fetched: FetchedPages | undefined;
		const timeFetch = async () =>
			await timed(sandbox, async () => {
				fetched = await fetchAllBasicProducts(sandbox.url, token);
				if (fetched.products.length !== PRODUCTS) throw new Error(`fetch loop got ${fetched.products.length} products`);
			});

		// The first run of each pays for compiling code and, for the node, getting a token.
		await timeNode();
		await timeFetch();

		const node: Timing[] = [];
		const plain: Timing[] = [];
		for (let pair = 0; pair < pairs; pair++) {
			if (pair % 2 === 0) {
				node.push(await timeNode());
				plain.push(await timeFetch());
			} else {
				plain.push(await timeFetch());
				node.push(await timeNode());
			}
		}

		const ratios = node.map((timing, pair) => timing.ms / plain[pair].ms);
		const cpuRatios = node.map((timing, pair) => timing.cpuMs / plain[pair].cpuMs);
		const ratio = median(ratios);
		const pages = Math.ceil(PRODUCTS / LIMITS.basicProductsPageSize);
		const requests = [...new Set(node.map((timing, pair) => `${timing.requests}/${plain[pair].requests}`))];
		return [
			{
				measure: `Get Many Basic, Return All over ${PRODUCTS.toLocaleString('en-US')} products (${pages} pages of 2,500), limits off: node time ÷ plain fetch loop, same run`,
				figure: formatRatio(ratio),
				target: `≤ ${TARGET}`,
				met: ratio <= TARGET,
				runs: `${pairs} alternating pairs`,
				details:
					`median node ${formatMs(median(node.map((timing) => timing.ms)))}, fetch ${formatMs(median(plain.map((timing) => timing.ms)))}; ` +
					`requests node/fetch ${requests.join(', ')}; ${formatBytes(fetched?.bytes ?? 0)} of JSON; pair ratios ${listOf(ratios, formatRatio)}; ` +
					`client CPU time node ÷ fetch ${formatRatio(median(cpuRatios))} (${formatMs(median(node.map((timing) => timing.cpuMs)))} vs ` +
					`${formatMs(median(plain.map((timing) => timing.cpuMs)))})`,
			},
		];
	} finally {
		await sandbox.close();
	}
}

/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- benchmark code (`npm run bench`) and never loaded by n8n: it may use process and timers, Node modules (docs/architecture.md, Toolchain). */
/**
 * Issue 14's rows: one item's pages, id chunks and date windows over a slow network (the
 * sandbox's latency switch) at the live limits, against the least time those limits allow; and
 * what a new connection per request costs (n8n-core does not reuse connections for a node's
 * requests: see bench/README.md).
 */
import { request as httpRequest, Agent } from 'node:http';

import { RATE_LIMITS } from '../../nodes/MarketplaceMerchant/transport/endpoints';
import { RATE_LIMIT_GROUPS } from '../../sandbox/rate-limit';
import { credentialsFor, runMerchant, type TokenRecordingCredentialsHelper } from '../merchant-node';
import { requestToken } from '../plain-fetch';
import { RemoteSandbox } from '../remote-sandbox';
import type { Row } from '../report';
import { formatMs, formatRatio, listOf, median } from '../stats';
import { limitsMinimumMs } from './rate-limit';

export const PRODUCTS = 100_000;
export const PAGE_SIZE = 2_500;
/** Pages 0–39 are full; page 40 is empty and is the one that says the list has ended. */
export const LAST_PAGE = PRODUCTS / PAGE_SIZE;
const PRICE_IDS = 1_000;
const FIRST_PRODUCT_ID = 100_001;

export interface Scenario {
	measure: string;
	latencyMs: number;
	minimumMs: number;
	minimumText: string;
	parameters: Record<string, unknown>;
	inputItem?: Record<string, unknown>;
	expectedItems?: number;
}

function sevenMonthRange(): { dateFrom: string; dateTo: string } {
	const now = new Date();
	const thisMonth = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
	const from = new Date(thisMonth);
	from.setUTCMonth(from.getUTCMonth() - 7);
	return { dateFrom: from.toISOString(), dateTo: new Date(thisMonth - 1).toISOString() };
}

/** The three scenarios, in this order: pages, windows, chunks (bench/rows/http-request.ts runs them too). */
export const SCENARIOS: Scenario[] = [
	{
		measure: `Get Many Basic, Return All over ${PRODUCTS.toLocaleString('en-US')} products, 1 s per page, live limits: time ÷ the limits' minimum`,
		latencyMs: 1_000,
		minimumMs: limitsMinimumMs(LAST_PAGE + 1, RATE_LIMIT_GROUPS.products, RATE_LIMITS.catalogue.inFlight, 1_000),
		minimumText: `${LAST_PAGE + 1} requests (pages 0–${LAST_PAGE}, the last one empty) at 5/s and 60/min, 5 in flight, 1 s each`,
		parameters: { resource: 'product', operation: 'getManyBasic', returnAll: true },
		expectedItems: PRODUCTS,
	},
	{
		measure: 'Invoice Get Many over 7 months (3 windows), 3 s per window, live limits: time ÷ one window',
		latencyMs: 3_000,
		minimumMs: 3_000,
		minimumText: 'one window: the three are allowed at once (5/s, 300/min)',
		parameters: { resource: 'invoice', operation: 'getMany', ...sevenMonthRange(), returnAll: true, simplify: false },
	},
	{
		measure: `Price Get Many, ${PRICE_IDS.toLocaleString('en-US')} ids (10 chunks), 1 s per chunk, live limits: time ÷ the limits' minimum`,
		latencyMs: 1_000,
		minimumMs: limitsMinimumMs(PRICE_IDS / 100, RATE_LIMIT_GROUPS.discounts, Infinity, 1_000),
		minimumText: '10 requests at 60/min (no per-second limit): all at once, 1 s',
		parameters: { resource: 'price', operation: 'getMany', merchantInventoryIds: '={{ $json.ids }}' },
		inputItem: { ids: Array.from({ length: PRICE_IDS }, (_, index) => FIRST_PRODUCT_ID + index) },
		expectedItems: PRICE_IDS,
	},
];

/** Gets a token without latency and without touching the measured group's windows much. */
async function warmUp(helper: TokenRecordingCredentialsHelper): Promise<void> {
	const { result } = await runMerchant(helper, { resource: 'product', operation: 'getTypes' });
	if (result.error) throw new Error(`warm-up failed: ${result.error.message}`);
	// Let the warm-up's request leave the per-second window.
	await new Promise((resolve) => setTimeout(resolve, 1_100));
}

/** A fresh account whose token was fetched before the scenario's latency was switched on (so the figure is the requests alone). */
export async function warmAccountWithLatency(sandbox: RemoteSandbox, scenario: Scenario): Promise<TokenRecordingCredentialsHelper> {
	const helper = credentialsFor(sandbox, sandbox.freshClient());
	await sandbox.setVariants({ latency: false });
	await warmUp(helper);
	await sandbox.setVariants({ latency: { fixedMs: scenario.latencyMs, perKiBMs: 0 } });
	return helper;
}

async function measureScenario(sandbox: RemoteSandbox, scenario: Scenario, runs: number): Promise<Row[]> {
	const times: number[] = [];
	const extraPages: number[] = [];
	for (let run = 0; run < runs; run++) {
		const helper = await warmAccountWithLatency(sandbox, scenario);
		await sandbox.clearLog();
		const { result, ms } = await runMerchant(helper, scenario.parameters as never, [scenario.inputItem ?? {}]);
		const items = result.output('Node').length;
		if (result.error || (scenario.expectedItems !== undefined && items !== scenario.expectedItems) || items === 0) {
			throw new Error(`${scenario.parameters.operation} returned ${items} items (${result.error?.message ?? 'no error'})`);
		}
		times.push(ms);
		if (scenario.parameters.operation === 'getManyBasic') {
			extraPages.push((await sandbox.log('basicProducts')).filter((entry) => Number(entry.query.page) > LAST_PAGE).length);
		}
	}
	const ratio = median(times) / scenario.minimumMs;
	const rows: Row[] = [
		{
			measure: scenario.measure,
			figure: formatRatio(ratio),
			target: '≤ 1.3',
			met: ratio <= 1.3,
			runs: String(runs),
			details: `times ${listOf(times, formatMs)}; minimum ${formatMs(scenario.minimumMs)}: ${scenario.minimumText}`,
		},
	];
	if (extraPages.length > 0) {
		rows.push({
			measure: `Get Many Basic, Return All over ${PRODUCTS.toLocaleString('en-US')} products: requests sent past the last page`,
			figure: String(Math.max(...extraPages)),
			target: '≤ 4',
			met: Math.max(...extraPages) <= 4,
			runs: String(runs),
			details: `per run ${listOf(extraPages, String)} (pages after page ${LAST_PAGE}, the first short one; at most the in-flight allowance − 1 = 4 can be on their way when it answers, those still waiting at the gate are dropped)`,
		});
	}
	return rows;
}

/** `count` sequential GETs of a small answer, each on a new connection or all on one kept alive; ms per request. */
async function perRequestMs(url: string, token: string, count: number, keepAlive: boolean): Promise<number> {
	const agent = new Agent({ keepAlive, maxSockets: 1 });
	const startedAt = performance.now();
	for (let index = 0; index < count; index++) {
		await new Promise<void>((resolve, reject) => {
			const request = httpRequest(url, { agent, headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' } }, (response) => {
				response.resume();
				response.on('end', () => resolve());
			});
			request.on('error', reject);
			request.end();
		});
	}
	const ms = (performance.now() - startedAt) / count;
	agent.destroy();
	return ms;
}

async function measureNewConnectionCost(runs: number): Promise<Row> {
	const sandbox = await RemoteSandbox.start({ rateLimits: false, clients: 1 });
	try {
		const token = await requestToken(sandbox.url, sandbox.freshClient());
		const url = `${sandbox.url}/product/api/v1/merchant-integration/product-type`;
		const fresh: number[] = [];
		const kept: number[] = [];
		await perRequestMs(url, token, 50, true);
		for (let run = 0; run < runs; run++) {
			fresh.push(await perRequestMs(url, token, 300, false));
			kept.push(await perRequestMs(url, token, 300, true));
		}
		const cost = median(fresh) - median(kept);
		return {
			measure: 'Cost of a new connection per request (loopback, plain HTTP), as n8n-core sends every request of a node',
			figure: `${cost.toFixed(2)} ms`,
			target: 'reported',
			met: true,
			runs: `${runs} × 300 requests`,
			details: `per request: new connection ${listOf(fresh, (ms) => `${ms.toFixed(2)} ms`)}, kept alive ${listOf(kept, (ms) => `${ms.toFixed(2)} ms`)}; over the Internet add the TCP and TLS handshakes, about 2 round trips (see bench/README.md)`,
		};
	} finally {
		await sandbox.close();
	}
}

export async function measureConcurrency(runs: number): Promise<Row[]> {
	const sandbox = await RemoteSandbox.start({ products: PRODUCTS, rateLimits: { scale: 1 }, clients: SCENARIOS.length * runs });
	const rows: Row[] = [];
	try {
		for (const scenario of SCENARIOS) rows.push(...(await measureScenario(sandbox, scenario, runs)));
	} finally {
		await sandbox.close();
	}
	rows.push(await measureNewConnectionCost(runs));
	return rows;
}

export function concurrencyNote(): string {
	return (
		"**Pages, chunks and windows at once.** The sandbox's latency switch delays every answer by the figure given (on top of " +
		'building it); the sandbox applies the live limits (scale 1). Each run uses a fresh merchant account whose token was ' +
		'fetched before the latency was switched on, so the figure is the requests alone. The limits\' minimum is computed ' +
		'request by request (bench/rows/rate-limit.ts `limitsMinimumMs`): request i starts no earlier than request i−1, ' +
		'request i−limit plus each window, and the answer of request i−(requests in flight).'
	);
}

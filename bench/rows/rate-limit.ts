/**
 * 1,000 single-product updates (one item each, all started at once by the engine) against the
 * sandbox's live limits scaled ×10: how close the node comes to the fastest the limits allow,
 * and whether any item fails.
 */
import { RATE_LIMIT_GROUPS } from '../../sandbox/rate-limit';
import { credentialsFor, runMerchant } from '../merchant-node';
import { RemoteSandbox } from '../remote-sandbox';
import type { Row } from '../report';
import { formatMs, formatRatio, listOf, median } from '../stats';

const ITEMS = 1_000;
const SCALE = 10;
const TARGET = 1.15;
const FIRST_PRODUCT_ID = 100_001;

interface LimitWindow {
	limit: number;
	lengthMs: number;
}

/**
 * When the last of `requests` requests can be accepted at the earliest, the first going out at
 * 0, under sliding windows as the sandbox implements them: a request is accepted when fewer than
 * `limit` were accepted in the last `lengthMs`, so request i can go no earlier than request
 * i − limit plus the window. Sending each request as early as that allows is optimal.
 */
export function earliestLastRequestMs(requests: number, windows: LimitWindow[]): number {
	return limitsMinimumMs(requests, windows, Infinity, 0);
}

/**
 * The same when each answer takes `latencyMs` and at most `inFlight` requests are open at once:
 * request i also starts no earlier than the answer of request i − inFlight. The time until the
 * last answer.
 */
export function limitsMinimumMs(requests: number, windows: LimitWindow[], inFlight: number, latencyMs: number): number {
	const starts: number[] = [];
	for (let index = 0; index < requests; index++) {
		let at = index > 0 ? starts[index - 1] : 0;
		for (const { limit, lengthMs } of windows) if (index >= limit) at = Math.max(at, starts[index - limit] + lengthMs);
		if (index >= inFlight) at = Math.max(at, starts[index - inFlight] + latencyMs);
		starts.push(at);
	}
	return (starts[requests - 1] ?? 0) + latencyMs;
}

/** The same bound from the dominating window alone: (ceil(N / W) − 1) × T. */
export function dominantWindowBoundMs(requests: number, window: LimitWindow): number {
	return (Math.ceil(requests / window.limit) - 1) * window.lengthMs;
}

export const PRODUCTS_WINDOWS_AT_SCALE: LimitWindow[] = RATE_LIMIT_GROUPS.products.map(({ limit, lengthMs }) => ({
	limit,
	lengthMs: lengthMs / SCALE,
}));

export function rateLimitFormulaNote(): string {
	const [minute, second] = PRODUCTS_WINDOWS_AT_SCALE;
	const exact = earliestLastRequestMs(ITEMS, PRODUCTS_WINDOWS_AT_SCALE);
	const simple = dominantWindowBoundMs(ITEMS, minute);
	return (
		`**Theoretical minimum of the rate-limited row.** The products group allows ${minute.limit} requests per ` +
		`${minute.lengthMs / 1000} s and ${second.limit} per ${second.lengthMs} ms at scale ${SCALE} (sliding windows over real time; ` +
		`only accepted requests count). With N requests and W per window of length T, request i cannot be accepted before ` +
		`request i − W plus T, so the last one comes at the earliest at t(N−1) = max over windows of t(N−1−W) + T; ` +
		`for the per-minute window alone that is (ceil(N/W) − 1) × T = (ceil(${ITEMS}/${minute.limit}) − 1) × ${minute.lengthMs / 1000} s = ${formatMs(simple)}. ` +
		`Both windows together (computed request by request, bench/rows/rate-limit.ts) give ${formatMs(exact)}, the figure used: ` +
		`the last ${ITEMS % minute.limit || minute.limit} requests of the last minute-window still need ${second.limit} per ${second.lengthMs} ms.`
	);
}

export async function measureRateLimitedUpdates(runs: number): Promise<Row[]> {
	const sandbox = await RemoteSandbox.start({ products: ITEMS, rateLimits: { scale: SCALE }, clients: runs });
	try {
		const minimumMs = earliestLastRequestMs(ITEMS, PRODUCTS_WINDOWS_AT_SCALE);
		const ratios: number[] = [];
		const times: number[] = [];
		const failures: number[] = [];
		const sent: number[] = [];
		const rejected: number[] = [];
		for (let run = 0; run < runs; run++) {
			// A client of its own: fresh windows on the service, fresh pacing state in the node.
			const credentialsHelper = credentialsFor(sandbox, sandbox.freshClient());
			await sandbox.clearLog();
			const inputItems = Array.from({ length: ITEMS }, (_, index) => ({ id: FIRST_PRODUCT_ID + index, stock: (index + run) % 50 }));
			const { result, ms } = await runMerchant(
				credentialsHelper,
				{ resource: 'product', operation: 'update', productId: '={{ $json.id }}', updateFields: { stockLevel: '={{ $json.stock }}' } },
				inputItems,
				{ continueOnFail: true },
			);
			const output = result.output('Node');
			const failed = ITEMS - output.filter((item) => !item.error && item.json.success === true).length;
			const log = await sandbox.log('productUpdate');
			times.push(ms);
			ratios.push(ms / minimumMs);
			failures.push(failed);
			sent.push(log.length);
			rejected.push(log.filter((entry) => entry.status === 429).length);
		}
		const ratio = median(ratios);
		const failed = median(failures);
		const runsText = String(runs);
		return [
			{
				measure: `${ITEMS.toLocaleString('en-US')} single-product updates, sandbox limits on ×${SCALE}: time ÷ the limits' theoretical minimum`,
				figure: formatRatio(ratio),
				target: `≤ ${TARGET}`,
				met: ratio <= TARGET,
				runs: runsText,
				details:
					`minimum ${formatMs(minimumMs)} (see the note below); times ${listOf(times, formatMs)}; ` +
					`requests sent ${listOf(sent, String)}, of which answered 429 ${listOf(rejected, String)}`,
			},
			{
				measure: `${ITEMS.toLocaleString('en-US')} single-product updates, sandbox limits on ×${SCALE}: items failed`,
				figure: String(failed),
				target: '0',
				met: Math.max(...failures) === 0,
				runs: runsText,
				details: `failed per run ${listOf(failures, String)} (continue on fail on, so every item's outcome is in the output)`,
			},
		];
	} finally {
		await sandbox.close();
	}
}

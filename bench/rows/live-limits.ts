/**
 * Issue 11's rows: single-product updates at the live limits (sandbox rate scale 1: 60 a minute
 * and 5 a second for products), with and without Retry-After on the service's 429s. The node
 * paces itself to the known limits, so it should neither take longer than the limits force nor
 * need the service to refuse requests.
 *
 * Each scenario takes minutes (120 items need 71 s at the least, 300 items 251 s), so each runs
 * once whatever `--runs` says, and the four run side by side, each on its own merchant account
 * (its own windows on the service, its own gate in the node): about 4.5 minutes in all.
 */
import { RATE_LIMIT_GROUPS } from '../../sandbox/rate-limit';
import { credentialsFor, runMerchant } from '../merchant-node';
import { RemoteSandbox } from '../remote-sandbox';
import type { Row } from '../report';
import { formatMs, formatRatio } from '../stats';
import { earliestLastRequestMs } from './rate-limit';

const FIRST_PRODUCT_ID = 100_001;
const SIZES = [120, 300];
const TIME_TARGET = { withRetryAfter: 1.05, withoutRetryAfter: 1.1 };
/** 429s at most this share of the accepted requests. */
const REJECTED_TARGET = 0.05;

interface Outcome {
	items: number;
	retryAfter: boolean;
	ms: number;
	minimumMs: number;
	failed: number;
	accepted: number;
	rejected: number;
}

async function updateAtLiveLimits(sandbox: RemoteSandbox, items: number, retryAfter: boolean, offset: number): Promise<Outcome> {
	const client = sandbox.freshClient();
	const inputItems = Array.from({ length: items }, (_, index) => ({ id: FIRST_PRODUCT_ID + offset + index, stock: index % 50 }));
	const { result, ms } = await runMerchant(
		credentialsFor(sandbox, client),
		{ resource: 'product', operation: 'update', productId: '={{ $json.id }}', updateFields: { stockLevel: '={{ $json.stock }}' } },
		inputItems,
		{ continueOnFail: true },
	);
	const output = result.output('Node');
	const ids = new Set(inputItems.map((item) => item.id));
	const log = (await sandbox.log('productUpdate')).filter((entry) => ids.has(Number(entry.path.split('/').pop())));
	return {
		items,
		retryAfter,
		ms,
		minimumMs: earliestLastRequestMs(items, RATE_LIMIT_GROUPS.products),
		failed: items - output.filter((item) => !item.error && item.json.success === true).length,
		accepted: log.filter((entry) => entry.status === 200).length,
		rejected: log.filter((entry) => entry.status === 429).length,
	};
}

function rowsOf(outcome: Outcome): Row[] {
	const label = `${outcome.items} single-product updates at the live limits, 429s ${outcome.retryAfter ? 'with' : 'without'} Retry-After`;
	const timeTarget = outcome.retryAfter ? TIME_TARGET.withRetryAfter : TIME_TARGET.withoutRetryAfter;
	const ratio = outcome.ms / outcome.minimumMs;
	const rejectedShare = outcome.accepted === 0 ? Infinity : outcome.rejected / outcome.accepted;
	const counts = `${outcome.accepted} accepted, ${outcome.rejected} answered 429, ${outcome.failed} items failed`;
	return [
		{
			measure: `${label}: time ÷ the limits' theoretical minimum`,
			figure: formatRatio(ratio),
			target: `≤ ${timeTarget}`,
			met: ratio <= timeTarget && outcome.failed === 0,
			runs: '1',
			details: `${formatMs(outcome.ms)} against ${formatMs(outcome.minimumMs)} (the last request cannot be accepted earlier; see the rate-limit note); ${counts}`,
		},
		{
			measure: `${label}: requests answered 429 ÷ accepted`,
			figure: `${(rejectedShare * 100).toFixed(1)} %`,
			target: `≤ ${REJECTED_TARGET * 100} %`,
			met: rejectedShare <= REJECTED_TARGET && outcome.failed === 0,
			runs: '1',
			details: counts,
		},
	];
}

export async function measureLiveLimitWrites(): Promise<Row[]> {
	const products = SIZES.reduce((sum, size) => sum + size, 0);
	const [withRetryAfter, withoutRetryAfter] = await Promise.all([
		RemoteSandbox.start({ products, rateLimits: { scale: 1 }, clients: SIZES.length }),
		RemoteSandbox.start({ products, rateLimits: { scale: 1, retryAfter: false }, clients: SIZES.length }),
	]);
	try {
		const scenarios: Array<Promise<Outcome>> = [];
		for (const [sandbox, retryAfter] of [
			[withRetryAfter, true],
			[withoutRetryAfter, false],
		] as const) {
			let offset = 0;
			for (const size of SIZES) {
				scenarios.push(updateAtLiveLimits(sandbox, size, retryAfter, offset));
				offset += size;
			}
		}
		return (await Promise.all(scenarios)).flatMap(rowsOf);
	} finally {
		await Promise.all([withRetryAfter.close(), withoutRetryAfter.close()]);
	}
}

/**
 * Pages, id chunks and date windows of one item go out concurrently (within the group's
 * in-flight allowance) and come back merged in order, through the real engine against a sandbox
 * whose answers take a while and overtake each other (latency with jitter). Timing targets live
 * in the bench; these tests prove order, completeness, the bound on extra pages and that Limit
 * fetches nothing extra. "Sent before the previous one answered" is read off the sandbox's log:
 * with a fixed latency of F ms, an answer cannot come earlier than F ms after its request arrived.
 */
import type { INodeParameters } from 'n8n-workflow';

import { startSandbox, type RequestLogEntry, type Sandbox } from '../../sandbox';
import { runNode, sandboxCredential, type WorkflowRunResult } from '../harness';
import { chunkBySize } from '../../nodes/MarketplaceMerchant/transport/batches';
import { LIMITS } from '../../nodes/MarketplaceMerchant/transport/endpoints';

const NODE = 'marketplaceMerchant';
const NOW = '2025-06-15T10:00:00Z';
/** A day ahead of the real clock and the sandbox's: Price Get Many refuses a past day before sending. */
const PRICE_DAY = `15/06/${new Date().getUTCFullYear() + 1}`;
/** Every answer takes at least this long… */
const FIXED_MS = 150;
/** …and up to this much more, so that later requests often answer first. */
const JITTER_MS = 150;
/** Pages of Get Many Basic (Return All) and the group's in-flight allowance. */
const PAGE_SIZE = 2_500;
const IN_FLIGHT = 5;

let sandbox: Sandbox;

afterEach(async () => {
	await sandbox?.close();
});

async function start(products: number): Promise<void> {
	sandbox = await startSandbox({ rateLimits: false, now: NOW, seed: 9, products });
	sandbox.setVariants({ latency: { fixedMs: FIXED_MS, perKiBMs: 0, jitterMs: JITTER_MS } });
}

async function run(parameters: INodeParameters, inputItems: unknown[] = [{}]): Promise<WorkflowRunResult> {
	return await runNode(NODE, parameters, inputItems, { credentials: { marketplaceMerchantApi: sandboxCredential(sandbox) } });
}

function requestsTo(route: RequestLogEntry['route']): RequestLogEntry[] {
	return sandbox.log.filter((entry) => entry.route === route);
}

/** Whether some request arrived before an earlier one (in `order`) could have been answered. */
/** Whether a request arrived before the one before it (in `order`) can have been answered: sent without waiting for it. */
function overlapped(entries: RequestLogEntry[], order: (entry: RequestLogEntry) => number, latencyMs = FIXED_MS): boolean {
	const sorted = [...entries].sort((a, b) => order(a) - order(b));
	return sorted.some((entry, index) => index > 0 && entry.at < sorted[index - 1].at + latencyMs);
}

const pageOf = (entry: RequestLogEntry) => Number(entry.query.page);

describe('Return All: pages ahead', () => {
	it('returns every product once, in catalogue order, sending pages before the previous answered, at most 4 past the last', async () => {
		// 5 full pages and a short sixth: page 5 is the last.
		await start(5 * PAGE_SIZE + 321);

		const result = await run({ resource: 'product', operation: 'getManyBasic', returnAll: true });

		expect(result.error).toBeUndefined();
		expect(result.json('Node').map((product) => product.id)).toEqual(sandbox.state.products.map((product) => product.id));
		const pages = requestsTo('basicProducts');
		expect(pages.every((entry) => entry.query.size === String(PAGE_SIZE) && entry.status === 200)).toBe(true);
		// Each page once, none missing.
		const requested = pages.map(pageOf).sort((a, b) => a - b);
		expect(new Set(requested).size).toBe(requested.length);
		expect(requested.slice(0, 6)).toEqual([0, 1, 2, 3, 4, 5]);
		const pastTheLast = requested.filter((page) => page > 5);
		expect(pastTheLast.length).toBeLessThanOrEqual(IN_FLIGHT - 1);
		expect(overlapped(pages, pageOf)).toBe(true);
	});

	it('ends at an empty page when the catalogue fills its pages exactly', async () => {
		await start(3 * PAGE_SIZE);

		const result = await run({ resource: 'product', operation: 'getManyBasic', returnAll: true });

		expect(result.json('Node')).toHaveLength(3 * PAGE_SIZE);
		const requested = requestsTo('basicProducts').map(pageOf).sort((a, b) => a - b);
		expect(requested.slice(0, 4)).toEqual([0, 1, 2, 3]);
		expect(requested.filter((page) => page > 3).length).toBeLessThanOrEqual(IN_FLIGHT - 1);
	});

	it('keeps pages in order across items running side by side', async () => {
		await start(2 * PAGE_SIZE + 10);

		const result = await run({ resource: 'product', operation: 'getManyBasic', returnAll: true }, [{}, {}, {}]);

		const ids = sandbox.state.products.map((product) => product.id);
		const output = result.output('Node');
		for (const item of [0, 1, 2]) {
			expect(output.filter((entry) => entry.pairedItem && (entry.pairedItem as { item: number }).item === item).map((entry) => entry.json.id)).toEqual(ids);
		}
	});
});

describe('Limit: nothing extra', () => {
	it('fetches exactly the pages a limit needs, sized to need as few as possible', async () => {
		await start(4 * PAGE_SIZE);

		const result = await run({ resource: 'product', operation: 'getManyBasic', returnAll: false, limit: 6_000 });

		expect(result.json('Node').map((product) => product.id)).toEqual(sandbox.state.products.slice(0, 6_000).map((product) => product.id));
		const pages = requestsTo('basicProducts');
		expect(pages.map((entry) => ({ page: entry.query.page, size: entry.query.size })).sort((a, b) => Number(a.page) - Number(b.page))).toEqual([
			{ page: '0', size: '2000' },
			{ page: '1', size: '2000' },
			{ page: '2', size: '2000' },
		]);
	});

	it('sends one request for a small limit', async () => {
		await start(PAGE_SIZE);

		const result = await run({ resource: 'product', operation: 'getManyBasic', returnAll: false, limit: 7 });

		expect(result.json('Node')).toHaveLength(7);
		expect(requestsTo('basicProducts').map((entry) => entry.query)).toEqual([expect.objectContaining({ page: '0', size: '7' })]);
	});
});

describe('Price Get Many: chunks at once', () => {
	const ids = (from: number, count: number) => Array.from({ length: count }, (_, index) => from + index);

	it('merges 5 chunks of ids in order, sent before the previous answered', async () => {
		await start(600);
		const wanted = sandbox.state.products.slice(0, 450).map((product) => product.id);

		const result = await run({ resource: 'price', operation: 'getMany', merchantInventoryIds: wanted.join(','), date: PRICE_DAY });

		expect(result.error).toBeUndefined();
		expect(result.json('Node').map((price) => price.merchantInventoryId)).toEqual(wanted);
		const chunks = requestsTo('prices');
		expect(chunks).toHaveLength(5);
		const chunkOf = (entry: RequestLogEntry) => wanted.indexOf(Number(entry.query.merchantInventoryIds.split(',')[0]));
		expect(overlapped(chunks, chunkOf)).toBe(true);
	});

	it('a chunk answered 404 "No prices found" contributes no items; the other chunks still come out', async () => {
		await start(300);
		sandbox.setVariants({ pricesNotFoundWhenNoMatch: true });
		const known = sandbox.state.products.slice(0, 50).map((product) => product.id);
		// 150 ids: the first request of 100 holds only ids without a price, the second the 50 known ones.
		const unknown = ids(900_001, 100);

		const result = await run({ resource: 'price', operation: 'getMany', merchantInventoryIds: [...unknown, ...known].join(','), date: PRICE_DAY });

		expect(result.error).toBeUndefined();
		expect(result.json('Node').map((price) => price.merchantInventoryId)).toEqual(known);
		expect(requestsTo('prices').map((entry) => entry.status).sort()).toEqual([200, 404]);
	});

	it('fails the item when no chunk finds a price, as a single request would', async () => {
		await start(300);
		sandbox.setVariants({ pricesNotFoundWhenNoMatch: true });

		const result = await run({ resource: 'price', operation: 'getMany', merchantInventoryIds: ids(900_001, 150).join(','), date: PRICE_DAY });

		expect(result.error?.message).toMatch(/could not be found|No prices found/i);
		expect(requestsTo('prices').map((entry) => entry.status)).toEqual([404, 404]);
	});
});

describe('Invoice Get Many: windows at once', () => {
	it('fetches a 7-month range as three windows at once and merges them in order, as without latency', async () => {
		await start(300);
		const parameters = { resource: 'invoice', operation: 'getMany', dateFrom: '2024-12-01T00:00:00', dateTo: '2025-06-30T23:59:59', returnAll: true, simplify: false };
		sandbox.setVariants({ latency: false });
		const reference = (await run(parameters)).json('Node');
		// Each answer takes 800 ms: windows sent one after another would arrive at least that far
		// apart, while windows sent at once arrive well within it, however busy the machine is.
		const latencyMs = 800;
		sandbox.setVariants({ latency: { fixedMs: latencyMs, perKiBMs: 0, jitterMs: 0 } });
		sandbox.clearLog();

		const result = await run(parameters);

		expect(result.error).toBeUndefined();
		expect(reference.length).toBeGreaterThan(100);
		expect(result.json('Node')).toEqual(reference);
		const windows = requestsTo('invoices');
		expect(windows).toHaveLength(3);
		expect(overlapped(windows, (entry) => Date.parse(entry.query.dateFrom), latencyMs)).toBe(true);
	});
});

describe('Update Many: chunks in order when an id repeats', () => {
	it('sends the chunks one after another when a product comes in both, so that the later entry wins', async () => {
		await start(30_001);
		// 30,001 entries make two requests (30,000 + 1); the last entry repeats the first product.
		const products = Array.from({ length: 30_001 }, (_, index) => ({ id: 100_001 + (index % 30_000), stockLevel: index === 30_000 ? 77 : 5 }));
		// The big request takes longer: had they overlapped, the small one would have come first.
		sandbox.setVariants({ latency: { fixedMs: 0, perKiBMs: 0.2 } });

		const result = await run({ resource: 'product', operation: 'updateMany', inputMode: 'json', productsJson: '={{ $json.products }}' }, [{ products }]);

		expect(result.error).toBeUndefined();
		expect(requestsTo('productBulk').map((entry) => entry.itemCount)).toEqual([30_000, 1]);
		expect(sandbox.state.product(100_001)?.stockLevel).toBe(77);
	});
});

describe('chunkBySize', () => {
	it('measures what is sent: 30,000 updates carrying their outcomes are one request when their bodies fit (Sync cut at about 28,000 when it measured the outcomes)', () => {
		const updates = Array.from({ length: 30_001 }, (_, index) => ({
			outcome: {
				entry: index + 1,
				match: `860${String(index).padStart(10, '0')}`,
				productId: 100_000 + index,
				sku: `SKU-${String(index).padStart(6, '0')}`,
				status: 'planned',
				changes: { stockLevel: { from: 1, to: 2 }, basePrice: { from: 1299.99, to: 1199.99 } },
				errors: [],
			},
			body: { id: 100_000 + index, stockLevel: 2 },
		}));

		// What Sync sends (sendInBulk): the bodies alone.
		const chunks = chunkBySize(updates.map((update) => update.body), LIMITS.productsPerBulkRequest, LIMITS.bulkRequestBytes);

		expect(chunks.map((chunk) => chunk.length)).toEqual([30_000, 1]);
		// Measured on the whole objects, the same list would be cut earlier: the bug this guards against.
		expect(chunkBySize(updates, LIMITS.productsPerBulkRequest, LIMITS.bulkRequestBytes)[0].length).toBeLessThan(30_000);
	});
});

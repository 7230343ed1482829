/**
 * Trigger event "Product Changed" through n8n-core's real poll path against the sandbox: fires
 * once per product whose stock or price changed since the last poll, not for the catalogue on
 * activation, not twice, only when a watched field changed (also for a product first modified
 * since the last poll: the baseline read on activation tells), and keeps static data bounded.
 */
import type { IDataObject } from 'n8n-workflow';

import { decodeFingerprints, encodeFingerprints } from '../../nodes/MarketplaceMerchantTrigger/productChanges';
import type { ProductRecord } from '../../sandbox';
import { DAY, MINUTE, TriggerUnderTest, advance, emittedItems, setNow, useTriggerSandbox } from './helpers';

const START = '2025-06-15T10:00:00.000Z';

/** A new sandbox of 300 products for each test; `restart` gives one test a larger catalogue. */
const { sandbox, restart } = useTriggerSandbox({ start: START, seed: 5, per: 'test', options: { products: 300 } });

/** Changes on the platform's side (a sale from the platform warehouse): the sandbox's control. */
async function platformChanges(changes: Array<{ id: number; sold?: number; stockLevel?: number }>): Promise<void> {
	const response = await fetch(`${sandbox.url}/__sandbox/product-changes`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify(changes),
	});
	expect(response.status).toBe(200);
}

async function apiToken(): Promise<string> {
	const tokenResponse = await fetch(`${sandbox.url}/iam/api/v1/auth/token`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify({ grantType: 'CLIENT_CREDENTIALS', ...sandbox.client, scope: 'public_api/full_access' }),
	});
	return ((await tokenResponse.json()) as { access_token: string }).access_token;
}

/** The ids basic-products answers a query the trigger sent: what its poll had to read. */
async function answeredIds(query: Record<string, string>): Promise<number[]> {
	const response = await fetch(`${sandbox.url}/product/api/v1/merchant-integration/basic-products?${new URLSearchParams(query).toString()}`, {
		headers: { Authorization: `Bearer ${await apiToken()}` },
	});
	expect(response.status).toBe(200);
	return ((await response.json()) as Array<{ id: number }>).map((product) => product.id);
}

/** A price change through the API (PUT product/{id}), as the merchant's portal or another tool makes it. */
async function setPrice(id: number, basePrice: number): Promise<void> {
	const token = await apiToken();
	const response = await fetch(`${sandbox.url}/product/api/v1/merchant-integration/product/${id}`, {
		method: 'PUT',
		headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
		body: JSON.stringify({ id, basePrice }),
	});
	expect(response.status).toBe(200);
}

/** Products not modified in the last two days (outside the window a poll re-reads: only the baseline knows them), with stock. */
function quietProducts(): ProductRecord[] {
	const twoDaysAgo = new Date(Date.now() - 2 * DAY).toISOString();
	return sandbox.state.products.filter((product) => product.dateModified < twoDaysAgo && product.stockLevel > 5);
}

const ids = (items: Array<{ json: IDataObject }>) => items.map(({ json }) => json.id);

describe('Trigger: Product Changed', () => {
	it('does not emit the catalogue on activation, then fires once per changed product and not twice', async () => {
		const trigger = new TriggerUnderTest(sandbox, { event: 'productChanged', simplify: false });
		const recentlyModified = sandbox.state.products.filter((product) => product.dateModified >= '2025-06-14');
		expect(recentlyModified.length).toBeGreaterThan(0);

		expect(emittedItems(await trigger.poll())).toEqual([]);

		const [a, b] = quietProducts();
		advance(5 * MINUTE);
		await platformChanges([{ id: a.id, sold: 2 }]);
		advance(MINUTE);
		const first = emittedItems(await trigger.poll());
		expect(first.map(({ json }) => json)).toEqual([
			{
				event: 'productChanged',
				id: a.id,
				ean: a.ean,
				sku: a.sku,
				newBasePrice: a.newBasePrice,
				basePrice: a.basePrice,
				stockLevel: a.stockLevel - 2,
				warehouse: a.warehouse,
				previous: { stockLevel: a.stockLevel, basePrice: a.basePrice, newBasePrice: a.newBasePrice },
				changed: ['stockLevel'],
			},
		]);

		advance(MINUTE);
		expect(emittedItems(await trigger.poll())).toEqual([]);

		await platformChanges([{ id: a.id, sold: 1 }, { id: b.id, sold: 1 }]);
		advance(MINUTE);
		const second = emittedItems(await trigger.poll());
		expect(ids(second)).toEqual([a.id, b.id]);
		expect(second[0].json.previous).toEqual({ stockLevel: a.stockLevel - 2, basePrice: a.basePrice, newBasePrice: a.newBasePrice });
		expect(second[0].json.changed).toEqual(['stockLevel']);
		expect(second[0].json.stockLevel).toBe(a.stockLevel - 3);
		expect(emittedItems(await trigger.poll())).toEqual([]);
	});

	it('reads the answer through its schema: numbers sent as text are numbers, and a sale is told from its stock', async () => {
		sandbox.setVariants({ numbersAsStrings: true });
		const trigger = new TriggerUnderTest(sandbox, { event: 'productChanged', simplify: false });
		expect(emittedItems(await trigger.poll())).toEqual([]);
		const [a] = quietProducts();
		await platformChanges([{ id: a.id, sold: 1 }]);
		advance(MINUTE);
		expect(ids(emittedItems(await trigger.poll()))).toEqual([a.id]);

		await platformChanges([{ id: a.id, sold: 1 }]);
		advance(MINUTE);
		const [sold] = emittedItems(await trigger.poll());
		expect(sold.json.id).toBe(a.id);
		expect(sold.json.stockLevel).toBe(a.stockLevel - 2);
		expect(sold.json.previous).toEqual({ stockLevel: a.stockLevel - 1, basePrice: a.basePrice, newBasePrice: a.newBasePrice });
		expect(sold.json.changed).toEqual(['stockLevel']);
	});

	it('sees a change made just before midnight in the first poll after it (simplified by default), and asks for at most the last two days', async () => {
		setNow('2025-06-15T23:50:00.000Z');
		const trigger = new TriggerUnderTest(sandbox, { event: 'productChanged' });
		expect(emittedItems(await trigger.poll())).toEqual([]);
		const [a] = quietProducts();

		setNow('2025-06-15T23:59:30.000Z');
		await platformChanges([{ id: a.id, stockLevel: 0 }]);
		setNow('2025-06-16T00:05:00.000Z');
		sandbox.clearLog();
		const items = emittedItems(await trigger.poll());

		expect(items.map(({ json }) => json)).toEqual([
			{
				id: a.id,
				ean: a.ean,
				sku: a.sku,
				stockLevel: 0,
				basePrice: a.basePrice,
				newBasePrice: a.newBasePrice,
				previous: { stockLevel: a.stockLevel, basePrice: a.basePrice, newBasePrice: a.newBasePrice },
			},
		]);
		const queries = sandbox.log.filter((entry) => entry.route === 'basicProducts').map((entry) => entry.query);
		// The day for a service honouring the reference's name; the last poll less 10 minutes for the current pages' name.
		expect(queries).toEqual([{ 'date-modified-after': '2025-06-15', dateModifiedAfter: '2025-06-15T23:40:00', page: '0', size: '2500' }]);
	});

	// basic-products' filter: the reference's `date-modified-after` (a day) or the current pages'
	// `dateModifiedAfter` (a UTC timestamp). A service ignoring the name sent would answer the whole
	// catalogue to every poll: 2 pages of 3,000 products instead of 1.
	it.each(['reference', 'documented', 'both'] as const)(
		'with a service honouring the %s filter name(s): an idle poll is one request and emits nothing; a change fires once',
		async (names) => {
			await restart({ products: 3_000 });
			sandbox.setVariants({ basicProductsModifiedFilter: names });
			const trigger = new TriggerUnderTest(sandbox, { event: 'productChanged' });
			expect(emittedItems(await trigger.poll())).toEqual([]);
			const [a] = quietProducts();

			advance(5 * MINUTE);
			await platformChanges([{ id: a.id, sold: 1 }]);
			advance(MINUTE);
			expect(ids(emittedItems(await trigger.poll()))).toEqual([a.id]);

			advance(30 * MINUTE);
			sandbox.clearLog();
			expect(emittedItems(await trigger.poll())).toEqual([]);
			advance(30 * MINUTE);
			expect(emittedItems(await trigger.poll())).toEqual([]);
			const queries = sandbox.log.filter((entry) => entry.route === 'basicProducts').map((entry) => entry.query);
			expect(queries).toEqual([
				{ 'date-modified-after': '2025-06-14', dateModifiedAfter: '2025-06-15T09:56:00', page: '0', size: '2500' },
				{ 'date-modified-after': '2025-06-14', dateModifiedAfter: '2025-06-15T10:26:00', page: '0', size: '2500' },
			]);
			// What the idle poll read: since the day before (reference), or only since its last poll (the timestamp).
			const read = await answeredIds(queries[1]);
			if (names === 'reference') expect(read).toContain(a.id);
			else expect(read).toEqual([]);
		},
	);

	it('reads a change the service stamped before the last poll (its clock 5 minutes behind n8n\'s): the 10-minute overlap', async () => {
		sandbox.setVariants({ basicProductsModifiedFilter: 'documented' });
		const trigger = new TriggerUnderTest(sandbox, { event: 'productChanged' });
		expect(emittedItems(await trigger.poll())).toEqual([]);
		const [a] = quietProducts();
		sandbox.clock.advance(-5 * MINUTE);
		// Made after the poll, stamped 5 minutes before it by the service's clock.
		await platformChanges([{ id: a.id, sold: 1 }]);
		advance(MINUTE);
		expect(ids(emittedItems(await trigger.poll()))).toEqual([a.id]);
		advance(MINUTE);
		expect(emittedItems(await trigger.poll())).toEqual([]);
	});

	it('fires only for the watched fields: stock only, price only', async () => {
		const stockOnly = new TriggerUnderTest(sandbox, { event: 'productChanged', watchFields: 'stock', simplify: false });
		const priceOnly = new TriggerUnderTest(sandbox, { event: 'productChanged', watchFields: 'price', simplify: false });
		const [a, b] = quietProducts();
		// Modified before activation: both triggers hold their fingerprints.
		await platformChanges([{ id: a.id, sold: 1 }, { id: b.id, sold: 1 }]);
		advance(MINUTE);
		expect(emittedItems(await stockOnly.poll())).toEqual([]);
		expect(emittedItems(await priceOnly.poll())).toEqual([]);

		advance(MINUTE);
		await setPrice(a.id, a.newBasePrice + 100);
		await platformChanges([{ id: b.id, sold: 1 }]);
		advance(MINUTE);

		const stockItems = emittedItems(await stockOnly.poll());
		const priceItems = emittedItems(await priceOnly.poll());
		expect(stockItems.map(({ json }) => [json.id, json.changed])).toEqual([[b.id, ['stockLevel']]]);
		expect(priceItems.map(({ json }) => [json.id, json.changed])).toEqual([[a.id, ['newBasePrice']]]);
		expect(priceItems[0].json.previous).toEqual({ stockLevel: a.stockLevel - 1, basePrice: a.basePrice, newBasePrice: a.newBasePrice });
		expect(priceItems[0].json.newBasePrice).toBe(a.newBasePrice + 100);

		// The new price taking effect the next day is not a new change.
		setNow(Date.parse(START) + DAY);
		expect(emittedItems(await priceOnly.poll())).toEqual([]);
	});

	it('reads the whole catalogue on activation as the baseline, and never again', async () => {
		sandbox.clearLog();
		const trigger = new TriggerUnderTest(sandbox, { event: 'productChanged' });
		expect(emittedItems(await trigger.poll())).toEqual([]);
		advance(MINUTE);
		expect(emittedItems(await trigger.poll())).toEqual([]);

		const queries = sandbox.log.filter((entry) => entry.route === 'basicProducts').map((entry) => entry.query);
		expect(queries).toEqual([
			{ page: '0', size: '2500' },
			{ 'date-modified-after': '2025-06-14', dateModifiedAfter: '2025-06-15T09:50:00', page: '0', size: '2500' },
		]);
		expect(decodeFingerprints((trigger.state.productChanged as { products: string }).products).size).toBe(sandbox.state.products.length);
	});

	it('is exact about what changed for a product first modified since the last poll: a sale is no price change, a price change no sale', async () => {
		const stockOnly = new TriggerUnderTest(sandbox, { event: 'productChanged', watchFields: 'stock', simplify: false });
		const priceOnly = new TriggerUnderTest(sandbox, { event: 'productChanged', watchFields: 'price', simplify: false });
		const both = new TriggerUnderTest(sandbox, { event: 'productChanged', simplify: false });
		for (const trigger of [stockOnly, priceOnly, both]) expect(emittedItems(await trigger.poll())).toEqual([]);
		const [sold, repriced, untouched] = quietProducts();

		// The first sale of the day of one product, a new price of another: neither in the window before.
		advance(MINUTE);
		await platformChanges([{ id: sold.id, sold: 1 }]);
		await setPrice(repriced.id, repriced.newBasePrice + 50);
		// A stock "change" to the same stock modifies the product without changing a watched value.
		await platformChanges([{ id: untouched.id, stockLevel: untouched.stockLevel }]);
		advance(MINUTE);

		const fired = async (trigger: TriggerUnderTest) => emittedItems(await trigger.poll()).map(({ json }) => [json.id, json.changed]);
		expect(await fired(stockOnly)).toEqual([[sold.id, ['stockLevel']]]);
		expect(await fired(priceOnly)).toEqual([[repriced.id, ['newBasePrice']]]);
		expect(await fired(both)).toEqual([
			[sold.id, ['stockLevel']],
			[repriced.id, ['newBasePrice']],
		]);
	});

	it('takes a state from before the baseline: compares the products it knows while reading the catalogue, then fires for every product', async () => {
		const trigger = new TriggerUnderTest(sandbox, { event: 'productChanged', simplify: false });
		const [known, unknown] = quietProducts();
		// What version 1 stored: the fingerprints of the products modified in the window only.
		trigger.staticData['node:Trigger'] = {
			productChanged: {
			v: 1,
			polledAt: new Date(Date.now() - MINUTE).toISOString(),
				products: encodeFingerprints(new Map([[known.id, { stockLevel: known.stockLevel, basePrice: known.basePrice, newBasePrice: known.newBasePrice }]])),
			},
		};
		await platformChanges([{ id: known.id, sold: 1 }, { id: unknown.id, sold: 1 }]);
		advance(MINUTE);
		expect(ids(emittedItems(await trigger.poll()))).toEqual([known.id]);

		await platformChanges([{ id: unknown.id, sold: 1 }]);
		advance(MINUTE);
		expect(ids(emittedItems(await trigger.poll()))).toEqual([unknown.id]);
	});

	it('Fetch Test Event shows a recently modified product without changing the state', async () => {
		const trigger = new TriggerUnderTest(sandbox, { event: 'productChanged', simplify: false });
		const result = await trigger.fetchTestEvent();
		const [item] = emittedItems(result);
		expect(item.json).toMatchObject({ event: 'productChanged', previous: null });
		expect(trigger.state).toEqual({});
	});

	it('keeps static data bounded by the catalogue: 2,000 changes a day among 20,000 products, each fired once, about 9 bytes a product', async () => {
		await restart({ products: 20_000 });
		setNow('2025-06-15T00:30:00.000Z');
		const trigger = new TriggerUnderTest(sandbox, { event: 'productChanged' });
		expect(emittedItems(await trigger.poll())).toEqual([]);

		const changedIds = sandbox.state.products.filter((product) => product.stockLevel > 0).slice(0, 2_000).map((product) => product.id);
		const fired: number[] = [];
		let largest = 0;
		// 2,000 sales over the day, polled every hour.
		for (let hour = 0; hour < 23; hour++) {
			advance(60 * MINUTE);
			const batch = changedIds.slice(Math.floor((hour * 2_000) / 23), Math.floor(((hour + 1) * 2_000) / 23));
			await platformChanges(batch.map((id) => ({ id, sold: 1 })));
			fired.push(...emittedItems(await trigger.poll()).map(({ json }) => Number(json.id)));
			largest = Math.max(largest, Buffer.byteLength(JSON.stringify(trigger.staticData)));
		}

		expect(fired.sort((x, y) => x - y)).toEqual([...changedIds].sort((x, y) => x - y));
		const bytesPerProduct = largest / sandbox.state.products.length;
		expect(bytesPerProduct).toBeLessThan(10);

		// Two quiet days later, the first poll reads from the day of the last one; the state stays the catalogue's.
		setNow('2025-06-17T12:00:00.000Z');
		sandbox.clearLog();
		expect(emittedItems(await trigger.poll())).toEqual([]);
		advance(MINUTE);
		expect(emittedItems(await trigger.poll())).toEqual([]);
		const queries = sandbox.log.filter((entry) => entry.route === 'basicProducts').map((entry) => entry.query['date-modified-after']);
		expect(queries).toEqual(['2025-06-15', '2025-06-16']);
		expect(Buffer.byteLength(JSON.stringify(trigger.staticData))).toBeLessThanOrEqual(largest);
	}, 120_000);

	it('stores fingerprints compactly and reads them back exactly, unknown and odd values included', () => {
		const fingerprints = new Map([
			[100_001, { stockLevel: 5, basePrice: 1299, newBasePrice: 1299 }],
			[100_042, { stockLevel: 0, basePrice: 1299.5, newBasePrice: 999.99 }],
			[250_000, { stockLevel: null, basePrice: null, newBasePrice: 12.345 }],
			[250_001, { stockLevel: 2.5, basePrice: 10, newBasePrice: null }],
		]);
		const encoded = encodeFingerprints(fingerprints);
		expect(decodeFingerprints(encoded)).toEqual(fingerprints);
		expect(encoded.startsWith('255t.5.')).toBe(true);
		// Consecutive ids cost nothing but the separator.
		expect(encodeFingerprints(new Map([[7, { stockLevel: 1, basePrice: 1, newBasePrice: 1 }], [8, { stockLevel: 2, basePrice: 1, newBasePrice: 1 }]]))).toBe('7.1.2s,.2.2s');
		expect(decodeFingerprints('')).toEqual(new Map());
	});
});

/**
 * Product › Sync Stock and Prices through n8n's real engine against the sandbox: every status
 * (updated, unchanged, guarded, not_found, ambiguous, failed, planned), the catalogue read once,
 * only changes sent, the price guard, products not in the list, Summary Only, and strict input.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { ProductRecord } from '../../../sandbox';
import type { RunNodeOptions, WorkflowRunResult } from '../../harness';
import { NOW, runner, sandbox, sandboxPerTest } from '../helpers';

const start = sandboxPerTest((products: number = 300) => ({ now: NOW, products }));
const run = runner();

/** A sync run with the detailed outcome (Simplify off), which the tests of what a run decides read; Simplify is tested on its own. */
async function sync(products: unknown[], parameters: INodeParameters = {}, options: RunNodeOptions = {}): Promise<WorkflowRunResult> {
	return await run(
		{ resource: 'product', operation: 'syncStockAndPrices', inputMode: 'json', productsJson: '={{ $json.products }}', simplify: false, ...parameters },
		[{ products }],
		options,
	);
}

/**
 * On Error = Continue: the outcomes of entries not written (not found, ambiguous, failed, guarded
 * whole) are items there; under the default the run fails naming them (test/actions/bulk/run.test.ts).
 */
const CONTINUE: RunNodeOptions = { node: { onError: 'continueRegularOutput' } };

/** Products whose price applies as it is (no change pending for tomorrow), with some stock. */
function settledProducts(): ProductRecord[] {
	return sandbox.state.products.filter((product) => product.newBasePrice === product.basePrice && product.stockLevel > 0);
}

function bulkBodies(): number[] {
	return sandbox.log.filter((entry) => entry.route === 'productBulk').map((entry) => entry.itemCount ?? -1);
}

function statuses(result: WorkflowRunResult): string[] {
	return result.json('Node').map((item) => String(item.status));
}

/** A valid access token for direct calls to the sandbox (to prepare data the node cannot). */
async function token(): Promise<string> {
	const response = await fetch(`${sandbox.url}/iam/api/v1/auth/token`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify({ grantType: 'CLIENT_CREDENTIALS', ...sandbox.client, scope: 'public_api/full_access' }),
	});
	return ((await response.json()) as { access_token: string }).access_token;
}

describe('Product: Sync Stock and Prices', () => {
	it('reads the catalogue once, sends only the changed fields of the changed entries, and reports updated and unchanged', async () => {
		await start(3000);
		const [a, b, c] = settledProducts();

		const result = await sync([
			{ ean: a.ean, stockLevel: a.stockLevel + 5, basePrice: a.basePrice },
			{ ean: b.ean, stockLevel: b.stockLevel, basePrice: `${b.basePrice}.00` },
			{ ean: c.ean, basePrice: c.basePrice + 10 },
		]);

		expect(result.error).toBeUndefined();
		expect(result.json('Node')).toEqual([
			{ entry: 1, match: a.ean, productId: a.id, sku: a.sku, status: 'updated', changes: { stockLevel: { from: a.stockLevel, to: a.stockLevel + 5 } }, errors: [] },
			{ entry: 2, match: b.ean, productId: b.id, sku: b.sku, status: 'unchanged', changes: {}, errors: [] },
			{ entry: 3, match: c.ean, productId: c.id, sku: c.sku, status: 'updated', changes: { basePrice: { from: c.basePrice, to: c.basePrice + 10 } }, errors: [] },
		]);
		const reads = sandbox.log.filter((entry) => entry.route === 'basicProducts');
		// Pages go out ahead of the answers (transport/batches.ts, `readAllPages`): at most 4 past the short last page.
		const pages = reads.map(({ query }) => `${query.page}/${query.size}`);
		expect(pages.slice(0, 2)).toEqual(['0/2500', '1/2500']);
		expect(pages.length).toBeLessThanOrEqual(2 + 4);
		expect(new Set(pages).size).toBe(pages.length);
		expect(bulkBodies()).toEqual([2]);
		expect(sandbox.state.product(a.id)?.stockLevel).toBe(a.stockLevel + 5);
		expect(sandbox.state.product(a.id)?.newBasePrice).toBe(a.basePrice);
		expect(sandbox.state.product(c.id)?.newBasePrice).toBe(c.basePrice + 10);
		expect(sandbox.state.product(c.id)?.stockLevel).toBe(c.stockLevel);
	});

	it("carries the product's name where the write result names it (Simplify on and off)", async () => {
		await start();
		sandbox.setVariants({ documentedUpdateResults: true });
		const [a, b] = settledProducts();

		const simplified = await sync([{ ean: a.ean, stockLevel: a.stockLevel + 1 }, { ean: b.ean, stockLevel: b.stockLevel }], { simplify: true });
		expect(simplified.json('Node').map((item) => [item.id, item.status, item.productName])).toEqual([
			[a.id, 'updated', a.name],
			// Unchanged: nothing was sent, so the service named nothing.
			[b.id, 'unchanged', undefined],
		]);
		const full = await sync([{ ean: a.ean, stockLevel: a.stockLevel + 2 }]);
		expect(full.json('Node')[0]).toEqual(expect.objectContaining({ status: 'updated', productName: a.name }));
	});

	it('compares prices with newBasePrice, the price that will apply, to the cent', async () => {
		await start();
		const pending = sandbox.state.products.find((product) => product.newBasePrice !== product.basePrice) as ProductRecord;

		const result = await sync([{ id: pending.id, basePrice: pending.newBasePrice }], { matchBy: 'id' });

		expect(statuses(result)).toEqual(['unchanged']);
		expect(bulkBodies()).toEqual([]);
	});

	it('reads the catalogue through the answer schema: numbers the service sends as text compare as numbers', async () => {
		await start();
		const [a, b] = settledProducts();
		sandbox.setVariants({ numbersAsStrings: true });

		const result = await sync([
			{ ean: a.ean, stockLevel: a.stockLevel, basePrice: a.newBasePrice },
			{ ean: b.ean, stockLevel: b.stockLevel + 1 },
		]);

		expect(result.error).toBeUndefined();
		expect(statuses(result)).toEqual(['unchanged', 'updated']);
		expect(result.json('Node')[1].changes).toEqual({ stockLevel: { from: b.stockLevel, to: b.stockLevel + 1 } });
	});

	it('holds back prices beyond the guard with both prices; allowLargePriceChange and a wider guard let them through', async () => {
		await start();
		const [a, b, c, d] = settledProducts();
		const entries = [
			{ sku: a.sku, basePrice: Math.round(a.basePrice * 0.4), stockLevel: a.stockLevel + 1 },
			{ sku: b.sku, basePrice: b.basePrice * 3 },
			{ sku: c.sku, basePrice: c.basePrice * 3, allowLargePriceChange: true },
			{ sku: d.sku, basePrice: Math.round(d.basePrice * 0.6) },
		];

		const result = await sync(entries, { matchBy: 'sku' }, CONTINUE);

		const items = result.json('Node');
		expect(statuses(result)).toEqual(['guarded', 'guarded', 'updated', 'updated']);
		// The guard holds back the price, not the stock: the marketplace must not sell stock the merchant no longer has.
		expect(items[0].changes).toEqual({ stockLevel: { from: a.stockLevel, to: a.stockLevel + 1 } });
		expect(items[0].heldBack).toEqual({ basePrice: { from: a.basePrice, to: Math.round(a.basePrice * 0.4) } });
		expect((items[0].errors as string[])[0]).toMatch(/below the current .*Max Price Decrease 50%.*the price was held back and the stock change sent.*allowLargePriceChange/);
		expect((items[1].errors as string[])[0]).toMatch(/200% above the current .*Max Price Increase 100%.*nothing of this entry was sent/);
		expect(bulkBodies()).toEqual([3]);
		expect(sandbox.state.product(a.id)?.stockLevel).toBe(a.stockLevel + 1);
		expect(sandbox.state.product(a.id)?.newBasePrice).toBe(a.basePrice);
		expect(sandbox.state.product(b.id)?.newBasePrice).toBe(b.basePrice);

		// When a Price Is Held Back = Hold Back the Whole Entry: nothing of a guarded entry is sent.
		sandbox.clearLog();
		const whole = await sync([{ sku: a.sku, basePrice: Math.round(a.basePrice * 0.4), stockLevel: a.stockLevel + 5 }], {
			matchBy: 'sku',
			options: { guardedEntries: 'holdEntry' },
		}, CONTINUE);
		expect(statuses(whole)).toEqual(['guarded']);
		expect((whole.json('Node')[0].errors as string[])[0]).toMatch(/nothing of this entry was sent/);
		expect(bulkBodies()).toEqual([]);
		expect(sandbox.state.product(a.id)?.stockLevel).toBe(a.stockLevel + 1);

		sandbox.clearLog();
		const wider = await sync(entries.slice(0, 2), { matchBy: 'sku', options: { maxDecreasePercent: 70, maxIncreasePercent: 250 } });
		expect(statuses(wider)).toEqual(['updated', 'updated']);
		const off = await sync([{ sku: d.sku, basePrice: 1 }], { matchBy: 'sku', options: { priceGuard: false } });
		expect(statuses(off)).toEqual(['updated']);
	});

	it('matches EANs with and without leading zeros, and reports unknown ones as not_found', async () => {
		await start();
		const [a] = settledProducts();

		const result = await sync([
			{ ean: `0${a.ean}`, stockLevel: a.stockLevel + 1 },
			{ ean: '4006381333931', stockLevel: 3 },
		], {}, CONTINUE);

		expect(result.json('Node').map(({ status, productId, matchedEan }) => ({ status, productId, matchedEan }))).toEqual([
			// The form the catalogue has: the entry gave its GTIN-14.
			{ status: 'updated', productId: a.id, matchedEan: a.ean },
			{ status: 'not_found', productId: null, matchedEan: undefined },
		]);
		expect(result.json('Node')[1].errors).toEqual(['No product in the catalogue has EAN 4006381333931']);
		expect(bulkBodies()).toEqual([1]);
	});

	it('reports repeated entries and keys that match two products as ambiguous, and sends neither', async () => {
		await start();
		const [a, b] = settledProducts();
		const accessToken = await token();
		// A second product whose EAN is b's with a leading zero: one EAN key, two products.
		const imported = await fetch(`${sandbox.url}/product/api/v1/merchant-integration/import`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${accessToken}` },
			body: JSON.stringify({ ean: `0${b.ean}`, name: 'Twin', basePrice: 100, vat: 20 }),
		});
		expect(imported.status).toBe(200);
		const twin = sandbox.state.productByEan(`0${b.ean}`) as ProductRecord;

		const result = await sync([
			{ ean: a.ean, stockLevel: 1 },
			{ ean: b.ean, stockLevel: 2 },
			{ ean: `0${a.ean}`, stockLevel: 3 },
		], {}, CONTINUE);

		const items = result.json('Node');
		expect(statuses(result)).toEqual(['ambiguous', 'ambiguous', 'ambiguous']);
		expect(items[0].productId).toBe(a.id);
		expect((items[0].errors as string[])[0]).toMatch(/^EAN \d+ is named by Products \(JSON\) › entries 1 and 3: repeated entries are not sent/);
		expect(items[1].productId).toBeNull();
		expect(items[1].errors).toEqual([`EAN ${b.ean} matches 2 products (IDs ${b.id}, ${twin.id}): nothing was sent`]);
		expect(bulkBodies()).toEqual([]);
	});

	it('marks the entries of a bulk request the service refused as failed', async () => {
		await start();
		const [a, b] = settledProducts();
		sandbox.injectFault({ route: 'productBulk', status: 400, count: 1 });

		const result = await sync([
			{ ean: a.ean, stockLevel: a.stockLevel + 1 },
			{ ean: b.ean, stockLevel: b.stockLevel },
		], {}, CONTINUE);

		expect(result.error).toBeUndefined();
		expect(statuses(result)).toEqual(['failed', 'unchanged']);
		expect((result.json('Node')[0].errors as string[])[0]).toMatch(/^The bulk update request failed: /);
	});

	it('marks an entry the bulk answer has no result for as failed, never updated', async () => {
		await start();
		const [a, b, c] = settledProducts();
		sandbox.setVariants({ bulkResultsDropped: 1 });

		const result = await sync([
			{ ean: a.ean, stockLevel: a.stockLevel + 1 },
			{ ean: b.ean, stockLevel: b.stockLevel + 2 },
			{ ean: c.ean, stockLevel: c.stockLevel },
		], {}, CONTINUE);

		expect(result.error).toBeUndefined();
		expect(bulkBodies()).toEqual([2]);
		expect(statuses(result)).toEqual(['updated', 'failed', 'unchanged']);
		const [, withoutResult] = result.json('Node');
		expect(withoutResult.productId).toBe(b.id);
		expect((withoutResult.errors as string[])[0]).toMatch(/returned no result for this entry: it may or may not have been applied/);
	});

	it('Dry Run: reports what would change as planned and sends nothing', async () => {
		await start();
		const [a, b] = settledProducts();

		const result = await sync(
			[
				{ id: a.id, stockLevel: a.stockLevel + 1 },
				{ id: b.id, basePrice: b.basePrice * 10 },
			],
			{ matchBy: 'id', dryRun: true },
		);

		expect(statuses(result)).toEqual(['planned', 'guarded']);
		expect(result.json('Node')[0].changes).toEqual({ stockLevel: { from: a.stockLevel, to: a.stockLevel + 1 } });
		expect(bulkBodies()).toEqual([]);
		expect(sandbox.state.product(a.id)?.stockLevel).toBe(a.stockLevel);
	});

	it("matches each page of the catalogue as it arrives: a twin on the last page of a product on the first, and every page's products not in the list", async () => {
		// Three pages of 2,500 basic products; the twin is imported last, so it is on the last page.
		await start(6_000);
		const products = [...sandbox.state.products];
		const [first] = products;
		const imported = await fetch(`${sandbox.url}/product/api/v1/merchant-integration/import`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${await token()}` },
			body: JSON.stringify({ ean: `0${first.ean}`, name: 'Twin', basePrice: 100, vat: 20 }),
		});
		expect(imported.status).toBe(200);
		const twin = sandbox.state.productByEan(`0${first.ean}`) as ProductRecord;
		const listed = products.slice(0, 5_000);

		const result = await sync(
			listed.map((product) => ({ ean: product.ean, stockLevel: product.stockLevel })),
			{ notInList: 'zero', dryRun: true, options: { confirmZeroing: true } },
			CONTINUE,
		);

		expect(result.error).toBeUndefined();
		const items = result.json('Node');
		expect(items[0]).toMatchObject({ status: 'ambiguous', errors: [`EAN ${first.ean} matches 2 products (IDs ${first.id}, ${twin.id}): nothing was sent`] });
		expect(items.slice(1, 5_000).every((item) => item.status === 'unchanged')).toBe(true);
		// The twin shares the listed product's key: named, so never set to 0.
		const zeroed = items.slice(5_000);
		expect(zeroed.map((item) => item.productId)).toEqual(products.slice(5_000).filter((product) => product.stockLevel !== 0).map((product) => product.id));
		expect(zeroed.every((item) => item.notInList === true && item.status === 'planned')).toBe(true);
		expect(bulkBodies()).toEqual([]);
	});

	describe('products not in the list', () => {
		it('are left alone by default', async () => {
			await start(100);
			const [a] = settledProducts();
			const result = await sync([{ ean: a.ean, stockLevel: a.stockLevel }]);
			expect(statuses(result)).toEqual(['unchanged']);
			expect(bulkBodies()).toEqual([]);
		});

		it('a Products Not in the List no choice names (a workflow made through the API) is refused, not read as Leave Unchanged (issue 41)', async () => {
			await start(100);
			const [a] = settledProducts();
			const result = await sync([{ ean: a.ean, stockLevel: a.stockLevel + 1 }], { notInList: 'zeroAll' });
			expect(result.error?.message).toMatch(/^Products Not in the List: "zeroAll" is not one of leave, zero/);
			expect(bulkBodies()).toEqual([]);
		});

		it('get stock 0 with Set Stock to 0, one item each, in the same bulk request', async () => {
			await start(100);
			const products = sandbox.state.products;
			const listed = products.slice(0, 90);
			const left = products.slice(90).filter((product) => product.stockLevel > 0);
			expect(left.length).toBeGreaterThan(0);

			const result = await sync(
				listed.map((product) => ({ ean: product.ean, stockLevel: product.stockLevel })),
				{ notInList: 'zero' },
			);

			const zeroed = result.json('Node').filter((item) => item.notInList === true);
			expect(zeroed).toEqual(
				left.map((product) => ({
					entry: null,
					match: product.ean,
					productId: product.id,
					sku: product.sku,
					status: 'updated',
					changes: { stockLevel: { from: product.stockLevel, to: 0 } },
					errors: [],
					notInList: true,
				})),
			);
			expect(bulkBodies()).toEqual([left.length]);
			expect(left.every((product) => sandbox.state.product(product.id)?.stockLevel === 0)).toBe(true);
		});

		it('are not set to 0 beyond the allowed share unless confirmed: a truncated feed cannot empty the shop', async () => {
			await start(100);
			const products = sandbox.state.products;
			const truncated = products.slice(0, 30).map((product) => ({ ean: product.ean, stockLevel: product.stockLevel }));

			const refused = await sync(truncated, { notInList: 'zero' });

			expect(refused.error?.message).toMatch(/would set stock to 0 for \d+ of 100 products \(\d+(\.\d)?%\), more than the allowed 20% \(item 0\)\. Nothing was sent\./);
			expect(bulkBodies()).toEqual([]);

			const confirmed = await sync(truncated, { notInList: 'zero', dryRun: true, options: { confirmZeroing: true } });
			expect(confirmed.error).toBeUndefined();
			const planned = confirmed.json('Node').filter((item) => item.notInList === true);
			expect(planned.length).toBe(products.slice(30).filter((product) => product.stockLevel > 0).length);
			expect(planned.every((item) => item.status === 'planned')).toBe(true);
			expect(bulkBodies()).toEqual([]);
		});
	});

	it('Summary Only: one item with the counts and the ids per status', async () => {
		await start();
		const [a, b, c] = settledProducts();

		const result = await sync(
			[
				{ id: a.id, stockLevel: a.stockLevel + 1 },
				{ id: b.id, stockLevel: b.stockLevel },
				{ id: c.id, basePrice: c.basePrice * 5 },
				{ id: 999_999, stockLevel: 1 },
			],
			{ matchBy: 'id', output: 'summary' },
			CONTINUE,
		);

		expect(result.json('Node')).toEqual([
			{
				dryRun: false,
				entries: 4,
				notInList: 0,
				counts: { updated: 1, unchanged: 1, guarded: 1, price_unreadable: 0, not_found: 1, ambiguous: 0, failed: 0, planned: 0, invalid: 0 },
				ids: { updated: [a.id], unchanged: [b.id], guarded: [c.id], price_unreadable: [], not_found: [999_999], ambiguous: [], failed: [], planned: [], invalid: [] },
			},
		]);
	});

	it.each([
		[{ ean: 'X', stockLevel: 1 }, /^Products \(JSON\) › entry 1 › EAN \(ean\): "X" is not an EAN \(item 0\)$/],
		[{ basePrice: 1299, stockLevel: 1 }, /^Products \(JSON\) › entry 1 › EAN \(ean\): is missing \(item 0\)$/],
		[{ ean: '8600000000017', basePrice: '1,299' }, /^Products \(JSON\) › entry 1 › Base Price \(basePrice\): "1,299" is not a price \(item 0\)$/],
		[{ ean: '8600000000017', basePrice: '1.299' }, /\(basePrice\): "1\.299" has more than 2 decimal places/],
		[{ ean: '8600000000017', stockLevel: '1e3' }, /\(stockLevel\): "1e3" is not a stock level/],
		[{ ean: '8600000000017', stockLevel: 2.5 }, /\(stockLevel\): 2\.5 is not a stock level/],
		[{ ean: '8600000000017', stockLevel: 1, allowLargePriceChange: 'yes' }, /\(allowLargePriceChange\): "yes" is not true or false/],
		[{ ean: '8600000000017' }, /^Products \(JSON\) › entry 1: nothing to sync \(item 0\)$/],
	])('rejects %j before sending anything', async (entry, message) => {
		await start(10);

		const result = await sync([entry]);

		expect(result.error?.message).toMatch(message);
		expect(sandbox.log.filter((logged) => logged.route !== 'token')).toEqual([]);
	});

	it('an invalid run stops the node before any run reads or sends (On Error = Stop)', async () => {
		await start(10);
		const [a] = settledProducts();

		const result = await run(
			{ resource: 'product', operation: 'syncStockAndPrices', inputMode: 'json', productsJson: '={{ $json.products }}' },
			[{ products: [{ ean: a.ean, stockLevel: a.stockLevel + 1 }] }, { products: [{ ean: a.ean, stockLevel: '1,000' }] }],
		);

		expect(result.error?.message).toBe('Products (JSON) › entry 1 › Stock Level (stockLevel): "1,000" is not a stock level (a whole number) (item 1)');
		expect(sandbox.log.filter((logged) => logged.route !== 'token')).toEqual([]);
	});

	it('reads rows entered in the node, with the match value in Match Value', async () => {
		await start(20);
		const [a] = settledProducts();

		const result = await run(
			{
				resource: 'product',
				operation: 'syncStockAndPrices',
				matchBy: 'sku',
				inputMode: 'rows',
				productRows: { product: [{ match: a.sku, stockLevel: String(a.stockLevel + 2), basePrice: '' }] },
			},
			[{}],
		);

		expect(result.json('Node').map((item: IDataObject) => [item.status, item.changes])).toEqual([
			['updated', { stockLevel: { from: a.stockLevel, to: a.stockLevel + 2 } }],
		]);
	});

	it('gives one flat item per entry by default (Simplify): product ID, success, status, error, the input and the changes', async () => {
		await start(20);
		const [a, b] = settledProducts();

		const result = await sync(
			[
				{ ean: a.ean, stockLevel: a.stockLevel + 3 },
				{ ean: b.ean, basePrice: b.basePrice * 5 },
				{ ean: '4006381333931', stockLevel: 1 },
			],
			{ simplify: true },
			CONTINUE,
		);

		expect(result.json('Node')).toEqual([
			{ id: a.id, sku: a.sku, success: true, status: 'updated', input: { ean: a.ean, stockLevel: a.stockLevel + 3 }, changes: { stockLevel: { from: a.stockLevel, to: a.stockLevel + 3 } } },
			{
				id: b.id,
				sku: b.sku,
				success: false,
				status: 'guarded',
				error: expect.stringMatching(/above the current .*Max Price Increase/),
				input: { ean: b.ean, basePrice: b.basePrice * 5 },
				changes: { basePrice: { from: b.basePrice, to: b.basePrice * 5 } },
			},
			{ id: null, sku: null, success: false, status: 'not_found', error: 'No product in the catalogue has EAN 4006381333931', input: { ean: '4006381333931', stockLevel: 1 }, changes: {} },
		]);
	});

	it('names rows by their position and label in errors', async () => {
		await start(10);

		const result = await run(
			{
				resource: 'product',
				operation: 'syncStockAndPrices',
				matchBy: 'ean',
				inputMode: 'rows',
				productRows: { product: [{ match: '8600000000017', stockLevel: '3' }, { match: '8600000000017', stockLevel: '1.000' }] },
			},
			[{}],
		);

		expect(result.error?.message).toBe('Products › row 2 › Stock Level: "1.000" is not a stock level (a whole number) (item 0)');
		const blank = await run(
			{ resource: 'product', operation: 'syncStockAndPrices', matchBy: 'ean', inputMode: 'rows', productRows: { product: [{ match: ' ', stockLevel: '3' }] } },
			[{}],
		);
		expect(blank.error?.message).toBe('Products › row 1 › Match Value: is missing (item 0)');
	});

	describe('an oversold item (stock below 0) in the feed', () => {
		it.each([
			['refuses it per item (the reference)', false],
			['stores it as 0', true],
		])('is taken as 0 by default, with a note, against a service that %s', async (_case, negativeStockStoredAsZero) => {
			await start(20);
			sandbox.setVariants({ negativeStockStoredAsZero });
			const [a, b] = settledProducts();

			const result = await sync([{ ean: a.ean, stockLevel: '-3' }, { ean: b.ean, stockLevel: b.stockLevel + 1 }], { simplify: true });

			expect(result.error).toBeUndefined();
			expect(result.json('Node')).toEqual([
				{
					id: a.id,
					sku: a.sku,
					success: true,
					status: 'updated',
					notes: ['Stock Level -3 taken as 0, as the service stores it'],
					input: { ean: a.ean, stockLevel: 0 },
					changes: { stockLevel: { from: a.stockLevel, to: 0 } },
				},
				{ id: b.id, sku: b.sku, success: true, status: 'updated', input: { ean: b.ean, stockLevel: b.stockLevel + 1 }, changes: { stockLevel: { from: b.stockLevel, to: b.stockLevel + 1 } } },
			]);
			expect(sandbox.state.product(a.id)?.stockLevel).toBe(0);
			expect(bulkBodies()).toEqual([2]);
		});

		it('keeps its note when nothing is sent (the stock is already 0), and in the detailed outcome', async () => {
			await start(20);
			const [a] = settledProducts();

			await sync([{ ean: a.ean, stockLevel: 0 }]);
			const result = await sync([{ ean: a.ean, stockLevel: -1 }]);

			expect(result.json('Node')).toEqual([
				{ entry: 1, match: a.ean, productId: a.id, sku: a.sku, status: 'unchanged', changes: {}, errors: [], notes: ['Stock Level -1 taken as 0, as the service stores it'] },
			]);
		});

		it('is an invalid entry under Options › Negative Stock: Treat as Invalid', async () => {
			await start(20);
			const [a, b] = settledProducts();

			const stopped = await sync([{ ean: a.ean, stockLevel: 5 }, { ean: b.ean, stockLevel: '-3' }], { options: { negativeStock: 'invalid' } });
			expect(stopped.error?.message).toBe('Products (JSON) › entry 2 › Stock Level (stockLevel): must be at least 0, got -3 (item 0)');
			expect(sandbox.log.filter((logged) => logged.route !== 'token')).toEqual([]);

			const skipped = await sync([{ ean: a.ean, stockLevel: 5 }, { ean: b.ean, stockLevel: '-3' }], { options: { negativeStock: 'invalid' }, invalidEntries: 'skip' }, CONTINUE);
			expect(statuses(skipped)).toEqual([a.stockLevel === 5 ? 'unchanged' : 'updated', 'invalid']);
			expect(sandbox.state.product(b.id)?.stockLevel).toBe(b.stockLevel);
		});
	});
});

/** A price as sr-RS writes it: a dot groups thousands, a comma marks decimals (2729 → "2.729,00"). */
function serbian(price: number): string {
	const [whole, decimals] = price.toFixed(2).split('.');
	return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, '.')},${decimals}`;
}

const SHEET_ROWS = 30;
/** The row given the price "1,299" (from 1), as the export had it. */
const UNREADABLE_ROW = 7;

/**
 * The merchant's export in the Serbian format as Extract from File gives it (every value text):
 * 30 rows, each a new stock and a price 10 RSD up (so that both are written), "2.729,00" style.
 */
function serbianSheet(products: ProductRecord[], price: (product: ProductRecord) => string = (product) => serbian(product.basePrice + 10)): IDataObject[] {
	return products.slice(0, SHEET_ROWS).map((product) => ({ EAN: product.ean, Stock: String(product.stockLevel + 3), Price: price(product) }));
}

const SHEET_SYNC: INodeParameters = {
	resource: 'product',
	operation: 'syncStockAndPrices',
	inputMode: 'items',
	itemMatch: '={{ $json.EAN }}',
	itemStockLevel: '={{ $json.Stock }}',
	itemBasePrice: '={{ $json.Price }}',
	invalidEntries: 'skip',
};
const ITEMS_NODE = { node: { typeVersion: 2 } };
/** Rows the run rejects fail a run under the default On Error (issue 29): these tests read them as items. */
const ITEMS_CONTINUE: RunNodeOptions = { node: { typeVersion: 2, onError: 'continueRegularOutput' } };

describe('Sync: Number Format and prices that cannot be read (issue 29)', () => {
	it('the 30-row Serbian CSV with Number Format Serbian: all 30 written, "2.729,00" as 2729', async () => {
		await start(3000);
		const products = settledProducts().filter((product) => product.basePrice >= 1000).slice(0, SHEET_ROWS);
		const rows = serbianSheet(products);
		expect(rows.some((row) => /^\d{1,3}\.\d{3},\d{2}$/.test(String(row.Price)))).toBe(true);

		const result = await run({ ...SHEET_SYNC, options: { numberFormat: 'serbian' } }, rows, ITEMS_CONTINUE);

		expect(result.error).toBeUndefined();
		const items = result.json('Node');
		expect(items.map((item) => [item.status, item.error])).toEqual(products.map(() => ['updated', undefined]));
		expect(bulkBodies()).toEqual([SHEET_ROWS]);
		for (const product of products) {
			expect(sandbox.state.product(product.id)).toEqual(expect.objectContaining({ stockLevel: product.stockLevel + 3, newBasePrice: product.basePrice + 10 }));
		}
	});

	it('one unreadable price (Skip and Report): its stock is written, the price is reported and not sent, and the entry is not a success', async () => {
		await start(3000);
		const products = settledProducts().filter((product) => product.basePrice >= 1000).slice(0, SHEET_ROWS);
		const rows = serbianSheet(products);
		// "1,299" in the Serbian format is 1.299: three decimals, not a price.
		rows[UNREADABLE_ROW - 1].Price = '1,299';
		const row7 = products[UNREADABLE_ROW - 1];

		const result = await run({ ...SHEET_SYNC, options: { numberFormat: 'serbian' } }, rows, ITEMS_CONTINUE);

		const items = result.json('Node');
		expect(items).toHaveLength(SHEET_ROWS);
		const item = items[UNREADABLE_ROW - 1];
		expect(item).toEqual(
			expect.objectContaining({
				id: row7.id,
				success: false,
				status: 'price_unreadable',
				changes: { stockLevel: { from: row7.stockLevel, to: row7.stockLevel + 3 } },
				notRead: { basePrice: '1,299' },
				input: { ean: row7.ean, stockLevel: row7.stockLevel + 3, basePrice: '1,299' },
			}),
		);
		expect(item.error).toMatch(new RegExp(`^row ${UNREADABLE_ROW} \\(EAN ${row7.ean}\\) › Base Price: "1,299" has more than 2 decimal places \\(Number Format is Serbian: .*\\); the price was not sent and the stock change was$`));
		expect(items.filter((other) => other !== item).every((other) => other.status === 'updated')).toBe(true);
		expect(bulkBodies()).toEqual([SHEET_ROWS]);
		expect(sandbox.state.product(row7.id)).toEqual(expect.objectContaining({ stockLevel: row7.stockLevel + 3, newBasePrice: row7.basePrice }));
		const sent = sandbox.log.find((entry) => entry.route === 'productBulk');
		expect(sent?.itemCount).toBe(SHEET_ROWS);

		// Hold Back the Whole Entry holds back an unreadable price's entry as it does a guarded one.
		const held = await run({ ...SHEET_SYNC, options: { numberFormat: 'serbian', guardedEntries: 'holdEntry' } }, [rows[UNREADABLE_ROW - 1]], ITEMS_CONTINUE);
		expect(held.json('Node')[0]).toEqual(expect.objectContaining({ success: false, status: 'price_unreadable', changes: {} }));
		expect(String(held.json('Node')[0].error)).toMatch(/; nothing of this entry was sent$/);

		// Stop the Run still stops at it, before anything is sent, and names it.
		sandbox.clearLog();
		const stopped = await run({ ...SHEET_SYNC, invalidEntries: 'stop', options: { numberFormat: 'serbian' } }, rows, ITEMS_NODE);
		expect(stopped.error?.message).toBe(`row ${UNREADABLE_ROW} (EAN ${row7.ean}) › Base Price: "1,299" has more than 2 decimal places (item ${UNREADABLE_ROW - 1})`);
		expect(bulkBodies()).toEqual([]);
	});

	it("every price unreadable under the default On Error: the run's error lists the rows and says the Number Format hint once, ending with a full stop", async () => {
		await start(3000);
		const products = settledProducts().filter((product) => product.basePrice >= 1000).slice(0, 3);
		const rows = serbianSheet(products, () => '1,299');

		const result = await run({ ...SHEET_SYNC, options: { numberFormat: 'serbian' } }, rows, ITEMS_NODE);

		const message = String(result.error?.message);
		expect(message).toMatch(/^3 of 3 entries rejected: row 1 \(EAN \d+\) › Base Price: "1,299" has more than 2 decimal places; the price was not sent and the stock change was; row 2 /);
		expect(message.match(/Number Format is Serbian/g)).toHaveLength(1);
		expect(message).toMatch(/the stock change was\. Number Format is Serbian: [^]*\.$/);
	});

	it('Plain, the default, still refuses "1,299" and "2.729,00", and says where to state the format', async () => {
		await start();
		const [a, b] = settledProducts();
		const rows = [
			{ EAN: a.ean, Stock: String(a.stockLevel + 1), Price: '1,299' },
			{ EAN: b.ean, Stock: String(b.stockLevel + 1), Price: '2.729,00' },
		];

		const stopped = await run({ ...SHEET_SYNC, invalidEntries: 'stop' }, rows, ITEMS_NODE);

		// Stop the Run names every invalid row (issue 29, point 4).
		expect(stopped.error?.message).toBe(
			`2 entries are invalid, nothing was sent: row 1 (EAN ${a.ean}) › Base Price: "1,299" is not a price; row 2 (EAN ${b.ean}) › Base Price: "2.729,00" is not a price.`,
		);
		expect(stopped.error?.description).toContain('Number Format is Plain; if the sheet writes 1.299,50 (Serbian) or 1,299.50 (English), set Options › Number Format');
		expect(bulkBodies()).toEqual([]);
	});

	it('English: "1,299.50" is 1299.5 and a stock of "1,000" is 1000; a Serbian "1.299,50" is refused naming the format', async () => {
		await start();
		const [a, b] = settledProducts();
		const rows = [
			{ EAN: a.ean, Stock: '1,000', Price: '1,299.50' },
			{ EAN: b.ean, Stock: '4', Price: '1.299,50' },
		];

		const result = await run({ ...SHEET_SYNC, options: { numberFormat: 'english', priceGuard: false } }, rows, ITEMS_CONTINUE);

		const items = result.json('Node');
		expect(items[0]).toEqual(expect.objectContaining({ status: 'updated', changes: { stockLevel: { from: a.stockLevel, to: 1000 }, basePrice: { from: a.basePrice, to: 1299.5 } } }));
		expect(items[1]).toEqual(expect.objectContaining({ status: 'price_unreadable', notRead: { basePrice: '1.299,50' } }));
		expect(items[1].error).toContain('"1.299,50" is not a price in Number Format English (Number Format is English: a comma groups thousands and a point marks decimals');
		expect(sandbox.state.product(a.id)).toEqual(expect.objectContaining({ stockLevel: 1000, newBasePrice: 1299.5 }));
		expect(sandbox.state.product(b.id)?.stockLevel).toBe(4);
	});

	it('one row let past the price guard by a mapped Allow Large Price Change; the guard says what to set for the others, in the panel\'s words', async () => {
		await start();
		const [a, b] = settledProducts();
		const rows = [a, b].map((product) => ({ EAN: product.ean, Stock: String(product.stockLevel), Price: String(product.basePrice * 3) }));

		const result = await run({ ...SHEET_SYNC, itemAllowLargePriceChange: `={{ $json.EAN === '${a.ean}' }}` }, rows, ITEMS_CONTINUE);

		const items = result.json('Node');
		expect(items.map((item) => item.status)).toEqual(['updated', 'guarded']);
		expect(sandbox.state.product(a.id)?.newBasePrice).toBe(a.basePrice * 3);
		expect(sandbox.state.product(b.id)?.newBasePrice).toBe(b.basePrice);
		expect(items[1].error).toContain(
			`to send it, let row 2 (EAN ${b.ean}) › Allow Large Price Change be true: map Allow Large Price Change to a column of the sheet (true for the rows to let through), or to an expression true for this row alone, e.g. {{ String($json.EAN) === '${b.ean}' }}`,
		);
		// The prices in the message as neither a Serbian nor an English reader misreads them.
		expect(items[1].error).not.toMatch(/\d,\d{3}/);

		// Define Below names the row's toggle; JSON the key on the entry.
		const inRows = await run(
			{ resource: 'product', operation: 'syncStockAndPrices', inputMode: 'rows', productRows: { product: [{ match: b.ean, basePrice: String(b.basePrice * 3) }] } },
			[{}],
			ITEMS_CONTINUE,
		);
		expect(inRows.json('Node')[0].error).toContain('to send it, turn on Products › row 1 › Allow Large Price Change');
		const inJson = await sync([{ ean: b.ean, basePrice: b.basePrice * 3 }], {}, CONTINUE);
		expect((inJson.json('Node')[0].errors as string[])[0]).toContain('to send it, set "allowLargePriceChange": true on Products (JSON) › entry 1');
	});
});

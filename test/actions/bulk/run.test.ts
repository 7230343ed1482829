/**
 * The run of a bulk operation (actions/bulk/run.ts), through n8n's real engine against the
 * sandbox: invalid rows stop the run or are skipped and reported (Invalid Entries), every output
 * paired with its row, rejected entries loud by the node's On Error, and the execution hint.
 */
import type { ProductRecord } from '../../../sandbox';
import { apiRequests, newEan, sandbox, sent } from '../helpers';
import { CONTINUE, ERROR_OUTPUT, NEW_NODE, SYNC_MAPPED, hintsOf, pairedItems, run, settledProducts, sheetRows, start, updateManyWithUnknownProduct } from './helpers';

describe('bulk operations: one entry per input item, one batch per run', () => {
	it('Stop the Run (the default): a row with "1,299" sends nothing and is named by its row and match value', async () => {
		await start();
		const products = settledProducts(4);

		const result = await run(SYNC_MAPPED, sheetRows(products, (_, index) => (index === 2 ? { Price: '1,299' } : {})), NEW_NODE);

		expect(result.error?.message).toBe(`row 3 (EAN ${products[2].ean}) › Base Price: "1,299" is not a price (item 2)`);
		expect(apiRequests()).toEqual([]);
	});

	it('Stop the Run under On Error = Continue: only the invalid row fails, as an error item; the others are sent', async () => {
		await start();
		const products = settledProducts(3);

		const result = await run(SYNC_MAPPED, sheetRows(products, (_, index) => (index === 1 ? { Qty: '2.5' } : {})), {
			node: { typeVersion: 2, onError: 'continueRegularOutput' },
		});

		const items = result.output('Node');
		expect(items.map((item) => item.json.status ?? item.error?.message)).toEqual([
			'updated',
			expect.stringMatching(/^row 2 \(EAN \d+\) › Stock Level: /),
			'updated',
		]);
		expect(pairedItems(items)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(sent('productBulk').map((entry) => entry.itemCount)).toEqual([2]);
	});

	it('Skip and Report under On Error = Continue: the valid rows are sent, the invalid one comes out as success false with the reason, and the output pane says how many were rejected', async () => {
		await start();
		const products = settledProducts(4);

		const result = await run(
			{ ...SYNC_MAPPED, invalidEntries: 'skip' },
			sheetRows(products, (_, index) => (index === 2 ? { Price: '1,299' } : {})),
			CONTINUE,
		);

		expect(result.error).toBeUndefined();
		const items = result.json('Node');
		// Sync: a price that cannot be read holds back only itself; the row's stock is sent (issue 29).
		expect(items.map((item) => item.status)).toEqual(['updated', 'updated', 'price_unreadable', 'updated']);
		expect(items[2]).toMatchObject({ id: products[2].id, success: false, error: expect.stringMatching(`^row 3 \\(EAN ${products[2].ean}\\) › Base Price: "1,299" is not a price`) });
		expect(items[0]).not.toHaveProperty('error');
		expect(sent('productBulk').map((entry) => entry.itemCount)).toEqual([4]);
		expect(hintsOf(result)).toEqual([expect.objectContaining({ message: expect.stringMatching(/^1 of 4 entries rejected/), type: 'warning', location: 'outputPane' })]);
	});

	it('under On Error = Continue, a rejection by the service shows in the hint too, and entries that succeeded carry no error', async () => {
		await start();
		const { a, b, result } = await updateManyWithUnknownProduct(CONTINUE);

		const items = result.output('Node');
		expect(items.map(({ json }) => [json.id, json.success])).toEqual([
			[a.id, true],
			[999_999, false],
			[b.id, true],
		]);
		expect(items[0].json).not.toHaveProperty('error');
		expect(pairedItems(items)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(sent('productBulk').map((entry) => entry.itemCount)).toEqual([3]);
		expect(hintsOf(result)[0]?.message).toMatch(/^1 of 3 entries rejected/);
	});

	it('the price guard holds back the price of a row and still sends its stock; the run then ends as an error, after the writes (issue 38, point 5)', async () => {
		await start();
		const [a, b] = settledProducts(2);
		const rows = [
			{ EAN: a.ean, Qty: '0', Price: String(Math.round(a.basePrice * 2.5)) },
			{ EAN: b.ean, Qty: String(b.stockLevel + 3), Price: String(b.basePrice) },
		];

		const result = await run(SYNC_MAPPED, rows, NEW_NODE);

		// As loud as a rejection: the execution fails (its error workflow runs) once everything is written.
		expect(result.status).toBe('error');
		expect(result.error?.message).toMatch(
			new RegExp(`^1 of 2 entries written in part \\(the other 1 went through\\): row 1 \\(EAN ${a.ean}\\): New price .* is 150% above the current .*; the price was held back and the stock change sent; `),
		);
		expect(result.error?.description).toMatch(/Keep Held Prices Quiet/);
		expect(sandbox.state.product(a.id)).toMatchObject({ stockLevel: 0, newBasePrice: a.basePrice });
		expect(sandbox.state.product(b.id)?.stockLevel).toBe(b.stockLevel + 3);
	});

	it('Options › Keep Held Prices Quiet: a held price leaves the run green, the row in the main output with status guarded and a warning', async () => {
		await start();
		const [a] = settledProducts(1);

		const result = await run({ ...SYNC_MAPPED, options: { quietHeldPrices: true } }, [{ EAN: a.ean, Qty: '0', Price: String(Math.round(a.basePrice * 2.5)) }], NEW_NODE);

		expect(result.error).toBeUndefined();
		expect(hintsOf(result).map((hint) => hint.message)).toEqual([expect.stringMatching(/^1 price held back by the price guard, the stock sent/)]);
		const [item] = result.json('Node');
		expect(item).toMatchObject({ success: false, status: 'guarded', changes: { stockLevel: { from: a.stockLevel, to: 0 } } });
		expect(item.error).toMatch(/the price was held back and the stock change sent/);
		expect(sandbox.state.product(a.id)).toMatchObject({ stockLevel: 0, newBasePrice: a.basePrice });
	});

	it('Continue (using error output): the row whose price was held back leaves through the error output, its stock written', async () => {
		await start();
		const [a, b] = settledProducts(2);
		const rows = [
			{ EAN: a.ean, Qty: String(a.stockLevel + 2), Price: String(a.basePrice) },
			{ EAN: b.ean, Qty: '1', Price: String(Math.round(b.basePrice * 0.3)) },
		];

		const result = await run(SYNC_MAPPED, rows, ERROR_OUTPUT);

		expect(result.error).toBeUndefined();
		expect(result.json('Node', 0).map((item) => [item.id, item.status])).toEqual([[a.id, 'updated']]);
		const [held] = result.output('Node', 1);
		expect(held.json).toMatchObject({ EAN: b.ean, message: expect.stringMatching(`^row 2 \\(EAN ${b.ean}\\): New price .* below the current`), error: { status: 'guarded' } });
		expect(held.pairedItem).toEqual({ item: 1 });
		expect(sandbox.state.product(b.id)).toMatchObject({ stockLevel: 1, newBasePrice: b.basePrice });
	});
});

describe('rejected entries are loud, by the node\'s On Error setting', () => {
	// An unreadable stock makes its row invalid; an unreadable price would still send the row's stock (issue 29, point 2).
	const rowsWithRejections = (products: ProductRecord[], unknownEan: string) =>
		sheetRows(products, (_, index) => (index === 1 ? { Qty: 'five' } : index === 3 ? { EAN: unknownEan } : {}));

	it('default On Error (Skip and Report): the valid rows are written first, then the execution fails naming the rejected row', async () => {
		await start();
		const products = settledProducts(4);

		const result = await run({ ...SYNC_MAPPED, invalidEntries: 'skip' }, sheetRows(products, (_, index) => (index === 2 ? { Qty: 'five' } : {})), NEW_NODE);

		expect(result.status).toBe('error');
		expect(result.error?.message).toBe(`1 of 4 entries rejected (the other 3 went through): row 3 (EAN ${products[2].ean}) › Stock Level: "five" is not a stock level (a whole number).`);
		expect(result.error?.description).toMatch(/Continue \(using error output\)/);
		expect(sent('productBulk').map((entry) => entry.itemCount)).toEqual([3]);
		expect(products.map((product) => sandbox.state.product(product.id)?.stockLevel)).toEqual(
			products.map((product, index) => (index === 2 ? product.stockLevel : product.stockLevel + 1)),
		);
	});

	it('default On Error: a row the service rejects (Update Many, an unknown product) fails the execution once the others are written', async () => {
		await start();
		const { a, b, result } = await updateManyWithUnknownProduct(NEW_NODE);

		expect(result.status).toBe('error');
		expect(result.error?.message).toMatch(/^1 of 3 entries rejected \(the other 2 went through\): row 2\b.*: Product 999999 does not exist\.$/);
		expect([sandbox.state.product(a.id)?.stockLevel, sandbox.state.product(b.id)?.stockLevel]).toEqual([7, 8]);
	});

	it('default On Error: rows not in the catalogue fail a Sync once the others are written; more than ten are named as ten "and N more"', async () => {
		await start();
		const products = settledProducts(13);
		const rows = sheetRows(products, (product, index) => (index < 12 ? { EAN: newEan(String(index + 1)) } : {}));

		const result = await run(SYNC_MAPPED, rows, NEW_NODE);

		const message = result.error?.message ?? '';
		expect(message).toMatch(/^12 of 13 entries rejected \(the other 1 went through\): row 1 \(EAN \d+\): No product in the catalogue has EAN \d+; /);
		expect(message.match(/No product in the catalogue/g)).toHaveLength(10);
		expect(message).toMatch(/; row 10 \(EAN \d+\): No product in the catalogue has EAN \d+; and 2 more\.$/);
		expect(sandbox.state.product(products[12].id)?.stockLevel).toBe(products[12].stockLevel + 1);
	});

	it('Continue (using error output): accepted rows leave through the main output, each rejected one through the error output with its row, reason and input, on its CSV row', async () => {
		await start();
		const products = settledProducts(4);
		const unknown = newEan('77');

		const result = await run({ ...SYNC_MAPPED, invalidEntries: 'skip' }, rowsWithRejections(products, unknown), ERROR_OUTPUT);

		expect(result.status).toBe('success');
		const main = result.output('Node', 0);
		expect(main.map(({ json }) => [json.id, json.status])).toEqual([
			[products[0].id, 'updated'],
			[products[2].id, 'updated'],
		]);
		expect(pairedItems(main)).toEqual([{ item: 0 }, { item: 2 }]);
		const rejected = result.output('Node', 1);
		expect(pairedItems(rejected)).toEqual([{ item: 1 }, { item: 3 }]);
		const invalid = `row 2 (EAN ${products[1].ean}) › Stock Level: "five" is not a stock level (a whole number)`;
		expect(rejected[0].json).toEqual({
			EAN: products[1].ean,
			Qty: 'five',
			Price: String(products[1].basePrice),
			message: invalid,
			error: expect.objectContaining({ row: `row 2 (EAN ${products[1].ean})`, reason: invalid, success: false, status: 'invalid' }),
		});
		expect(rejected[1].json).toMatchObject({
			EAN: unknown,
			message: `row 4 (EAN ${unknown}): No product in the catalogue has EAN ${unknown}`,
			error: { row: `row 4 (EAN ${unknown})`, status: 'not_found', input: { ean: unknown, stockLevel: products[3].stockLevel + 1, basePrice: products[3].basePrice } },
		});
		expect(sent('productBulk').map((entry) => entry.itemCount)).toEqual([2]);
		expect(hintsOf(result).map((hint) => hint.message)).toEqual([expect.stringMatching(/^2 of 4 entries rejected: they leave through the error output/)]);
	});

	it('Continue (using error output) with Summary Only: the summary on the main output, the rejected row on the error output', async () => {
		await start();
		const products = settledProducts(4);
		const unknown = newEan('78');

		const result = await run({ ...SYNC_MAPPED, invalidEntries: 'skip', output: 'summary' }, rowsWithRejections(products, unknown), ERROR_OUTPUT);

		expect(result.json('Node', 0)).toEqual([expect.objectContaining({ entries: 4, counts: expect.objectContaining({ updated: 2, invalid: 1, not_found: 1 }) })]);
		expect(result.json('Node', 1).map((json) => json.message)).toEqual([expect.stringMatching(/^row 2 \(EAN \d+\) › Stock Level/), expect.stringMatching(/^row 4 \(EAN \d+\): No product/)]);
	});

	it('Continue (using regular output): as before, rejected rows are items with success false in the main output; nothing leaves an error output', async () => {
		await start();
		const products = settledProducts(4);

		const result = await run({ ...SYNC_MAPPED, invalidEntries: 'skip' }, rowsWithRejections(products, newEan('79')), CONTINUE);

		expect(result.status).toBe('success');
		expect(result.json('Node').map((json) => json.status)).toEqual(['updated', 'invalid', 'updated', 'not_found']);
		expect(result.output('Node', 1)).toEqual([]);
	});

	it('Dry Run is a preview: what it would reject never fails the run', async () => {
		await start();
		const products = settledProducts(2);

		const result = await run({ ...SYNC_MAPPED, dryRun: true }, sheetRows(products, (_, index) => (index === 1 ? { EAN: newEan('80') } : {})), NEW_NODE);

		expect(result.error).toBeUndefined();
		expect(result.json('Node').map((json) => json.status)).toEqual(['planned', 'not_found']);
		expect(sent('productBulk')).toEqual([]);
	});

	it('Stop the Run names every invalid row, with its field and reason: ten, then "and N more"; nothing is sent', async () => {
		await start();
		const products = settledProducts(13);

		const result = await run(SYNC_MAPPED, sheetRows(products, (_, index) => (index < 12 ? { Price: '1,299' } : {})), NEW_NODE);

		const message = result.error?.message ?? '';
		expect(message.startsWith(`12 entries are invalid, nothing was sent: row 1 (EAN ${products[0].ean}) › Base Price: "1,299" is not a price; row 2 (EAN `)).toBe(true);
		expect(message.match(/› Base Price: "1,299" is not a price/g)).toHaveLength(10);
		expect(message.endsWith(`row 10 (EAN ${products[9].ean}) › Base Price: "1,299" is not a price; and 2 more.`)).toBe(true);
		expect(result.error?.description).toMatch(/Skip and Report/);
		expect(apiRequests()).toEqual([]);
	});
});

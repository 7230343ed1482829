/** Discount › Get Many: the discounts running in a range, and the limit, through the real engine against the sandbox. */
import { NODE_UNDER_TEST_NAME } from '../../harness';
import { DISCOUNT_SANDBOX, YEAR, dayAhead, freshProducts, goodPrice, runner, sale, sandbox, sandboxPerFile, sandboxPerTest, schedule, sent } from '../helpers';

/** A day in milliseconds. */
const DAY_MS = 86_400_000;

sandboxPerFile(DISCOUNT_SANDBOX);
const run = runner('discount');

describe('Discount › Get Many', () => {
	/** What the service should list for a range, from the sandbox state: discounts running at some time in it. */
	function expectedIds(from: string, to: string): string[] {
		const fromMs = Date.parse(`${from}T00:00:00Z`);
		const toEndMs = Date.parse(`${to}T00:00:00Z`) + DAY_MS - 1;
		return sandbox.state.discounts
			.filter((discount) => !discount.cancelled && discount.startsAtMs <= toEndMs && (discount.endsAtMs === null || discount.endsAtMs >= fromMs))
			.sort((a, b) => a.startsAtMs - b.startsAtMs)
			.map((discount) => discount.discountId);
	}

	it('outputs one item per discount running in the range, as in the sandbox state', async () => {
		const [product] = freshProducts(1);
		await schedule([sale(product, `20/07/${YEAR}`, `25/07/${YEAR}`)]);
		const result = await run({ operation: 'getMany', dateFrom: `${YEAR}-06-01T00:00:00`, dateTo: `${YEAR}-07-31T00:00:00`, returnAll: true });

		const discounts = result.json(NODE_UNDER_TEST_NAME);
		const expected = expectedIds(`${YEAR}-06-01`, `${YEAR}-07-31`);
		expect(expected).toContain(sandbox.state.discounts.find((discount) => discount.merchantInventoryId === product.id)?.discountId);
		expect(expected.length).toBeGreaterThan(3);
		expect(discounts.map((discount) => discount.discountId)).toEqual(expected);
		const state = new Map(sandbox.state.discounts.map((discount) => [discount.discountId, discount]));
		for (const discount of discounts) {
			expect(discount).toMatchObject({
				merchantInventoryId: state.get(discount.discountId as string)!.merchantInventoryId,
				discountPrice: state.get(discount.discountId as string)!.discountPrice,
			});
		}
		expect(sandbox.log.find((entry) => entry.route === 'discountList')?.query).toEqual({ dateFrom: `01/06/${YEAR}`, dateTo: `31/07/${YEAR}` });
	});

	it('keeps the first results up to the limit from the one answer', async () => {
		const result = await run({ operation: 'getMany', dateFrom: `01/06/${YEAR}`, dateTo: `31/07/${YEAR}`, returnAll: false, limit: 2 });

		expect(result.json(NODE_UNDER_TEST_NAME).map((discount) => discount.discountId)).toEqual(expectedIds(`${YEAR}-06-01`, `${YEAR}-07-31`).slice(0, 2));
		expect(sandbox.count('discountList')).toBe(1);
	});
	it('without dates asks from today (the workflow\'s time zone, here UTC) to 30 days ahead: no field to fill before the first run', async () => {
		const result = await run({ operation: 'getMany', returnAll: true });

		expect(result.error).toBeUndefined();
		expect(sent('discountList').map((entry) => entry.query)).toEqual([{ dateFrom: dayAhead(0), dateTo: dayAhead(30) }]);
	});

	it('with Date From only, asks 30 days from it', async () => {
		const result = await run({ operation: 'getMany', dateFrom: `${YEAR}-08-01`, returnAll: true });

		expect(result.error).toBeUndefined();
		expect(sent('discountList').map((entry) => entry.query)).toEqual([{ dateFrom: `01/08/${YEAR}`, dateTo: `31/08/${YEAR}` }]);
	});

	it("Simplify: each discount as the Discount ID list shows it, its product's name and regular price from the catalogue, the price a number beside its currency, the type where the rules leave one", async () => {
		const [sold, seasonal, clearance] = freshProducts(3);
		const scheduled = await schedule([
			sale(sold, `20/08/${YEAR}`, `25/08/${YEAR}`),
			{ ...sale(seasonal, `01/07/${YEAR}`, `10/07/${YEAR}`), discountType: 'SEASONAL_SALE' },
			{ merchantInventoryId: clearance.id, discountPrice: goodPrice(clearance), dateFrom: `01/07/${YEAR}`, discountType: 'CLEARANCE_SALE' },
		]);
		const [soldId, seasonalId, clearanceId] = scheduled.json(NODE_UNDER_TEST_NAME).map((item) => item.id);

		sandbox.clearLog();
		const result = await run({ operation: 'getMany', dateFrom: `01/07/${YEAR}`, dateTo: `31/08/${YEAR}`, returnAll: true, simplify: true });

		const byId = new Map(result.json(NODE_UNDER_TEST_NAME).map((discount) => [discount.discountId, discount]));
		const shown = (discountId: unknown, product: { id: number; name: string; basePrice: number }, type: string | null, dateFrom: string, dateTo: string | null) => ({
			discountId,
			productId: product.id,
			productName: product.name,
			price: goodPrice(product as Parameters<typeof goodPrice>[0]),
			currency: 'RSD',
			regularPrice: product.basePrice,
			type,
			dateFrom,
			dateTo,
			state: 'upcoming',
		});
		expect(byId.get(soldId)).toEqual(shown(soldId, sold, 'SALE', `20/08/${YEAR}`, `25/08/${YEAR}`));
		// Ten days from 1 July: a SALE or a SEASONAL_SALE, which the list does not say.
		expect(byId.get(seasonalId)).toEqual(shown(seasonalId, seasonal, null, `01/07/${YEAR}`, `10/07/${YEAR}`));
		expect(byId.get(clearanceId)).toEqual(shown(clearanceId, clearance, 'CLEARANCE_SALE', `01/07/${YEAR}`, null));
		// Every discount of the range names its product: none is left without a name.
		expect([...byId.values()].every((discount) => typeof discount.productName === 'string')).toBe(true);
		expect(sent('discountList')).toHaveLength(1);
		// The names' cost: basic-products pages up to the last discounted product (2,500 a page), then
		// the products by their EANs, up to 100 a request where the service takes a repeated ean.
		expect(sent('basicProducts').length).toBe(1);
		expect(sandbox.log.filter((entry) => !['token', 'discountList', 'basicProducts'].includes(entry.route)).every((entry) => entry.route === 'products')).toBe(true);
	});

	it('Simplify is on for a node created now (version 3), off for saved nodes of versions 1 and 2: their output stays the service\'s fields', async () => {
		const range = { operation: 'getMany', dateFrom: `01/07/${YEAR}`, dateTo: `31/08/${YEAR}`, returnAll: false, limit: 1 };
		const keysAt = async (typeVersion: number) => Object.keys((await run(range, [{}], { node: { typeVersion } })).json(NODE_UNDER_TEST_NAME)[0]).sort();

		const raw = ['dateFrom', 'dateTo', 'discountId', 'discountPrice', 'merchantInventoryId'];
		expect(await keysAt(1)).toEqual(raw);
		expect(await keysAt(2)).toEqual(raw);
		expect(await keysAt(3)).toEqual(['currency', 'dateFrom', 'dateTo', 'discountId', 'price', 'productId', 'productName', 'regularPrice', 'state', 'type']);
	});

	describe('against the real clock', () => {
		const start = sandboxPerTest(() => ({ seed: 5, products: 50 }));

		it('Simplify says running for a discount that has started', async () => {
			await start();
			const [product] = freshProducts(1);
			const [scheduled] = (await schedule([sale(product, dayAhead(0), dayAhead(5))])).json(NODE_UNDER_TEST_NAME);

			const result = await run({ operation: 'getMany', returnAll: true, simplify: true });

			expect(result.json(NODE_UNDER_TEST_NAME).find((discount) => discount.discountId === scheduled.id)).toMatchObject({ productId: product.id, state: 'running', dateFrom: dayAhead(0) });
		});
	});
});

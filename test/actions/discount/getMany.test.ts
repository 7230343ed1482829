/** Discount › Get Many: the discounts running in a range, and the limit, through the real engine against the sandbox. */
import { NODE_UNDER_TEST_NAME } from '../../harness';
import { DISCOUNT_SANDBOX, YEAR, freshProducts, runner, sale, sandbox, sandboxPerFile, schedule } from '../helpers';

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
});

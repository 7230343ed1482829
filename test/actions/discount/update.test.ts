/** Discount › Update: changes to scheduled discounts, rows or JSON, through the real engine against the sandbox. */
import { NODE_UNDER_TEST_NAME } from '../../harness';
import { DISCOUNT_SANDBOX, YEAR, discountRequests, freshProducts, goodPrice, runner, sale, sandbox, sandboxPerFile, schedule } from '../helpers';

sandboxPerFile(DISCOUNT_SANDBOX);
const run = runner('discount');

describe('Discount › Update', () => {
	it('changes a scheduled discount and reports an ended discount as a rejected entry', async () => {
		const [product] = freshProducts(1);
		const scheduled = (await schedule([sale(product)])).json(NODE_UNDER_TEST_NAME)[0];
		const now = sandbox.clock.now().getTime();
		const ended = sandbox.state.discounts.find((discount) => discount.endsAtMs !== null && discount.endsAtMs < now)!;
		expect(ended).toBeDefined();
		const newPrice = goodPrice(product) - 10;

		const result = await run({ operation: 'update' }, [
			{
				discounts: [
					{ discountId: scheduled.id, newDiscountPrice: newPrice, newDateFrom: `03/08/${YEAR}`, newDateTo: `${YEAR}-08-12` },
					{ discountId: ended.discountId, newDiscountPrice: ended.discountPrice - 1 },
				],
			},
		]);

		expect(result.error).toBeUndefined();
		const [updated, rejected] = result.json(NODE_UNDER_TEST_NAME);
		expect(updated).toEqual({
			id: scheduled.id,
			success: true,
			input: {
				discountId: scheduled.id,
				newDiscountPrice: String(newPrice),
				newDiscountPriceCurrency: 'RSD',
				newDateFrom: `03/08/${YEAR}`,
				newDateTo: `12/08/${YEAR}`,
			},
		});
		expect(sandbox.state.discounts.find((discount) => discount.discountId === scheduled.id)).toMatchObject({
			discountPrice: newPrice,
			dateFrom: `03/08/${YEAR}`,
			dateTo: `12/08/${YEAR}`,
		});
		expect(rejected).toMatchObject({ id: ended.discountId, success: false, error: 'Ended discounts cannot be updated' });
		expect(sandbox.state.discounts.find((discount) => discount.discountId === ended.discountId)?.discountPrice).toBe(ended.discountPrice);
		expect(discountRequests().filter((entry) => entry.route === 'discountUpdate').map((entry) => entry.itemCount)).toEqual([2]);
	});

	it('takes update rows from the UI and sends only the changes given', async () => {
		const [product] = freshProducts(1);
		const scheduled = (await schedule([sale(product)])).json(NODE_UNDER_TEST_NAME)[0];
		const result = await run({
			operation: 'update',
			inputMode: 'rows',
			discountUpdatesUi: { discount: [{ discountId: scheduled.id as string, newDiscountPrice: '', newDateTo: `${YEAR}-08-20T00:00:00`, newDiscountType: '' }] },
		});

		expect(result.json(NODE_UNDER_TEST_NAME)).toEqual([{ id: scheduled.id, success: true, input: { discountId: scheduled.id, newDateTo: `20/08/${YEAR}` } }]);
		expect(sandbox.state.discounts.find((discount) => discount.discountId === scheduled.id)).toMatchObject({
			dateFrom: `01/08/${YEAR}`,
			dateTo: `20/08/${YEAR}`,
			discountPrice: goodPrice(product),
		});
	});
});

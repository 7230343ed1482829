/** Discount › Cancel: a cancelled discount leaves Get Many and the prices, through the real engine against the sandbox. */
import { NODE_UNDER_TEST_NAME, runNode } from '../../harness';
import { DISCOUNT_SANDBOX, NODE, YEAR, freshProducts, runner, sale, sandbox, sandboxPerFile, schedule } from '../helpers';

sandboxPerFile(DISCOUNT_SANDBOX);
const run = runner('discount');

describe('Discount › Cancel', () => {
	it('cancels a discount: it disappears from Get Many and from prices', async () => {
		const [product] = freshProducts(1);
		const scheduled = (await schedule([sale(product, `01/10/${YEAR}`, `10/10/${YEAR}`)])).json(NODE_UNDER_TEST_NAME)[0];
		const pricesOn5October = async () =>
			(await runNode(NODE, { resource: 'price', operation: 'getMany', merchantInventoryIds: String(product.id), date: `05/10/${YEAR}` }, [{}], {
				credentials: { marketplaceMerchantApi: { baseUrl: sandbox.url, ...sandbox.client } },
			})).json(NODE_UNDER_TEST_NAME)[0];
		expect(await pricesOn5October()).toMatchObject({ discountId: scheduled.id });

		const result = await run({ operation: 'cancel', discountId: scheduled.id as string });

		expect(result.json(NODE_UNDER_TEST_NAME)).toEqual([{ discountId: scheduled.id, cancelled: true, message: `Discount ${String(scheduled.id)} cancelled` }]);
		expect(sandbox.state.discounts.find((discount) => discount.discountId === scheduled.id)?.cancelled).toBe(true);
		const listed = await run({ operation: 'getMany', dateFrom: `01/10/${YEAR}`, dateTo: `10/10/${YEAR}`, returnAll: true });
		expect(sandbox.count('discountList')).toBe(1);
		expect(listed.json(NODE_UNDER_TEST_NAME).map((discount) => discount.discountId)).not.toContain(scheduled.id);
		expect(await pricesOn5October()).toMatchObject({ discountId: null, sellablePrice: product.newBasePrice });
	});

	it('an unknown id becomes an error item naming the discount (Continue on Fail)', async () => {
		const result = await run({ operation: 'cancel', discountId: 'no-such-discount' }, [{}], { node: { continueOnFail: true } });

		const [item] = result.output(NODE_UNDER_TEST_NAME);
		expect(item.error?.message).toBe('Discount "no-such-discount" was not found');
		expect(item.error?.description).toBe('Discount no-such-discount does not exist');
		expect(sandbox.log.filter((entry) => entry.route === 'discountCancel').map((entry) => entry.status)).toEqual([404]);
	});
});

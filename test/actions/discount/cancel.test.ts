/** Discount › Cancel: a cancelled discount leaves Get Many and the prices, through the real engine against the sandbox. */
import { NODE_UNDER_TEST_NAME, runNode } from '../../harness';
import { DISCOUNT_SANDBOX, NODE, YEAR, freshProducts, locator, runner, sale, sandbox, sandboxPerFile, schedule, sent } from '../helpers';

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
	it('under Continue (using error output) a failed item leaves by the error output paired with its input item, the others by the main output', async () => {
		const [product] = freshProducts(1);
		const scheduled = (await schedule([sale(product, `01/12/${YEAR}`, `10/12/${YEAR}`)])).json(NODE_UNDER_TEST_NAME)[0];
		const items = [{ discountId: scheduled.id, row: 1 }, { discountId: 'no-such-discount', row: 2 }];

		const result = await run({ operation: 'cancel', discountId: '={{ $json.discountId }}' }, items, { node: { onError: 'continueErrorOutput' } });

		expect(result.error).toBeUndefined();
		expect(result.output(NODE_UNDER_TEST_NAME, 0).map((item) => [item.json.discountId, item.pairedItem])).toEqual([[scheduled.id, { item: 0 }]]);
		const [failed, ...more] = result.output(NODE_UNDER_TEST_NAME, 1);
		expect(more).toEqual([]);
		expect(failed.pairedItem).toEqual({ item: 1 });
		expect(failed.json).toEqual({ error: 'Discount "no-such-discount" was not found' });
	});

	describe('a fixed Discount ID on several input items (after a Get Many of 9) acts once', () => {
		/** Two scheduled discounts on fresh products; the request log starts after. */
		async function twoDiscounts(): Promise<[string, string]> {
			const products = freshProducts(2);
			const result = await schedule(products.map((product) => sale(product, `01/11/${YEAR}`, `10/11/${YEAR}`)));
			const ids = result.json(NODE_UNDER_TEST_NAME).map((item) => item.id as string);
			sandbox.clearLog();
			return [ids[0], ids[1]];
		}
		const nineItems = Array.from({ length: 9 }, (_, index) => ({ discountId: `listed-${index}` }));

		it('sends one request, and every item is green with the outcome, paired with its own item', async () => {
			const [id] = await twoDiscounts();

			const result = await run({ operation: 'cancel', discountId: locator('list', id) }, nineItems);

			expect(result.error).toBeUndefined();
			expect(sent('discountCancel').map((entry) => [entry.path.split('/').slice(-2)[0], entry.status])).toEqual([[id, 200]]);
			const items = result.output(NODE_UNDER_TEST_NAME);
			expect(items.map((item) => item.json)).toEqual(nineItems.map(() => ({ discountId: id, cancelled: true, message: `Discount ${id} cancelled` })));
			expect(items.map((item) => item.pairedItem)).toEqual(nineItems.map((_, index) => ({ item: index })));
			expect(sandbox.state.discounts.find((discount) => discount.discountId === id)?.cancelled).toBe(true);
		});

		it('one request per distinct ID, the outputs in the items\' order', async () => {
			const [first, second] = await twoDiscounts();

			const result = await run({ operation: 'cancel', discountId: '={{ $json.id }}' }, [{ id: first }, { id: second }, { id: first }, { id: second }]);

			expect(result.error).toBeUndefined();
			expect(sent('discountCancel').map((entry) => entry.status)).toEqual([200, 200]);
			expect(result.json(NODE_UNDER_TEST_NAME).map((item) => [item.discountId, item.cancelled])).toEqual([
				[first, true],
				[second, true],
				[first, true],
				[second, true],
			]);
		});

		it('an ID cancelled before the run: one request, and its answer fails the run as before', async () => {
			const [id] = await twoDiscounts();
			await run({ operation: 'cancel', discountId: id });
			sandbox.clearLog();

			const result = await run({ operation: 'cancel', discountId: id }, nineItems);

			expect(sent('discountCancel').map((entry) => entry.status)).toEqual([400]);
			expect(result.error?.message).toBe('Bad request - please check your parameters');
			expect(result.error?.description).toBe(`Discount ${id} is already cancelled`);
			expect(result.output(NODE_UNDER_TEST_NAME)).toEqual([]);
		});

		it('with Continue on Fail, an ID cancelled before the run gives each item the error', async () => {
			const [id] = await twoDiscounts();
			await run({ operation: 'cancel', discountId: id });
			sandbox.clearLog();

			const result = await run({ operation: 'cancel', discountId: id }, nineItems.slice(0, 3), { node: { continueOnFail: true } });

			expect(sent('discountCancel')).toHaveLength(1);
			expect(result.output(NODE_UNDER_TEST_NAME).map((item) => item.error?.description)).toEqual(nineItems.slice(0, 3).map(() => `Discount ${id} is already cancelled`));
		});
	});
});

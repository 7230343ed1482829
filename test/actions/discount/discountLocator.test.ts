/**
 * The Discount ID locator of Update and Cancel (actions/discount/shared.ts): the list of
 * current and upcoming discounts through n8n-core's real LoadOptionsContext, and runs with a picked value.
 */
import { NODE_UNDER_TEST_NAME, runListSearch } from '../../harness';
import { NODE, credentials, locator, runner, sandbox, sandboxPerTest } from '../helpers';
import { shownPrice } from '../../../nodes/MarketplaceMerchant/values/numbers';

const start = sandboxPerTest(() => ({ products: 120 }));
const run = runner();

describe('Discount locator', () => {
	it("lists the current and upcoming discounts only, with the product's name, the price with its currency (and the regular one) and dates", async () => {
		await start();
		const now = Date.now();
		const expected = sandbox.state.discounts.filter((discount) => !discount.cancelled && (discount.endsAtMs === null || discount.endsAtMs >= now));
		const ended = sandbox.state.discounts.filter((discount) => discount.endsAtMs !== null && discount.endsAtMs < now);
		expect(ended.length).toBeGreaterThan(0);

		const { result } = await runListSearch(NODE, 'searchDiscounts', {
			credentials: credentials(),
			parameters: { resource: 'discount', operation: 'cancel' },
		});

		expect(result.results.map((entry) => entry.value).sort()).toEqual(expected.map((discount) => discount.discountId).sort());
		const running = expected.find((discount) => discount.startsAtMs <= now)!;
		const upcoming = expected.find((discount) => discount.startsAtMs > now)!;
		const named = (id: number) => {
			const product = sandbox.state.product(id)!;
			return `${product.name} (product ${id})`;
		};
		const regular = (id: number) => shownPrice(sandbox.state.product(id)!.basePrice);
		expect(result.results.find((entry) => entry.value === running.discountId)?.name).toBe(
			`${named(running.merchantInventoryId)} at ${shownPrice(running.discountPrice)} (regular ${regular(running.merchantInventoryId)}), ${running.dateFrom} to ${running.dateTo} (running)`,
		);
		expect(result.results.find((entry) => entry.value === upcoming.discountId)?.name).toBe(
			`${named(upcoming.merchantInventoryId)} at ${shownPrice(upcoming.discountPrice)} (regular ${regular(upcoming.merchantInventoryId)}), ${upcoming.dateFrom} to ${upcoming.dateTo}`,
		);

		const filtered = await runListSearch(NODE, 'searchDiscounts', { credentials: credentials(), filter: String(upcoming.merchantInventoryId) });
		expect(filtered.result.results.map((entry) => entry.value)).toEqual([upcoming.discountId]);
	});

	it('cancels the discount picked from the list; a plain ID still works in Update', async () => {
		await start();
		const now = Date.now();
		const [first, second] = sandbox.state.discounts.filter((discount) => discount.startsAtMs > now);

		const cancelled = await run({ resource: 'discount', operation: 'cancel', discountId: locator('list', first.discountId) });
		const updated = await run({
			resource: 'discount',
			operation: 'update',
			inputMode: 'json',
			// Its type given: an upcoming discount's update carries every field, and a SALE dated in a seasonal window is not told by its dates.
			discountsJson: JSON.stringify([{ discountId: second.discountId, newDiscountPrice: second.discountPrice - 1, newDiscountType: 'SALE' }]),
		});

		expect(cancelled.json(NODE_UNDER_TEST_NAME)).toEqual([expect.objectContaining({ discountId: first.discountId, cancelled: true })]);
		expect(updated.json(NODE_UNDER_TEST_NAME)).toEqual([expect.objectContaining({ success: true })]);
		expect(sandbox.state.discounts.find((discount) => discount.discountId === second.discountId)?.discountPrice).toBe(second.discountPrice - 1);
	});
});

/**
 * Discount › Update through the real engine against the sandbox: the discounts read once per run,
 * the body the service requires for a running and for a pending discount (under the interface
 * reference's rules and under the current documentation's, sandbox variant `discountUpdateRules`),
 * and the changes the service does not allow refused before sending.
 */
import type { IDataObject } from 'n8n-workflow';

import type { DiscountRecord } from '../../../sandbox';
import { NODE_UNDER_TEST_NAME, type RunNodeOptions } from '../../harness';
import { dayAhead, freshProducts, locator, runner, sale, saleDays, sandbox, sandboxPerFile, schedule, sent } from '../helpers';
import { shownPrice } from '../../../nodes/MarketplaceMerchant/values/numbers';

// The sandbox keeps the real clock: a discount runs or waits for the node as for the service.
sandboxPerFile({ seed: 5, products: 400 });
const run = runner('discount');
const NEW_NODE = { node: { typeVersion: 2 } };

beforeEach(() => sandbox.resetVariants());

const stored = (discountId: unknown): DiscountRecord => {
	const discount = sandbox.state.discounts.find((candidate) => candidate.discountId === discountId);
	expect(discount).toBeDefined();
	return discount as DiscountRecord;
};

/** Schedules these discounts (on products without one) and gives them as the sandbox stores them; the request log starts after. */
async function scheduled(discounts: IDataObject[]): Promise<DiscountRecord[]> {
	const result = await schedule(discounts);
	const items = result.json(NODE_UNDER_TEST_NAME);
	expect(items.map((item) => item.success)).toEqual(discounts.map(() => true));
	sandbox.clearLog();
	return items.map((item) => stored(item.id));
}

/** A discount running since today (dated today, it starts at once) and one starting in a month. */
async function runningAndPending(): Promise<{ running: DiscountRecord; pending: DiscountRecord }> {
	const [first, second] = freshProducts(2);
	const [running, pending] = await scheduled([sale(first, dayAhead(0), dayAhead(5)), sale(second, ...saleDays())]);
	expect(running.startsAtMs).toBeLessThanOrEqual(Date.now());
	expect(pending.startsAtMs).toBeGreaterThan(Date.now());
	return { running, pending };
}

const update = (discounts: IDataObject[], parameters: IDataObject = {}, options: RunNodeOptions = {}) => run({ operation: 'update', ...parameters }, [{ discounts }], options);
/** On Error = Continue: refused entries come out as items (under the default the run fails naming them, once the others are sent). */
const CONTINUE: RunNodeOptions = { node: { onError: 'continueRegularOutput' } };

/** The body of a running discount's update: its product, the new price and currency, nothing else. */
const runningBody = (discount: DiscountRecord, price: number) => ({
	discountId: discount.discountId,
	merchantInventoryId: discount.merchantInventoryId,
	newDateFrom: null,
	newDateTo: null,
	newDiscountPrice: String(price),
	newDiscountPriceCurrency: 'RSD',
	newDiscountType: null,
});

/** The body of a pending discount's update: every field, those not changed as the discount has them. */
const pendingBody = (discount: DiscountRecord, changes: IDataObject = {}) => ({
	discountId: discount.discountId,
	merchantInventoryId: discount.merchantInventoryId,
	newDateFrom: discount.dateFrom,
	newDateTo: discount.dateTo,
	newDiscountPrice: String(discount.discountPrice),
	newDiscountPriceCurrency: 'RSD',
	newDiscountType: discount.discountType,
	...changes,
});

describe('Discount › Update', () => {
	it.each(['reference', 'documented'] as const)(
		'under the %s rules: sends a running discount its product and new price only, a pending one every field, after one read of the discounts',
		async (rules) => {
			sandbox.setVariants({ discountUpdateRules: rules });
			const { running, pending } = await runningAndPending();
			const lower = running.discountPrice - 10;
			const shorterEnd = saleDays(30, 6)[1];

			const result = await update([
				{ discountId: running.discountId, newDiscountPrice: lower },
				{ discountId: pending.discountId, newDateTo: shorterEnd },
			]);

			expect(result.error).toBeUndefined();
			expect(result.json(NODE_UNDER_TEST_NAME)).toEqual([
				{ id: running.discountId, productId: running.merchantInventoryId, success: true, input: runningBody(running, lower) },
				{ id: pending.discountId, productId: pending.merchantInventoryId, success: true, input: pendingBody(pending, { newDateTo: shorterEnd }) },
			]);
			expect(stored(running.discountId)).toMatchObject({ discountPrice: lower, dateFrom: running.dateFrom, dateTo: running.dateTo });
			expect(stored(pending.discountId)).toMatchObject({ discountPrice: pending.discountPrice, dateFrom: pending.dateFrom, dateTo: shorterEnd, discountType: 'SALE' });
			expect(sandbox.log.filter((entry) => entry.route !== 'token').map((entry) => [entry.route, entry.itemCount])).toEqual([
				['discountList', undefined],
				// The account's currency, from its orders (the credential sets none): the one extra request of the run.
				['orders', undefined],
				['discountUpdate', 2],
			]);
		},
	);

	describe('refuses before sending what the service does not allow, in the panel\'s words', () => {
		async function refusedEntries() {
			const { running } = await runningAndPending();
			const ended = sandbox.state.discounts.find((discount) => discount.endsAtMs !== null && discount.endsAtMs < Date.now());
			expect(ended).toBeDefined();
			const entries = [
				{ discountId: running.discountId, newDateTo: dayAhead(9) },
				{ discountId: running.discountId, newDateFrom: dayAhead(1), newDiscountPrice: running.discountPrice - 1 },
				{ discountId: running.discountId, newDiscountType: 'CLEARANCE_SALE', newDiscountPrice: running.discountPrice - 1 },
				{ discountId: running.discountId, newDiscountPrice: running.discountPrice + 1 },
				{ discountId: ended!.discountId, newDiscountPrice: 1 },
				{ id: 'no-such-discount', newDiscountPrice: 1 },
				{ discountId: running.discountId, newDiscountPrice: running.discountPrice - 1 },
			];
			return { running, entries };
		}

		it('Skip and Report: each refused entry comes out with its reason; only the allowed one is sent', async () => {
			sandbox.setVariants({ discountUpdateRules: 'documented' });
			const { running, entries } = await refusedEntries();
			const since = `discount ${running.discountId} is running (since ${running.dateFrom})`;
			const notListed = `is not among the discounts running now or starting by ${dayAhead(366)} (the service's list from ${dayAhead(0)}): it has ended, was cancelled or does not exist`;

			const result = await update(entries, { invalidEntries: 'skip' }, CONTINUE);

			expect(result.error).toBeUndefined();
			const items = result.json(NODE_UNDER_TEST_NAME);
			expect(items.map((item) => [item.success, item.error])).toEqual([
				[false, `Discounts (JSON) › entry 1 › New Date To (newDateTo): ${since}: its end cannot change`],
				[false, `Discounts (JSON) › entry 2 › New Date From (newDateFrom): ${since}: its start cannot change`],
				[false, `Discounts (JSON) › entry 3 › New Discount Type (newDiscountType): ${since}: its type cannot change`],
				[false, `Discounts (JSON) › entry 4 › New Discount Price (newDiscountPrice): ${shownPrice(running.discountPrice + 1)} is not below ${shownPrice(running.discountPrice)}, the price of ${since}`],
				[false, `Discounts (JSON) › entry 5 › Discount ID (discountId): ${notListed}`],
				[false, `Discounts (JSON) › entry 6 › id: ${notListed}`],
				[true, undefined],
			]);
			expect(items.map((item) => item.id)).toEqual(entries.map((entry) => entry.discountId ?? entry.id));
			expect(items[6].input).toEqual(runningBody(running, running.discountPrice - 1));
			expect(sent('discountList')).toHaveLength(1);
			expect(sent('discountUpdate').map((entry) => entry.itemCount)).toEqual([1]);
			expect(stored(running.discountId)).toMatchObject({ discountPrice: running.discountPrice - 1, dateFrom: running.dateFrom, dateTo: running.dateTo });
		});

		it('Stop the Run: one error names every refused entry and nothing is sent', async () => {
			const { running, entries } = await refusedEntries();

			const result = await update(entries);

			const message = result.error?.message ?? '';
			expect(message).toMatch(
				`6 entries are invalid, nothing was sent: Discounts (JSON) › entry 1 › New Date To (newDateTo): discount ${running.discountId} is running (since ${running.dateFrom}): its end cannot change; Discounts (JSON) › entry 2 › `,
			);
			expect(message).toMatch(/; Discounts \(JSON\) › entry 6 › id: is not among the discounts running now/);
			expect(sent('discountUpdate')).toHaveLength(0);
			expect(stored(running.discountId).discountPrice).toBe(running.discountPrice);
		});
	});

	it('takes a pending discount\'s type from its dates where the service\'s rules leave one, and asks for it where they do not', async () => {
		sandbox.setVariants({ discountUpdateRules: 'documented' });
		// A short discount starting in a seasonal window may be a SALE or a SEASONAL_SALE; one without an end is a CLEARANCE_SALE.
		let windowDay = 1;
		while (!/^(0[1-9]|1[0-5])\/07|^(2[5-9]|3[01])\/12|^(0[1-9]|10)\/01/.test(dayAhead(windowDay))) windowDay++;
		const [inWindow, clearance] = freshProducts(2);
		const [ambiguous, endless] = await scheduled([
			sale(inWindow, dayAhead(windowDay), dayAhead(windowDay + 4)),
			{ ...sale(clearance, saleDays()[0]), dateTo: undefined, discountType: 'CLEARANCE_SALE' },
		]);

		const result = await update(
			[
				{ discountId: ambiguous.discountId, newDiscountPrice: ambiguous.discountPrice - 5 },
				{ discountId: ambiguous.discountId, newDiscountPrice: ambiguous.discountPrice - 5, newDiscountType: 'SALE' },
				{ discountId: endless.discountId, newDiscountPrice: endless.discountPrice - 5 },
			],
			{ invalidEntries: 'skip' },
			CONTINUE,
		);

		const [asked, typed, cleared] = result.json(NODE_UNDER_TEST_NAME);
		expect(asked).toMatchObject({
			success: false,
			error: `Discounts (JSON) › entry 1 › New Discount Type (newDiscountType): is missing: discount ${ambiguous.discountId} has not started, so the service needs every field, and its listing does not tell a SALE from a SEASONAL_SALE`,
		});
		expect(typed).toMatchObject({ success: true, input: pendingBody(ambiguous, { newDiscountPrice: String(ambiguous.discountPrice - 5) }) });
		expect(cleared).toMatchObject({ success: true, input: pendingBody(endless, { newDiscountPrice: String(endless.discountPrice - 5), newDateTo: null }) });
		expect(stored(endless.discountId)).toMatchObject({ discountType: 'CLEARANCE_SALE', dateTo: null, discountPrice: endless.discountPrice - 5 });
	});

	it('builds each change of one discount on the ones before it in the run', async () => {
		sandbox.setVariants({ discountUpdateRules: 'documented' });
		const { pending } = await runningAndPending();
		const shorterEnd = saleDays(30, 6)[1];

		const result = await update([
			{ discountId: pending.discountId, newDateTo: shorterEnd },
			{ discountId: pending.discountId, newDiscountPrice: pending.discountPrice - 3 },
		]);

		expect(result.json(NODE_UNDER_TEST_NAME).map((item) => item.input)).toEqual([
			pendingBody(pending, { newDateTo: shorterEnd }),
			pendingBody(pending, { newDateTo: shorterEnd, newDiscountPrice: String(pending.discountPrice - 3) }),
		]);
		expect(stored(pending.discountId)).toMatchObject({ dateTo: shorterEnd, discountPrice: pending.discountPrice - 3 });
	});

	describe('a fixed Discount ID with the same change on several input items (after a Get Many of 9) is sent once', () => {
		const nineItems = Array.from({ length: 9 }, (_, index) => ({ listed: index }));

		it('a running discount: one body, and every item gets its result, paired with its own item', async () => {
			sandbox.setVariants({ discountUpdateRules: 'documented' });
			const { running } = await runningAndPending();
			const lower = running.discountPrice - 7;

			const result = await run({ operation: 'update', itemDiscountId: locator('list', running.discountId), itemNewDiscountPrice: String(lower) }, nineItems, NEW_NODE);

			expect(result.error).toBeUndefined();
			const items = result.output(NODE_UNDER_TEST_NAME);
			expect(items.map((item) => item.json)).toEqual(
				nineItems.map(() => ({ id: running.discountId, productId: running.merchantInventoryId, success: true, input: runningBody(running, lower) })),
			);
			expect(items.map((item) => item.pairedItem)).toEqual(nineItems.map((_, index) => ({ item: index })));
			expect(sent('discountUpdate').map((entry) => entry.itemCount)).toEqual([1]);
			expect(stored(running.discountId).discountPrice).toBe(lower);
		});

		it('an upcoming discount: one body for the same change, a different change still builds on it', async () => {
			sandbox.setVariants({ discountUpdateRules: 'documented' });
			const { pending } = await runningAndPending();
			const shorterEnd = saleDays(30, 6)[1];
			const changes = [{ end: shorterEnd }, { end: shorterEnd }, { end: shorterEnd, price: pending.discountPrice - 3 }, { end: shorterEnd, price: pending.discountPrice - 3 }];

			const result = await run(
				{ operation: 'update', itemDiscountId: pending.discountId, itemNewDateTo: '={{ $json.end }}', itemNewDiscountPrice: '={{ $json.price ?? "" }}' },
				changes,
				NEW_NODE,
			);

			expect(result.error).toBeUndefined();
			const first = pendingBody(pending, { newDateTo: shorterEnd });
			const second = pendingBody(pending, { newDateTo: shorterEnd, newDiscountPrice: String(pending.discountPrice - 3) });
			expect(result.json(NODE_UNDER_TEST_NAME).map((item) => [item.success, item.input])).toEqual([
				[true, first],
				[true, first],
				[true, second],
				[true, second],
			]);
			// Two changes of one discount: one request each, in order, so that each result names its change (issue 38).
			expect(sent('discountUpdate').map((entry) => entry.itemCount)).toEqual([1, 1]);
			expect(stored(pending.discountId)).toMatchObject({ dateTo: shorterEnd, discountPrice: pending.discountPrice - 3 });
		});
	});

	it('reads the discounts once per run, whatever the batches: input items each with a list, one entry per item', async () => {
		const { running, pending } = await runningAndPending();

		const lists = await run({ operation: 'update' }, [
			{ discounts: [{ discountId: running.discountId, newDiscountPrice: running.discountPrice - 1 }] },
			{ discounts: [{ discountId: pending.discountId, newDiscountPrice: pending.discountPrice - 1 }] },
		]);
		expect(lists.json(NODE_UNDER_TEST_NAME).map((item) => item.success)).toEqual([true, true]);
		expect(sent('discountList')).toHaveLength(1);
		expect(sent('discountUpdate').map((entry) => entry.itemCount)).toEqual([1, 1]);
		sandbox.clearLog();

		const rows = await run(
			{ operation: 'update', itemDiscountId: '={{ $json.id }}', itemNewDiscountPrice: '={{ $json.price }}' },
			[
				{ id: running.discountId, price: running.discountPrice - 2 },
				{ id: pending.discountId, price: pending.discountPrice - 2 },
			],
			NEW_NODE,
		);
		expect(rows.json(NODE_UNDER_TEST_NAME).map((item) => item.success)).toEqual([true, true]);
		expect(sent('discountList')).toHaveLength(1);
		expect(sent('discountUpdate').map((entry) => entry.itemCount)).toEqual([2]);
	});

	it('fails the run, sending nothing, when the discounts cannot be read', async () => {
		const { pending } = await runningAndPending();
		sandbox.injectFault({ route: 'discountList', status: 500, count: 1 });

		const result = await update([{ discountId: pending.discountId, newDiscountPrice: pending.discountPrice - 1 }]);

		expect(result.error?.message).toBe('Could not read the discounts to update: The service was not able to process your request');
		expect(result.error?.description).toMatch(/GET discounts, .* no update was sent\.$/);
		expect(sent('discountList').map((entry) => entry.status)).toEqual([500]);
		expect(sent('discountUpdate')).toHaveLength(0);
		expect(stored(pending.discountId).discountPrice).toBe(pending.discountPrice);
	});

	it('takes update rows from the panel', async () => {
		const { pending } = await runningAndPending();
		const shorterEnd = saleDays(30, 7)[1];
		const isoEnd = shorterEnd.split('/').reverse().join('-');

		const result = await run({
			operation: 'update',
			inputMode: 'rows',
			discountUpdatesUi: { discount: [{ discountId: pending.discountId, newDiscountPrice: '', newDateTo: `${isoEnd}T00:00:00`, newDiscountType: '' }] },
		});

		expect(result.json(NODE_UNDER_TEST_NAME)).toEqual([
			{ id: pending.discountId, productId: pending.merchantInventoryId, success: true, input: pendingBody(pending, { newDateTo: shorterEnd }) },
		]);
		expect(stored(pending.discountId)).toMatchObject({ dateFrom: pending.dateFrom, dateTo: shorterEnd, discountPrice: pending.discountPrice });
	});

	describe('each row on its own: with On Error = Continue only the invalid rows of a list fail, each named, and the valid ones are sent (issue 38, point 4)', () => {
		// Node version 2 on (version 1 fails the whole input item, as its saved workflows do): a list in JSON.
		const NEWEST: RunNodeOptions = { node: { typeVersion: 4 } };
		const CONTINUE_NEWEST: RunNodeOptions = { node: { typeVersion: 4, onError: 'continueRegularOutput' } };
		const ERROR_OUTPUT: RunNodeOptions = { node: { typeVersion: 4, onError: 'continueErrorOutput' } };
		const JSON_LIST = { inputMode: 'json' };

		it('a JSON list of 3 in one item, 1 valid: the valid one is written, both invalid rows fail as error items in their place; Stop the Run under the default sends nothing', async () => {
			const { running } = await runningAndPending();
			const lower = running.discountPrice - 1;
			const entries = [
				{ discountId: running.discountId, newDiscountPrice: running.discountPrice + 1 },
				{ discountId: running.discountId, newDiscountPrice: lower },
				{ discountId: running.discountId, newDateTo: dayAhead(9) },
			];

			const stopped = await update(entries, JSON_LIST, NEWEST);
			expect(stopped.error?.message).toMatch(/^2 entries are invalid, nothing was sent: Discounts \(JSON\) › entry 1 › .*; Discounts \(JSON\) › entry 3 › /);
			expect(sent('discountUpdate')).toEqual([]);

			const result = await update(entries, JSON_LIST, CONTINUE_NEWEST);

			expect(result.error).toBeUndefined();
			const items = result.output(NODE_UNDER_TEST_NAME);
			expect(items.map((item) => item.error?.message ?? item.json.success)).toEqual([
				expect.stringMatching(/^Discounts \(JSON\) › entry 1 › New Discount Price \(newDiscountPrice\): .* is not below /),
				true,
				expect.stringMatching(/^Discounts \(JSON\) › entry 3 › New Date To \(newDateTo\): .*its end cannot change/),
			]);
			expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 0 }, { item: 0 }]);
			expect(sent('discountUpdate').map((entry) => entry.itemCount)).toEqual([1]);
			expect(stored(running.discountId).discountPrice).toBe(lower);
		});

		it('a JSON list of 5 in one item, 2 valid, under Continue (using error output): both valid ones are written, the 3 invalid rows leave through the error output, each named', async () => {
			const { running, pending } = await runningAndPending();
			const lower = running.discountPrice - 2;
			const shorterEnd = saleDays(30, 6)[1];
			const entries = [
				{ discountId: running.discountId, newDiscountPrice: running.discountPrice + 1 },
				{ discountId: running.discountId, newDiscountPrice: lower },
				{ discountId: running.discountId, newDateTo: dayAhead(9) },
				{ discountId: pending.discountId, newDateTo: shorterEnd },
				{ discountId: 'no-such-discount', newDiscountPrice: 1 },
			];

			const result = await update(entries, JSON_LIST, ERROR_OUTPUT);

			expect(result.error).toBeUndefined();
			expect(result.json(NODE_UNDER_TEST_NAME, 0).map((item) => [item.id, item.success])).toEqual([
				[running.discountId, true],
				[pending.discountId, true],
			]);
			expect(result.output(NODE_UNDER_TEST_NAME, 1).map((item) => item.error?.message)).toEqual([
				expect.stringMatching(/^Discounts \(JSON\) › entry 1 › New Discount Price/),
				expect.stringMatching(/^Discounts \(JSON\) › entry 3 › New Date To/),
				expect.stringMatching(/^Discounts \(JSON\) › entry 5 › Discount ID/),
			]);
			expect(sent('discountUpdate').map((entry) => entry.itemCount)).toEqual([2]);
			expect(stored(running.discountId).discountPrice).toBe(lower);
			expect(stored(pending.discountId).dateTo).toBe(shorterEnd);
		});
	});
});

/**
 * The days of listed discounts in the service's own zone (issue 37 follow-up), through n8n-core's
 * real engine against the sandbox counting its days in a zone (the variant `serviceTimeZone`)
 * while the workflow stays in UTC: the service lists a discount's bounds as zoneless UTC
 * timestamps, an upcoming start at 00:01 and every end at 23:59 of its days in its zone, and the
 * node reads the days from those times (actions/discount/shared.ts `listedDiscountDays`), never
 * from the workflow's zone. Discount Update resends the days an upcoming discount was scheduled
 * for; Get Many and the Discount ID list show them.
 */
import { DateTime } from 'luxon';

import { NODE_UNDER_TEST_NAME, runListSearch } from '../../harness';
import { NODE, credentials, freshProducts, goodPrice, runner, sandbox, sandboxPerFile, schedule, sent } from '../helpers';

sandboxPerFile({ seed: 371, products: 200 });
const run = runner('discount');

/** The next `dd/MM` (at least 3 days ahead, so upcoming in every zone) as dd/MM/yyyy. */
function next(day: number, month: number): string {
	const soon = DateTime.utc().plus({ days: 3 });
	let date = DateTime.utc(soon.year, month, day);
	if (date < soon.startOf('day')) date = date.plus({ years: 1 });
	return date.toFormat('dd/MM/yyyy');
}

/** 16–20 January (winter time) and 16–20 July (summer time): outside the seasonal start windows, so a SALE by the rules. */
const SEASONS: Array<[string, [string, string]]> = [
	['winter', [next(16, 1), next(20, 1)]],
	['summer', [next(16, 7), next(20, 7)]],
];

const stored = (discountId: unknown) => sandbox.state.discounts.find((discount) => discount.discountId === discountId);

/** Schedules one SALE on a fresh product and gives its discount ID; the request log starts after. */
async function scheduleSale(dateFrom: string, dateTo: string, options = {}): Promise<{ discountId: string; productId: number }> {
	const [product] = freshProducts(1);
	const result = await schedule([{ merchantInventoryId: product.id, discountPrice: goodPrice(product), dateFrom, dateTo, discountType: 'SALE' }], {}, options);
	const [item] = result.json(NODE_UNDER_TEST_NAME);
	expect(item).toMatchObject({ success: true });
	sandbox.clearLog();
	return { discountId: String(item.id), productId: product.id };
}

const dayMonthYear = (text: string) => DateTime.fromFormat(text, 'dd/MM/yyyy', { zone: 'utc' });

describe.each(['UTC', 'Europe/Belgrade', 'America/New_York'])('a service counting its days in %s, the workflow in UTC', (zone) => {
	beforeEach(() => {
		sandbox.resetVariants();
		sandbox.setVariants({ serviceTimeZone: zone, discountUpdateRules: 'documented' });
	});

	describe.each(SEASONS)('an upcoming discount in %s', (_season, [dateFrom, dateTo]) => {
		it('Discount Update of its price alone resends the days it was scheduled for', async () => {
			const { discountId } = await scheduleSale(dateFrom, dateTo);
			const price = (stored(discountId)?.discountPrice as number) - 5;

			const result = await run({ operation: 'update' }, [{ discounts: [{ discountId, newDiscountPrice: price }] }]);

			expect(result.error).toBeUndefined();
			// The output's input is the body sent.
			expect(result.json(NODE_UNDER_TEST_NAME)).toEqual([
				expect.objectContaining({ success: true, input: expect.objectContaining({ discountId, newDateFrom: dateFrom, newDateTo: dateTo, newDiscountType: 'SALE', newDiscountPrice: String(price) }) }),
			]);
			expect(sent('discountUpdate').map((entry) => entry.itemCount)).toEqual([1]);
			expect(stored(discountId)).toMatchObject({ dateFrom, dateTo, discountPrice: price });
		});

		it('Discount Get Many (Simplify) shows its days, its type by the rules and that it is upcoming', async () => {
			const { discountId } = await scheduleSale(dateFrom, dateTo);

			const result = await run({ operation: 'getMany', dateFrom, dateTo, returnAll: true, simplify: true }, [{}], { node: { typeVersion: 3 } });

			expect(result.error).toBeUndefined();
			const shown = result.json(NODE_UNDER_TEST_NAME).find((item) => item.discountId === discountId);
			expect(shown).toMatchObject({ dateFrom, dateTo, type: 'SALE', state: 'upcoming' });
		});

		it('the Discount ID list shows its days', async () => {
			const { discountId } = await scheduleSale(dateFrom, dateTo);

			const { result } = await runListSearch(NODE, 'searchDiscounts', { credentials: credentials(), parameters: { resource: 'discount', operation: 'cancel' } });

			const entry = result.results.find((listed) => listed.value === discountId);
			expect(entry?.name).toMatch(new RegExp(`, ${dateFrom} to ${dateTo}$`));
		});
	});

	it('a discount dated today (it starts at once, at no pattern) shows today in the service\'s zone, read with the offset its end tells', async () => {
		// The workflow in the service's zone here, so that the node's "today" is the service's for the schedule.
		const options = { timezone: zone };
		const today = DateTime.now().setZone(zone);
		const [dateFrom, dateTo] = [today.toFormat('dd/MM/yyyy'), today.plus({ days: 4 }).toFormat('dd/MM/yyyy')];
		const { discountId } = await scheduleSale(dateFrom, dateTo, options);
		expect(stored(discountId)?.startsAtMs).toBeLessThanOrEqual(Date.now());

		const result = await run({ operation: 'getMany', dateFrom, dateTo, returnAll: true, simplify: true }, [{}], { ...options, node: { typeVersion: 3 } });

		expect(result.error).toBeUndefined();
		const shown = result.json(NODE_UNDER_TEST_NAME).find((item) => item.discountId === discountId);
		expect(shown).toMatchObject({ dateFrom, dateTo, state: 'running' });
		expect(dayMonthYear(String(shown?.dateTo)).diff(dayMonthYear(String(shown?.dateFrom)), 'days').days).toBe(4);
	});
});

describe('a service in Europe/Belgrade, a discount dated today starting at once at 00:30 there (23:30 UTC the day before)', () => {
	// A sandbox of its own: the answer is one service's, in one zone. The file's sandbox also
	// holds the discounts the tests above scheduled while it counted its days in UTC and New York:
	// from 00:00 to 05:00 UTC (04:00 in summer), New York's "today" is still yesterday, and the
	// end of the discount dated today there (23:59 New York, 04:59 UTC four days on) was the bound
	// nearest to the clearance's start, read at New York's offset (issue 40: failed by the hour).
	sandboxPerFile({ seed: 372, products: 50 });
	/** Today (UTC), read once: the service's clock, the days scheduled and the days expected agree even across midnight. */
	let today: DateTime;
	beforeEach(() => {
		sandbox.resetVariants();
		sandbox.setVariants({ serviceTimeZone: 'Europe/Belgrade', discountUpdateRules: 'documented' });
		today = DateTime.utc().startOf('day');
		// The service's clock at 23:30 UTC yesterday: 00:30 (winter) or 01:30 (summer) today in Belgrade, today's UTC date.
		sandbox.clock.set(today.minus({ minutes: 30 }).toJSDate());
	});
	afterEach(() => sandbox.clock.set(new Date()));

	it('shows today, at the offset its own end tells, or (no end) the offset of the answer\'s other discounts', async () => {
		const [dateFrom, dateTo] = [today.toFormat('dd/MM/yyyy'), today.plus({ days: 4 }).toFormat('dd/MM/yyyy')];
		const sale = await scheduleSale(dateFrom, dateTo);
		const [product] = freshProducts(1);
		const scheduled = await schedule([{ merchantInventoryId: product.id, discountPrice: goodPrice(product), dateFrom, discountType: 'CLEARANCE_SALE' }]);
		const clearanceId = scheduled.json(NODE_UNDER_TEST_NAME)[0].id;
		// Both started at once, before midnight UTC: their UTC day is yesterday.
		for (const discountId of [sale.discountId, clearanceId]) expect(new Date(stored(discountId)?.startsAtMs as number).getUTCDate()).not.toBe(today.day);

		const result = await run({ operation: 'getMany', dateFrom, dateTo, returnAll: true, simplify: true }, [{}], { node: { typeVersion: 3 } });

		expect(result.error).toBeUndefined();
		const shown = (discountId: unknown) => result.json(NODE_UNDER_TEST_NAME).find((item) => item.discountId === discountId);
		expect(shown(sale.discountId)).toMatchObject({ dateFrom, dateTo, state: 'running' });
		expect(shown(clearanceId)).toMatchObject({ dateFrom, dateTo: null, type: 'CLEARANCE_SALE', state: 'running' });
	});
});

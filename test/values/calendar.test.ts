/**
 * The merchant's calendar (issue 37), through n8n-core's real engine against the sandbox: a day
 * field sends the day its value names, in the workflow's time zone (`settings.timezone`), with
 * `$today`, `$now`, the date picker's value and text, in four zones; the sandbox reads days where
 * the service does (the variant `serviceTimeZone`, set to the workflow's zone: a merchant's service
 * counts its own days). An instant keeps its time: Modified After "3 hours ago" on Get Many Basic.
 */
import { DateTime } from 'luxon';
import type { ProductRecord } from '../../sandbox';

import { NODE_UNDER_TEST_NAME } from '../harness';
import { freshProducts, goodPrice, runner, sandbox, sandboxPerFile, schedule, sent } from '../actions/helpers';

const ZONES = ['UTC', 'Europe/Belgrade', 'America/New_York', 'Pacific/Auckland'];
const HOUR_MS = 3_600_000;

// The sandbox's clock is real time: the node's "today" and $today are the real day.
sandboxPerFile({ seed: 37, products: 400 });

const discounts = runner('discount');
const prices = runner('price');
const products = runner('product');

/** A day from today in `zone`, as the service takes it. */
const dayIn = (zone: string, days: number, format = 'dd/MM/yyyy') => DateTime.now().setZone(zone).plus({ days }).toFormat(format);

/** How a user gives the day some days ahead: `$today`, `$now`, `$now` as text, a UTC instant, the date picker, dd/MM/yyyy text. */
function givenDays(zone: string): Array<[string, (days: number) => string]> {
	return [
		['$today', (days) => `={{ $today.plus({ days: ${days} }) }}`],
		['$now', (days) => `={{ $now.plus({ days: ${days} }) }}`],
		['$now as ISO text', (days) => `={{ $now.plus({ days: ${days} }).toISO() }}`],
		['a UTC (Z) instant', (days) => `={{ $now.plus({ days: ${days} }).toUTC().toISO() }}`],
		['the date picker', (days) => `${dayIn(zone, days, 'yyyy-MM-dd')}T00:00:00`],
		['dd/MM/yyyy text', (days) => dayIn(zone, days)],
	];
}

/** Discount › Schedule of one row entered in the panel, in a workflow in `timezone`. */
async function scheduleRow(product: ProductRecord, dateFrom: string, dateTo: string, discountType: string, timezone: string) {
	const row = { merchantInventoryId: String(product.id), discountPrice: goodPrice(product), currency: 'RSD', dateFrom, dateTo, discountType };
	return await schedule([], { inputMode: 'rows', discountsUi: { discount: [row] } }, { timezone });
}

const stored = (discountId: unknown) => sandbox.state.discounts.find((discount) => discount.discountId === discountId);

describe.each(ZONES)('a workflow in %s', (zone) => {
	const options = { timezone: zone };

	beforeEach(() => {
		sandbox.resetVariants();
		sandbox.setVariants({ serviceTimeZone: zone });
	});

	it.each(givenDays(zone))('Discount Schedule and Update store the day %s names', async (_given, day) => {
		const [product] = freshProducts(1);
		const scheduled = await scheduleRow(product, day(20), day(25), 'SALE', zone);

		expect(scheduled.error).toBeUndefined();
		const [result] = scheduled.json(NODE_UNDER_TEST_NAME);
		expect(result).toMatchObject({ success: true, input: { dateFrom: dayIn(zone, 20), dateTo: dayIn(zone, 25) } });
		expect(stored(result.id)).toMatchObject({ dateFrom: dayIn(zone, 20), dateTo: dayIn(zone, 25) });

		const updated = await discounts(
			{
				operation: 'update',
				inputMode: 'rows',
				discountUpdatesUi: { discount: [{ discountId: String(result.id), newDiscountPrice: '', newDateFrom: day(21), newDateTo: day(26), newDiscountType: 'SALE' }] },
			},
			[{}],
			options,
		);

		expect(updated.error).toBeUndefined();
		expect(updated.json(NODE_UNDER_TEST_NAME)[0]).toMatchObject({ success: true, input: { newDateFrom: dayIn(zone, 21), newDateTo: dayIn(zone, 26) } });
		expect(stored(result.id)).toMatchObject({ dateFrom: dayIn(zone, 21), dateTo: dayIn(zone, 26) });
	});

	it('Discount Schedule from $today starts today, as the workflow counts days', async () => {
		const [product] = freshProducts(1);
		const result = await scheduleRow(product, '={{ $today }}', '={{ $today.plus({ days: 5 }) }}', 'SALE', zone);

		expect(result.error).toBeUndefined();
		expect(result.json(NODE_UNDER_TEST_NAME)[0]).toMatchObject({ success: true, input: { dateFrom: dayIn(zone, 0), dateTo: dayIn(zone, 5) } });
	});

	it.each<[string, string]>([
		['$today', '={{ $today }}'],
		['$now', '={{ $now }}'],
		['the date picker', `${dayIn(zone, 0, 'yyyy-MM-dd')}T00:00:00`],
	])('Price Get Many for %s asks for today in the workflow\'s zone; left empty, too', async (_given, date) => {
		const id = String(sandbox.state.products[0].id);
		for (const given of [date, '']) {
			sandbox.clearLog();
			const result = await prices({ operation: 'getMany', merchantInventoryIds: id, date: given }, [{}], options);

			expect(result.error).toBeUndefined();
			expect(sent('prices').map((entry) => entry.query.dateFrom)).toEqual([dayIn(zone, 0)]);
		}
	});

	it('Price Get Many refuses yesterday, named in the workflow\'s zone, before sending', async () => {
		const result = await prices({ operation: 'getMany', merchantInventoryIds: '1', date: '={{ $today.minus({ days: 1 }) }}' }, [{}], options);

		expect(result.error?.message).toBe(`Date: ${dayIn(zone, -1, 'yyyy-MM-dd')} is in the past (item 0)`);
		expect(sent('prices')).toHaveLength(0);
	});

	it('Discount Get Many left empty asks from today in the workflow\'s zone; $today gives the same', async () => {
		for (const dateFrom of ['', '={{ $today }}']) {
			sandbox.clearLog();
			const result = await discounts({ operation: 'getMany', dateFrom, dateTo: '={{ $today.plus({ days: 30 }) }}' }, [{}], options);

			expect(result.error).toBeUndefined();
			expect(sent('discountList').map((entry) => [entry.query.dateFrom, entry.query.dateTo])).toEqual([[dayIn(zone, 0), dayIn(zone, 30)]]);
		}
	});

	it('Product Get Many\'s Modified After sends the day named', async () => {
		const result = await products({ operation: 'getMany', returnAll: false, limit: 5, filters: { modifiedAfter: '={{ $today.minus({ days: 1 }) }}' } }, [{}], options);

		expect(result.error).toBeUndefined();
		expect(sent('products').map((entry) => entry.query['date-modified-after'])).toEqual([dayIn(zone, -1, 'yyyy-MM-dd')]);
	});

	it('Get Many Basic\'s Modified After 3 hours ago answers 3 hours of changes, from a service that honours the time', async () => {
		sandbox.setVariants({ basicProductsModifiedFilter: 'both' });
		const [earlier, recent] = sandbox.state.products;
		const now = Date.now();
		// Changed 5 hours ago and 1 hour ago (the platform's side: a sale from its warehouse).
		for (const [product, agoMs] of [
			[earlier, 5 * HOUR_MS],
			[recent, HOUR_MS],
		] as const) {
			sandbox.clock.set(now - agoMs);
			const response = await fetch(`${sandbox.url}/__sandbox/product-changes`, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
				body: JSON.stringify([{ id: product.id, sold: 0 }]),
			});
			expect(response.status).toBe(200);
		}
		sandbox.clock.set(now);

		const result = await products({ operation: 'getManyBasic', returnAll: true, filters: { modifiedAfter: '={{ $now.minus({ hours: 3 }) }}' } }, [{}], options);

		expect(result.error).toBeUndefined();
		const since = new Date(now - 3 * HOUR_MS).toISOString();
		const expected = sandbox.state.products.filter((product) => product.dateModified >= since).map((product) => product.id);
		expect(expected).toContain(recent.id);
		expect(expected).not.toContain(earlier.id);
		expect(result.json(NODE_UNDER_TEST_NAME).map((product) => product.id).sort()).toEqual([...expected].sort());
		const [query] = sent('basicProducts').map((entry) => entry.query);
		expect(Date.parse(`${query.dateModifiedAfter}Z`)).toBeGreaterThan(now - 3 * HOUR_MS - 60_000);
		expect(query['date-modified-after'] <= DateTime.fromMillis(now - 3 * HOUR_MS, { zone }).toFormat('yyyy-MM-dd')).toBe(true);
	});
});

describe('a workflow in Europe/Belgrade', () => {
	beforeEach(() => {
		sandbox.resetVariants();
		sandbox.setVariants({ serviceTimeZone: 'Europe/Belgrade' });
	});

	it('schedules a SEASONAL_SALE from 1 July given as $today set to 1 July', async () => {
		const [product] = freshProducts(1);
		const result = await scheduleRow(
			product,
			'={{ $today.plus({ years: 1 }).set({ month: 7, day: 1 }) }}',
			'={{ $today.plus({ years: 1 }).set({ month: 7, day: 20 }) }}',
			'SEASONAL_SALE',
			'Europe/Belgrade',
		);

		expect(result.error).toBeUndefined();
		const year = DateTime.now().setZone('Europe/Belgrade').year + 1;
		const [scheduled] = result.json(NODE_UNDER_TEST_NAME);
		expect(scheduled).toMatchObject({ success: true, input: { dateFrom: `01/07/${year}`, dateTo: `20/07/${year}`, discountType: 'SEASONAL_SALE' } });
		expect(stored(scheduled.id)).toMatchObject({ dateFrom: `01/07/${year}`, discountType: 'SEASONAL_SALE' });
	});

	it('reads a range\'s zoneless date-time in the workflow\'s zone, and a bare end day to its last millisecond there', async () => {
		const result = await runner('order')(
			{ operation: 'getMany', returnAll: false, limit: 1, statusGroup: 'all', filters: { createdFrom: '2026-07-01T08:00:00', createdTo: '2026-07-02' } },
			[{}],
			{ timezone: 'Europe/Belgrade' },
		);

		expect(result.error).toBeUndefined();
		expect(sent('orders')[0].query).toMatchObject({ dateFrom: '2026-07-01T06:00:00.000Z', dateTo: '2026-07-02T21:59:59.999Z' });
	});
});

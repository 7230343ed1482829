/**
 * The rule of actions/discount/shared.ts `listedDiscountDays` where the sandbox does not list such
 * times: a start shown at midnight (the pages' example, a minute early), an offset of half an
 * hour, an answer with a zone, a start "at once" with nothing to learn from (read as UTC), and an
 * answer spanning winter and summer time. serviceZone.test.ts runs the same function through n8n's
 * engine against services in UTC, Europe/Belgrade and America/New_York.
 */
import type { IDataObject } from 'n8n-workflow';

import { listedDiscountDays } from '../../../nodes/MarketplaceMerchant/actions/discount/shared';
import { formatDayMonthYear } from '../../../nodes/MarketplaceMerchant/values/dates';

const NOW = new Date('2027-01-10T12:00:00Z');

/** The days and state of `discount` as read within an answer of `listed` (it included). */
function read(discount: IDataObject, others: IDataObject[] = [], now = NOW) {
	const { from, to, state } = listedDiscountDays([discount, ...others], now)(discount);
	return { from: from && formatDayMonthYear(from), to: to && formatDayMonthYear(to), state };
}

describe('listedDiscountDays', () => {
	it.each([
		['UTC, starting at 00:01', '2027-01-16T00:01:00', '2027-01-20T23:59:00', '16/01/2027', '20/01/2027'],
		['UTC, a start shown at midnight (a minute early)', '2027-01-16T00:00:00', '2027-01-20T23:59:00', '16/01/2027', '20/01/2027'],
		['UTC+1 (Belgrade, winter)', '2027-01-15T23:01:00', '2027-01-20T22:59:00', '16/01/2027', '20/01/2027'],
		['UTC+2 (Belgrade, summer)', '2027-07-15T22:01:00', '2027-07-20T21:59:00', '16/07/2027', '20/07/2027'],
		['UTC+5:30 (Kolkata)', '2027-01-15T18:31:00', '2027-01-20T18:29:00', '16/01/2027', '20/01/2027'],
		['UTC-5 (New York, winter)', '2027-01-16T05:01:00', '2027-01-21T04:59:00', '16/01/2027', '20/01/2027'],
		['UTC+1 with fractional seconds', '2027-01-15T23:01:00.000', '2027-01-20T22:59:00.000', '16/01/2027', '20/01/2027'],
		['an answer written with its offset', '2027-01-16T00:01:00+01:00', '2027-01-20T23:59:00+01:00', '16/01/2027', '20/01/2027'],
	])('an upcoming discount listed in %s: its days there', (_zone, dateFrom, dateTo, from, to) => {
		expect(read({ dateFrom, dateTo })).toEqual({ from, to, state: 'pending' });
	});

	it('a start "at once" (any time, seconds and all) takes its own end\'s offset', () => {
		// 23:30:12 UTC on 9 January is 00:30 on the 10th in Belgrade, where the end says the service counts.
		expect(read({ dateFrom: '2027-01-09T23:30:12.345', dateTo: '2027-01-14T22:59:00' })).toEqual({ from: '10/01/2027', to: '14/01/2027', state: 'running' });
	});

	it('a start "at once" without an end takes the offset of the answer\'s bound nearest to it; with none, it is read as UTC', () => {
		const clearance = { dateFrom: '2027-01-09T23:30:12', dateTo: null };
		const belgradeWinter = { dateFrom: '2027-01-15T23:01:00', dateTo: '2027-01-20T22:59:00' };
		const belgradeSummer = { dateFrom: '2027-07-15T22:01:00', dateTo: '2027-07-20T21:59:00' };
		const newYork = { dateFrom: '2027-12-16T05:01:00', dateTo: '2027-12-21T04:59:00' };
		expect(read(clearance, [newYork, belgradeSummer, belgradeWinter])).toEqual({ from: '10/01/2027', to: undefined, state: 'running' });
		expect(read(clearance)).toEqual({ from: '09/01/2027', to: undefined, state: 'running' });
	});

	it('a start that has come shows no pattern it may be trusted on: 23:01 UTC alone is read as UTC', () => {
		expect(read({ dateFrom: '2027-01-09T23:01:00', dateTo: null })).toMatchObject({ from: '09/01/2027' });
	});

	it('has ended after 23:59 of its last day in the service\'s zone, not in UTC', () => {
		// Belgrade's 23:59 of 9 January is 22:59 UTC; New York's is 04:59 UTC on the 10th.
		const belgrade = { dateFrom: '2027-01-04T23:01:00', dateTo: '2027-01-09T22:59:00' };
		expect(read(belgrade, [], new Date('2027-01-09T22:58:00Z'))).toMatchObject({ to: '09/01/2027', state: 'running' });
		expect(read(belgrade, [], new Date('2027-01-09T23:30:00Z'))).toMatchObject({ to: '09/01/2027', state: 'ended' });
		const newYork = { dateFrom: '2027-01-05T05:01:00', dateTo: '2027-01-10T04:59:00' };
		expect(read(newYork, [], new Date('2027-01-10T04:58:00Z'))).toMatchObject({ to: '09/01/2027', state: 'running' });
		expect(read(newYork, [], new Date('2027-01-10T05:30:00Z'))).toMatchObject({ to: '09/01/2027', state: 'ended' });
	});

	it('an unreadable start: no days from it and no state', () => {
		expect(read({ dateFrom: 'soon', dateTo: '2027-01-20T22:59:00' })).toEqual({ from: undefined, to: '20/01/2027', state: undefined });
	});
});

/**
 * The readers of values/values.ts (dates, text, choices, lists, EANs, URLs and JSON) fed the values
 * of issue 10 and more, through a minimal context (test/values/helpers.ts); the engine tests
 * (product, discount, price, invoice, stop-before-send) run the same readers through RoutingNode.
 */
import { DateTime } from 'luxon';
import type { INode } from 'n8n-workflow';

import { describeValue, readChoice, type ValueContext } from '../../nodes/MarketplaceMerchant/values/labels';
import { readId, readPercent, readWholeNumber } from '../../nodes/MarketplaceMerchant/values/numbers';
import { readBoolean, readCurrency, readDate, readDay, readEan, readJson, readList, readStatusNames, readText, readUrl } from '../../nodes/MarketplaceMerchant/values/values';
import { FIELD, ctx, rejection } from './helpers';

describe('dates', () => {
	it.each<[unknown, string]>([
		['2027-02-28', '2027-02-28T00:00:00.000Z'],
		['28/02/2027', '2027-02-28T00:00:00.000Z'],
		['29/02/2028', '2028-02-29T00:00:00.000Z'],
		[' 01/07/2027 ', '2027-07-01T00:00:00.000Z'],
		['2027-02-28T10:30:00', '2027-02-28T10:30:00.000Z'],
		['2027-02-28 10:30:00', '2027-02-28T10:30:00.000Z'],
		['2027-02-28T10:30:00.123Z', '2027-02-28T10:30:00.123Z'],
		['2027-02-28T10:30:00+02:00', '2027-02-28T08:30:00.000Z'],
		[new Date('2027-02-28T10:30:00Z'), '2027-02-28T10:30:00.000Z'],
		[DateTime.fromISO('2027-02-28T10:30:00', { zone: 'Europe/Belgrade' }), '2027-02-28T09:30:00.000Z'],
	])('readDate reads %p', (value, expected) => {
		expect(readDate(ctx, FIELD, value).toISOString()).toBe(expected);
	});

	it.each<[unknown]>([
		['31/02/2027'],
		['29/02/2027'],
		['2027-02-30'],
		['2027-13-01'],
		['32/01/2027'],
		['12'],
		['2027'],
		['2027-06'],
		['20270228'],
		['1/7/2027'],
		['07/01/27'],
		['2027-02-28T25:00:00'],
		['soon'],
		[1_800_000_000_000],
		[new Date('nope')],
		[DateTime.fromISO('2027-02-30')],
		[{}],
		[true],
	])('readDate rejects %p', (value) => {
		const message = rejection(readDate, value);
		expect(message).toBe(`Some Field: ${describeValue(value)} is not a date (item 3)`);
	});

	it('says which forms are accepted', () => {
		try {
			readDate(ctx, FIELD, '31/02/2027');
		} catch (error) {
			expect((error as { description?: string }).description).toMatch(/ISO 8601.*dd\/MM\/yyyy.*without a zone is in the workflow's time zone/);
			return;
		}
		throw new Error('accepted');
	});

	it('readDay gives the day the value names: an offset its own, a Z instant and a Date the workflow\'s, a zoneless value as written', () => {
		const belgrade: ValueContext = { ...ctx, getTimezone: () => 'Europe/Belgrade' };
		const day = (context: ValueContext, value: unknown) => readDay(context, FIELD, value).toISOString().slice(0, 10);
		for (const context of [ctx, belgrade]) {
			expect(day(context, '2027-03-01T00:30:00+01:00')).toBe('2027-03-01');
			expect(day(context, '2027-02-28T23:30:00-05:00')).toBe('2027-02-28');
			expect(day(context, '2027-03-01T00:30:00')).toBe('2027-03-01');
			expect(day(context, '2027-03-01')).toBe('2027-03-01');
			expect(day(context, '01/03/2027')).toBe('2027-03-01');
			expect(day(context, DateTime.fromISO('2027-03-01T00:00:00', { zone: 'Pacific/Auckland' }))).toBe('2027-03-01');
		}
		expect(day(ctx, '2027-02-28T23:30:00Z')).toBe('2027-02-28');
		expect(day(belgrade, '2027-02-28T23:30:00Z')).toBe('2027-03-01');
		expect(day(belgrade, new Date('2027-02-28T23:30:00Z'))).toBe('2027-03-01');
	});

	it('readDate reads a zoneless value in the workflow\'s time zone and keeps an offset\'s', () => {
		const newYork: ValueContext = { ...ctx, getTimezone: () => 'America/New_York' };
		expect(readDate(newYork, FIELD, '2027-07-01T10:30').toISOString()).toBe('2027-07-01T14:30:00.000Z');
		expect(readDate(newYork, FIELD, '2027-07-01').toISOString()).toBe('2027-07-01T04:00:00.000Z');
		expect(readDate(newYork, FIELD, '2027-07-01T10:30:00+02:00').toISOString()).toBe('2027-07-01T08:30:00.000Z');
		expect(readDate(newYork, FIELD, '2027-07-01T10:30:00Z').toISOString()).toBe('2027-07-01T10:30:00.000Z');
	});

	it('a blank date is missing', () => {
		expect(rejection(readDate, '')).toBe('Some Field: is missing (item 3)');
	});
});

describe('text, choices, lists, EANs, URLs and JSON', () => {
	it('readEan takes 8 to 14 digits and leaves the check digit to the service', () => {
		for (const ean of ['40063813', '4006381333931', '4006381333932', '0740617304350', '00012345678905', ' 4006381333931 ']) {
			expect(readEan(ctx, FIELD, ean)).toBe(ean.trim());
		}
		expect(readEan(ctx, FIELD, 4006381333931)).toBe('4006381333931');
		for (const value of ['4006381', '400638133393112', '400638133393X', '4006-3813', '4006381 333931', 4.5, '', null]) {
			expect(rejection(readEan, value)).toMatch(/^Some Field: .+ \(item 3\)$/);
		}
	});

	it('readList splits text, keeps array entries as given and names each entry', () => {
		const rules = { empty: { problem: 'the list is empty', hint: 'Give one' } };
		expect(readList(ctx, FIELD, '1, 2;3\n4', rules)).toEqual(['1', '2', '3', '4']);
		expect(readList(ctx, FIELD, ['a', ' ', 'b'], rules)).toEqual(['a', 'b']);
		expect(() => readList(ctx, FIELD, ' , ', rules)).toThrow('Some Field: the list is empty (item 3)');
		expect(() => readList(ctx, FIELD, ['1', '2', '1,5'], { ...rules, readEntry: (entry, field) => readId(ctx, field, entry) })).toThrow(
			'Some Field › entry 3: "1,5" is not a product ID (a whole number) (item 3)',
		);
		expect(() => readList(ctx, FIELD, [1, { id: 2 }], { ...rules, readEntry: (entry, field) => readId(ctx, field, entry) })).toThrow(
			'Some Field › entry 2: {"id":2} is not a product ID (a whole number) (item 3)',
		);
	});

	it('readStatusNames: a list or text separated by commas, each an upper-case status name (Shipment › Get Many and the trigger alike)', () => {
		expect(readStatusNames(ctx, FIELD, 'PACKED, READY_FOR_COLLECTION;\nDELIVERED')).toEqual(['PACKED', 'READY_FOR_COLLECTION', 'DELIVERED']);
		expect(readStatusNames(ctx, FIELD, [' PACKED ', '', 'CONFIRMED'])).toEqual(['PACKED', 'CONFIRMED']);
		expect(readStatusNames(ctx, FIELD, undefined)).toEqual([]);
		expect(() => readStatusNames(ctx, FIELD, 'PACKED, delivered')).toThrow('Some Field › entry 2: "delivered" is not a status name (item 3)');
	});

	it('readText, readChoice, readUrl and readJson', () => {
		expect(readText(ctx, FIELD, '  Pan  ')).toBe('Pan');
		expect(readText(ctx, FIELD, 123)).toBe('123');
		expect(rejection(readText, ' ')).toBe('Some Field: is missing (item 3)');
		expect(rejection(readText, { a: 1 })).toBe('Some Field: {"a":1} is not text (item 3)');
		expect(readChoice(ctx, FIELD, ' sale ', ['SALE', 'CLEARANCE_SALE'])).toBe('SALE');
		expect(() => readChoice(ctx, FIELD, 'FLASH', ['SALE'])).toThrow('Some Field: "FLASH" is not one of SALE (item 3)');
		// One reader for codes and options fields alike (issue 41: readOption was a second one, exact case only).
		expect(readChoice(ctx, FIELD, 'PROCESSED', ['forConfirmation', 'processed'])).toBe('processed');
		expect(() => readChoice(ctx, FIELD, ' ', ['SALE'])).toThrow('Some Field: is missing (item 3)');
		expect(() => readChoice(ctx, FIELD, 'x', ['zero', 'invalid'], 'Pick Send as 0 or Treat as Invalid')).toThrow('Some Field: "x" is not one of zero, invalid (item 3)');
		expect(readUrl(ctx, FIELD, 'https://example.com/a.jpg')).toBe('https://example.com/a.jpg');
		for (const value of ['cover.jpg', 'ftp://example.com/a.jpg', 'javascript:alert(1)']) expect(rejection(readUrl, value)).toContain(describeValue(value));
		expect(readJson(ctx, FIELD, '[{"id": 1}]', 'hint')).toEqual([{ id: 1 }]);
		expect(readJson(ctx, FIELD, [{ id: 1 }], 'hint')).toEqual([{ id: 1 }]);
		expect(() => readJson(ctx, FIELD, '[{id: 1}]', 'hint')).toThrow(/^Some Field: is not valid JSON/);
	});

	it('readBoolean takes true and false, also as text; nothing else', () => {
		expect([true, false, 'true', ' FALSE ', 'True'].map((value) => readBoolean(ctx, FIELD, value))).toEqual([true, false, true, false, true]);
		for (const value of ['yes', '1', 1, 0, 'on', {}]) expect(rejection(readBoolean, value)).toBe(`Some Field: ${describeValue(value)} is not true or false (item 3)`);
		expect(rejection(readBoolean, '')).toBe('Some Field: is missing (item 3)');
	});

	it('readPercent goes up to 100 unless a wider maximum is given', () => {
		expect(rejection(readPercent, 150)).toBe('Some Field: must be at most 100, got 150 (item 3)');
		expect(readPercent(ctx, FIELD, '150', Infinity)).toBe(150);
	});

	it('an error outside an item (the trigger) names no item', () => {
		const triggerCtx: ValueContext = { getNode: () => ({ name: 'Trigger' }) as INode, getTimezone: () => 'UTC' };
		expect(() => readWholeNumber(triggerCtx, 'Look-Back Window (Minutes)', '1e3', 0)).toThrow(
			/^Look-Back Window \(Minutes\): "1e3" is not a whole number$/,
		);
	});
});

describe('currencies', () => {
	it('reads a currency code in any letter case, KM as BAM, and blank as the account\'s (undefined)', () => {
		expect([' bam ', 'KM', 'km', 'RSD', 'eur', 'MKD', 'HUF'].map((value) => readCurrency(ctx, FIELD, value))).toEqual(['BAM', 'BAM', 'BAM', 'RSD', 'EUR', 'MKD', 'HUF']);
		expect(readCurrency(ctx, FIELD, '')).toBeUndefined();
		expect(readCurrency(ctx, FIELD, undefined)).toBeUndefined();
	});

	it.each<unknown>(['dinars', 'RS', 'R$D', 978, { code: 'BAM' }])('refuses %p, which is no currency code', (value) => {
		expect(rejection((context, field, given) => readCurrency(context, field, given) as never, value)).toMatch(/^Some Field: .+ is not a currency code \(item 3\)$/);
	});
});

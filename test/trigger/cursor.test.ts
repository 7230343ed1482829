/**
 * The state rules on their own (the polls in the other files exercise them through n8n): where
 * a poll starts, what it forgets, and when the state starts over.
 */
import { EventCursor, type EventState } from '../../nodes/MarketplaceMerchantTrigger/cursor';

const HOUR = 3_600_000;
const now = new Date('2025-06-15T10:00:00.500Z');
const settings = { lookBackMs: HOUR, now };

function windowEndingNow(fromIso = '2025-06-15T09:00:00.000Z') {
	return { from: new Date(fromIso), to: now };
}

test('without stored state and Start From, the first poll seeds the look-back window before now and emits nothing', () => {
	const cursor = EventCursor.open(undefined, settings);
	expect(cursor.emits).toBe(false);
	expect(cursor.pendingWindows()).toEqual([{ from: new Date(now.getTime() - HOUR), to: now }]);
});

test('with stored state, a poll starts one look-back window before the cursor', () => {
	const stored: EventState = { origin: 'now', cursor: '2025-06-15T09:30:00.000Z', seen: {} };
	const cursor = EventCursor.open(stored, settings);
	expect(cursor.emits).toBe(true);
	expect(cursor.pendingWindows()).toEqual([{ from: new Date('2025-06-15T08:30:00.000Z'), to: now }]);
});

test('an id is forgotten only when its whole second lies before the next query start', () => {
	const cursor = EventCursor.open({ origin: 'now', cursor: '2025-06-15T09:59:00.000Z', seen: {} }, settings);
	const window = windowEndingNow('2025-06-15T08:00:00.000Z');
	// The next query starts at 09:00:00.500.
	cursor.admit('before', new Date('2025-06-15T08:59:59.000Z'), window);
	cursor.admit('same-second', new Date('2025-06-15T09:00:00.000Z'), window);
	cursor.admit('after', new Date('2025-06-15T09:00:01.000Z'), window);
	cursor.completeUpTo(window.to);
	expect(Object.keys(cursor.toJSON().seen)).toEqual(['same-second', 'after']);
	expect(cursor.admit('after', new Date('2025-06-15T09:00:01.000Z'), window)).toBe(false);
});

test('a document whose date lies outside the range that returned it is kept as long as the range end', () => {
	const cursor = EventCursor.open({ origin: 'now', cursor: '2025-06-15T09:59:00.000Z', seen: {} }, settings);
	const window = windowEndingNow();
	cursor.admit('undated', undefined, window);
	cursor.admit('odd-date', new Date('2020-01-01T00:00:00Z'), window);
	expect(cursor.toJSON().seen).toEqual({ undated: Math.floor(now.getTime() / 1000), 'odd-date': Math.floor(now.getTime() / 1000) });
});

test('a new Start From date starts over; removing it keeps the state; broken state seeds again', () => {
	const stored: EventState = { origin: '2025-01-01T00:00:00.000Z', cursor: '2025-06-15T09:00:00.000Z', seen: { a: 1 } };

	const moved = EventCursor.open(stored, { ...settings, startFrom: new Date('2025-03-01T00:00:00Z') });
	expect(moved.toJSON()).toEqual({ origin: '2025-03-01T00:00:00.000Z', seen: {} });
	expect(moved.pendingWindows()[0].from).toEqual(new Date('2025-03-01T00:00:00Z'));

	expect(EventCursor.open(stored, settings).toJSON()).toEqual(stored);
	expect(EventCursor.open(stored, { ...settings, startFrom: new Date(stored.origin) }).toJSON()).toEqual(stored);

	expect(EventCursor.open({ cursor: 'yesterday', seen: [] }, settings).emits).toBe(false);
});

test('a Start From in the future waits; one before 2022-05-01 starts at 2022-05-01', () => {
	expect(EventCursor.open(undefined, { ...settings, startFrom: new Date('2026-01-01T00:00:00Z') }).pendingWindows()).toEqual([]);
	const early = EventCursor.open(undefined, { ...settings, startFrom: new Date('2021-01-01T00:00:00Z') });
	expect(early.pendingWindows()[0].from).toEqual(new Date('2022-05-01T00:00:00.000Z'));
});

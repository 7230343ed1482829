/**
 * Date parsing and formatting for the formats the API uses. A calendar day is held as the epoch ms
 * of its date's UTC midnight; the zone in which the service reads a day (the variant
 * `serviceTimeZone`: which day is today, when a day begins) is applied by `dayIn` and `dayStartIn`.
 */
import { DateTime } from 'luxon';

export const DAY_MS = 86_400_000;
export const MINUTE_MS = 60_000;

const ZONED_ISO = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;
const UNZONED_ISO = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?$/;
const DAY_MONTH_YEAR = /^(\d{2})\/(\d{2})\/(\d{4})$/;
const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

function utcDay(year: number, month: number, day: number): number | undefined {
	const ms = Date.UTC(year, month - 1, day);
	const date = new Date(ms);
	const valid =
		date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
	return valid ? ms : undefined;
}

/** Validates the calendar fields of an ISO match, then lets Date parse it (milliseconds at most). */
function parseIsoMatch(match: RegExpMatchArray, zone: string): number | undefined {
	const [, year, month, day, hour, minute, second, fraction = ''] = match;
	if (utcDay(Number(year), Number(month), Number(day)) === undefined) return undefined;
	if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return undefined;
	const millis = fraction ? fraction.slice(0, 4).padEnd(4, '0') : '';
	const ms = Date.parse(`${year}-${month}-${day}T${hour}:${minute}:${second}${millis}${zone}`);
	return Number.isNaN(ms) ? undefined : ms;
}

/** `2024-05-01T00:00:00.000Z` or with an offset; undefined when not a zoned ISO 8601 timestamp. */
export function parseZonedIso(value: string): number | undefined {
	const match = ZONED_ISO.exec(value);
	return match ? parseIsoMatch(match, match[8]) : undefined;
}

/** A response timestamp, zoned or not; without a zone it is UTC (as the live service sends them). */
export function parseTimestamp(value: string): number | undefined {
	const unzoned = UNZONED_ISO.exec(value);
	return unzoned ? parseIsoMatch(unzoned, 'Z') : parseZonedIso(value);
}

/** `dd/MM/yyyy` to UTC midnight (epoch ms). */
export function parseDayMonthYear(value: string): number | undefined {
	const match = DAY_MONTH_YEAR.exec(value);
	return match ? utcDay(Number(match[3]), Number(match[2]), Number(match[1])) : undefined;
}

/** `yyyy-MM-dd` to UTC midnight (epoch ms). */
export function parseIsoDay(value: string): number | undefined {
	const match = ISO_DAY.exec(value);
	return match ? utcDay(Number(match[1]), Number(match[2]), Number(match[3])) : undefined;
}

export function startOfUtcDay(ms: number): number {
	return Math.floor(ms / DAY_MS) * DAY_MS;
}

/** The calendar day an instant falls on in `zone` (an IANA name; 'UTC' by default). */
export function dayIn(ms: number, zone: string): number {
	const local = DateTime.fromMillis(ms, { zone });
	return Date.UTC(local.year, local.month - 1, local.day);
}

/** The instant a calendar day begins in `zone`. */
export function dayStartIn(dayMs: number, zone: string): number {
	const day = new Date(dayMs);
	return DateTime.fromObject({ year: day.getUTCFullYear(), month: day.getUTCMonth() + 1, day: day.getUTCDate() }, { zone }).toMillis();
}

/** Adds calendar months, clamping the day (31 January + 1 month = 28/29 February). */
export function addUtcMonths(ms: number, months: number): number {
	const date = new Date(ms);
	const target = new Date(ms);
	target.setUTCDate(1);
	target.setUTCMonth(target.getUTCMonth() + months);
	const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
	target.setUTCDate(Math.min(date.getUTCDate(), lastDay));
	return target.getTime();
}

/** `2022-01-26T00:00:00`: the zone-less UTC timestamps the live service answers with. */
export function formatUnzoned(ms: number): string {
	return new Date(ms).toISOString().slice(0, 19);
}

export function formatDayMonthYear(ms: number): string {
	const iso = new Date(ms).toISOString();
	return `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;
}

/** Milliseconds from a Date, epoch number or date string; throws on anything unparseable. */
export function toEpochMs(value: string | number | Date): number {
	const ms =
		value instanceof Date
			? value.getTime()
			: typeof value === 'number'
				? value
				: (parseTimestamp(value) ?? Date.parse(value));
	if (!Number.isFinite(ms)) throw new Error(`Not a valid date: ${String(value)}`);
	return ms;
}

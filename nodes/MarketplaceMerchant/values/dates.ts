/**
 * Dates as the endpoints want them, always in UTC (platform facts, "Dates"). n8n's date picker
 * gives no zone: such a value is UTC, so the same workflow asks for the same days anywhere.
 */

const ZONE = /(Z|[+-]\d{2}:?\d{2})$/i;

/** A timestamp the service answered, read leniently: answers are not the user's to fix (user values: values/). */
export function parseServiceTimestamp(value: unknown): Date | undefined {
	if (typeof value !== 'string' || value.trim() === '') return undefined;
	const text = value.trim();
	const isoLike = /^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00` : text.replace(' ', 'T');
	const parsed = new Date(ZONE.test(isoLike) ? isoLike : `${isoLike}Z`);
	return Number.isNaN(parsed.getTime()) ? undefined : parsed;
}

/**
 * A user's date as values.ts reads it: ISO 8601 from the day on (`2025-06-15`, `2025-06-15T10:30`,
 * seconds with a fraction, `Z`, an offset or a zone's name in brackets; else UTC);
 * or `dd/MM/yyyy`. The grammar and checks are Luxon's `fromISO`/`fromObject`, which read them before
 * (not bundled any more: it was most of each bundle): a day that does not exist is no date, 24:00
 * is the next day's midnight.
 */
const USER_ISO = new RegExp(
	'^(\\d{4})-(\\d\\d)-(\\d\\d)(?:[Tt](\\d\\d)(?::?(\\d\\d)(?::?(\\d\\d)(?:[.,](\\d{1,30}))?)?)?' +
		'(?:([Zz])|([+-]\\d\\d)(?::?(\\d\\d))?)?(?:\\[([A-Za-z_+-]{1,256}(?::?\\/[A-Za-z0-9_+-]{1,256}(?:\\/[A-Za-z0-9_+-]{1,256})?)?)\\])?)?$',
);
export const DAY_MONTH_YEAR = /^(\d{2})\/(\d{2})\/(\d{4})$/;

function daysInMonth(year: number, month: number): number {
	const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
	return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
}

type WallTime = { year: number; month: number; day: number; hour?: number; minute?: number; second?: number; ms?: number };

/** A wall time as if it were UTC, or undefined when a part is out of range. */
function asUtc(parts: WallTime): number | undefined {
	const { year, month, day, hour = 0, minute = 0, second = 0, ms = 0 } = parts;
	if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
	if (!(hour <= 23 || (hour === 24 && minute === 0 && second === 0 && ms === 0)) || minute > 59 || second > 59) return undefined;
	const date = new Date(0);
	// setUTCFullYear, not Date.UTC, which reads the years 0 to 99 as 1900 to 1999.
	date.setUTCFullYear(year, month - 1, day);
	date.setUTCHours(hour, minute, second, ms);
	return date.getTime();
}

function instantOf(parts: WallTime, offsetMinutes = 0): Date | undefined {
	const local = asUtc(parts);
	return local === undefined ? undefined : new Date(local - offsetMinutes * 60_000);
}

/** A zone's offset from UTC at an instant, in minutes, read with Intl as Luxon's IANAZone reads it. */
function zoneOffsetMinutes(format: Intl.DateTimeFormat, at: number): number {
	const parts = Object.fromEntries(format.formatToParts(new Date(at)).map(({ type, value }) => [type, value]));
	const year = parts.era === 'BC' ? 1 - Math.abs(Number(parts.year)) : Number(parts.year);
	const hour = Number(parts.hour) === 24 ? 0 : Number(parts.hour);
	const wall = asUtc({ year, month: Number(parts.month), day: Number(parts.day), hour, minute: Number(parts.minute), second: Number(parts.second) }) ?? NaN;
	return (wall - (at - (((at % 1000) + 1000) % 1000))) / 60_000;
}

/**
 * A wall time in a named zone (`[Europe/Belgrade]`, which wins over an offset before it), as Luxon
 * placed it: the zone's offset now as the first guess, corrected once or twice (a time a clock
 * change skips or repeats gets Luxon's answer). An unknown zone: no date.
 */
function instantInZone(parts: WallTime, zone: string): Date | undefined {
	let format: Intl.DateTimeFormat;
	try {
		format = new Intl.DateTimeFormat('en-US', {
			hour12: false,
			timeZone: zone,
			year: 'numeric',
			month: '2-digit',
			day: '2-digit',
			hour: '2-digit',
			minute: '2-digit',
			second: '2-digit',
			era: 'short',
		});
	} catch {
		return undefined;
	}
	const local = asUtc(parts);
	if (local === undefined) return undefined;
	const guess = zoneOffsetMinutes(format, Date.now());
	let at = local - guess * 60_000;
	const second = zoneOffsetMinutes(format, at);
	if (second === guess) return new Date(at);
	at -= (second - guess) * 60_000;
	const third = zoneOffsetMinutes(format, at);
	return new Date(second === third ? at : local - Math.min(second, third) * 60_000);
}

/** `dd/MM/yyyy` (UTC midnight), or undefined. */
export function parseDayMonthYear(text: string): Date | undefined {
	const dayMonthYear = DAY_MONTH_YEAR.exec(text);
	return dayMonthYear ? instantOf({ day: Number(dayMonthYear[1]), month: Number(dayMonthYear[2]), year: Number(dayMonthYear[3]) }) : undefined;
}

/** ISO 8601 from the day on, or undefined. */
export function parseUserIsoDate(text: string): Date | undefined {
	const iso = USER_ISO.exec(text);
	if (!iso) return undefined;
	const [, year, month, day, hour, minute, second, fraction, , offsetHours, offsetMinutes, zone] = iso.map((part) => part as string | undefined);
	const number = (part: string | undefined) => (part === undefined ? undefined : Number(part));
	const ms = fraction === undefined ? undefined : Math.floor(Number(`0.${fraction}`) * 1000);
	const parts = { year: Number(year), month: Number(month), day: Number(day), hour: number(hour), minute: number(minute), second: number(second), ms };
	if (zone !== undefined) return instantInZone(parts, zone);
	// -00:30 is half an hour behind: the sign is the hours' even when they are 0.
	const sign = offsetHours?.startsWith('-') ? -1 : 1;
	return instantOf(parts, Number(offsetHours ?? 0) * 60 + sign * Number(offsetMinutes ?? 0));
}

const pad = (value: number) => String(value).padStart(2, '0');

export const formatIsoUtc = (date: Date) => date.toISOString();
export const formatDayMonthYear = (date: Date) => `${pad(date.getUTCDate())}/${pad(date.getUTCMonth() + 1)}/${date.getUTCFullYear()}`;
export const formatYearMonthDay = (date: Date) => date.toISOString().slice(0, 10);

export const DAY_MS = 86_400_000;

/** `yyyy-MM-ddTHH:mm:ss` in UTC, without zone or fraction: the form the current pages give basic-products' `dateModifiedAfter`. */
export const formatUtcTimestamp = (date: Date) => date.toISOString().slice(0, 19);

/**
 * basic-products' "modified since" filter under both of its names, since which one the live service
 * honours is unknown (platform facts): the reference's `date-modified-after` (a day, included) and the
 * current pages' `dateModifiedAfter` (a UTC timestamp). A service honouring either answers the products
 * modified since; one honouring both, those that pass both, so `day` is never later than `since`'s day.
 * GET products keeps its own `date-modified-after` day only.
 */
export function basicProductsModifiedAfter(since: Date, day: Date = since): Record<string, string> {
	const earlier = day.getTime() < since.getTime() ? day : since;
	return { 'date-modified-after': formatYearMonthDay(earlier), dateModifiedAfter: formatUtcTimestamp(since) };
}

/** Midnight UTC of the day of `date` (by default today): the service counts in whole days. */
export const startOfUtcDay = (date = new Date()) => new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));

/** The same instant `months` calendar months later (clamped to the month's last day). */
export function addMonths(date: Date, months: number): Date {
	const result = new Date(date.getTime());
	const day = result.getUTCDate();
	result.setUTCDate(1);
	result.setUTCMonth(result.getUTCMonth() + months);
	const lastDay = new Date(Date.UTC(result.getUTCFullYear(), result.getUTCMonth() + 1, 0)).getUTCDate();
	result.setUTCDate(Math.min(day, lastDay));
	return result;
}

/**
 * Inclusive windows of at most `months` (the service's longest range, `LIMITS.invoiceWindowMonths`,
 * given by the caller: values/ sits below the table of endpoints), oldest first; each starts 1 ms
 * after the previous ends.
 */
export function splitIntoWindows(from: Date, to: Date, months: number): Array<{ from: Date; to: Date }> {
	const windows: Array<{ from: Date; to: Date }> = [];
	let start = from;
	while (start.getTime() <= to.getTime()) {
		const limit = new Date(addMonths(start, months).getTime() - 1);
		const end = limit.getTime() < to.getTime() ? limit : to;
		windows.push({ from: start, to: end });
		start = new Date(end.getTime() + 1);
	}
	return windows;
}

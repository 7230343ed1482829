/**
 * Dates: what the service answers (read as UTC, platform facts "Dates"), what a user gives (read
 * in the workflow's time zone, `userDateTime`), and the forms the endpoints want: an instant in
 * UTC, a calendar day as the user named it.
 */
import { DateTime } from 'luxon';

const ZONE = /(Z|[+-]\d{2}:?\d{2})$/i;

/** A timestamp the service answered, read leniently: answers are not the user's to fix (user values: values/). */
export function parseServiceTimestamp(value: unknown): Date | undefined {
	if (typeof value !== 'string' || value.trim() === '') return undefined;
	const text = value.trim();
	const isoLike = /^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00` : text.replace(' ', 'T');
	const parsed = new Date(ZONE.test(isoLike) ? isoLike : `${isoLike}Z`);
	return Number.isNaN(parsed.getTime()) ? undefined : parsed;
}

export const DAY_MONTH_YEAR = /^(\d{2})\/(\d{2})\/(\d{4})$/;
const ISO_DAY_FIRST = /^\d{4}-\d{2}-\d{2}(?:[Tt ].*)?$/;
const UTC_DESIGNATOR = /[Zz]$/;

/**
 * A user's date as values.ts reads it, by Luxon (n8n's own copy: bundles.js keeps 'luxon' external,
 * as n8n-workflow), in the zone that names its day: an ISO 8601 text from the day on
 * (`2025-06-15`, `2025-06-15T10:30`, seconds with a fraction, `Z`, an offset, a zone's name in
 * brackets) or `dd/MM/yyyy`; a JavaScript Date. `zone` is the workflow's time zone
 * (`getTimezone()`): a text without a zone (n8n's date picker, a bare day) is a wall time there, so
 * its day is the one written; a `Z` instant and a Date are placed there, so their day is the
 * workflow's; an offset or a named zone keeps its own, so its day is the one it names. Never UTC
 * first. A day that does not exist is no date; 24:00 is the next day's midnight.
 */
export function userDateTime(value: unknown, zone: string): DateTime | undefined {
	let parsed: DateTime | undefined;
	if (value instanceof Date) parsed = DateTime.fromJSDate(value, { zone });
	else if (typeof value === 'string') {
		const text = value.trim();
		if (DAY_MONTH_YEAR.test(text)) parsed = DateTime.fromFormat(text, 'dd/MM/yyyy', { zone });
		else if (ISO_DAY_FIRST.test(text)) {
			const iso = text.replace(' ', 'T');
			const read = DateTime.fromISO(iso, { zone, setZone: true });
			parsed = UTC_DESIGNATOR.test(iso) ? read.setZone(zone) : read;
		}
	}
	return parsed?.isValid ? parsed : undefined;
}

/**
 * A calendar day, as the node holds it: the Date of its date's midnight UTC (a label for the day,
 * not an instant), so that the formatters below and day arithmetic in DAY_MS read it as written.
 */
export const calendarDay = (date: DateTime) => new Date(DateTime.utc(date.year, date.month, date.day).toMillis());

/** Today in `zone` (the workflow's time zone), as a calendar day. */
export const todayIn = (zone: string) => calendarDay(DateTime.now().setZone(zone));

/** The last millisecond of a date-time's day in its own zone (a range's end given as a bare day: the whole day). */
export const endOfDay = (date: DateTime) => date.endOf('day').toJSDate();

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

/**
 * The day of an instant for a filter that takes a day where another takes the instant
 * (`basicProductsModifiedAfter`): the earlier of its day in UTC and in the workflow's time zone,
 * since the service may read its days in either; so the day never drops what the instant keeps.
 */
export function dayNoLaterThan(instant: Date, zone: string): Date {
	const utc = startOfUtcDay(instant);
	const local = calendarDay(DateTime.fromJSDate(instant, { zone }));
	return local.getTime() < utc.getTime() ? local : utc;
}

/** Midnight UTC of the UTC day of an instant: for the service's own timestamps (a user's day: `calendarDay`). */
export const startOfUtcDay = (date: Date) => new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));

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

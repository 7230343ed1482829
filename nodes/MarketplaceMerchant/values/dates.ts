/**
 * Dates as the endpoints want them, always in UTC (platform facts, "Dates"). n8n's date picker
 * gives no zone: such a value is UTC, so the same workflow asks for the same days anywhere.
 */
import { LIMITS } from '../transport/endpoints';

const ZONE = /(Z|[+-]\d{2}:?\d{2})$/i;

/** A timestamp the service answered, read leniently: answers are not the user's to fix (user values: values/). */
export function parseServiceTimestamp(value: unknown): Date | undefined {
	if (typeof value !== 'string' || value.trim() === '') return undefined;
	const text = value.trim();
	const isoLike = /^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00` : text.replace(' ', 'T');
	const parsed = new Date(ZONE.test(isoLike) ? isoLike : `${isoLike}Z`);
	return Number.isNaN(parsed.getTime()) ? undefined : parsed;
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

/** Inclusive windows no longer than the service accepts, oldest first; each starts 1 ms after the previous ends. */
export function splitIntoWindows(from: Date, to: Date): Array<{ from: Date; to: Date }> {
	const windows: Array<{ from: Date; to: Date }> = [];
	let start = from;
	while (start.getTime() <= to.getTime()) {
		const limit = new Date(addMonths(start, LIMITS.invoiceWindowMonths).getTime() - 1);
		const end = limit.getTime() < to.getTime() ? limit : to;
		windows.push({ from: start, to: end });
		start = new Date(end.getTime() + 1);
	}
	return windows;
}

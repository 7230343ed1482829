/**
 * Dates as the endpoints want them, always in UTC (platform facts, "Dates"):
 * invoices and document links take zoned ISO timestamps, discounts and prices `dd/MM/yyyy`,
 * products' modified-after `yyyy-MM-dd`. n8n's date picker gives local timestamps without a zone;
 * a value without a zone is read as UTC so that the same workflow asks for the same days anywhere.
 */
import { LIMITS } from '../transport/endpoints';

const ZONE = /(Z|[+-]\d{2}:?\d{2})$/i;

/**
 * Reads a timestamp the service answered (`2022-01-26T00:00:00` without a zone is UTC), leniently:
 * answers are not the user's to fix. User values are read by values.ts, never here.
 */
export function parseServiceTimestamp(value: unknown): Date | undefined {
	if (typeof value !== 'string' || value.trim() === '') return undefined;
	const text = value.trim();
	const isoLike = /^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00` : text.replace(' ', 'T');
	const parsed = new Date(ZONE.test(isoLike) ? isoLike : `${isoLike}Z`);
	return Number.isNaN(parsed.getTime()) ? undefined : parsed;
}

const pad = (value: number) => String(value).padStart(2, '0');

export const formatIsoUtc = (date: Date) => date.toISOString();
export const formatDayMonthYear = (date: Date) =>
	`${pad(date.getUTCDate())}/${pad(date.getUTCMonth() + 1)}/${date.getUTCFullYear()}`;
export const formatYearMonthDay = (date: Date) => date.toISOString().slice(0, 10);

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
 * Splits an inclusive range into consecutive inclusive windows no longer than the service accepts
 * (3 months), oldest first. Windows do not overlap: each starts 1 ms after the previous ends.
 */
export function splitIntoWindows(from: Date, to: Date, months = LIMITS.invoiceWindowMonths): Array<{ from: Date; to: Date }> {
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

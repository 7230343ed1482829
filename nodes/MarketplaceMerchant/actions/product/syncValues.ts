/**
 * The user values Sync Stock and Prices reads, parsed strictly: a value that is not unambiguous
 * (`1,299`, `1.299` as a price, `1e3`, `""`) is rejected with the field, the entry and the item,
 * never guessed. Every reader has the shape `readX(ctx, field, value)` of the shared value
 * parser planned for transport/values.ts, so that this file can be replaced by imports from it.
 */
import type { IExecuteSingleFunctions } from 'n8n-workflow';

import { describeValue, invalidInput, isBlank } from '../../transport/validation';

const PLAIN_NUMBER = /^\d+(\.\d+)?$/;
const NUMBER_HINT = 'Use 1299 or 1299.00; thousands separators and decimal commas are not accepted';

/** A JSON number, or text of plain digits with at most one `.` followed by digits; undefined otherwise. */
function plainNumber(value: unknown): number | undefined {
	if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
	if (typeof value !== 'string') return undefined;
	const text = value.trim();
	return PLAIN_NUMBER.test(text) ? Number(text) : undefined;
}

function wholeNumber(ctx: IExecuteSingleFunctions, field: string, value: unknown, minimum: number, what: string): number {
	const number = plainNumber(value);
	if (number === undefined || !Number.isSafeInteger(number) || number < minimum) {
		throw invalidInput(ctx, field, `must be ${what}, got ${describeValue(value)}`, NUMBER_HINT);
	}
	return number;
}

/** A product id: a whole number above 0. */
export function readId(ctx: IExecuteSingleFunctions, field: string, value: unknown): number {
	return wholeNumber(ctx, field, value, 1, 'a product ID (a whole number above 0)');
}

/** A stock level: a whole number of 0 or more. */
export function readStockLevel(ctx: IExecuteSingleFunctions, field: string, value: unknown): number {
	return wholeNumber(ctx, field, value, 0, 'a whole number of 0 or more');
}

/** A price: above 0 with at most 2 decimals (`1.299` is one thousand two hundred ninety-nine in sr-RS: rejected). */
export function readPrice(ctx: IExecuteSingleFunctions, field: string, value: unknown): number {
	const price = plainNumber(value);
	const cents = price === undefined ? NaN : price * 100;
	if (price === undefined || price <= 0 || Math.abs(cents - Math.round(cents)) > 1e-6) {
		throw invalidInput(ctx, field, `must be a price above 0 with at most 2 decimals, got ${describeValue(value)}`, NUMBER_HINT);
	}
	return price;
}

/** A percentage of 0 or more, at most `maximum`. */
export function readPercent(ctx: IExecuteSingleFunctions, field: string, value: unknown, maximum = Infinity): number {
	const percent = plainNumber(value);
	if (percent === undefined || percent < 0 || percent > maximum) {
		const range = maximum === Infinity ? '0 or more' : `from 0 to ${maximum}`;
		throw invalidInput(ctx, field, `must be a percentage ${range}, got ${describeValue(value)}`, NUMBER_HINT);
	}
	return percent;
}

/** An EAN given to a read: 8 to 14 digits (its check digit is the service's to judge); a JSON number counts as its digits. */
export function readEan(ctx: IExecuteSingleFunctions, field: string, value: unknown): string {
	const text = typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : typeof value === 'string' ? value.trim() : '';
	if (!/^\d{8,14}$/.test(text)) {
		throw invalidInput(ctx, field, `must be an EAN of 8 to 14 digits, got ${describeValue(value)}`);
	}
	return text;
}

/** A SKU: text (or a number, as sheets give it), not blank. */
export function readSku(ctx: IExecuteSingleFunctions, field: string, value: unknown): string {
	if ((typeof value !== 'string' && typeof value !== 'number') || isBlank(value)) {
		throw invalidInput(ctx, field, `must be a SKU (text), got ${describeValue(value)}`);
	}
	return String(value).trim();
}

/** A yes/no flag: true or false, also as the text "true" or "false". */
export function readBoolean(ctx: IExecuteSingleFunctions, field: string, value: unknown): boolean {
	if (typeof value === 'boolean') return value;
	const text = typeof value === 'string' ? value.trim().toLowerCase() : undefined;
	if (text === 'true' || text === 'false') return text === 'true';
	throw invalidInput(ctx, field, `must be true or false, got ${describeValue(value)}`);
}

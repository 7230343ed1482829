/**
 * Checks of user input made before anything is sent. Every message names the field, and n8n adds
 * the item the error belongs to (RoutingNode turns an error thrown in preSend into that item's error).
 */
import { NodeOperationError, type IExecuteSingleFunctions } from 'n8n-workflow';

import { parseDate } from './dates';

export function invalidInput(ctx: IExecuteSingleFunctions, field: string, problem: string, hint?: string): NodeOperationError {
	const itemIndex = ctx.getItemIndex();
	return new NodeOperationError(ctx.getNode(), `${field}: ${problem} (item ${itemIndex})`, {
		itemIndex,
		description: hint,
	});
}

export const VAT_RATES = [0, 10, 20] as const;

/** EAN-8, EAN-13 (and UPC-A/GTIN-14 lengths) with a correct check digit. */
export function isValidEan(ean: string): boolean {
	if (!/^(\d{8}|\d{12}|\d{13}|\d{14})$/.test(ean)) return false;
	const digits = ean.split('').map(Number);
	const check = digits.pop() as number;
	const sum = digits
		.reverse()
		.reduce((total, digit, index) => total + digit * (index % 2 === 0 ? 3 : 1), 0);
	return (10 - (sum % 10)) % 10 === check;
}

/** Reads a number that may arrive as a string (sheets and ERPs often send "12.50"). */
export function toNumber(value: unknown): number | undefined {
	if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
	if (typeof value === 'string' && value.trim() !== '') {
		const parsed = Number(value.trim().replace(',', '.'));
		return Number.isFinite(parsed) ? parsed : undefined;
	}
	return undefined;
}

/** A whole number above 0 (an id), also from a string such as "1042"; undefined otherwise. */
export function toPositiveInteger(value: unknown): number | undefined {
	const parsed = toNumber(value);
	return parsed !== undefined && Number.isInteger(parsed) && parsed > 0 ? parsed : undefined;
}

/** A value as an error message shows it: text in quotes, anything else as JSON. */
export function describeValue(value: unknown): string {
	return typeof value === 'string' ? `"${value}"` : (JSON.stringify(value) ?? String(value));
}

/** Whether an optional input was left out (absent, null or blank text). */
export function isBlank(value: unknown): boolean {
	return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/**
 * Reads a date the user gave (date picker, expression, ISO text or dd/MM/yyyy): undefined when
 * empty, an error naming the field when it is not a date.
 */
export function dateInput(ctx: IExecuteSingleFunctions, field: string, value: unknown): Date | undefined {
	if (isBlank(value)) return undefined;
	const date = parseDate(value);
	if (!date) throw invalidInput(ctx, field, `"${String(value)}" is not a date`, 'Use a date such as 2025-07-01 or 01/07/2025');
	return date;
}

/** Splits a list given as an array, or as text separated by commas, semicolons or new lines. */
export function toList(value: unknown): string[] {
	const values = Array.isArray(value) ? value : typeof value === 'string' || typeof value === 'number' ? String(value).split(/[\s,;]+/) : [];
	return values.map((entry) => String(entry).trim()).filter((entry) => entry !== '');
}

/** A product id (`merchantInventoryId`), also from text: an error naming the field when missing or not one. */
export function productIdInput(ctx: IExecuteSingleFunctions, field: string, value: unknown): number {
	const id = toPositiveInteger(value);
	if (id !== undefined) return id;
	throw invalidInput(ctx, field, isBlank(value) ? 'is missing' : `"${String(value)}" is not a product id (a whole number)`);
}

/**
 * A list field (an array, or text separated by commas, semicolons or new lines) that must not be
 * empty. `readEntry` checks each entry, named in errors by its position: `EANs[2]`.
 */
export function listInput<T = string>(
	ctx: IExecuteSingleFunctions,
	field: string,
	value: unknown,
	empty: { problem: string; hint: string },
	readEntry: (entry: string, entryField: string) => T = (entry) => entry as T,
): T[] {
	const entries = toList(value);
	if (entries.length === 0) throw invalidInput(ctx, field, empty.problem, empty.hint);
	return entries.map((entry, index) => readEntry(entry, `${field}[${index}]`));
}

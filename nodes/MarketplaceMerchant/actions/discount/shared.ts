/**
 * What the discount operations share: the discount types and their rules, reading days and
 * prices, and (for the bulk operations Schedule and Update) their input and the routing that
 * sends the entries in chunks of at most 500.
 */
import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { pairDiscountResults } from '../../answers/bulkResults';
import { formatDayMonthYear } from '../../values/dates';
import { LIMITS, PATHS } from '../../transport/endpoints';
import type { AnswerSchema } from '../../answers/schema';
import { invalidInput, isBlank, readChoice, type ValueContext } from '../../values/values';
import type { BulkInput, ItemContext } from '../bulkInput';
import { bulkWrite, type BulkOperation } from '../bulkRun';

export const RESOURCE = 'discount';

export const DISCOUNT_TYPES = ['SALE', 'SEASONAL_SALE', 'CLEARANCE_SALE'] as const;
export type DiscountType = (typeof DISCOUNT_TYPES)[number];

export const discountTypeOptions: INodePropertyOptions[] = [
	{ name: 'Clearance Sale', value: 'CLEARANCE_SALE', description: 'Runs until cancelled: has no end date' },
	{ name: 'Sale', value: 'SALE', description: 'Lasts at most 31 days' },
	{
		name: 'Seasonal Sale',
		value: 'SEASONAL_SALE',
		description: 'Lasts at most 60 days and starts between 1 and 15 July or between 25 December and 10 January',
	},
];

/** Every example of the live service prices in dinars, the only currency it is known to take. */
const DEFAULT_CURRENCY = 'RSD';
const CURRENCIES = [DEFAULT_CURRENCY] as const;

/** The currency of a discount price: RSD, in any letter case; RSD when left out. */
export function currencyOf(ctx: ValueContext, field: string, value: unknown): string {
	return isBlank(value) ? DEFAULT_CURRENCY : readChoice(ctx, field, value, CURRENCIES);
}

/** A currency row field: a list of the currencies the service takes, so nothing else can be typed. */
export function currencyField(name: string, displayName: string, description: string): INodeProperties {
	return {
		displayName,
		name,
		type: 'options',
		options: CURRENCIES.map((currency) => ({ name: currency, value: currency })),
		default: DEFAULT_CURRENCY,
		description,
	};
}

const DAY_MS = 86_400_000;

/** Longest run of each type in calendar days, both the start and the end day counted (platform facts). */
const MAX_DAYS: Partial<Record<DiscountType, number>> = { SALE: 31, SEASONAL_SALE: 60 };

/** A discount type in any letter case, or an error naming the field. */
export function discountTypeOf(ctx: ValueContext, field: string, value: unknown): DiscountType {
	return readChoice(ctx, field, value, DISCOUNT_TYPES);
}

/**
 * Checks a discount period against the rules the service applies to every type: the end not
 * before the start, no end for a clearance sale, and the longest run of a sale or seasonal sale.
 * `fields` name the two date fields as the user knows them.
 */
export function checkDiscountPeriod(
	ctx: ValueContext,
	type: DiscountType | undefined,
	from: Date | undefined,
	to: Date | undefined,
	fields: { from: string; to: string },
): void {
	if (type === 'CLEARANCE_SALE' && to) {
		throw invalidInput(ctx, fields.to, 'a CLEARANCE_SALE has no end date', 'Leave the end date empty: a clearance sale runs until it is cancelled');
	}
	if (!from || !to) return;
	const days = Math.floor((to.getTime() - from.getTime()) / DAY_MS) + 1;
	if (days < 1) {
		throw invalidInput(ctx, fields.to, `${formatDayMonthYear(to)} is before the start ${formatDayMonthYear(from)}`);
	}
	const maxDays = type ? MAX_DAYS[type] : undefined;
	if (maxDays !== undefined && days > maxDays) {
		throw invalidInput(
			ctx,
			fields.to,
			`a ${type} lasts at most ${maxDays} days; ${formatDayMonthYear(from)} to ${formatDayMonthYear(to)} is ${days} days`,
		);
	}
}

/** Whether a SEASONAL_SALE may start on this day: 1 to 15 July, or 25 December to 10 January. */
function inSeasonalStartWindow(day: Date): boolean {
	const month = day.getUTCMonth() + 1;
	const date = day.getUTCDate();
	return (month === 7 && date <= 15) || (month === 12 && date >= 25) || (month === 1 && date <= 10);
}

/**
 * Checks a new discount start: not before today (UTC; a discount dated today starts at once) and,
 * for a SEASONAL_SALE, inside one of its start windows.
 */
export function checkDiscountStart(ctx: ValueContext, type: DiscountType | undefined, from: Date, field: string): void {
	const now = new Date();
	const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
	if (from.getTime() < today) {
		throw invalidInput(ctx, field, `${formatDayMonthYear(from)} is in the past`, `A discount starts today (${formatDayMonthYear(new Date(today))}, UTC) or later`);
	}
	if (type === 'SEASONAL_SALE' && !inSeasonalStartWindow(from)) {
		throw invalidInput(
			ctx,
			field,
			`a SEASONAL_SALE cannot start on ${formatDayMonthYear(from)}`,
			'A seasonal sale starts between 1 and 15 July or between 25 December and 10 January',
		);
	}
}

interface DiscountBulkInput {
	/** What the entries are, plural, for descriptions: 'discounts', 'discount updates'. */
	entries: string;
	/** What one entry is: 'Discount', 'Discount Update'. */
	entry: string;
	/** Name of the UI rows parameter: its own per operation, as the rows' fields differ. */
	rowsName: string;
	/** What one row is, for labels: 'Discount', 'Discount Update'. */
	rowDisplayName: string;
	rowFields: INodeProperties[];
	/** What a JSON entry holds, for the JSON field's description. */
	jsonDescription: string;
	jsonPlaceholder: string;
	/** Labels of keys only JSON entries use (bulkInput.ts). */
	jsonLabels?: Record<string, string>;
	/** What an entry names, for labels of the per-item mode (bulkInput.ts). */
	nameEntry: (ctx: ItemContext, entry: IDataObject) => string | undefined;
}

/** The input of a bulk discount operation: a list under `discounts` in the input item, or rows. */
export function discountBulkInput(input: DiscountBulkInput): BulkInput {
	return {
		entries: input.entries,
		entry: input.entry,
		nameEntry: input.nameEntry,
		json: {
			name: 'discountsJson',
			displayName: 'Discounts (JSON)',
			itemProperty: 'discounts',
			description: `Array of objects, ${input.jsonDescription}. Any number of entries: they are sent in requests of at most ${LIMITS.discountsPerRequest}.`,
			placeholder: input.jsonPlaceholder,
			hint: 'The input item needs a list, e.g. {"discounts": [...]}, or set the field to an expression that gives one',
			labels: input.jsonLabels,
		},
		rows: {
			name: input.rowsName,
			displayName: 'Discounts',
			row: { name: 'discount', displayName: input.rowDisplayName, values: input.rowFields },
		},
		emptyProblem: 'no discounts to send',
	};
}

/**
 * A bulk discount operation (Schedule, Update) over all input items (actions/bulkRun.ts): each
 * entry checked by `check` before anything is sent; the entries go out in requests of at most
 * 500, and each result is paired with the entry it belongs to.
 */
export function bulkDiscountOperation<Checked>(
	method: 'POST' | 'PUT',
	answer: AnswerSchema,
	input: BulkInput,
	parts: Pick<BulkOperation<Checked>, 'check' | 'resolve'> & { body: (value: Checked) => IDataObject; idOfInvalid: (raw: IDataObject) => unknown },
): BulkOperation<Checked> {
	return {
		input,
		check: parts.check,
		resolve: parts.resolve,
		send: bulkWrite({
			// A schedule sent twice would create the discounts twice; an update sets the same values again.
			route: { group: 'payments', idempotent: method === 'PUT' },
			request: { method, url: PATHS.discounts },
			listKey: 'discounts',
			maxItems: LIMITS.discountsPerRequest,
			answer,
			body: parts.body,
			pairResults: pairDiscountResults,
			// An update names its discount; a new discount competes with others on the same product.
			idOf: (entry) => String(entry.discountId ?? entry.merchantInventoryId),
			idOfInvalid: parts.idOfInvalid,
		}),
	};
}

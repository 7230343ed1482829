/**
 * What the discount operations share: the discount types and their rules, reading days and
 * prices, and (for the bulk operations Schedule and Update) their input and the routing that
 * sends the entries in chunks of at most 500.
 */
import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeProperties,
	INodePropertyOptions,
	INodePropertyRouting,
} from 'n8n-workflow';

import { failOnItemErrorsIfAsked, pairDiscountResults, readListProperty } from '../../transport/answers';
import { formatDayMonthYear } from '../../transport/dates';
import { LIMITS, PATHS } from '../../transport/endpoints';
import { splitBodyList } from '../../transport/pagination';
import { dateInput, invalidInput, isBlank, toNumber } from '../../transport/validation';
import { readBulkEntries, type BulkInput } from '../bulkInput';
import { engineRouting } from '../common';

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

/** Every example of the live service prices in dinars. */
export const DEFAULT_CURRENCY = 'RSD';

/** A currency code as given, upper-cased; RSD when left out. */
export function currencyOf(value: unknown): string {
	return isBlank(value) ? DEFAULT_CURRENCY : String(value).trim().toUpperCase();
}

const DAY_MS = 86_400_000;

/** Longest run of each type in calendar days, both the start and the end day counted (platform facts). */
const MAX_DAYS: Partial<Record<DiscountType, number>> = { SALE: 31, SEASONAL_SALE: 60 };

/** How error messages name an entry, by its place in the body the service gets: `discounts[3]`. */
export function entryLabel(index: number): string {
	return `discounts[${index}]`;
}

/** Where an entry's field is, for error messages: `discounts[3].dateTo`. */
export function entryField(index: number, field: string): string {
	return `${entryLabel(index)}.${field}`;
}

/** A discount type in any letter case, or an error naming the field. */
export function discountTypeOf(ctx: IExecuteSingleFunctions, field: string, value: unknown): DiscountType {
	const type = String(value ?? '')
		.trim()
		.toUpperCase();
	if (!(DISCOUNT_TYPES as readonly string[]).includes(type)) {
		throw invalidInput(ctx, field, `"${String(value ?? '')}" is not a discount type`, `Use one of ${DISCOUNT_TYPES.join(', ')}`);
	}
	return type as DiscountType;
}

/** A price above 0 given as a number or numeric text, or an error naming the field. */
export function positivePriceOf(ctx: IExecuteSingleFunctions, field: string, value: unknown): number {
	if (isBlank(value)) throw invalidInput(ctx, field, 'is missing');
	const price = toNumber(value);
	if (price === undefined) throw invalidInput(ctx, field, `"${String(value ?? '')}" is not a number`);
	if (price <= 0) throw invalidInput(ctx, field, `must be above 0 (got ${price})`);
	return price;
}

/**
 * Checks a discount period against the rules the service applies to every type: the end not
 * before the start, no end for a clearance sale, and the longest run of a sale or seasonal sale.
 * `fields` name the two date fields as the user knows them.
 */
export function checkDiscountPeriod(
	ctx: IExecuteSingleFunctions,
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

/** A date field of an entry as a UTC calendar day (the service counts in whole days). */
export function dayOf(ctx: IExecuteSingleFunctions, field: string, value: unknown): Date | undefined {
	const date = dateInput(ctx, field, value);
	return date && new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
}

export interface DiscountBulkInput {
	operation: string;
	/** What the entries are, plural, for descriptions: 'discounts', 'discount updates'. */
	entries: string;
	/** Name of the UI rows parameter: its own per operation, as the rows' fields differ. */
	rowsName: string;
	/** What one row is, for labels: 'Discount', 'Discount Update'. */
	rowDisplayName: string;
	rowFields: INodeProperties[];
	/** What a JSON entry holds, for the JSON field's description. */
	jsonDescription: string;
	jsonPlaceholder: string;
}

/** The input of a bulk discount operation: a list under `discounts` in the input item, or rows. */
export function discountBulkInput(input: DiscountBulkInput): BulkInput {
	return {
		resource: RESOURCE,
		operation: input.operation,
		entries: input.entries,
		json: {
			name: 'discountsJson',
			displayName: 'Discounts (JSON)',
			itemProperty: 'discounts',
			description: `Array of objects, ${input.jsonDescription}. Any number of entries: they are sent in requests of at most ${LIMITS.discountsPerRequest}.`,
			placeholder: input.jsonPlaceholder,
			hint: 'The input item needs a list, e.g. {"discounts": [...]}, or set the field to an expression that gives one',
		},
		rows: {
			name: input.rowsName,
			displayName: 'Discounts',
			row: { name: 'discount', displayName: input.rowDisplayName, values: input.rowFields },
		},
		emptyProblem: 'no discounts to send',
		entryLabel,
	};
}

/**
 * Routing of a bulk discount call: `buildEntries` reads and checks every entry before anything is
 * sent; the list goes out in requests of at most 500, and each result item is paired with the
 * entry it belongs to.
 */
export function bulkDiscountRouting(
	method: 'POST' | 'PUT',
	resultProperty: string,
	input: BulkInput,
	buildEntries: (this: IExecuteSingleFunctions, entries: IDataObject[]) => IDataObject[],
): INodePropertyRouting {
	async function buildBody(this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
		requestOptions.body = { discounts: buildEntries.call(this, readBulkEntries(this, input).entries) };
		return requestOptions;
	}
	return engineRouting({
		request: { method, url: PATHS.discounts },
		preSend: [buildBody],
		strategy: splitBodyList({
			listKey: 'discounts',
			maxItems: LIMITS.discountsPerRequest,
			maxBytes: LIMITS.bulkRequestBytes,
			pairResults: pairDiscountResults,
			// An update names its discount; a new discount competes with others on the same product.
			idOf: (entry) => String(entry.discountId ?? entry.merchantInventoryId),
			finish: failOnItemErrorsIfAsked,
		}),
		postReceive: [readListProperty(resultProperty)],
	});
}

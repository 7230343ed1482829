/**
 * The discount locator of Discount Update rows and Discount Cancel: one field definition
 * (`discountLocatorField`), its reader (`readDiscountId`) and the editor's list of current and
 * upcoming discounts (`searchDiscounts`), sent through the shared engine (send.ts).
 */
import {
	type IDataObject,
	type ILoadOptionsFunctions,
	type INodeListSearchItems,
	type INodeListSearchResult,
	type INodeProperties,
} from 'n8n-workflow';

import { formatDayMonthYear, parseServiceTimestamp } from '../../values/dates';
import { decodedList } from '../../answers/decode';
import { PATHS } from '../../transport/endpoints';
import { ANSWERS } from '../../answers/schema';
import { sendAuthenticated } from '../../transport/send';
import { isBlank, readLocator, readText, type ValueContext } from '../../values/values';

/** Name of the list search method on the node (`methods.listSearch`). */
const SEARCH_DISCOUNTS_METHOD = 'searchDiscounts';

/**
 * How far ahead From List looks for upcoming discounts. Discounts are scheduled weeks or months
 * ahead (a seasonal sale for the next July or December); a year covers them.
 */
const UPCOMING_DAYS = 366;
const DAY_MS = 86_400_000;

/** The locator's modes, by the labels the panel shows. */
const MODES = { list: 'From List', id: 'By ID' };

/** A discount locator field (From List, By ID), the same wherever a discount is named. */
export function discountLocatorField(description: string): INodeProperties {
	return {
		displayName: 'Discount ID',
		name: 'discountId',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Select a discount...',
				typeOptions: { searchListMethod: SEARCH_DISCOUNTS_METHOD, searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. 3f2c9a4e-8b1d-4c6e-9f7a-2d5b8e1c0a47',
			},
		],
	};
}

/** Reads a discount locator's value, or a plain discount ID (older workflows, JSON entries). */
export function readDiscountId(ctx: ValueContext, field: string, value: unknown): string {
	return readText(ctx, field, readLocator(ctx, field, value, MODES).value);
}

/** A day of a discount as the list shows it (dd/MM/yyyy), or the service's text when unreadable. */
function dayOf(value: unknown): string {
	const date = parseServiceTimestamp(value);
	return date ? formatDayMonthYear(date) : String(value);
}

/** A discount as From List shows it: product, price and dates, and whether it is running. */
function discountEntry(discount: IDataObject, now: Date): INodeListSearchItems {
	const start = parseServiceTimestamp(discount.dateFrom);
	const running = start !== undefined && start.getTime() <= now.getTime();
	const until = isBlank(discount.dateTo) ? 'no end date' : dayOf(discount.dateTo);
	const price = isBlank(discount.discountPrice) ? '' : ` at ${String(discount.discountPrice)}`;
	return {
		name: `Product ${String(discount.merchantInventoryId)}${price}, ${dayOf(discount.dateFrom)} to ${until}${running ? ' (running)' : ''}`,
		value: String(discount.discountId),
	};
}

/**
 * From List of the discount locator: Discount Get Many from today to a year ahead, so discounts
 * running now and those to come (ended ones cannot be changed or cancelled). The service has no
 * search: the filter matches the shown text or the discount ID here.
 */
export async function searchDiscounts(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const now = new Date();
	const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
	const response = await sendAuthenticated(
		this,
		{ group: 'payments', idempotent: true },
		{
			method: 'GET',
			url: PATHS.discounts,
			qs: { dateFrom: formatDayMonthYear(today), dateTo: formatDayMonthYear(new Date(today.getTime() + UPCOMING_DAYS * DAY_MS)) },
		},
	);
	const wanted = isBlank(filter) ? undefined : String(filter).trim().toLowerCase();
	const results = decodedList(this, response, ANSWERS.discounts)
		.filter((discount) => !isBlank(discount.discountId))
		.map((discount) => discountEntry(discount, now))
		.filter(({ name, value }) => wanted === undefined || name.toLowerCase().includes(wanted) || String(value).toLowerCase().includes(wanted));
	return { results };
}

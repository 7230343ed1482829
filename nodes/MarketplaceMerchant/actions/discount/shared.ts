/**
 * What the discount operations share: the discount types and their rules, the discount locator
 * with its list of current and upcoming discounts, and the bulk operations Schedule and Update.
 */
import {
	type IDataObject,
	type ILoadOptionsFunctions,
	type INodeListSearchItems,
	type INodeListSearchResult,
	type INodeProperties,
	type INodePropertyOptions,
} from 'n8n-workflow';

import { ANSWERS } from '../../answers/schemas';
import { decodedList, decodedNumber } from '../../answers/read';
import { pairDiscountResults } from '../../answers/bulkResults';
import { DAY_MS, formatDayMonthYear, parseServiceTimestamp, startOfUtcDay } from '../../values/dates';
import { LIMITS, PATHS } from '../../transport/endpoints';
import { sendAuthenticated, type AuthenticatedContext, type SendSettings } from '../../transport/send';
import { invalidInput, isBlank, readChoice, type ValueContext } from '../../values/labels';
import { shownPrice } from '../../values/numbers';
import { readLocator, readText, today } from '../../values/values';
import { REFERENCE_CURRENCY, accountCurrency } from './currency';
import type { BulkEntry } from '../bulk/entries';
import type { BulkInput } from '../bulk/fields';
import { bulkOperationModule, type BatchOutput, type BulkOperation } from '../bulk/run';
import { bulkWrite, type BulkWrite } from '../bulk/write';
import { NUMBER_FORMAT_OPTION, locatorField } from '../common';
import type { OperationModule } from '../contract';
import { productsById } from '../catalogue/catalogue';

export const RESOURCE = 'discount';

const DISCOUNT_TYPES = ['SALE', 'SEASONAL_SALE', 'CLEARANCE_SALE'] as const;
export type DiscountType = (typeof DISCOUNT_TYPES)[number];

/** When a SEASONAL_SALE may start (inSeasonalStartWindow). */
const SEASONAL_START = 'between 1 and 15 July or between 25 December and 10 January';

export const discountTypeOptions: INodePropertyOptions[] = [
	{ name: 'Clearance Sale', value: 'CLEARANCE_SALE', description: 'Runs until cancelled: has no end date' },
	{ name: 'Sale', value: 'SALE', description: 'Lasts at most 31 days' },
	{ name: 'Seasonal Sale', value: 'SEASONAL_SALE', description: `Lasts at most 60 days and starts ${SEASONAL_START}` },
];

/** Longest run of each type in calendar days, both the start and the end day counted (platform facts). */
const MAX_DAYS: Partial<Record<DiscountType, number>> = { SALE: 31, SEASONAL_SALE: 60 };

export function discountTypeOf(ctx: ValueContext, field: string, value: unknown): DiscountType {
	return readChoice(ctx, field, value, DISCOUNT_TYPES);
}

/** Calendar days from the start day to the end day, both counted. */
function daysOf(from: Date, to: Date): number {
	return Math.floor((to.getTime() - from.getTime()) / DAY_MS) + 1;
}

/** The service's rules for a period: the end not before the start, no end for a clearance sale, the longest run. */
export function checkDiscountPeriod(ctx: ValueContext, toField: string, type: DiscountType | undefined, from?: Date, to?: Date): void {
	if (type === 'CLEARANCE_SALE' && to) {
		throw invalidInput(ctx, toField, 'a CLEARANCE_SALE has no end date', 'Leave the end date empty: a clearance sale runs until it is cancelled');
	}
	if (!from || !to) return;
	const days = daysOf(from, to);
	if (days < 1) {
		throw invalidInput(ctx, toField, `${formatDayMonthYear(to)} is before the start ${formatDayMonthYear(from)}`);
	}
	const maxDays = type ? MAX_DAYS[type] : undefined;
	if (maxDays !== undefined && days > maxDays) {
		const period = `${formatDayMonthYear(from)} to ${formatDayMonthYear(to)}`;
		throw invalidInput(ctx, toField, `a ${type} lasts at most ${maxDays} days; ${period} is ${days} days`);
	}
}

/** Whether a SEASONAL_SALE may start on this day (SEASONAL_START). */
function inSeasonalStartWindow(day: Date): boolean {
	const month = day.getUTCMonth() + 1;
	const date = day.getUTCDate();
	return (month === 7 && date <= 15) || (month === 12 && date >= 25) || (month === 1 && date <= 10);
}

/** A new discount starts today (in the workflow's time zone; it starts at once) or later and, if seasonal, in a start window. */
export function checkDiscountStart(ctx: ValueContext, type: DiscountType | undefined, from: Date, field: string): void {
	const first = today(ctx);
	if (from.getTime() < first.getTime()) {
		const hint = `A discount starts today (${formatDayMonthYear(first)} in the workflow's time zone, ${ctx.getTimezone()}) or later`;
		throw invalidInput(ctx, field, `${formatDayMonthYear(from)} is in the past`, hint);
	}
	if (type === 'SEASONAL_SALE' && !inSeasonalStartWindow(from)) {
		throw invalidInput(ctx, field, `a SEASONAL_SALE cannot start on ${formatDayMonthYear(from)}`, `A seasonal sale starts ${SEASONAL_START}`);
	}
}

/**
 * The type of a discount as listed, where the service's rules leave only one: the list does not
 * carry the type. No end: a CLEARANCE_SALE. A start outside the seasonal windows: a SALE. Longer
 * than a SALE lasts: a SEASONAL_SALE. Otherwise (a short discount starting in a window) either
 * SALE or SEASONAL_SALE: undefined, for the user to say.
 */
export function typeByRules(from: Date, to: Date | undefined): DiscountType | undefined {
	if (!to) return 'CLEARANCE_SALE';
	if (!inSeasonalStartWindow(from)) return 'SALE';
	return daysOf(from, to) > (MAX_DAYS.SALE as number) ? 'SEASONAL_SALE' : undefined;
}

export function discountLocatorField(description: string): INodeProperties {
	return locatorField('Discount ID', 'discountId', description, {
		list: { placeholder: 'Select a discount...', searchListMethod: 'searchDiscounts' },
		modes: [{ displayName: 'By ID', name: 'id', type: 'string', placeholder: 'e.g. 3f2c9a4e-8b1d-4c6e-9f7a-2d5b8e1c0a47' }],
	});
}

/** A day field of the discount operations (Get Many's range, Schedule's and Update's rows). */
export function dayField(displayName: string, name: string, description: string, required = false): INodeProperties {
	return { displayName, name, type: 'dateTime', default: '', ...(required ? { required } : {}), description };
}

/** Reads a discount locator's value, or a plain discount ID (older workflows, JSON entries). */
export function readDiscountId(ctx: ValueContext, field: string, value: unknown): string {
	return readText(ctx, field, readLocator(ctx, field, value, { list: 'From List', id: 'By ID' }).value);
}

/**
 * The days the node asks the service for the discounts that may still change (ended ones cannot):
 * from today (UTC) to a year ahead (seasonal sales are scheduled months ahead). The service lists
 * the discounts in effect at some time in the range, so a running one is in it however long ago
 * it started. The list of the locator and Update's reading of the discounts it changes.
 */
export function changeableDiscountsRange(now = new Date()): { dateFrom: string; dateTo: string } {
	const today = startOfUtcDay(now);
	return { dateFrom: formatDayMonthYear(today), dateTo: formatDayMonthYear(new Date(today.getTime() + 366 * DAY_MS)) };
}

/** The discounts running now or starting within a year, as the service lists them: one request, read by the answer's schema. */
export async function readChangeableDiscounts(ctx: AuthenticatedContext, now: Date, settings?: SendSettings): Promise<IDataObject[]> {
	const request = { method: 'GET' as const, url: PATHS.discounts, qs: changeableDiscountsRange(now) };
	const response = await sendAuthenticated(ctx, { group: 'payments', idempotent: true }, request, settings);
	return decodedList(ctx, response, ANSWERS.discounts);
}

export type DiscountState = 'pending' | 'running' | 'ended';

/** What a listed discount's bounds name: its first and last day (calendar days), and where it stands. */
export interface ListedDiscountDays {
	/** Undefined when the start cannot be read (and then `state` too). */
	from?: Date;
	/** Undefined for no end (a CLEARANCE_SALE) or an unreadable one. */
	to?: Date;
	state?: DiscountState;
}

const MINUTE_MS = 60_000;
const DAY_MINUTES = 1_440;
/** A start at 00:01 and an end at 23:59 of a day in the service's zone (platform facts, business rules). */
const START_MINUTE = 1;
const END_MINUTE = DAY_MINUTES - 1;

/**
 * The offset from UTC (minutes east) of the zone in which `instant` is `localMinute` of a day:
 * a zone's offset is whole quarter hours, from -12:00 to +14:00; a minute either way is allowed
 * (the pages' example shows a start at midnight, a minute early). Undefined when the instant shows
 * no such time (seconds, or minutes no zone gives): a start "at once".
 */
function offsetShowing(instant: Date, localMinute: number): number | undefined {
	if (instant.getUTCSeconds() !== 0 || instant.getUTCMilliseconds() !== 0) return undefined;
	const utcMinute = instant.getUTCHours() * 60 + instant.getUTCMinutes();
	let offset = (((localMinute - utcMinute) % DAY_MINUTES) + DAY_MINUTES) % DAY_MINUTES;
	if (offset > 14 * 60) offset -= DAY_MINUTES;
	const zoneOffset = Math.round(offset / 15) * 15;
	return Math.abs(offset - zoneOffset) <= 1 ? zoneOffset : undefined;
}

interface ListedBound {
	at: Date;
	/** The service's offset this bound's time shows, if it shows one. */
	offset?: number;
}

function boundsOf(discount: IDataObject, now: Date): { start?: ListedBound; end?: ListedBound } {
	const start = parseServiceTimestamp(discount.dateFrom);
	const end = parseServiceTimestamp(discount.dateTo);
	return {
		// Only an upcoming start is 00:01 for sure: one that has come may have been "at once", at any time.
		start: start && { at: start, offset: start.getTime() > now.getTime() ? offsetShowing(start, START_MINUTE) : undefined },
		end: end && { at: end, offset: offsetShowing(end, END_MINUTE) },
	};
}

/** The calendar day (`calendarDay`'s form) an instant falls on at this offset from UTC. */
const dayAtOffset = (instant: Date, offset: number) => startOfUtcDay(new Date(instant.getTime() + offset * MINUTE_MS));

/**
 * The days of the discounts of one answer of the service, in the service's own zone, learned
 * from the answer itself, never from the workflow's zone. The service lists a discount's bounds
 * as zoneless timestamps in UTC (platform facts "Dates"), and a discount starts at 00:01 and ends
 * at 23:59 of its days in its zone (business rules): so the UTC time of day of an upcoming start
 * or of any end tells the zone's offset on that day (`…T23:01:00` starting: 00:01 of the next day
 * at UTC+1; `…T22:59:00` ending: 23:59 of that day at UTC+1; `…T04:59:00` ending: 23:59 of the day
 * before at UTC-5), and its day is the one it names there. A start that has come may have been "at
 * once" (a discount dated the day it was scheduled starts then) and tells nothing: it is read at
 * the offset its own end shows, else at the offset of the bound of the answer's other discounts
 * nearest to it in time, else as UTC. Each bound is read at its own offset, so one answer may span
 * summer and winter time. Every reader of listed days uses this: Discount Get Many's days, type and
 * state, Discount Update's days (those it resends for an upcoming discount) and type, the Discount
 * ID list.
 */
export function listedDiscountDays(listed: IDataObject[], now: Date): (discount: IDataObject) => ListedDiscountDays {
	const learned = listed.flatMap((discount) => Object.values(boundsOf(discount, now)).filter((bound): bound is Required<ListedBound> => bound?.offset !== undefined));
	const nearestOffset = (at: Date): number => {
		let nearest: Required<ListedBound> | undefined;
		for (const bound of learned) {
			if (!nearest || Math.abs(bound.at.getTime() - at.getTime()) < Math.abs(nearest.at.getTime() - at.getTime())) nearest = bound;
		}
		return nearest?.offset ?? 0;
	};
	return (discount) => {
		const { start, end } = boundsOf(discount, now);
		const endOffset = end && (end.offset ?? start?.offset ?? nearestOffset(end.at));
		const to = end && dayAtOffset(end.at, endOffset as number);
		if (!start) return { to };
		const from = dayAtOffset(start.at, start.offset ?? end?.offset ?? nearestOffset(start.at));
		// It runs until 23:59 of its last day in the service's zone.
		const ended = to !== undefined && to.getTime() + (END_MINUTE - (endOffset as number)) * MINUTE_MS < now.getTime();
		const state: DiscountState = ended ? 'ended' : start.at.getTime() <= now.getTime() ? 'running' : 'pending';
		return { from, to, state };
	};
}

/** A listed bound as dd/MM/yyyy (the form Update and Schedule take) from its day, the service's text when unreadable, null when blank. */
export function listedDay(value: unknown, day: Date | undefined): string | null {
	if (isBlank(value)) return null;
	return day ? formatDayMonthYear(day) : String(value);
}

/**
 * The products of listed discounts, by ID, from the catalogue (catalogue/catalogue.ts
 * `productsById`): the discounts' answer names no product. Discount Get Many's Simplify and the
 * Discount ID list.
 */
export async function discountProducts(ctx: AuthenticatedContext, discounts: IDataObject[]): Promise<Map<number, IDataObject>> {
	const ids = discounts.filter((discount) => !isBlank(discount.merchantInventoryId)).map((discount) => Number(discount.merchantInventoryId));
	return await productsById(ctx, [...new Set(ids)]);
}

/** "Blender J375 (product 100034) at 899 RSD (regular 1 299 RSD), 01/07/2026 to 14/07/2026 (running)". */
function discountEntry(discount: IDataObject, days: ListedDiscountDays, currencyOfAccount: string, product: IDataObject | undefined): INodeListSearchItems {
	const running = days.state === 'running';
	const until = listedDay(discount.dateTo, days.to) ?? 'no end date';
	const amount = decodedNumber(discount.discountPrice);
	const currency = isBlank(discount.discountPriceCurrency) ? currencyOfAccount : String(discount.discountPriceCurrency);
	const price = amount === null ? (isBlank(discount.discountPrice) ? '' : ` at ${String(discount.discountPrice)}`) : ` at ${shownPrice(amount, currency)}`;
	const regular = decodedNumber(product?.basePrice);
	const named = isBlank(product?.name) ? `Product ${String(discount.merchantInventoryId)}` : `${String(product?.name)} (product ${String(discount.merchantInventoryId)})`;
	return {
		name: `${named}${price}${regular === null ? '' : ` (regular ${shownPrice(regular, currency)})`}, ${listedDay(discount.dateFrom, days.from) ?? ''} to ${until}${running ? ' (running)' : ''}`,
		value: String(discount.discountId),
	};
}

/**
 * From List of the discount locator: the discounts from today to a year ahead (ended ones cannot
 * be changed or cancelled; seasonal sales are scheduled months ahead). The service has no search:
 * the filter matches the shown text or the discount ID here.
 */
export async function searchDiscounts(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const now = new Date();
	const wanted = isBlank(filter) ? undefined : String(filter).trim().toLowerCase();
	const listed = (await readChangeableDiscounts(this, now)).filter((discount) => !isBlank(discount.discountId));
	// The list need not carry a currency: the account's stands for it (RSD where unknown).
	const unsaid = listed.some((discount) => isBlank(discount.discountPriceCurrency));
	const currency = unsaid ? ((await accountCurrency(this))?.code ?? REFERENCE_CURRENCY) : REFERENCE_CURRENCY;
	const products = await discountProducts(this, listed);
	const daysOf = listedDiscountDays(listed, now);
	const results = listed
		.map((discount) => discountEntry(discount, daysOf(discount), currency, products.get(Number(discount.merchantInventoryId))))
		.filter(({ name, value }) => wanted === undefined || name.toLowerCase().includes(wanted) || String(value).toLowerCase().includes(wanted));
	return { results };
}

interface BulkDiscountOperation<Checked>
	extends Pick<BulkOperation<Checked>, 'check' | 'resolve'>,
		Pick<BulkWrite<Checked>, 'body' | 'idOfInvalid' | 'foundOf'>,
		Pick<BulkInput, 'entries' | 'entry' | 'nameEntry'> {
	option: INodePropertyOptions;
	/** POST schedules, PUT updates. */
	method: 'POST' | 'PUT';
	rowsName: string;
	rowFields: INodeProperties[];
	jsonDescription: string;
	jsonPlaceholder: string;
	jsonLabels?: Record<string, string>;
	/** The earlier entry of the batch an entry repeats: it is not sent, and comes out with that entry's result. */
	repeatOf?: (value: Checked) => BulkEntry<Checked> | undefined;
}

/**
 * A batch's send that leaves out the entries repeating an earlier one (`repeatOf`) and gives each
 * of them a copy of that entry's output, at its own position (paired with its own input item).
 */
function sendingRepeatsOnce<Checked>(send: BulkOperation<Checked>['send'], repeatOf: (value: Checked) => BulkEntry<Checked> | undefined): BulkOperation<Checked>['send'] {
	return async (exec, batch) => {
		const inBatch = new Set(batch.entries);
		const repeated = (entry: BulkEntry<Checked>) => (entry.problem === undefined && entry.value !== undefined ? repeatOf(entry.value) : undefined);
		// An entry whose original is not in the batch (its item failed alone) goes out itself, with the same body.
		const original = (entry: BulkEntry<Checked>) => {
			const repeatedEntry = repeated(entry);
			return repeatedEntry && inBatch.has(repeatedEntry) ? repeatedEntry : undefined;
		};
		const sentEntries = batch.entries.filter((entry) => original(entry) === undefined);
		if (sentEntries.length === batch.entries.length) return await send(exec, batch);
		const outputs = await send(exec, { ...batch, entries: sentEntries });
		const ofEntry = new Map<BulkEntry<Checked>, BatchOutput>();
		for (const output of outputs) if (output.entry !== undefined) ofEntry.set(sentEntries[output.entry], output);
		const inOrder = batch.entries.flatMap((entry, position): BatchOutput[] => {
			const output = ofEntry.get(original(entry) ?? entry);
			return output ? [{ ...output, json: { ...output.json }, entry: position }] : [];
		});
		return [...inOrder, ...outputs.filter((output) => output.entry === undefined)];
	};
}

function withRepeats<Checked>(spec: BulkDiscountOperation<Checked>, send: BulkOperation<Checked>['send']): BulkOperation<Checked>['send'] {
	return spec.repeatOf ? sendingRepeatsOnce(send, spec.repeatOf) : send;
}

/** Schedule or Update over all input items (actions/bulk/): a list under `discounts` in the input item, or rows. */
export function bulkDiscountOperation<Checked>(spec: BulkDiscountOperation<Checked>): OperationModule {
	return bulkOperationModule(RESOURCE, spec.option, {
		input: {
			entries: spec.entries,
			entry: spec.entry,
			nameEntry: spec.nameEntry,
			json: {
				name: 'discountsJson',
				displayName: 'Discounts (JSON)',
				itemProperty: 'discounts',
				description: `Array of objects, ${spec.jsonDescription}. Any number of entries: they are sent in requests of at most ${LIMITS.discountsPerRequest}.`,
				placeholder: spec.jsonPlaceholder,
				hint: 'The input item needs a list, e.g. {"discounts": [...]}, or set the field to an expression that gives one',
				labels: spec.jsonLabels,
			},
			rows: { name: spec.rowsName, displayName: 'Discounts', row: { name: 'discount', displayName: spec.entry, values: spec.rowFields } },
			emptyProblem: 'no discounts to send',
		},
		check: spec.check,
		resolve: spec.resolve,
		options: [NUMBER_FORMAT_OPTION],
		send: withRepeats(spec, bulkWrite({
			// A schedule sent twice would create the discounts twice; an update sets the same values again.
			route: { group: 'payments', idempotent: spec.method === 'PUT' },
			request: { method: spec.method, url: PATHS.discounts },
			listKey: 'discounts',
			maxItems: LIMITS.discountsPerRequest,
			answer: spec.method === 'POST' ? ANSWERS.discountSchedule : ANSWERS.discountUpdate,
			body: spec.body,
			pairResults: pairDiscountResults,
			// An update names its discount; a new discount competes with others on the same product.
			idOf: (entry) => String(entry.discountId ?? entry.merchantInventoryId),
			idOfInvalid: spec.idOfInvalid,
			foundOf: spec.foundOf,
		})),
	});
}

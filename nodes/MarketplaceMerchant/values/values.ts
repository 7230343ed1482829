/**
 * Every value a user gives is read by values/ (labels.ts, numbers.ts and this file), and nowhere
 * else, by the narrow grammar README.md's "Your values" states (why: platform facts, "Merchants'
 * data"): an ambiguous value is rejected before anything is sent, never guessed. Every reader is
 * `readX(ctx, field, value, …)`, `field` in the panel's words; a rejection names it, the item (from
 * 0, as n8n's error view counts) and the value as given (`invalidInput`, labels.ts). Here: dates,
 * text, booleans, lists, EANs, URLs and JSON.
 */
import type { DateTime } from 'luxon';
import { isResourceLocatorValue, type IDataObject, type INodeProperties } from 'n8n-workflow';

import { calendarDay, DAY_MONTH_YEAR, endOfDay, formatIsoUtc, todayIn, userDateTime } from './dates';
import { MISSING, describeValue, fieldPath, invalidInput, isBlank, isDateTime, listEntry, readChoice, type SettingsContext, type ValueContext } from './labels';
import type { NumberFormat } from './numbers';

export const DATE_FORMS =
	"a date from the date picker or an expression, ISO 8601 (2027-07-01, 2027-07-01T10:30 or 2027-07-01T10:30:00+02:00) or dd/MM/yyyy (01/07/2027); a value without a zone is in the workflow's time zone";
const DATE_HINT = `Use ${DATE_FORMS}`;

/**
 * The one reading of a user's date (values/dates.ts `userDateTime`, in the workflow's time zone):
 * a Luxon DateTime from an expression (`$today`, `$now`: n8n's own copy, known by its methods)
 * keeps its zone, as its ISO text with the offset.
 */
function readDateTime(ctx: ValueContext, field: string, value: unknown): DateTime {
	if (isBlank(value)) throw invalidInput(ctx, field, MISSING, DATE_HINT);
	const given = isDateTime(value) ? (value.isValid ? value.toISO() : undefined) : value;
	const date = userDateTime(given, ctx.getTimezone());
	if (!date) throw invalidInput(ctx, field, `${describeValue(value)} is not a date`, DATE_HINT);
	return date;
}

/** An instant, its time kept: where the service takes a time (ranges, Modified After of Get Many Basic, the trigger's Start From). */
export function readDate(ctx: ValueContext, field: string, value: unknown): Date {
	return readDateTime(ctx, field, value).toJSDate();
}

/** The calendar day the value names (values/dates.ts): where the service reads a day (discount dates, Price Get Many's date, Product Get Many's Modified After). */
export function readDay(ctx: ValueContext, field: string, value: unknown): Date {
	return calendarDay(readDateTime(ctx, field, value));
}

/** The end of a range: an instant, and a bare day (no time) is the whole day, to its last millisecond in the workflow's time zone. */
export function readRangeEnd(ctx: ValueContext, field: string, value: unknown): Date {
	const date = readDateTime(ctx, field, value);
	return isBareDay(value) ? endOfDay(date) : date.toJSDate();
}

/** The one check of a range's order (the documents' Date From and To, the orders' and shipments' Created and Confirmed): an end before its start is refused, naming both fields. */
export function checkRangeOrder(ctx: ValueContext, from: { field: string; date: Date }, to: { field: string; date: Date }): void {
	if (to.date.getTime() < from.date.getTime()) {
		throw invalidInput(ctx, to.field, `must not be before ${from.field} (${formatIsoUtc(to.date)} is before ${formatIsoUtc(from.date)})`);
	}
}

/** Today in the workflow's time zone, as a calendar day (values/dates.ts): the default and the bound of the day fields. */
export function today(ctx: ValueContext): Date {
	return todayIn(ctx.getTimezone());
}

/** A day from today (the workflow's time zone) on, for what the service takes only from today: refused here rather than by its 400. */
export function readDayFromToday(ctx: ValueContext, field: string, value: unknown, what: string): Date {
	const day = readDay(ctx, field, value);
	const first = today(ctx);
	if (day < first) {
		throw invalidInput(
			ctx,
			field,
			`${day.toISOString().slice(0, 10)} is in the past`,
			`${what} today (${first.toISOString().slice(0, 10)} in the workflow's time zone, ${ctx.getTimezone()}) or a later day`,
		);
	}
	return day;
}

/** Whether a value written as text is a bare day (no time): the end of a range then means the whole day. */
export function isBareDay(value: unknown): boolean {
	return typeof value === 'string' && (DAY_MONTH_YEAR.test(value.trim()) || /^\d{4}-\d{2}-\d{2}$/.test(value.trim()));
}

/** Text, trimmed; numbers are read as their digits (an SKU typed as 123). */
export function readText(ctx: ValueContext, field: string, value: unknown): string {
	if (isBlank(value)) throw invalidInput(ctx, field, MISSING);
	if (typeof value === 'string') return value.trim();
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	throw invalidInput(ctx, field, `${describeValue(value)} is not text`);
}

/** A locator's value and mode (`modes`: name → panel label); a plain value (older workflows, JSON) has none. */
export function readLocator<Mode extends string>(
	ctx: ValueContext,
	field: string,
	value: unknown,
	modes: Record<Mode, string>,
): { mode?: Mode; value: unknown } {
	if (!isResourceLocatorValue(value)) return { value };
	if (!Object.prototype.hasOwnProperty.call(modes, value.mode)) {
		throw invalidInput(ctx, field, `mode ${describeValue(value.mode)} is not one of ${Object.values(modes).join(', ')}`);
	}
	return { mode: value.mode as Mode, value: value.value };
}

/** Also the text "true" or "false" (a sheet's column); nothing else. */
export function readBoolean(ctx: ValueContext, field: string, value: unknown): boolean {
	const hint = 'Use true or false';
	if (isBlank(value)) throw invalidInput(ctx, field, MISSING, hint);
	if (typeof value === 'boolean') return value;
	const text = typeof value === 'string' ? value.trim().toLowerCase() : undefined;
	if (text === 'true' || text === 'false') return text === 'true';
	throw invalidInput(ctx, field, `${describeValue(value)} is not true or false`, hint);
}

/**
 * The one reader of a boolean parameter (Simplify, Fail on Item Errors, Download PDFs, Return
 * All, node and trigger): the field's default when a workflow made through n8n's API does not set
 * it, and true or false only, also as text; anything else names the field.
 */
export function readFlag(ctx: SettingsContext, parameter: string, field: string, fallback: boolean): boolean {
	return readBoolean(ctx, field, ctx.getNodeParameter(parameter, fallback));
}

/** "Fail on Item Errors" (Options of the bulk writes), read by the routed bulk writes (answers/bulkResults.ts) and the bulk run alike. */
export function readFailOnItemErrors(ctx: SettingsContext): boolean {
	return readFlag(ctx, 'options.failOnItemErrors', fieldPath('Options', 'Fail on Item Errors'), false);
}

/** Simplify, of the node and the trigger. */
export function readSimplify(ctx: SettingsContext): boolean {
	return readFlag(ctx, 'simplify', 'Simplify', true);
}

/**
 * What a read operation returns (shared/fields.ts `outputFields`): from node version 4 the
 * Output option (Simplified, Raw, Selected Fields, as n8n's node guidelines ask), before it the
 * Simplify switch (`simplifyByDefault`: its default in that version). Selected Fields are paths
 * into the raw answer (`invoiceHeader.fiscalDetails.invoiceNumber`): those picked from the Fields
 * list, then those typed in Other Fields, each once.
 */
export type Output = { mode: 'simplified' } | { mode: 'raw' } | { mode: 'selected'; paths: string[] };

export const OUTPUT_MODES = ['simplified', 'raw', 'selected'] as const;

/**
 * Output › Selected Fields' two parameters: the list of the answer's fields (`list`, Fields) and
 * the paths typed by hand (`typed`, Other Fields: `fieldsToReturn`, the name and text saved version
 * 4 nodes have from before the list).
 */
export const SELECTED_FIELDS = { list: { name: 'fields', label: 'Fields' }, typed: { name: 'fieldsToReturn', label: 'Other Fields' } } as const;

export function readOutput(ctx: SettingsContext & { getNode(): { typeVersion: number } }, simplifyByDefault = true): Output {
	if (ctx.getNode().typeVersion < 4) return { mode: readFlag(ctx, 'simplify', 'Simplify', simplifyByDefault) ? 'simplified' : 'raw' };
	const mode = readChoice(ctx, 'Output', ctx.getNodeParameter('output', 'simplified'), OUTPUT_MODES);
	if (mode !== 'selected') return { mode };
	const { list, typed } = SELECTED_FIELDS;
	const paths = [
		...readList(ctx, list.label, ctx.getNodeParameter(list.name, [])),
		...readList(ctx, typed.label, ctx.getNodeParameter(typed.name, '')),
	];
	if (paths.length === 0) {
		throw invalidInput(ctx, list.label, MISSING, `Choose the fields to return from the list, or type their paths in ${typed.label}, e.g. id, ean, stockLevel`);
	}
	return { mode: 'selected', paths: [...new Set(paths)] };
}

/** The fields at `paths` of `json`, nested as they were; a field the answer lacks is null, so every item has the same keys. */
export function selectFields(json: IDataObject, paths: string[]): IDataObject {
	const selected: IDataObject = {};
	for (const path of paths) {
		const keys = path.split('.');
		let value: unknown = json;
		for (const key of keys) value = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as IDataObject)[key] : undefined;
		let target = selected;
		for (const key of keys.slice(0, -1)) target = (target[key] ??= {}) as IDataObject;
		target[keys[keys.length - 1]] = (value ?? null) as IDataObject[string];
	}
	return selected;
}

/** One item's json as the Output asks: `simplify` makes the Simplified form. */
export function shapeOutput(output: Output, json: IDataObject, simplify: (json: IDataObject) => IDataObject): IDataObject {
	if (output.mode === 'simplified') return simplify(json);
	return output.mode === 'selected' ? selectFields(json, output.paths) : json;
}

/** How merchants write a currency other than by its code: KM (konvertibilna marka) is BAM. */
const CURRENCY_NAMES: Readonly<Record<string, string>> = { KM: 'BAM' };
export const CURRENCY_FORMS = 'a currency code such as RSD, BAM (or KM), EUR or MKD';

/**
 * A currency, as its ISO 4217 code: three letters in any letter case, "KM" read as BAM. Undefined
 * when blank (the account's currency: actions/discount/currency.ts). Any code is taken: the
 * account's currency, not this reader, says which one the service accepts.
 */
export function readCurrency(ctx: ValueContext, field: string, value: unknown): string | undefined {
	if (isBlank(value)) return undefined;
	const text = typeof value === 'string' ? value.trim().toUpperCase() : '';
	const code = CURRENCY_NAMES[text] ?? text;
	if (!/^[A-Z]{3}$/.test(code)) throw invalidInput(ctx, field, `${describeValue(value)} is not a currency code`, `Give ${CURRENCY_FORMS}`);
	return code;
}

/** What separates the entries of a list typed as text (`toList`). */
export const LIST_SEPARATORS = /[\s,;]+/;

/** An array, or text split at commas, semicolons, spaces, new lines (or `separators`: entries may hold spaces). */
export function toList(value: unknown, separators: RegExp = LIST_SEPARATORS): string[] {
	const values = Array.isArray(value) ? value : typeof value === 'string' || typeof value === 'number' ? String(value).split(separators) : [];
	return values.map((entry) => String(entry).trim()).filter((entry) => entry !== '');
}

/** What separates the entries of a multi-options field an expression gives as text: entries may hold spaces (a payment method's name). */
export const OPTION_LIST_SEPARATORS = /[,;\n]+/;

/**
 * Status names, the one reading of them (Shipment › Get Many's Filters › Statuses, the trigger's
 * New Status Names): a list, or text separated by commas; each an upper-case name such as
 * READY_FOR_COLLECTION, as the statuses endpoint lists them.
 */
export function readStatusNames(ctx: ValueContext, field: string, value: unknown): string[] {
	return toList(value, OPTION_LIST_SEPARATORS).map((name, index) => {
		if (/^[A-Z][A-Z_]*$/.test(name)) return name;
		throw invalidInput(ctx, listEntry(field, index), `"${name}" is not a status name`, 'Use names such as READY_FOR_COLLECTION or DELIVERED (Order › Get Statuses lists them)');
	});
}

interface ListRules<T> {
	/** How an empty list is refused; without it, an empty list is no entries (a field that may be left empty). */
	empty?: { problem: string; hint: string };
	/** Entries of an array come as given; text by default. */
	readEntry?: (entry: unknown, entryField: string) => T;
}

export function readList<T = string>(ctx: ValueContext, field: string, value: unknown, rules: ListRules<T> = {}): T[] {
	const entries: unknown[] = Array.isArray(value) ? value.filter((entry) => !isBlank(entry)) : toList(value);
	if (entries.length === 0 && rules.empty) throw invalidInput(ctx, field, rules.empty.problem, rules.empty.hint);
	const readEntry = rules.readEntry ?? ((entry: unknown, entryField: string) => readText(ctx, entryField, entry) as T);
	return entries.map((entry, index) => readEntry(entry, listEntry(field, index)));
}

/** What an EAN is, for hints and the locator's check: one wording of the rule. */
export const EAN_RULE = 'An EAN is 8 to 14 digits';
const EAN_HINT = `${EAN_RULE}, e.g. 4006381333931`;

/**
 * An EAN (GTIN): 8 to 14 digits. Its check digit is the service's to judge (codes with an invalid
 * one exist in real catalogues), so reads and Import alike check only the length and the digits.
 */
export function readEan(ctx: ValueContext, field: string, value: unknown): string {
	const hint = EAN_HINT;
	if (isBlank(value)) throw invalidInput(ctx, field, MISSING, hint);
	const ean = typeof value === 'string' ? value.trim() : typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : '';
	if (!/^\d{8,14}$/.test(ean)) throw invalidInput(ctx, field, `${describeValue(value)} is not an EAN`, hint);
	return ean;
}

export function readUrl(ctx: ValueContext, field: string, value: unknown): string {
	const text = readText(ctx, field, value);
	if (!URL.canParse(text) || !['http:', 'https:'].includes(new URL(text).protocol)) {
		throw invalidInput(ctx, field, `${describeValue(value)} is not an http(s) URL`, 'Use a full address such as https://example.com/images/cover.jpg');
	}
	return text;
}

export function readJson(ctx: ValueContext, field: string, value: unknown, hint: string): unknown {
	if (typeof value !== 'string') return value;
	try {
		return JSON.parse(value);
	} catch (error) {
		throw invalidInput(ctx, field, `is not valid JSON (${(error as Error).message})`, hint);
	}
}

// ─── Fields as data ──────────────────────────────────────────────────────────────────────────────────
/**
 * A field as an operation declares it, data that "go to definition" follows: its key (in a row, a
 * JSON entry and the body sent), its panel field (the label path errors name comes from it) and
 * its reader (Update's and Update Many's `UPDATE_FIELDS`, Discount Schedule's and Update's fields).
 */
export interface EntryField<T> {
	key: string;
	field: INodeProperties;
	read: (ctx: ValueContext, label: string, value: unknown, format: NumberFormat) => T;
}

/** An entry as its fields are read: its values by key, each field's label and reading context (a bulk entry, Update's parameters). */
export interface FieldsOfEntry {
	raw: IDataObject;
	label: (key?: string) => string;
	reader: (key: string) => ValueContext;
}

/** An entry's value of `field` (under `key` where the entry may name it otherwise), read by its reader under its label. */
export function readEntryField<T>(entry: FieldsOfEntry, field: EntryField<T>, format: NumberFormat, key = field.key): T {
	return field.read(entry.reader(key), entry.label(key), entry.raw[key], format);
}

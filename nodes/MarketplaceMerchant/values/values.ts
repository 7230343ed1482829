/**
 * Every value a user gives is read here, and nowhere else, by the narrow grammar README.md's "Your
 * values" states (why: platform facts, "Merchants' data"): an ambiguous value is rejected before
 * anything is sent, never guessed. Every reader is `readX(ctx, field, value, …)`, `field` in the
 * panel's words; a rejection names it, the item (from 0, as n8n's error view counts) and the value as given.
 */
import { NodeOperationError, isResourceLocatorValue, type IDataObject, type INode, type INodeExecutionData } from 'n8n-workflow';
import { DAY_MONTH_YEAR, parseDayMonthYear, parseUserIsoDate, startOfUtcDay } from './dates';

/** The node, and the item when there is one (the trigger's options belong to no item). */
export interface ValueContext {
	getNode(): INode;
	getItemIndex?: () => number;
	/** Why the value is missing, when more is known (see `readingParameter`). */
	whyMissing?: () => string | undefined;
}

/** Reads the node's parameters: an item's, or the trigger's settings. */
export interface SettingsContext extends ValueContext {
	getNodeParameter(parameterName: string, fallbackValue?: unknown): unknown;
}

export interface ParameterContext extends SettingsContext {
	getNodeParameter(parameterName: string, fallbackValue?: unknown, options?: { rawExpressions?: boolean }): unknown;
	getInputData(): INodeExecutionData | undefined;
}

export const MISSING = 'is missing';

const NUMBER_HINT = 'Use plain digits with an optional decimal point, e.g. 1299 or 1299.50; thousands separators and decimal commas are not accepted';
const PRICE_HINT = 'Use 1299 or 1299.00; thousands separators and decimal commas are not accepted, and a price has at most 2 decimal places';
const WHOLE_HINT = 'Use plain digits, e.g. 1000; thousands separators, decimal points and commas are not accepted';

// ─── Number Format ───────────────────────────────────────────────────────────────────────────────────
/**
 * How the user's sheet writes numbers, stated in Options › Number Format and never guessed
 * (platform facts, "Merchants' data": sr-RS writes 1.299 and 1.299,50, other locales 1,299.50, so
 * `1,299` or `1.299` alone could be either). Plain, the default, is what the node always read.
 * Numbers that are already JSON numbers are taken as they are, whatever the format.
 */
export type NumberFormat = 'plain' | 'serbian' | 'english';

export const NUMBER_FORMAT_OPTION_NAME = 'numberFormat';
export const NUMBER_FORMAT_LABEL = `Options${' › '}Number Format`;

interface FormatGrammar {
	name: string;
	/** Whole part (maybe grouped), optional decimals; groups removed by `group`. */
	pattern: RegExp;
	group: RegExp;
	decimal: string;
	examples: { number: string; price: string; whole: string };
}

const FORMATS: Record<NumberFormat, FormatGrammar> = {
	plain: { name: 'Plain', pattern: /^(-?\d+)(?:\.(\d+))?$/, group: /$^/, decimal: '.', examples: { number: '1299.50', price: '1299.50', whole: '1000' } },
	// A dot groups thousands (in threes, from the first group of one to three digits), a comma marks decimals.
	serbian: {
		name: 'Serbian',
		pattern: /^(-?(?:\d{1,3}(?:\.\d{3})+|\d+))(?:,(\d+))?$/,
		group: /\./g,
		decimal: ',',
		examples: { number: '1.299,50', price: '1.299,50', whole: '1.000' },
	},
	english: {
		name: 'English',
		pattern: /^(-?(?:\d{1,3}(?:,\d{3})+|\d+))(?:\.(\d+))?$/,
		group: /,/g,
		decimal: '.',
		examples: { number: '1,299.50', price: '1,299.50', whole: '1,000' },
	},
};

const FORMAT_HINTS: Record<Exclude<NumberFormat, 'plain'>, string> = {
	serbian: 'a dot groups thousands and a comma marks decimals (1.299, 1.299,50, 1299,50 or 2.729,00)',
	english: 'a comma groups thousands and a point marks decimals (1,299, 1,299.50 or 1299.50)',
};

const FORMAT_CACHE = new WeakMap<object, NumberFormat>();

/**
 * Options › Number Format, the one reader of it, once per item context: every operation that reads
 * prices, stock or weights from the user's data passes what this gives to the readers below.
 */
export function readNumberFormat(settings: SettingsContext): NumberFormat {
	const cached = FORMAT_CACHE.get(settings);
	if (cached !== undefined) return cached;
	const choice = settings.getNodeParameter(`options.${NUMBER_FORMAT_OPTION_NAME}`, 'plain');
	if (choice !== 'plain' && choice !== 'serbian' && choice !== 'english') {
		throw invalidInput(settings, NUMBER_FORMAT_LABEL, `${describeValue(choice)} is not one of plain, serbian, english`, 'Pick Plain, Serbian or English');
	}
	FORMAT_CACHE.set(settings, choice);
	return choice;
}

/** The hint of a value that does not fit `format`: it names the format and gives an example. */
function formatHint(format: NumberFormat, kind: 'number' | 'price' | 'whole', plainHint: string, data: boolean): string {
	if (format === 'plain') {
		if (!data) return plainHint;
		return `${plainHint}. Number Format is Plain; if the sheet writes 1.299,50 (Serbian) or 1,299.50 (English), set ${NUMBER_FORMAT_LABEL}`;
	}
	const grammar = FORMATS[format];
	const extra = kind === 'price' ? '; a price has at most 2 decimal places' : kind === 'whole' ? '; no decimals' : '';
	return `Number Format is ${grammar.name}: ${FORMAT_HINTS[format]}, e.g. ${grammar.examples[kind]}${extra}`;
}

/**
 * A price as the node shows it (the product list, messages): grouped in threes by a no-break
 * space, decimals (two) only when there are any, and the currency: `31 129 RSD`, `1 299.50 RSD`.
 * No grouping comma or dot: `31,129` reads as 31.129 to a Serbian reader and `31.129` as 31.129 to
 * an English one, while a space groups for both, and a point followed by two digits cannot be a
 * group of three. The one writer of a price; every place that shows one calls it.
 */
export function shownPrice(price: number, currency = 'RSD'): string {
	const cents = Math.round(Math.abs(price) * 100);
	const whole = String(Math.floor(cents / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, '\u00a0');
	const decimals = cents % 100 === 0 ? '' : `.${String(cents % 100).padStart(2, '0')}`;
	return `${price < 0 ? '-' : ''}${whole}${decimals}${currency === '' ? '' : `\u00a0${currency}`}`;
}

export const DATE_FORMS = 'a date from the date picker or an expression, ISO 8601 (2027-07-01 or 2027-07-01T00:00:00Z) or dd/MM/yyyy (01/07/2027); a value without a zone is UTC';
const DATE_HINT = `Use ${DATE_FORMS}`;

/** How labels nest in messages, as the panel nests fields: `Options › Price Guard`. */
export function fieldPath(...labels: string[]): string {
	return labels.join(FIELD_SEPARATOR);
}

/** Hot paths that label every entry of a long list concatenate with it directly. */
export const FIELD_SEPARATOR = ' › ';

/** An entry by its position from 1, as a merchant counts: `EANs › entry 3`. Hot: it labels every value of a bulk list. */
export function listEntry(list: string, index: number, unit = 'entry'): string {
	return `${list}${FIELD_SEPARATOR}${unit} ${index + 1}`;
}

/**
 * The one place an error about a user value is built. A missing value that its context can
 * explain goes without the hint: the format was never the problem.
 */
export function invalidInput(ctx: ValueContext, field: string, problem: string, hint?: string): NodeOperationError {
	const why = problem === MISSING ? ctx.whyMissing?.() : undefined;
	const itemIndex = ctx.getItemIndex?.();
	const item = itemIndex === undefined ? '' : ` (item ${itemIndex})`;
	const description = why === undefined ? hint : undefined;
	return new NodeOperationError(ctx.getNode(), `${field}: ${why ?? problem}${item}`, { itemIndex, description });
}

export function describeValue(value: unknown): string {
	if (typeof value === 'string') return `"${value}"`;
	if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'an invalid date' : value.toISOString();
	if (isDateTime(value)) return value.toISO() ?? 'an invalid date';
	return JSON.stringify(value) ?? String(value);
}

export function isBlank(value: unknown): boolean {
	return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/** An expression that is nothing but a field of the input item: `{{ $json.price }}`, `{{ $json["unit price"] }}`, `{{ $json.product.id }}`. */
const ITEM_FIELD_EXPRESSION = /^=\s*(\{\{\s*\$json((?:\.[A-Za-z_$][\w$]*|\[\s*(?:'[^']*'|"[^"]*")\s*\])+)\s*\}\})\s*$/;
const ITEM_FIELD_KEY = /\.([A-Za-z_$][\w$]*)|\[\s*(?:'([^']*)'|"([^"]*)")\s*\]/g;
const LISTED_FIELDS = 10;

export function isPlainObject(value: unknown): value is IDataObject {
	return !!value && typeof value === 'object' && !Array.isArray(value);
}

function fieldsOf(holder: IDataObject, owner: string): string {
	const names = Object.keys(holder);
	if (names.length === 0) return `${owner} has no fields`;
	return `${owner} has: ${names.slice(0, LISTED_FIELDS).join(', ')}${names.length > LISTED_FIELDS ? ', …' : ''}`;
}

/** Why parameter `parameterPath` gave nothing, when it is an expression reading an absent or empty field of the item. */
export function missingBecauseOfExpression(ctx: ParameterContext, parameterPath: string): string | undefined {
	try {
		let raw = ctx.getNodeParameter(parameterPath, undefined, { rawExpressions: true });
		if (isResourceLocatorValue(raw)) raw = raw.value;
		const match = typeof raw === 'string' ? ITEM_FIELD_EXPRESSION.exec(raw) : null;
		if (!match) return undefined;
		const keys = [...match[2].matchAll(ITEM_FIELD_KEY)].map((key) => key[1] ?? key[2] ?? key[3]);
		const gaveNothing = `\`${match[1]}\` gave no value`;
		let holder: unknown = ctx.getInputData()?.json;
		for (const [depth, key] of keys.entries()) {
			if (!isPlainObject(holder)) return undefined;
			const name = keys.slice(0, depth + 1).join('.');
			if (!Object.prototype.hasOwnProperty.call(holder, key)) {
				const owner = depth === 0 ? 'it' : `'${keys.slice(0, depth).join('.')}'`;
				return `${gaveNothing}: the input item has no field '${name}' (${fieldsOf(holder, owner)})`;
			}
			holder = holder[key];
		}
		if (!isBlank(holder)) return undefined;
		return `${gaveNothing}: the input item's field '${keys.join('.')}' is ${holder === null ? 'null' : 'empty'}`;
	} catch {
		// a parameter that is not there: nothing to explain
		return undefined;
	}
}

/** The context to read parameter `parameterPath` with: a missing value says which expression gave nothing and why. */
export function readingParameter(ctx: ParameterContext, parameterPath: string): ValueContext {
	const itemIndex = ctx.getItemIndex?.();
	return {
		getNode: () => ctx.getNode(),
		getItemIndex: itemIndex === undefined ? undefined : () => itemIndex,
		whyMissing: () => missingBecauseOfExpression(ctx, parameterPath),
	};
}

type Reader<T> = (ctx: ValueContext, field: string, value: unknown) => T;

export function readParameter<T>(ctx: ParameterContext, parameterPath: string, field: string, read: Reader<T>): T {
	return read(readingParameter(ctx, parameterPath), field, ctx.getNodeParameter(parameterPath, ''));
}


interface NumberRules {
	/** Text may not hold a `.` at all. */
	whole?: boolean;
	/** Text may start with `-`. */
	signed?: boolean;
	maxDecimals?: number;
	min?: number;
	minExclusive?: boolean;
	max?: number;
	/** For messages: 'a number', 'a price', 'a product ID'. */
	kind?: string;
	hint?: string;
	/** How text is written (Options › Number Format); plain by default. */
	format?: NumberFormat;
	/** A value of the user's data (a price, stock, weight), where Options › Number Format applies: its hint says so. */
	data?: boolean;
}

/** A JSON number as `maxDecimals` places: float noise (899.9 * 1.1 = 989.8900000000001) is rounded away, not 1.299. */
function withinDecimals(value: number, maxDecimals: number): number | undefined {
	const rounded = Number(value.toFixed(maxDecimals));
	return Math.abs(rounded - value) <= Number.EPSILON * 8 * Math.max(1, Math.abs(value)) ? rounded : undefined;
}

/** No closure per call: it reads every value of long lists. */
export function readNumber(ctx: ValueContext, field: string, value: unknown, rules: NumberRules = {}): number {
	const kind = rules.kind ?? (rules.whole ? 'a whole number' : 'a number');
	const format = rules.format ?? 'plain';
	const hint = formatHint(format, rules.whole ? 'whole' : rules.hint === PRICE_HINT ? 'price' : 'number', rules.hint ?? (rules.whole ? WHOLE_HINT : NUMBER_HINT), rules.data === true);
	if (isBlank(value)) throw invalidInput(ctx, field, MISSING, hint);
	// undefined: more decimal places than allowed
	let number: number | undefined;
	if (typeof value === 'number') {
		if (!Number.isFinite(value)) throw invalidInput(ctx, field, `${describeValue(value)} is not ${kind}`, hint);
		number = rules.maxDecimals === undefined ? value : withinDecimals(value, rules.maxDecimals);
	} else {
		const grammar = FORMATS[format];
		const match = typeof value === 'string' ? grammar.pattern.exec(value.trim()) : null;
		const fits = match !== null && (rules.signed || !match[1].startsWith('-')) && !(rules.whole && match[2] !== undefined);
		if (!fits) {
			const inFormat = format === 'plain' ? '' : ` in Number Format ${grammar.name}`;
			throw invalidInput(ctx, field, `${describeValue(value)} is not ${kind}${inFormat}`, hint);
		}
		const digits = match[1].replace(grammar.group, '');
		const tooPrecise = rules.maxDecimals !== undefined && (match[2]?.length ?? 0) > rules.maxDecimals;
		number = tooPrecise ? undefined : Number(match[2] === undefined ? digits : `${digits}.${match[2]}`);
	}
	if (number === undefined) throw invalidInput(ctx, field, `${describeValue(value)} has more than ${rules.maxDecimals} decimal places`, hint);
	if (rules.whole && !Number.isSafeInteger(number)) throw invalidInput(ctx, field, `${describeValue(value)} is not ${kind}`, hint);
	if (rules.min !== undefined && (rules.minExclusive ? number <= rules.min : number < rules.min)) {
		throw invalidInput(ctx, field, `must be ${rules.minExclusive ? 'above' : 'at least'} ${rules.min}, got ${describeValue(value)}`, hint);
	}
	if (rules.max !== undefined && number > rules.max) {
		throw invalidInput(ctx, field, `must be at most ${rules.max}, got ${describeValue(value)}`, hint);
	}
	return number;
}

export function readWholeNumber(ctx: ValueContext, field: string, value: unknown, min?: number): number {
	return readNumber(ctx, field, value, { whole: true, min });
}

/** A reader of values from the user's data: `format` as Options › Number Format states it (plain when not given). */
export type NumberReader = (ctx: ValueContext, field: string, value: unknown, format?: NumberFormat) => number;

/** One rules object per format, made once: the readers run for every value of long lists. */
function numberReader(rules: NumberRules): NumberReader {
	const byFormat: Record<NumberFormat, NumberRules> = {
		plain: { ...rules, format: 'plain' },
		serbian: { ...rules, format: 'serbian' },
		english: { ...rules, format: 'english' },
	};
	return (ctx, field, value, format = 'plain') => readNumber(ctx, field, value, byFormat[format]);
}

export const readId = numberReader({ whole: true, min: 1, kind: 'a product ID (a whole number)' });
export const readPrice = numberReader({ min: 0, minExclusive: true, maxDecimals: 2, kind: 'a price', hint: PRICE_HINT, data: true });
export const readStockLevel = numberReader({ whole: true, min: 0, kind: 'a stock level (a whole number)', data: true });
/** A stock level that may be below 0 (an ERP's oversold item): what to send for it is the writer's rule (products.ts, `readStockToSend`). */
export const readSignedStockLevel = numberReader({ whole: true, signed: true, kind: 'a stock level (a whole number)', data: true });
export const readLimit = numberReader({ whole: true, min: 1, kind: 'a limit (a whole number)' });

/** `max` above 100 where a share above the whole makes sense (a price increase). */
export function readPercent(ctx: ValueContext, field: string, value: unknown, max = 100): number {
	return readNumber(ctx, field, value, { min: 0, max, maxDecimals: 2, kind: 'a percentage' });
}

export const VAT_RATES = [0, 10, 20] as const;

export function readVat(ctx: ValueContext, field: string, value: unknown, format?: NumberFormat): number {
	const vat = readNumber(ctx, field, value, { min: 0, max: 100, maxDecimals: 2, kind: 'a percentage', format, data: true });
	if (!(VAT_RATES as readonly number[]).includes(vat)) {
		throw invalidInput(ctx, field, `must be one of ${VAT_RATES.join(', ')}, got ${describeValue(value)}`);
	}
	return vat;
}

const ISO_DAY_FIRST = /^\d{4}-\d{2}-\d{2}(?:[T ].*)?$/;

function isDateTime(value: unknown): value is { isValid: boolean; toISO(): string | null; toMillis(): number } {
	// n8n's expressions give Luxon DateTimes of n8n's own copy of Luxon, known by their methods (instanceof fails across copies).
	return typeof value === 'object' && value !== null && typeof (value as { toISO?: unknown }).toISO === 'function' && typeof (value as { toMillis?: unknown }).toMillis === 'function';
}

function parseUserDate(value: unknown): Date | undefined {
	if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value;
	if (isDateTime(value)) return value.isValid ? new Date(value.toMillis()) : undefined;
	if (typeof value !== 'string') return undefined;
	const text = value.trim();
	return ISO_DAY_FIRST.test(text) ? parseUserIsoDate(text.replace(' ', 'T')) : parseDayMonthYear(text);
}

export function readDate(ctx: ValueContext, field: string, value: unknown): Date {
	if (isBlank(value)) throw invalidInput(ctx, field, MISSING, DATE_HINT);
	const date = parseUserDate(value);
	if (!date) throw invalidInput(ctx, field, `${describeValue(value)} is not a date`, DATE_HINT);
	return date;
}

/** The UTC day of the instant given, as midnight UTC: the service counts in whole days. */
export function readDay(ctx: ValueContext, field: string, value: unknown): Date {
	return startOfUtcDay(readDate(ctx, field, value));
}

/** A day from today (UTC) on, for what the service takes only from today: refused here rather than by its 400. */
export function readDayFromToday(ctx: ValueContext, field: string, value: unknown, what: string): Date {
	const day = readDay(ctx, field, value);
	const today = startOfUtcDay();
	if (day < today) {
		throw invalidInput(ctx, field, `${day.toISOString().slice(0, 10)} is in the past`, `${what} today (${today.toISOString().slice(0, 10)}, UTC) or a later day`);
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
 * The one reader of Simplify (node and trigger): the field's default when a workflow made through
 * n8n's API does not set it, and true or false only, also as text; anything else names the field.
 */
export function readSimplify(ctx: SettingsContext): boolean {
	return readBoolean(ctx, 'Simplify', ctx.getNodeParameter('simplify', true));
}

export function readChoice<T extends string>(ctx: ValueContext, field: string, value: unknown, choices: readonly T[]): T {
	if (isBlank(value)) throw invalidInput(ctx, field, MISSING, `Use ${choices.join(', ')}`);
	const choice = typeof value === 'string' ? value.trim().toUpperCase() : undefined;
	if (choice === undefined || !(choices as readonly string[]).includes(choice)) {
		throw invalidInput(ctx, field, `${describeValue(value)} is not one of ${choices.join(', ')}`, `Use ${choices.join(', ')}`);
	}
	return choice as T;
}

const LIST_SEPARATORS = /[\s,;]+/;

/** An array, or text split at commas, semicolons, spaces, new lines (or `separators`: entries may hold spaces). */
export function toList(value: unknown, separators: RegExp = LIST_SEPARATORS): string[] {
	const values = Array.isArray(value) ? value : typeof value === 'string' || typeof value === 'number' ? String(value).split(separators) : [];
	return values.map((entry) => String(entry).trim()).filter((entry) => entry !== '');
}

interface ListRules<T> {
	empty: { problem: string; hint: string };
	/** Entries of an array come as given; text by default. */
	readEntry?: (entry: unknown, entryField: string) => T;
}

export function readList<T = string>(ctx: ValueContext, field: string, value: unknown, rules: ListRules<T>): T[] {
	const entries: unknown[] = Array.isArray(value) ? value.filter((entry) => !isBlank(entry)) : toList(value);
	if (entries.length === 0) throw invalidInput(ctx, field, rules.empty.problem, rules.empty.hint);
	const readEntry = rules.readEntry ?? ((entry: unknown, entryField: string) => readText(ctx, entryField, entry) as T);
	return entries.map((entry, index) => readEntry(entry, listEntry(field, index)));
}

/**
 * An EAN (GTIN): 8 to 14 digits. Its check digit is the service's to judge (codes with an invalid
 * one exist in real catalogues), so reads and Import alike check only the length and the digits.
 */
export function readEan(ctx: ValueContext, field: string, value: unknown): string {
	const hint = 'An EAN is 8 to 14 digits, e.g. 4006381333931';
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

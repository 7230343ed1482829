/**
 * Numbers and prices as a user gives them: Options › Number Format (never guessed), the number
 * readers (`readNumber` and the readers made of its rules: `readPrice`, `readStockLevel`, …), VAT,
 * and the words and rules of a price in one place: its hints, how it is shown (`shownPrice`) and
 * how two prices are compared (`samePrice`, `exactCents`).
 */
import { describeValue, invalidInput, isBlank, MISSING, readChoice, type SettingsContext, type ValueContext } from './labels';

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
export const NUMBER_FORMATS = ['plain', 'serbian', 'english'] as const;
export type NumberFormat = (typeof NUMBER_FORMATS)[number];

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
	const choice = readChoice(settings, NUMBER_FORMAT_LABEL, settings.getNodeParameter(`options.${NUMBER_FORMAT_OPTION_NAME}`, 'plain'), NUMBER_FORMATS, 'Pick Plain, Serbian or English');
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


/** A price's forms, for field descriptions: every field that takes a price says it so. */
export const PRICE_FORMS = 'At most 2 decimals, written as Options › Number Format says: Plain (the default) 1299 or 1299.50, Serbian 1.299,50, English 1,299.50';

/** A price in whole cents: 1299.00 and a float's 1299.9999999 are one price. */
export function priceInCents(price: number): number {
	return Math.round(price * 100);
}

/** How every price comparison of what to send is made (Sync): equal to the cent. */
export function samePrice(a: number, b: number): boolean {
	return priceInCents(a) === priceInCents(b);
}

/** Whole cents where the price has at most 2 decimals, else exact (the trigger's Product Changed: a change of a third decimal is still a change). */
export function exactCents(price: number | null): number | null {
	if (price === null) return null;
	const cents = priceInCents(price);
	return Math.abs(price * 100 - cents) < 1e-6 ? cents : price * 100;
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
	// A whole number is itself (toFixed's text of it reads back the same, -0 as 0), without the text: lists hold 50,000.
	if (Number.isInteger(value)) return value + 0;
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
/** A stock level that may be below 0 (an ERP's oversold item): what to send for it is the writer's rule (actions/catalogue/fields.ts, `stockLevelToSend`). */
export const readSignedStockLevel = numberReader({ whole: true, signed: true, kind: 'a stock level (a whole number)', data: true });
export const readLimit = numberReader({ whole: true, min: 1, kind: 'a limit (a whole number)' });

/** `max` above 100 where a share above the whole makes sense (a price increase). */
export function readPercent(ctx: ValueContext, field: string, value: unknown, max = 100): number {
	return readNumber(ctx, field, value, { min: 0, max, maxDecimals: 2, kind: 'a percentage' });
}

/**
 * A VAT rate in percent, 0 to 100: the market's rate, which the service judges (platform facts:
 * Serbia's 0, 10 and 20, Bosnia and Herzegovina's 17, North Macedonia's 18 and 5; a rate the
 * account does not take is refused per entry in the service's words). VAT is a tag of the
 * product, never added to its price.
 */
export function readVat(ctx: ValueContext, field: string, value: unknown, format?: NumberFormat): number {
	return readNumber(ctx, field, value, { min: 0, max: 100, maxDecimals: 2, kind: 'a VAT rate in percent', format, data: true });
}

/**
 * The words of every error about a user value, and the contexts its readers take: a field by its
 * label path in the panel's words (`Update Fields › Base Price`), an entry of a list by its position,
 * the value as given, and `InputError`, the one structured error (field, problem, item) that
 * `invalidInput` builds. Also the one reading of the `{{ $json.x }}` pattern: an expression that
 * is nothing but a field of the input item. And the one reader of a choice (`readChoice`), here
 * below the other readers so that numbers.ts and values.ts both use it.
 */
import { NodeOperationError, isResourceLocatorValue, type IDataObject, type INode, type INodeExecutionData } from 'n8n-workflow';

/** The node, and the item when there is one (the trigger's options belong to no item). */
export interface ValueContext {
	getNode(): INode;
	/** The workflow's time zone (Workflow Settings › Timezone, else the instance's): a user's dates are read in it (values/dates.ts). */
	getTimezone(): string;
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

/** How a message names the item a value belongs to (from 0, as n8n's error view counts): ` (item 3)`. */
export function ofItem(itemIndex: number | undefined): string {
	return itemIndex === undefined ? '' : ` (item ${itemIndex})`;
}

/**
 * An error about a user value, structured: the field (its label path), the problem (why it is
 * refused, or why it is missing), the item (from 0). Its message, `field: problem (item N)`, is
 * made here only; a bulk entry's output gives `reason`, without the item (it names its row).
 */
export class InputError extends NodeOperationError {
	constructor(
		node: INode,
		readonly field: string,
		readonly problem: string,
		readonly item: number | undefined,
		hint?: string,
	) {
		super(node, `${field}: ${problem}${ofItem(item)}`, { itemIndex: item, description: hint });
		// n8n shows and stores an error's class name: an input error stays a NodeOperationError to the workflows that read it.
		Object.defineProperty(this, 'name', { value: 'NodeOperationError', writable: true, enumerable: true, configurable: true });
	}

	/** The field and the problem, as an invalid entry's output says them. */
	get reason(): string {
		return `${this.field}: ${this.problem}`;
	}
}

/**
 * The one place an error about a user value is built. A missing value that its context can
 * explain goes without the hint: the format was never the problem.
 */
export function invalidInput(ctx: ValueContext, field: string, problem: string, hint?: string): InputError {
	const why = problem === MISSING ? ctx.whyMissing?.() : undefined;
	return new InputError(ctx.getNode(), field, why ?? problem, ctx.getItemIndex?.(), why === undefined ? hint : undefined);
}

export function describeValue(value: unknown): string {
	if (typeof value === 'string') return `"${value}"`;
	if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'an invalid date' : value.toISOString();
	if (isDateTime(value)) return value.toISO() ?? 'an invalid date';
	return JSON.stringify(value) ?? String(value);
}

/**
 * One of `choices`, as declared: the one reader of a choice, whether a code of the user's data
 * (KG, SALE, FISCAL) or an options field an expression may set to anything (Status Group, Number
 * Format, Output). Trimmed and read in any letter case, since no two choices differ only in it
 * (`sale` is SALE, `PROCESSED` is processed); blank is missing; anything else names the field.
 */
export function readChoice<T extends string>(ctx: ValueContext, field: string, value: unknown, choices: readonly T[], hint = `Use ${choices.join(', ')}`): T {
	if (isBlank(value)) throw invalidInput(ctx, field, MISSING, hint);
	const given = typeof value === 'string' ? value.trim().toUpperCase() : undefined;
	const choice = given === undefined ? undefined : choices.find((declared) => declared.toUpperCase() === given);
	if (choice === undefined) throw invalidInput(ctx, field, `${describeValue(value)} is not one of ${choices.join(', ')}`, hint);
	return choice;
}

export function isBlank(value: unknown): boolean {
	return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}


export function isDateTime(value: unknown): value is { isValid: boolean; toISO(): string | null; toMillis(): number } {
	// n8n's expressions give Luxon DateTimes of n8n's own copy of Luxon, known by their methods (instanceof fails across copies).
	return typeof value === 'object' && value !== null && typeof (value as { toISO?: unknown }).toISO === 'function' && typeof (value as { toMillis?: unknown }).toMillis === 'function';
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
/**
 * The `{{ $json.x }}` pattern, read here only: an expression (the raw parameter) that is nothing
 * but a field of the input item gives the expression as written and the keys it reads
 * (`{{ $json.product.id }}`: product, id); any other value gives undefined.
 */
export function itemFieldRead(raw: unknown): { expression: string; keys: string[] } | undefined {
	const match = typeof raw === 'string' ? ITEM_FIELD_EXPRESSION.exec(raw) : null;
	if (!match) return undefined;
	return { expression: match[1], keys: [...match[2].matchAll(ITEM_FIELD_KEY)].map((key) => key[1] ?? key[2] ?? key[3]) };
}

/** The one field of the input item an expression reads, when it reads one at the top (a dragged column, `{{ $json.products }}`). */
export function itemColumnRead(raw: unknown): string | undefined {
	const read = itemFieldRead(raw);
	return read?.keys.length === 1 ? read.keys[0] : undefined;
}

export function missingBecauseOfExpression(ctx: ParameterContext, parameterPath: string): string | undefined {
	try {
		let raw = ctx.getNodeParameter(parameterPath, undefined, { rawExpressions: true });
		if (isResourceLocatorValue(raw)) raw = raw.value;
		const read = itemFieldRead(raw);
		if (!read) return undefined;
		const { keys } = read;
		const gaveNothing = `\`${read.expression}\` gave no value`;
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
		getTimezone: () => ctx.getTimezone(),
		getItemIndex: itemIndex === undefined ? undefined : () => itemIndex,
		whyMissing: () => missingBecauseOfExpression(ctx, parameterPath),
	};
}

type Reader<T> = (ctx: ValueContext, field: string, value: unknown) => T;

export function readParameter<T>(ctx: ParameterContext, parameterPath: string, field: string, read: Reader<T>): T {
	return read(readingParameter(ctx, parameterPath), field, ctx.getNodeParameter(parameterPath, ''));
}


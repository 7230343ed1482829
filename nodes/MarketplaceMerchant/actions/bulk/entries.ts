/**
 * Reading input items into the entries of a bulk operation, by Input Mode (fields.ts): every
 * item one entry (its mapped fields), or each item's list (the JSON field, the rows). Each entry
 * carries its label, in the panel's words, and the readers of its fields:
 *   rows  `Products › row 3 › Update Fields › Base Price`
 *   JSON  `Products (JSON) › entry 3 › Base Price (basePrice)` (the key is what the user wrote)
 *   items `row 3 (EAN 8600892210086) › Base Price` (the input item as the sheet row it came from)
 */
import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type IGetNodeParameterOptions,
	type INode,
	type INodeExecutionData,
} from 'n8n-workflow';

import { unwrapList } from '../../answers/read';
import { asNodeError } from '../../transport/errors';
import {
	describeValue,
	FIELD_SEPARATOR,
	fieldPath,
	invalidInput,
	isBlank,
	isPlainObject,
	itemColumnRead,
	listEntry,
	readingParameter,
	type ValueContext,
} from '../../values/labels';
import { readJson } from '../../values/values';
import { fieldChains } from '../common';
import { exampleItem, itemParameterName, readsJson, readsOneEntryPerItem, type BulkInput } from './fields';

/** One input item as the readers of user values see it. A class, not closures: a run of 50,000 rows holds one per row. */
export class ItemContext implements ValueContext {
	constructor(
		private readonly exec: IExecuteFunctions,
		readonly itemIndex: number,
	) {}

	getNode(): INode {
		return this.exec.getNode();
	}

	getItemIndex(): number {
		return this.itemIndex;
	}

	getTimezone(): string {
		return this.exec.getTimezone();
	}

	getNodeParameter(name: string, fallback?: unknown, options?: IGetNodeParameterOptions): unknown {
		return this.exec.getNodeParameter(name, this.itemIndex, fallback, options);
	}

	getInputData(): INodeExecutionData {
		return this.exec.getInputData()[this.itemIndex];
	}
}

/** The property of the input item a parameter reads when it is only `{{ $json.products }}` (values' one reading of the pattern). */
function itemPropertyRead(ctx: ItemContext, parameter: string): string | undefined {
	return itemColumnRead(ctx.getNodeParameter(parameter, undefined, { rawExpressions: true }));
}

/** The JSON field gave nothing because it reads a property the input item lacks (the default, fed by a sheet): say so and what to do. */
function missingItemProperty(ctx: ItemContext, input: BulkInput): Error | undefined {
	const property = itemPropertyRead(ctx, input.json.name);
	const item = ctx.getInputData()?.json;
	if (property === undefined || !item || Object.prototype.hasOwnProperty.call(item, property)) return undefined;
	return invalidInput(
		ctx,
		input.json.displayName,
		`the input item has no field '${property}' (the field reads {{ $json${/^[A-Za-z_$][\w$]*$/.test(property) ? `.${property}` : `[${JSON.stringify(property)}]`} }})`,
		`When each input item is one of the ${input.entries} (a sheet or CSV row), switch Input Mode to One Item per ${input.entry} and map the fields. To send a list, set ${input.json.displayName} to an expression that gives it, put an Aggregate node in front (All Item Data, into the field "${property}"), or switch Input Mode to Define Below. Expected: ${exampleItem(input)}`,
	);
}

/**
 * The JSON field's list: an array, JSON text of one, a wrapper such as `{"discounts": [...]}`, or
 * a single object as a list of one. Nothing given is an empty list.
 */
function jsonList(ctx: ItemContext, input: BulkInput): unknown[] {
	const { name, displayName, hint } = input.json;
	const value = ctx.getNodeParameter(name, undefined) as unknown;
	if (isBlank(value)) {
		const missing = missingItemProperty(ctx, input);
		if (missing) throw missing;
		return [];
	}
	const list = unwrapList(readJson(ctx, displayName, value, hint));
	if (list === undefined || list === null) return [];
	if (Array.isArray(list)) return list;
	if (typeof list === 'object') return [list];
	throw invalidInput(ctx, displayName, `must be a list of objects, got ${describeValue(list)}`, hint);
}

/** Where the entries came from, for labels: the rows' or the JSON field's label ('' for input items). */
export interface BulkSource {
	list: string;
	unit: 'row' | 'entry';
}

/** Several entries of one list, by their positions (from 0): `Products › rows 1 and 3`. */
export function entriesAt(source: BulkSource, positions: number[]): string {
	const numbers = positions.map((position) => String(position + 1));
	const listed = numbers.length > 1 ? `${numbers.slice(0, -1).join(', ')} and ${numbers[numbers.length - 1]}` : numbers.join('');
	const unit = numbers.length === 1 ? source.unit : source.unit === 'row' ? 'rows' : 'entries';
	return source.list === '' ? `${unit} ${listed}` : fieldPath(source.list, `${unit} ${listed}`);
}

/** One entry as read: a row, a JSON entry, or the mapped fields of an input item. */
export interface EntryRead {
	/** Its input item (`ctx.itemIndex`). */
	ctx: ItemContext;
	/** In its batch's list, from 0 (in the per-item mode, the item's position). */
	position: number;
	raw: IDataObject;
	/** `Products › row 3`, `row 3 (EAN 8600892210086)`; with a key, the field's part after it: `… › Update Fields › Base Price`. */
	label: (key?: string) => string;
	/** Reads a field by key; where the panel holds it, with its parameter, so that a value an expression did not give says why. */
	reader: (key: string) => ValueContext;
	/** Entered in the panel (rows, mapped items), not given as JSON. */
	fromPanel: boolean;
}

/** What a field's key gives: its part of a label, the parameter it was entered in (`productRows.product[2].updateFields.basePrice`). */
type OfKey = (key: string) => string;

/**
 * The entry at position `at`, named `entryLabel` or, in a list, as its entry of `source` (worked out
 * only when a label is asked for: a list holds 50,000); `parameterOf` is none for JSON entries.
 */
function entryRead(
	ctx: ItemContext,
	at: number,
	raw: IDataObject,
	entryLabel: string | BulkSource,
	fieldLabel: OfKey,
	parameterOf?: (key: string, at: number) => string,
): BulkEntry<unknown> {
	let named = typeof entryLabel === 'string' ? entryLabel : undefined;
	return {
		ctx,
		position: at,
		raw,
		label: (key) => {
			named ??= listEntry((entryLabel as BulkSource).list, at, (entryLabel as BulkSource).unit);
			return key === undefined ? named : `${named}${FIELD_SEPARATOR}${fieldLabel(key)}`;
		},
		reader: (key) => (parameterOf ? readingParameter(ctx, parameterOf(key, at)) : ctx),
		fromPanel: parameterOf !== undefined,
		// Set by the run's checks: here from the start, so that 50,000 entries keep one shape.
		value: undefined,
		problem: undefined,
	};
}

/**
 * The row fields, worked out once per operation (read for every value: 150,000 in a sync of 50,000
 * entries): a field's part of a label, `Update Fields › Base Price` in a row, `Base Price (basePrice)`
 * in JSON; where it is below its row (`updateFields.basePrice`) and, in the per-item mode, entered
 * (`itemUpdateFields.basePrice`).
 */
const rowFieldsOf = oncePer((input: BulkInput) => {
	const labels = fieldChains(input.rows.row.values, 'displayName');
	for (const [key, label] of Object.entries(input.json.labels ?? {})) if (!labels.has(key)) labels.set(key, [label]);
	const names = [...fieldChains(input.rows.row.values, 'name')];
	const ofKey = (pairs: Array<[string, string]>, otherwise: OfKey = (key) => key): OfKey => {
		const map = new Map(pairs);
		return (key) => map.get(key) ?? otherwise(key);
	};
	return {
		rowLabel: ofKey([...labels].map(([key, chain]) => [key, fieldPath(...chain)])),
		jsonLabel: ofKey([...labels].map(([key, chain]) => [key, `${chain[chain.length - 1]} (${key})`])),
		inRow: ofKey(names.map(([name, chain]) => [name, chain.join('.')])),
		ofItem: ofKey(names.map(([name, [top, ...below]]) => [name, [itemParameterName(top), ...below].join('.')]), itemParameterName),
	};
});

/** The entries of the current item. An empty list is an error: a bulk call for nothing is a mistake in what feeds it. */
function readBulkEntries(ctx: ItemContext, input: BulkInput): { entries: EntryRead[]; source: BulkSource } {
	const fromJson = readsJson(ctx);
	const source: BulkSource = fromJson ? { list: input.json.displayName, unit: 'entry' } : { list: input.rows.displayName, unit: 'row' };
	const rows = `${input.rows.name}.${input.rows.row.name}`;
	const list = fromJson ? jsonList(ctx, input) : ((ctx.getNodeParameter(rows, []) as unknown[] | undefined) ?? []);
	if (list.length === 0) {
		const hint = fromJson ? input.json.hint : `Add at least one ${input.rows.row.displayName.toLowerCase()} row`;
		throw invalidInput(ctx, source.list, input.emptyProblem ?? 'the list is empty', hint);
	}
	const fields = rowFieldsOf(input);
	const toEntry = input.rows.toEntry ?? ((row: IDataObject) => row);
	const inRows = (key: string, at: number) => `${rows}[${at}].${fields.inRow(key)}`;
	const entries = list.map((entry, index) => {
		if (!isPlainObject(entry)) {
			throw invalidInput(ctx, listEntry(source.list, index, source.unit), `is not an object (got ${describeValue(entry)})`, fromJson ? input.json.hint : undefined);
		}
		if (fromJson) return entryRead(ctx, index, entry, source, fields.jsonLabel);
		return entryRead(ctx, index, toEntry(entry), source, fields.rowLabel, inRows);
	});
	return { entries, source };
}


/** `compute` worked out once per key (an operation's input, an item's context), kept as long as the key lives. */
export function oncePer<K extends object, T>(compute: (key: K) => T): (key: K) => T {
	const results = new WeakMap<K, T>();
	return (key) => {
		let result = results.get(key);
		if (result === undefined) {
			result = compute(key);
			results.set(key, result);
		}
		return result;
	};
}

/**
 * A mapped field's value for one item. A dragged column, exactly `{{ $json.Column }}`, is read from
 * the item as n8n's evaluation gives it (test/actions/bulk/entries.test.ts compares the two) without
 * building n8n's expression context, which for 1,000 rows took most of a sync's time (bench `rows`).
 */
function mappedValue(ctx: ItemContext, parameter: string): IDataObject[string] | undefined {
	const raw = ctx.getNodeParameter(parameter, undefined, { rawExpressions: true });
	const json = ctx.getInputData()?.json;
	const column = (value: string) => (json && Object.prototype.hasOwnProperty.call(json, value) ? json[value] : undefined);
	const read = itemColumnRead(raw);
	if (read !== undefined) return column(read);
	// A collection (Import's Product Fields, Update Fields) whose fields are dragged columns or plain values: each read the same way.
	if (isPlainObject(raw)) {
		const fields = Object.entries(raw);
		const columns = fields.map(([, value]) => itemColumnRead(value));
		const plain = fields.every(([, value], index) => columns[index] !== undefined || (typeof value !== 'string' ? !isPlainObject(value) && !Array.isArray(value) : !value.startsWith('=')));
		if (plain) return Object.fromEntries(fields.map(([key, value], index) => [key, columns[index] === undefined ? value : column(columns[index] as string)])) as IDataObject;
	}
	return ctx.getNodeParameter(parameter, undefined) as IDataObject[string] | undefined;
}

/** The entry of one input item in the per-item mode: the mapped fields, as a row holds them. */
function readItemEntry(ctx: ItemContext, input: BulkInput): EntryRead {
	const row: IDataObject = {};
	for (const field of input.rows.row.values) {
		const value = mappedValue(ctx, itemParameterName(field.name));
		if (value !== undefined) row[field.name] = value;
	}
	const entry = input.rows.toEntry ? input.rows.toEntry(row) : row;
	const named = input.nameEntry(ctx, entry);
	const rowLabel = `row ${ctx.itemIndex + 1}${named === undefined ? '' : ` (${named})`}`;
	const fields = rowFieldsOf(input);
	return entryRead(ctx, ctx.itemIndex, entry, rowLabel, fields.rowLabel, fields.ofItem);
}


/** One entry on its way through a run. */
export interface BulkEntry<Checked> extends EntryRead {
	value?: Checked;
	problem?: NodeOperationError;
}

/** The entries that go out together: all items' (per-item mode) or one item's list. */
export interface Batch<Checked> {
	items: number[];
	source: BulkSource;
	entries: Array<BulkEntry<Checked>>;
}


export function collectBatches<Checked>(exec: IExecuteFunctions, input: BulkInput, failed: Map<number, Error>): Array<Batch<Checked>> {
	const contexts = Array.from({ length: exec.getInputData().length }, (_, index) => new ItemContext(exec, index));
	if (contexts.length > 0 && readsOneEntryPerItem(contexts[0])) {
		const entries = contexts.map((ctx) => readItemEntry(ctx, input));
		return [{ items: contexts.map((_, index) => index), source: { list: '', unit: 'row' }, entries }];
	}
	const batches: Array<Batch<Checked>> = [];
	for (const [itemIndex, ctx] of contexts.entries()) {
		try {
			batches.push({ items: [itemIndex], ...readBulkEntries(ctx, input) });
		} catch (error) {
			if (!(error instanceof NodeOperationError)) throw asNodeError(exec.getNode(), error);
			failed.set(itemIndex, error);
		}
	}
	return batches;
}

/**
 * The input of the bulk operations, chosen by "Input Mode": `items` (every input item is one entry,
 * its fields mapped in the panel; all items of the run form one batch), `json` (one item's list in
 * a JSON field) or `rows` (one item's rows entered in the panel); each item of the last two is its
 * own batch. Errors name an entry and its field in the panel's words:
 *   rows  `Products › row 3 › Update Fields › Base Price`
 *   JSON  `Products (JSON) › entry 3 › Base Price (basePrice)` (the key is what the user wrote)
 *   items `row 3 (EAN 8600892210086) › Base Price` (the input item as the sheet row it came from)
 */
import type { IDataObject, IExecuteFunctions, IGetNodeParameterOptions, INode, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { unwrapList } from '../answers/answers';
import {
	FIELD_SEPARATOR,
	describeValue,
	fieldPath,
	invalidInput,
	isBlank,
	isPlainObject,
	listEntry,
	readJson,
	readingParameter,
	type ValueContext,
} from '../values/values';
import { fieldChains } from './common';

const JSON_MODE = 'json';
const ROWS_MODE = 'rows';
const ITEMS_MODE = 'items';

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

	getNodeParameter(name: string, fallback?: unknown, options?: IGetNodeParameterOptions): unknown {
		return this.exec.getNodeParameter(name, this.itemIndex, fallback, options);
	}

	getInputData(): INodeExecutionData {
		return this.exec.getInputData()[this.itemIndex];
	}
}

export interface BulkInput {
	/** For descriptions: 'products to update' ('Product' for one). */
	entries: string;
	entry: string;
	json: {
		name: string;
		displayName: string;
		/** The input item's property that holds the list by default: `products` reads `{{ $json.products }}`. */
		itemProperty: string;
		description: string;
		placeholder: string;
		/** Shown with every error about the JSON list. */
		hint: string;
		/** Labels of keys only JSON entries use (the rows name them otherwise), e.g. discountPriceCurrency: 'Currency'. */
		labels?: Record<string, string>;
	};
	rows: {
		name: string;
		displayName: string;
		row: { name: string; displayName: string; values: INodeProperties[] };
		/** Turns a row into an entry, where a row nests the entry's fields (e.g. under Update Fields). */
		toEntry?: (row: IDataObject) => IDataObject;
	};
	/** What an entry names, for the per-item mode's labels: `EAN 8600892210086`; undefined when its key is empty. */
	nameEntry: (ctx: ItemContext, entry: IDataObject) => string | undefined;
	emptyProblem?: string;
}

/** The example list of the JSON placeholder as one input item holds it, for the notice and errors. */
function exampleItem(input: BulkInput): string {
	return `{"${input.json.itemProperty}": ${input.json.placeholder}}`;
}

/** The per-item mode's parameter for a row field: `stockLevel` is read from `itemStockLevel`. */
function itemParameterName(rowField: string): string {
	return `item${rowField.charAt(0).toUpperCase()}${rowField.slice(1)}`;
}

/** Input Mode and its three inputs; node version 1 keeps JSON as its default (docs/architecture.md, "Bulk operations"). */
export function bulkInputFields(input: BulkInput): INodeProperties[] {
	const { row } = input.rows;
	const notice = (displayName: string, mode: string): INodeProperties => ({
		displayName,
		name: 'bulkNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { inputMode: [mode] } },
	});
	const inputMode: INodeProperties = {
		displayName: 'Input Mode',
		name: 'inputMode',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: `One Item per ${input.entry}`,
				value: ITEMS_MODE,
				description: `Each input item (a sheet or CSV row) is one of the ${input.entries}, its fields mapped below; all items of the run go out together`,
			},
			{
				name: 'Define Below',
				value: ROWS_MODE,
				description: `Enter the ${input.entries} as rows; each input item sends its own rows`,
			},
			{
				name: 'JSON',
				value: JSON_MODE,
				description: `Read a list of ${input.entries} from a JSON field; each input item sends its own list`,
			},
		],
		default: ITEMS_MODE,
		description: `Where the ${input.entries} come from`,
	};
	return [
		notice(
			`Each input item is one of the ${input.entries}: map its fields below (drag a column from the input). All items of the run are checked first and sent together in as few requests as the service allows, and each comes out as one item paired with its row.`,
			ITEMS_MODE,
		),
		notice(`One input item sends its whole list. An input item looks like: ${exampleItem(input)}`, JSON_MODE),
		{ ...inputMode, default: JSON_MODE, displayOptions: { show: { '@version': [1] } } },
		{ ...inputMode, displayOptions: { show: { '@version': [2] } } },
		...row.values.map(
			(field): INodeProperties => ({
				...field,
				name: itemParameterName(field.name),
				displayOptions: { show: { inputMode: [ITEMS_MODE] } },
			}),
		),
		{
			displayName: input.json.displayName,
			name: input.json.name,
			type: 'json',
			// Reads the list where an Aggregate node puts it; an item without it gets an error saying so (jsonList).
			default: `={{ $json.${input.json.itemProperty} }}`,
			required: true,
			placeholder: input.json.placeholder,
			description: input.json.description,
			displayOptions: { show: { inputMode: [JSON_MODE] } },
		},
		{
			displayName: input.rows.displayName,
			name: input.rows.name,
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			placeholder: `Add ${row.displayName}`,
			default: {},
			description: `The ${input.entries}, one row each`,
			displayOptions: { show: { inputMode: [ROWS_MODE] } },
			options: [row],
		},
		{
			displayName: 'Invalid Entries',
			name: 'invalidEntries',
			type: 'options',
			noDataExpression: true,
			options: [
				{
					name: 'Stop the Run',
					value: 'stop',
					description: 'Send nothing when any entry is invalid, and name the entry and field',
				},
				{
					name: 'Skip and Report',
					value: 'skip',
					description: 'Send the valid entries; each invalid one comes out with success false and the reason',
				},
			],
			default: 'stop',
			description: 'What to do when an entry has a value the service would refuse or misread (e.g. a price of "1,299")',
		},
	];
}

const ITEM_PROPERTY_EXPRESSION = /^=\s*\{\{\s*\$json\.([A-Za-z_$][\w$]*)\s*\}\}\s*$/;

/** The property of the input item a parameter reads when it is only `{{ $json.products }}`. */
function itemPropertyRead(ctx: ItemContext, parameter: string): string | undefined {
	const raw = ctx.getNodeParameter(parameter, undefined, { rawExpressions: true });
	return typeof raw === 'string' ? ITEM_PROPERTY_EXPRESSION.exec(raw)?.[1] : undefined;
}

/** The JSON field gave nothing because it reads a property the input item lacks (the default, fed by a sheet): say so and what to do. */
function missingItemProperty(ctx: ItemContext, input: BulkInput): Error | undefined {
	const property = itemPropertyRead(ctx, input.json.name);
	const item = ctx.getInputData()?.json;
	if (property === undefined || !item || Object.prototype.hasOwnProperty.call(item, property)) return undefined;
	return invalidInput(
		ctx,
		input.json.displayName,
		`the input item has no field '${property}' (the field reads {{ $json.${property} }})`,
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

/** The entry at position `at`; `parameterOf` is none for JSON entries. */
function entryRead(ctx: ItemContext, at: number, raw: IDataObject, entryLabel: string, fieldLabel: OfKey, parameterOf?: OfKey): EntryRead {
	return {
		ctx,
		position: at,
		raw,
		label: (key) => (key === undefined ? entryLabel : `${entryLabel}${FIELD_SEPARATOR}${fieldLabel(key)}`),
		reader: (key) => (parameterOf ? readingParameter(ctx, parameterOf(key)) : ctx),
		fromPanel: parameterOf !== undefined,
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
export function readBulkEntries(ctx: ItemContext, input: BulkInput): { entries: EntryRead[]; source: BulkSource } {
	const fromJson = ctx.getNodeParameter('inputMode', JSON_MODE) === JSON_MODE;
	const source: BulkSource = fromJson ? { list: input.json.displayName, unit: 'entry' } : { list: input.rows.displayName, unit: 'row' };
	const rows = `${input.rows.name}.${input.rows.row.name}`;
	const list = fromJson ? jsonList(ctx, input) : ((ctx.getNodeParameter(rows, []) as unknown[] | undefined) ?? []);
	if (list.length === 0) {
		const hint = fromJson ? input.json.hint : `Add at least one ${input.rows.row.displayName.toLowerCase()} row`;
		throw invalidInput(ctx, source.list, input.emptyProblem ?? 'the list is empty', hint);
	}
	const fields = rowFieldsOf(input);
	const toEntry = input.rows.toEntry ?? ((row: IDataObject) => row);
	const entries = list.map((entry, index) => {
		const entryLabel = listEntry(source.list, index, source.unit);
		if (!isPlainObject(entry)) {
			throw invalidInput(ctx, entryLabel, `is not an object (got ${describeValue(entry)})`, fromJson ? input.json.hint : undefined);
		}
		if (fromJson) return entryRead(ctx, index, entry, entryLabel, fields.jsonLabel);
		return entryRead(ctx, index, toEntry(entry), entryLabel, fields.rowLabel, (key) => `${rows}[${index}].${fields.inRow(key)}`);
	});
	return { entries, source };
}

export function readsOneEntryPerItem(ctx: ItemContext): boolean {
	return ctx.getNodeParameter('inputMode', JSON_MODE) === ITEMS_MODE;
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
 * the item as n8n's evaluation gives it (test/actions/bulkRun.test.ts compares the two) without
 * building n8n's expression context, which for 1,000 rows took most of a sync's time (bench `rows`).
 */
function mappedValue(ctx: ItemContext, parameter: string): IDataObject[string] | undefined {
	const column = itemPropertyRead(ctx, parameter);
	if (column === undefined) return ctx.getNodeParameter(parameter, undefined) as IDataObject[string] | undefined;
	const json = ctx.getInputData()?.json;
	return json && Object.prototype.hasOwnProperty.call(json, column) ? json[column] : undefined;
}

/** The entry of one input item in the per-item mode: the mapped fields, as a row holds them. */
export function readItemEntry(ctx: ItemContext, input: BulkInput): EntryRead {
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

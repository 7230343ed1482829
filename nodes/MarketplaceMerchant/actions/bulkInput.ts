/**
 * The input of the bulk operations (Product Update Many, Sync Stock and Prices, Discount Schedule
 * and Update), chosen by "Input Mode":
 *   items  (the default from node version 2) every input item is one entry, its fields mapped in
 *          the panel: a sheet, a CSV or an ERP export arrives as one item per row, and all items of
 *          the run form one batch (bulkRun.ts);
 *   json   one input item holds a list of entries in a JSON field; each item is its own batch;
 *   rows   one input item's entries are rows entered in the panel; each item is its own batch.
 * Reading a list checks that it is a non-empty list of objects; the operation then checks each
 * entry's fields.
 *
 * Errors name an entry and its fields in the panel's words (the one place these labels are built):
 *   rows  `Products › row 3 › Update Fields › Base Price`: the rows' list, the row's position from
 *         1, and the field's label as the row shows it (under its collection's label);
 *   JSON  `Products (JSON) › entry 3 › Base Price (basePrice)`: the JSON field, the entry's
 *         position from 1, and the label of the same field with the key the entry uses for it,
 *         since that key is what the user wrote;
 *   items `row 3 (EAN 8600892210086) › Base Price`: the input item as the sheet row it came from
 *         (its position from 1), what it names, and the field's label.
 */
import type { IDataObject, IGetNodeParameterOptions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { unwrapList } from '../answers/decode';
import { FIELD_SEPARATOR, describeValue, fieldPath, invalidInput, isBlank, listEntry, readJson, type ValueContext } from '../values/values';
import { simplifyField } from './common';

const JSON_MODE = 'json';
const ROWS_MODE = 'rows';
const ITEMS_MODE = 'items';

/**
 * One input item as the readers of user values see it: its parameters and its data. n8n gives an
 * operation's routing one such context per item; a bulk operation, which runs once over all items
 * (bulkRun.ts), makes one per item with `itemContext`.
 */
export interface ItemContext extends ValueContext {
	getItemIndex(): number;
	getNodeParameter(name: string, fallback?: unknown, options?: IGetNodeParameterOptions): unknown;
	getInputData(): INodeExecutionData;
}

export interface BulkInput {
	/** What the entries are, plural, for descriptions: 'products to update', 'discounts'. */
	entries: string;
	/** What one entry is, for the per-item mode's name: 'Product', 'Discount'. */
	entry: string;
	json: {
		name: string;
		displayName: string;
		/** The input item's property that holds the list by default: `products` reads `{{ $json.products }}`. */
		itemProperty: string;
		description: string;
		placeholder: string;
		/** What a valid list looks like: shown with every error about the JSON list. */
		hint: string;
		/** Labels of keys only JSON entries use (the rows name them otherwise), e.g. discountPriceCurrency: 'Currency'. */
		labels?: Record<string, string>;
	};
	rows: {
		name: string;
		displayName: string;
		/** One row: its parameter name, its label and its fields. */
		row: { name: string; displayName: string; values: INodeProperties[] };
		/** Turns a row into an entry, where a row nests the entry's fields (e.g. under Update Fields). */
		toEntry?: (row: IDataObject) => IDataObject;
	};
	/**
	 * What an entry names, for labels in the per-item mode: `EAN 8600892210086`, `Product ID 100001`;
	 * undefined when it names nothing yet (its key field is empty).
	 */
	nameEntry: (ctx: ItemContext, entry: IDataObject) => string | undefined;
	/** The problem reported for an empty list, e.g. 'the list is empty'. */
	emptyProblem: string;
}

/**
 * The labels of fields as the panel shows them, by parameter name, a collection's options under
 * the collection's label: `{ basePrice: ['Update Fields', 'Base Price'] }`.
 */
function labelChains(fields: INodeProperties[], parents: string[] = []): Map<string, string[]> {
	const chains = new Map<string, string[]>();
	for (const field of fields) {
		const chain = [...parents, field.displayName];
		chains.set(field.name, chain);
		if (field.type === 'collection') {
			for (const [name, nested] of labelChains((field.options ?? []) as INodeProperties[], chain)) chains.set(name, nested);
		}
	}
	return chains;
}

/** Where each field of a row is below the row, by parameter name: `{ stockLevel: 'updateFields.stockLevel' }`. */
function fieldPaths(fields: INodeProperties[], parent = ''): Map<string, string> {
	const paths = new Map<string, string>();
	for (const field of fields) {
		const path = `${parent}${field.name}`;
		paths.set(field.name, path);
		if (field.type === 'collection') {
			for (const [name, nested] of fieldPaths((field.options ?? []) as INodeProperties[], `${path}.`)) paths.set(name, nested);
		}
	}
	return paths;
}

/** Each field's label as the panel shows it, by parameter name: `{ basePrice: 'Update Fields › Base Price' }`. */
export function panelLabels(fields: INodeProperties[]): Record<string, string> {
	return Object.fromEntries([...labelChains(fields)].map(([name, chain]) => [name, fieldPath(...chain)]));
}

/** The example list of the JSON placeholder as one input item holds it, for the notice and errors. */
function exampleItem(input: BulkInput): string {
	return `{"${input.json.itemProperty}": ${input.json.placeholder}}`;
}

/** Simplify of the bulk writes' results (read by answers/bulkResults.ts, `finishBulkResults`). */
export function simplifyResultsField(): INodeProperties {
	return simplifyField(
		"Whether to return one flat item per entry: ID, success, error (null on success) and the input sent. Off: the service's own result fields with the input.",
	);
}

/** The per-item mode's parameter for a row field: `stockLevel` is read from `itemStockLevel`. */
function itemParameterName(rowField: string): string {
	return `item${rowField.charAt(0).toUpperCase()}${rowField.slice(1)}`;
}

/**
 * A date some days from today, for examples: a discount example dated in the past would be refused
 * by the very node that shows it. Worked out when n8n loads the node.
 */
export function exampleDay(daysFromToday: number): string {
	const day = new Date(Date.now() + daysFromToday * 86_400_000);
	const pad = (value: number) => String(value).padStart(2, '0');
	return `${pad(day.getUTCDate())}/${pad(day.getUTCMonth() + 1)}/${day.getUTCFullYear()}`;
}

/**
 * Input Mode and the three inputs it chooses between. Node version 1 keeps JSON as its default, so
 * that workflows saved with it (n8n saves no parameter left at its default) run as they did; from
 * version 2 a new node reads one entry per input item.
 */
export function bulkInputFields(input: BulkInput): INodeProperties[] {
	const { row } = input.rows;
	const { itemProperty } = input.json;
	const modeOptions = [
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
	];
	const inputMode: INodeProperties = {
		displayName: 'Input Mode',
		name: 'inputMode',
		type: 'options',
		noDataExpression: true,
		options: modeOptions,
		default: ITEMS_MODE,
		description: `Where the ${input.entries} come from`,
	};
	return [
		{
			displayName: `Each input item is one of the ${input.entries}: map its fields below (drag a column from the input). All items of the run are checked first and sent together in as few requests as the service allows, and each comes out as one item paired with its row.`,
			name: 'bulkNotice',
			type: 'notice',
			default: '',
			displayOptions: { show: { inputMode: [ITEMS_MODE] } },
		},
		{
			displayName: `One input item sends its whole list. An input item looks like: ${exampleItem(input)}`,
			name: 'bulkNotice',
			type: 'notice',
			default: '',
			displayOptions: { show: { inputMode: [JSON_MODE] } },
		},
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
			default: `={{ $json.${itemProperty} }}`,
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

/** An expression that only reads a property of the input item: `{{ $json.products }}`. */
const ITEM_PROPERTY_EXPRESSION = /^=\s*\{\{\s*\$json\.([A-Za-z_$][\w$]*)\s*\}\}\s*$/;

/**
 * When the JSON field gave nothing because it reads a property the input item does not have (the
 * default `{{ $json.products }}` on a node added from the node creator, fed by a trigger or a
 * sheet), the error says exactly that and what to do.
 */
function missingItemProperty(ctx: ItemContext, input: BulkInput): Error | undefined {
	const raw = ctx.getNodeParameter(input.json.name, undefined, { rawExpressions: true });
	const property = typeof raw === 'string' ? ITEM_PROPERTY_EXPRESSION.exec(raw)?.[1] : undefined;
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

/** Where the entries came from, for labels: the rows' or the JSON field's label (none for input items) and what one entry is called. */
export interface BulkSource {
	list: string;
	unit: 'row' | 'entry';
}

const PLURAL: Record<BulkSource['unit'], string> = { row: 'rows', entry: 'entries' };

/** Several entries of one list, by their positions (from 0): `Products › rows 1 and 3`. */
export function entriesAt(source: BulkSource, positions: number[]): string {
	const numbers = positions.map((position) => String(position + 1));
	const listed = numbers.length > 1 ? `${numbers.slice(0, -1).join(', ')} and ${numbers[numbers.length - 1]}` : numbers.join('');
	const unit = numbers.length === 1 ? source.unit : PLURAL[source.unit];
	return source.list === '' ? `${unit} ${listed}` : fieldPath(source.list, `${unit} ${listed}`);
}

export interface BulkEntries {
	entries: IDataObject[];
	source: BulkSource;
	/** How errors name the entry at a position, or, given the key, its field: `Products › row 3 › Product ID`. */
	label: (index: number, key?: string) => string;
	/**
	 * The parameter a field of the entry at a position was entered in (`productRows.product[2].updateFields.basePrice`,
	 * `itemBasePrice`), so that a value an expression did not give says why; none for JSON entries.
	 */
	parameterOf?: (index: number, key: string) => string;
}

/** The label function of a list read from `source`: row fields by their chain of labels, JSON keys by their field's label and the key. */
function entryLabels(input: BulkInput, source: BulkSource): BulkEntries['label'] {
	const chains = labelChains(input.rows.row.values);
	for (const [key, label] of Object.entries(input.json.labels ?? {})) if (!chains.has(key)) chains.set(key, [label]);
	// Labels are built for every value read (a sync of 50,000 entries reads 150,000): each key's
	// part after the entry is worked out once, and a label is then one string.
	const fieldParts = new Map<string, string>();
	const fieldPart = (key: string) => {
		let part = fieldParts.get(key);
		if (part === undefined) {
			const chain = chains.get(key);
			part = !chain ? key : source.unit === 'row' ? fieldPath(...chain) : `${chain[chain.length - 1]} (${key})`;
			fieldParts.set(key, part);
		}
		return part;
	};
	return (index, key) => {
		const entry = listEntry(source.list, index, source.unit);
		return key === undefined ? entry : `${entry}${FIELD_SEPARATOR}${fieldPart(key)}`;
	};
}

/**
 * The entries of the current item, from the JSON field or the rows. An empty list is an error (a
 * bulk call for nothing is almost always a mistake in the expression that feeds it), and so is
 * an entry that is not an object.
 */
export function readBulkEntries(ctx: ItemContext, input: BulkInput): BulkEntries {
	const fromJson = ctx.getNodeParameter('inputMode', JSON_MODE) === JSON_MODE;
	const source: BulkSource = fromJson ? { list: input.json.displayName, unit: 'entry' } : { list: input.rows.displayName, unit: 'row' };
	const list = fromJson
		? jsonList(ctx, input)
		: ((ctx.getNodeParameter(`${input.rows.name}.${input.rows.row.name}`, []) as unknown[] | undefined) ?? []);
	if (list.length === 0) {
		const hint = fromJson ? input.json.hint : `Add at least one ${input.rows.row.displayName.toLowerCase()} row`;
		throw invalidInput(ctx, source.list, input.emptyProblem, hint);
	}
	const label = entryLabels(input, source);
	list.forEach((entry, index) => {
		if (!entry || typeof entry !== 'object' || Array.isArray(entry)) {
			throw invalidInput(ctx, label(index), `is not an object (got ${describeValue(entry)})`, fromJson ? input.json.hint : undefined);
		}
	});
	const entries = list as IDataObject[];
	if (fromJson) return { entries, source, label };
	const paths = rowFieldPaths(input);
	const rows = `${input.rows.name}.${input.rows.row.name}`;
	const parameterOf = (index: number, key: string) => `${rows}[${index}].${paths.get(key) ?? key}`;
	return { entries: input.rows.toEntry ? entries.map(input.rows.toEntry) : entries, source, label, parameterOf };
}

/** Whether the operation reads one entry per input item (Input Mode "One Item per …"). */
export function readsOneEntryPerItem(ctx: ItemContext): boolean {
	return ctx.getNodeParameter('inputMode', JSON_MODE) === ITEMS_MODE;
}

/** The input items as a source of entries: rows of a sheet, counted from 1. */
export const INPUT_ITEMS: BulkSource = { list: '', unit: 'row' };

/**
 * `compute` worked out once per key (an operation's input, an item's context) rather than for each
 * entry or item that asks: kept as long as the key lives.
 */
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

/** `compute` of an operation's input, worked out once per operation rather than for each item of a run. */
const oncePerInput = <T>(compute: (input: BulkInput) => T) => oncePer(compute);

/** Each row field's label (`Update Fields › Base Price`). */
const rowFieldLabels = oncePerInput((input) => new Map(Object.entries(panelLabels(input.rows.row.values))));

/** Where each row field is below its row (`updateFields.basePrice`). */
const rowFieldPaths = oncePerInput((input) => fieldPaths(input.rows.row.values));

/** Where each row field of the per-item mode is entered (`itemUpdateFields.basePrice`). */
const itemParameterPaths = oncePerInput(
	(input) =>
		new Map(
			[...rowFieldPaths(input)].map(([name, path]) => {
				const [top, ...below] = path.split('.');
				return [name, [itemParameterName(top), ...below].join('.')];
			}),
		),
);

/**
 * A mapped field's value for one item. A field mapped by dragging a column holds exactly
 * `{{ $json.Column }}`, whose value is the item's own field: it is read from the item, as n8n's
 * evaluation gives it (test/actions/bulkRun.test.ts compares the two for every kind of value),
 * without building n8n's expression context, which for 1,000 rows took most of a sync's time
 * (bench row `rows`). Any other value is n8n's to evaluate.
 */
function mappedValue(ctx: ItemContext, parameter: string): IDataObject[string] | undefined {
	const raw = ctx.getNodeParameter(parameter, undefined, { rawExpressions: true });
	const column = typeof raw === 'string' ? ITEM_PROPERTY_EXPRESSION.exec(raw)?.[1] : undefined;
	if (column === undefined) return ctx.getNodeParameter(parameter, undefined) as IDataObject[string] | undefined;
	const json = ctx.getInputData()?.json;
	return json && Object.prototype.hasOwnProperty.call(json, column) ? json[column] : undefined;
}

/**
 * The entry of one input item in the per-item mode: the mapped fields, as a row of the rows mode
 * holds them, labelled by the item's position and what it names: `row 3 (EAN 8600892210086) › Base Price`.
 */
export function readItemEntry(ctx: ItemContext, input: BulkInput): BulkEntries {
	const row: IDataObject = {};
	for (const field of input.rows.row.values) {
		const value = mappedValue(ctx, itemParameterName(field.name));
		if (value !== undefined) row[field.name] = value;
	}
	const entry = input.rows.toEntry ? input.rows.toEntry(row) : row;
	const named = input.nameEntry(ctx, entry);
	const rowLabel = `row ${ctx.getItemIndex() + 1}${named === undefined ? '' : ` (${named})`}`;
	const fields = rowFieldLabels(input);
	const label: BulkEntries['label'] = (_index, key) => (key === undefined ? rowLabel : `${rowLabel}${FIELD_SEPARATOR}${fields.get(key) ?? key}`);
	const parameters = itemParameterPaths(input);
	return { entries: [entry], source: INPUT_ITEMS, label, parameterOf: (_index, key) => parameters.get(key) ?? itemParameterName(key) };
}

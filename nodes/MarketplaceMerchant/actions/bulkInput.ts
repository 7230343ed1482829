/**
 * The input of the bulk operations (Product Update Many, Sync Stock and Prices, Discount Schedule
 * and Update): one input item drives one bulk call, and its list of entries comes either from a
 * JSON field of the item or from rows entered in the UI ("Input Mode"). Reading the list checks
 * that it is a non-empty list of objects; the operation then checks each entry's fields.
 *
 * Errors name an entry and its fields in the panel's words (the one place these labels are built):
 *   rows  `Products › row 3 › Update Fields › Base Price`: the rows' list, the row's position from
 *         1, and the field's label as the row shows it (under its collection's label);
 *   JSON  `Products (JSON) › entry 3 › Base Price (basePrice)`: the JSON field, the entry's
 *         position from 1, and the label of the same field with the key the entry uses for it,
 *         since that key is what the user wrote.
 */
import type { IDataObject, IExecuteSingleFunctions, INodeProperties } from 'n8n-workflow';

import { unwrapList } from '../transport/decode';
import { FIELD_SEPARATOR, describeValue, fieldPath, invalidInput, isBlank, listEntry, readJson } from '../transport/values';
import { simplifyField } from './common';

const JSON_MODE = 'json';
const ROWS_MODE = 'rows';

export interface BulkInput {
	/** What the entries are, plural, for descriptions: 'products to update', 'discounts'. */
	entries: string;
	/** What one input item makes: 'one bulk call', 'one sync run'. */
	call: string;
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

/** Each field's label as the panel shows it, by parameter name: `{ basePrice: 'Update Fields › Base Price' }`. */
export function panelLabels(fields: INodeProperties[]): Record<string, string> {
	return Object.fromEntries([...labelChains(fields)].map(([name, chain]) => [name, fieldPath(...chain)]));
}

/** The example list of the JSON placeholder as one input item holds it, for the notice and errors. */
function exampleItem(input: BulkInput): string {
	return `{"${input.json.itemProperty}": ${input.json.placeholder}}`;
}

/** Simplify of the bulk writes' results (read by transport/bulkResults.ts, `finishBulkResults`). */
export function simplifyResultsField(): INodeProperties {
	return simplifyField(
		"Whether to return one flat item per entry: ID, success, error (null on success) and the input sent. Off: the service's own result fields with the input.",
	);
}

/** Input Mode and the two inputs it chooses between: the JSON field and the rows, after a notice saying how items become calls. */
export function bulkInputFields(input: BulkInput): INodeProperties[] {
	const { row } = input.rows;
	const { itemProperty } = input.json;
	return [
		{
			displayName: `One input item makes ${input.call} with its whole list. When the ${input.entries} arrive as one item each (sheet or CSV rows), put an Aggregate node in front (All Item Data, into the field "${itemProperty}") so that they go as one list. An input item then looks like: ${exampleItem(input)}`,
			name: 'bulkNotice',
			type: 'notice',
			default: '',
		},
		{
			displayName: 'Input Mode',
			name: 'inputMode',
			type: 'options',
			noDataExpression: true,
			options: [
				{
					name: 'Define Below',
					value: ROWS_MODE,
					description: `Enter the ${input.entries} as rows`,
				},
				{
					name: 'JSON',
					value: JSON_MODE,
					description: `Read the list of ${input.entries} from a JSON field of the input item`,
				},
			],
			default: JSON_MODE,
			description: `Where the list of ${input.entries} comes from. One input item makes ${input.call}.`,
		},
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
	];
}

/** An expression that only reads a property of the input item: `{{ $json.products }}`. */
const ITEM_PROPERTY_EXPRESSION = /^=\s*\{\{\s*\$json\.([A-Za-z_$][\w$]*)\s*\}\}\s*$/;

/**
 * When the JSON field gave nothing because it reads a property the input item does not have (the
 * default `{{ $json.products }}` on a node added from the node creator, fed by a trigger or a
 * sheet), the error says exactly that and what to do.
 */
function missingItemProperty(ctx: IExecuteSingleFunctions, input: BulkInput): Error | undefined {
	const raw = ctx.getNodeParameter(input.json.name, undefined, { rawExpressions: true });
	const property = typeof raw === 'string' ? ITEM_PROPERTY_EXPRESSION.exec(raw)?.[1] : undefined;
	const item = ctx.getInputData()?.json;
	if (property === undefined || !item || Object.prototype.hasOwnProperty.call(item, property)) return undefined;
	return invalidInput(
		ctx,
		input.json.displayName,
		`the input item has no field '${property}' (the field reads {{ $json.${property} }})`,
		`Use an Aggregate node in front (All Item Data, into the field "${property}") to send the ${input.entries} of many items as one list, set ${input.json.displayName} to an expression that gives the list, or switch Input Mode to Define Below. Expected: ${exampleItem(input)}`,
	);
}

/**
 * The JSON field's list: an array, JSON text of one, a wrapper such as `{"discounts": [...]}`, or
 * a single object as a list of one. Nothing given is an empty list.
 */
function jsonList(ctx: IExecuteSingleFunctions, input: BulkInput): unknown[] {
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

/** Where the entries came from, for labels: the rows' or the JSON field's label and what one entry is called. */
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
	return fieldPath(source.list, `${unit} ${listed}`);
}

export interface BulkEntries {
	entries: IDataObject[];
	source: BulkSource;
	/** How errors name the entry at a position, or, given the key, its field: `Products › row 3 › Product ID`. */
	label: (index: number, key?: string) => string;
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
export function readBulkEntries(ctx: IExecuteSingleFunctions, input: BulkInput): BulkEntries {
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
	return { entries: !fromJson && input.rows.toEntry ? entries.map(input.rows.toEntry) : entries, source, label };
}

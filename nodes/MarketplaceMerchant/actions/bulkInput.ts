/**
 * The input of the bulk operations (Product Update Many, Discount Schedule and Update): one input
 * item drives one bulk call, and its list of entries comes either from a JSON field of the item
 * or from rows entered in the UI ("Input Mode"). Reading the list checks that it is a non-empty
 * list of objects; the operation then checks each entry's fields.
 */
import type { IDataObject, IExecuteSingleFunctions, INodeProperties } from 'n8n-workflow';

import { unwrapList } from '../transport/decode';
import { describeValue, invalidInput, isBlank, readJson } from '../transport/values';

const JSON_MODE = 'json';
const ROWS_MODE = 'rows';

export interface BulkInput {
	/** What the entries are, plural, for descriptions: 'products to update', 'discounts'. */
	entries: string;
	json: {
		name: string;
		displayName: string;
		/** The input item's property that holds the list by default: `products` reads `{{ $json.products }}`. */
		itemProperty: string;
		description: string;
		placeholder: string;
		/** What a valid list looks like: shown with every error about the JSON list. */
		hint: string;
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
	/** How errors name an entry; by default the field it came from and its position: `Products (JSON)[2]`. */
	entryLabel?: (index: number, source: string) => string;
}

/** Input Mode and the two inputs it chooses between: the JSON field and the rows. */
export function bulkInputFields(input: BulkInput): INodeProperties[] {
	const { row } = input.rows;
	return [
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
			description: `Where the list of ${input.entries} comes from. One input item makes one bulk call.`,
		},
		{
			displayName: input.json.displayName,
			name: input.json.name,
			type: 'json',
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
	];
}

/**
 * The JSON field's list: an array, JSON text of one, a wrapper such as `{"discounts": [...]}`, or
 * a single object as a list of one. Nothing given is an empty list.
 */
function jsonList(ctx: IExecuteSingleFunctions, input: BulkInput): unknown[] {
	const { name, displayName, hint } = input.json;
	const value = ctx.getNodeParameter(name, undefined) as unknown;
	if (isBlank(value)) return [];
	const list = unwrapList(readJson(ctx, displayName, value, hint));
	if (list === undefined || list === null) return [];
	if (Array.isArray(list)) return list;
	if (typeof list === 'object') return [list];
	throw invalidInput(ctx, displayName, `must be a list of objects, got ${describeValue(list)}`, hint);
}

export interface BulkEntries {
	entries: IDataObject[];
	/** How errors name the entry at a position, e.g. `Products (JSON)[2]`. */
	entryLabel: (index: number) => string;
}

/**
 * The entries of the current item, from the JSON field or the rows. An empty list is an error (a
 * bulk call for nothing is almost always a mistake in the expression that feeds it), and so is
 * an entry that is not an object.
 */
export function readBulkEntries(ctx: IExecuteSingleFunctions, input: BulkInput): BulkEntries {
	const fromJson = ctx.getNodeParameter('inputMode', JSON_MODE) === JSON_MODE;
	const source = fromJson ? input.json.displayName : input.rows.displayName;
	const list = fromJson
		? jsonList(ctx, input)
		: ((ctx.getNodeParameter(`${input.rows.name}.${input.rows.row.name}`, []) as unknown[] | undefined) ?? []);
	if (list.length === 0) {
		const hint = fromJson ? input.json.hint : `Add at least one ${input.rows.row.displayName.toLowerCase()} row`;
		throw invalidInput(ctx, source, input.emptyProblem, hint);
	}
	const entryLabel = (index: number) => (input.entryLabel ? input.entryLabel(index, source) : `${source}[${index}]`);
	list.forEach((entry, index) => {
		if (!entry || typeof entry !== 'object' || Array.isArray(entry)) {
			throw invalidInput(ctx, entryLabel(index), `is not an object (got ${describeValue(entry)})`, fromJson ? input.json.hint : undefined);
		}
	});
	const entries = list as IDataObject[];
	return { entries: !fromJson && input.rows.toEntry ? entries.map(input.rows.toEntry) : entries, entryLabel };
}

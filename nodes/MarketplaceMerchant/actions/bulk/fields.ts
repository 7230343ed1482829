/**
 * The panel of a bulk operation (Update Many, Sync Stock and Prices, Import, Discount Schedule and
 * Update): Input Mode and its three inputs, and Invalid Entries. What the panel gives is read into
 * entries by entries.ts, run by run.ts and written by write.ts (docs/architecture.md, "Bulk operations").
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { readChoice, type ParameterContext, type SettingsContext } from '../../values/labels';

/**
 * The input of the bulk operations, chosen by "Input Mode": `items` (every input item is one entry,
 * its fields mapped in the panel; all items of the run form one batch), `json` (one item's list in
 * a JSON field) or `rows` (one item's rows entered in the panel); each item of the last two is its
 * own batch. Errors name an entry and its field in the panel's words:
 *   rows  `Products › row 3 › Update Fields › Base Price`
 *   JSON  `Products (JSON) › entry 3 › Base Price (basePrice)` (the key is what the user wrote)
 *   items `row 3 (EAN 8600892210086) › Base Price` (the input item as the sheet row it came from)
 */
export const JSON_MODE = 'json';
export const ROWS_MODE = 'rows';
export const ITEMS_MODE = 'items';

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
	nameEntry: (ctx: ParameterContext, entry: IDataObject) => string | undefined;
	emptyProblem?: string;
}

/** The example list of the JSON placeholder as one input item holds it, for the notice and errors. */
export function exampleItem(input: BulkInput): string {
	return `{"${input.json.itemProperty}": ${input.json.placeholder}}`;
}

/** The per-item mode's parameter for a row field: `stockLevel` is read from `itemStockLevel`. */
export function itemParameterName(rowField: string): string {
	return `item${rowField.charAt(0).toUpperCase()}${rowField.slice(1)}`;
}

/** Input Mode and its three inputs; node version 1 keeps JSON as its default, from 2 on One Item per … (docs/architecture.md, "Bulk operations"). */
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
		{ ...inputMode, displayOptions: { show: { '@version': [2, 3, 4] } } },
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


/** Whether every input item is one entry (Input Mode One Item per …); JSON when a workflow made through n8n's API sets none (version 1's default). */
export function readsOneEntryPerItem(ctx: SettingsContext): boolean {
	return readInputMode(ctx) === ITEMS_MODE;
}

/** Invalid Entries: whether it is Skip and Report (the valid entries sent, each invalid one reported); Stop the Run otherwise, its default. */
export function skipsInvalidEntries(ctx: SettingsContext): boolean {
	return readChoice(ctx, 'Invalid Entries', ctx.getNodeParameter('invalidEntries', 'stop'), ['stop', 'skip']) === 'skip';
}

/** Whether the entries come from the JSON field (otherwise from the rows, or from the items). */
export function readsJson(ctx: SettingsContext): boolean {
	return readInputMode(ctx) === JSON_MODE;
}

/** Input Mode; JSON when a workflow made through n8n's API sets none (version 1's default). */
function readInputMode(ctx: SettingsContext): string {
	return readChoice(ctx, 'Input Mode', ctx.getNodeParameter('inputMode', JSON_MODE), [JSON_MODE, ROWS_MODE, ITEMS_MODE]);
}

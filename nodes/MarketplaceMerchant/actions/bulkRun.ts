/**
 * A bulk operation (Update Many, Sync Stock and Prices, Discount Schedule, Discount Update): its
 * input, the entries each item gives (Input), and its run, once over all input items as n8n's
 * `customOperations` (Run; why, and the steps 1 to 5 of a run, in docs/architecture.md "Bulk
 * operations").
 */
import {
	NodeApiError,
	NodeOperationError,
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type IGetNodeParameterOptions,
	type INode,
	type INodeExecutionData,
	type INodeProperties,
	type INodePropertyOptions,
	type IPairedItemData,
} from 'n8n-workflow';

import { decodedList, unwrapList } from '../answers/read';
import { idOrNull, rejectionError, shapeBulkResult } from '../answers/bulkResults';
import type { AnswerSchema } from '../answers/schemas';
import { LIMITS, RATE_LIMITS } from '../transport/endpoints';
import { asNodeError } from '../transport/errors';
import { chunkBySize, sendEachChunk } from '../transport/batches';
import { sendAuthenticated, sendSettingsOf, type Route, type SendSettings } from '../transport/send';
import {
	FIELD_SEPARATOR,
	describeValue,
	fieldPath,
	invalidInput,
	isBlank,
	isPlainObject,
	listEntry,
	readJson,
	readSimplify,
	readingParameter,
	type ValueContext,
} from '../values/values';
import { bulkResultFields, fieldChains } from './common';

// ─── Input ───────────────────────────────────────────────────────────────────────────────────────────
/**
 * The input of the bulk operations, chosen by "Input Mode": `items` (every input item is one entry,
 * its fields mapped in the panel; all items of the run form one batch), `json` (one item's list in
 * a JSON field) or `rows` (one item's rows entered in the panel); each item of the last two is its
 * own batch. Errors name an entry and its field in the panel's words:
 *   rows  `Products › row 3 › Update Fields › Base Price`
 *   JSON  `Products (JSON) › entry 3 › Base Price (basePrice)` (the key is what the user wrote)
 *   items `row 3 (EAN 8600892210086) › Base Price` (the input item as the sheet row it came from)
 */
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
		{ ...inputMode, displayOptions: { show: { '@version': [2, 3] } } },
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
function readBulkEntries(ctx: ItemContext, input: BulkInput): { entries: EntryRead[]; source: BulkSource } {
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

function readsOneEntryPerItem(ctx: ItemContext): boolean {
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
	const raw = ctx.getNodeParameter(parameter, undefined, { rawExpressions: true });
	const json = ctx.getInputData()?.json;
	const column = (value: string) => (json && Object.prototype.hasOwnProperty.call(json, value) ? json[value] : undefined);
	const read = typeof raw === 'string' ? ITEM_PROPERTY_EXPRESSION.exec(raw)?.[1] : undefined;
	if (read !== undefined) return column(read);
	// A collection (Import's Product Fields, Update Fields) whose fields are dragged columns or plain values: each read the same way.
	if (isPlainObject(raw)) {
		const fields = Object.entries(raw);
		const columns = fields.map(([, value]) => (typeof value === 'string' ? ITEM_PROPERTY_EXPRESSION.exec(value)?.[1] : undefined));
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

// ─── Run ─────────────────────────────────────────────────────────────────────────────────────────────
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

/** One output of a batch: of the entry at a position in the batch, or batch-wide (paired with the batch's last item by default). */
export interface BatchOutput {
	json: IDataObject;
	entry?: number;
	/**
	 * An entry the service rejected or that was not written (an invalid entry under Skip and Report
	 * is one without saying so): loud by On Error, `runBulkOperation`.
	 */
	rejected?: boolean;
	/** How a rejected output that names no entry (a product Sync sets to 0) is named in errors. */
	label?: string;
	/** Counted in a batch-wide output (Sync's Summary Only): no item of its own, only where a rejection is routed (the error output). */
	inSummary?: boolean;
	pairedItem?: IPairedItemData[];
}

export interface BulkOperation<Checked> {
	input: BulkInput;
	/**
	 * The batches, where an operation reads its entries otherwise than by Input Mode (Import before
	 * node version 3: one entry per item from its own fields); undefined: by Input Mode.
	 */
	collect?: (exec: IExecuteFunctions) => Array<Batch<Checked>> | undefined;
	/** A user value the service would refuse or misread throws `invalidInput`. */
	check: (entry: BulkEntry<Checked>) => Checked;
	/** Look-ups once every entry of the run is checked (products given by EAN): may mark entries invalid. */
	resolve?: (exec: IExecuteFunctions, entries: Array<BulkEntry<Checked>>) => Promise<void>;
	/** Sends a batch (its invalid entries reported, not sent); outputs in entry order. */
	send: (exec: IExecuteFunctions, batch: Batch<Checked>) => Promise<BatchOutput[]>;
	/** A run that writes nothing (Sync's Dry Run): what it would reject is told by the hint alone, so that the preview is always seen. */
	preview?: (ctx: ItemContext) => boolean;
	/** The operation's own fields in Options, beside Fail on Item Errors. */
	options?: INodeProperties[];
}

/** The reason of an invalid entry as its output item says it: the message without the trailing "(item N)". */
export function problemText(problem: NodeOperationError): string {
	return problem.message.replace(/ \(item \d+\)$/, '');
}

/** How many entries an error names before "and N more". */
const NAMED_ENTRIES = 10;

/** Up to ten of `lines`, then "and N more": an error that names every row a merchant must fix, within reason. */
export function upToTen(lines: string[], separator = '; '): string {
	const named = lines.slice(0, NAMED_ENTRIES).join(separator);
	return lines.length > NAMED_ENTRIES ? `${named}${separator}and ${lines.length - NAMED_ENTRIES} more` : named;
}

function collectBatches<Checked>(exec: IExecuteFunctions, input: BulkInput, failed: Map<number, Error>): Array<Batch<Checked>> {
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

/**
 * Stop the Run: one error naming every invalid entry (up to ten), each with its field and reason,
 * so that the merchant fixes them all at once. One invalid entry is its own error.
 */
function invalidEntriesError(node: INode, invalid: Array<BulkEntry<unknown>>): NodeOperationError {
	const problems = invalid.map((entry) => entry.problem as NodeOperationError);
	if (problems.length === 1) return problems[0];
	const hints = [...new Set(problems.map((problem) => problem.description).filter((text): text is string => typeof text === 'string' && text !== ''))];
	return new NodeOperationError(node, `${problems.length} entries are invalid, nothing was sent: ${upToTen(problems.map(problemText))}`, {
		itemIndex: invalid[0].ctx.itemIndex,
		description: [...hints.slice(0, 3), 'Fix them all, or set Invalid Entries to Skip and Report to send the valid entries and report these.'].join('\n'),
	});
}

/** "Fail on Item Errors" (On Error = Continue (using regular output)): the entries the service rejected fail their item. */
function failOnRejected(exec: IExecuteFunctions, outputs: BatchOutput[], batch: Batch<unknown>): Error | undefined {
	const failOnItemErrors = exec.getNodeParameter('options.failOnItemErrors', batch.items[0], false) as boolean;
	const rejected = outputs.filter((output) => output.rejected && output.entry !== undefined);
	if (!failOnItemErrors || rejected.length === 0) return undefined;
	const failed = rejected.map(({ json, entry }) => ({ json, position: batch.entries[entry as number].position + 1 }));
	return rejectionError(exec.getNode(), batch.items[0], failed, batch.entries.length);
}

/** A rejected entry (or product) of a run: how errors name it, why, and its output. */
interface Rejection {
	row: string;
	/** `row 3 (EAN 8600…): No product in the catalogue has EAN …` (an invalid entry's reason names its row already). */
	line: string;
	json: IDataObject;
	itemIndex: number;
	pairedItem: IPairedItemData | IPairedItemData[];
}

function rejectionOf(output: BatchOutput, owner: BulkEntry<unknown> | undefined, itemIndex: number, pairedItem: Rejection['pairedItem']): Rejection {
	const row = owner?.label() ?? output.label ?? `item ${itemIndex + 1}`;
	const reason = isBlank(output.json.error) ? 'rejected' : String(output.json.error);
	return { row, line: reason.startsWith(row) ? reason : `${row}: ${reason}`, json: output.json, itemIndex, pairedItem };
}

/**
 * A rejected entry as On Error = Continue (using error output) sends it on: json of exactly `message`
 * and `error`, which n8n (1.x and 2.x, WorkflowExecute's handleNodeErrorOutput) moves to the error
 * output, merged into a copy of the input item (a CSV row's own columns). `message` is one line
 * for a mail; `error` the row, the reason and the entry's output (its input, id, status).
 */
function errorOutputItem({ row, line, json, pairedItem }: Rejection): INodeExecutionData {
	const { error: reason, ...result } = json;
	return { json: { message: line, error: { row, reason: reason ?? 'rejected', ...result } }, pairedItem };
}

/** The default On Error: the run fails once the accepted entries are written, naming the rejected ones, so that n8n's error workflow fires. */
function rejectedRunError(node: INode, rejections: Rejection[], total: number): NodeOperationError {
	const others = total - rejections.length;
	return new NodeOperationError(
		node,
		`${rejections.length} of ${total} entries rejected${others > 0 ? ` (the other ${others} went through)` : ''}: ${upToTen(rejections.map(({ line }) => line))}`,
		{
			itemIndex: rejections[0].itemIndex,
			description:
				'The entries that went through were written; the rejected ones were not. To go on with the workflow instead, set the node\'s Settings › On Error to "Continue (using error output)" (each rejected entry leaves through the error output, e.g. to a Send Email node) or "Continue" (each comes out with success false).',
		},
	);
}

/**
 * 1. collect the batches; 2. check every entry before anything is sent; 3. Stop the Run: any invalid
 * entry stops the run, named with all others (On Error = Continue: its item fails alone); 4. send
 * each batch, outputs paired with their items in input order; 5. rejected entries by On Error: the
 * default fails the run once everything else is written, Continue (using error output) sends them
 * there, Continue (using regular output) keeps them as items with success false; and the hint.
 */
export async function runBulkOperation<Checked>(exec: IExecuteFunctions, operation: BulkOperation<Checked>): Promise<INodeExecutionData[][]> {
	const itemCount = exec.getInputData().length;
	const continueOnFail = exec.continueOnFail();
	const toErrorOutput = continueOnFail && exec.getNode().onError === 'continueErrorOutput';
	/** Items that fail as a whole: their list unreadable, an invalid entry under On Error = Continue, a failed request. */
	const failed = new Map<number, Error>();
	const fail = (itemIndex: number, error: unknown) => {
		// The node's error for the item, as n8n shows it: the item's index on it.
		const nodeFailure = error instanceof NodeApiError || error instanceof NodeOperationError ? error : asNodeError(exec.getNode(), error);
		nodeFailure.context.itemIndex ??= itemIndex;
		if (!continueOnFail) throw nodeFailure;
		failed.set(itemIndex, nodeFailure);
	};

	const batches = operation.collect?.(exec) ?? collectBatches<Checked>(exec, operation.input, failed);
	if (!continueOnFail && failed.size > 0) throw [...failed.values()][0];
	const skipInvalid = itemCount > 0 && exec.getNodeParameter('invalidEntries', 0, 'stop') === 'skip';
	const preview = itemCount > 0 && operation.preview !== undefined && operation.preview(new ItemContext(exec, 0));

	// 2.
	const allEntries = batches.flatMap((batch) => batch.entries);
	for (const entry of allEntries) {
		try {
			entry.value = operation.check(entry);
		} catch (error) {
			if (!(error instanceof NodeOperationError)) throw asNodeError(exec.getNode(), error);
			entry.problem = error;
		}
	}
	// A run that stops at an invalid entry looks nothing up: it sends nothing at all.
	const stopsHere = !skipInvalid && !continueOnFail && allEntries.some((entry) => entry.problem);
	if (stopsHere) throw invalidEntriesError(exec.getNode(), allEntries.filter((entry) => entry.problem));
	if (operation.resolve) await operation.resolve(exec, allEntries.filter((entry) => entry.problem === undefined));

	// 3. (an entry `resolve` found invalid stops the run here, named with the others)
	if (!skipInvalid) {
		if (!continueOnFail && allEntries.some((entry) => entry.problem)) throw invalidEntriesError(exec.getNode(), allEntries.filter((entry) => entry.problem));
		for (const entry of allEntries) if (entry.problem && !failed.has(entry.ctx.itemIndex)) fail(entry.ctx.itemIndex, entry.problem);
	}

	// 4.
	const outputsOfItem: INodeExecutionData[][] = Array.from({ length: itemCount }, () => []);
	let entryCount = 0;
	const rejections: Rejection[] = [];
	for (const fullBatch of batches) {
		const batch = { ...fullBatch, entries: fullBatch.entries.filter((entry) => !failed.has(entry.ctx.itemIndex)) };
		if (batch.entries.length === 0) continue;
		let outputs: BatchOutput[];
		try {
			outputs = await operation.send(exec, batch);
		} catch (error) {
			for (const itemIndex of new Set(batch.entries.map((entry) => entry.ctx.itemIndex))) fail(itemIndex, error);
			continue;
		}
		entryCount += batch.entries.length;
		// Fail on Item Errors: only Continue (using regular output) needs it; the default On Error fails the run anyway.
		const rejection = continueOnFail && !toErrorOutput ? failOnRejected(exec, outputs, batch) : undefined;
		if (rejection) {
			for (const output of outputs) {
				if (output.rejected && output.entry !== undefined) fail(batch.entries[output.entry].ctx.itemIndex, rejection);
			}
		}
		const lastItem = batch.items[batch.items.length - 1];
		for (const output of outputs) {
			const owner = output.entry === undefined ? undefined : batch.entries[output.entry];
			if (owner && failed.has(owner.ctx.itemIndex)) continue;
			const itemIndex = owner?.ctx.itemIndex ?? lastItem;
			const pairedItem = output.pairedItem ?? { item: itemIndex };
			if (output.rejected || owner?.problem) {
				const rejected = rejectionOf(output, owner, itemIndex, pairedItem);
				rejections.push(rejected);
				if (!owner) entryCount++;
				if (toErrorOutput && !preview) {
					outputsOfItem[itemIndex].push(errorOutputItem(rejected));
					continue;
				}
			}
			if (!output.inSummary) outputsOfItem[itemIndex].push({ json: output.json, pairedItem });
		}
	}

	// 5.
	if (rejections.length > 0 && !continueOnFail && !preview) throw rejectedRunError(exec.getNode(), rejections, entryCount);
	// As RoutingNode gives a failed item under On Error = Continue: the error on the item.
	for (const [itemIndex, error] of failed) {
		outputsOfItem[itemIndex] = [{ json: {}, error: error as NodeApiError | NodeOperationError, pairedItem: { item: itemIndex } }];
	}
	if (rejections.length > 0) {
		const where =
			toErrorOutput && !preview ? 'they leave through the error output (the reason is in message)' : 'see the items with success false (the reason is in error)';
		exec.addExecutionHints({ message: `${rejections.length} of ${entryCount} entries rejected: ${where}`, type: 'warning', location: 'outputPane' });
	}
	return [outputsOfItem.flat()];
}

/** A bulk operation that writes (Update Many, Discount Schedule and Update): its input and result fields, run over all input items. */
export function bulkOperationModule<Checked>(resource: string, option: INodePropertyOptions, operation: BulkOperation<Checked>) {
	const displayOptions = { show: { resource: [resource], operation: [String(option.value)] } };
	return {
		option,
		fields: updateDisplayOptions(displayOptions, [...bulkInputFields(operation.input), ...bulkResultFields(operation.options)]),
		run: async function (this: IExecuteFunctions) {
			return await runBulkOperation(this, operation);
		},
	};
}

export interface BulkRequests {
	route: Route;
	request: { method: 'PUT' | 'POST'; url: string };
	/** Where the list goes in the body; the body is the list itself without one. */
	listKey?: string;
	/** Each body alone, as one object: a service that takes one entry per request (Import, where it binds no list). */
	oneObject?: boolean;
	maxItems: number;
	answer: AnswerSchema;
	/** The results paired with the bodies sent: one per body, in the order sent, then any results beyond them. */
	pairResults: (results: INodeExecutionData[], sent: IDataObject[]) => INodeExecutionData[];
	/** An entry's id, when entries with the same id must reach the service in the user's order. */
	idOf?: (body: IDataObject) => string | undefined;
}

/** One body's result, or the failure of its request (the same for all the request's bodies). */
type BulkOutcome = { ok: true; result: IDataObject } | { ok: false; error: unknown; message: string };

/**
 * Sends `bodies` in requests within the service's item and size limits, overlapped within the
 * group's in-flight allowance. One outcome per body, in order: a request that fails after its
 * retries fails its own bodies while the others stand.
 */
export async function sendInBulk(
	exec: IExecuteFunctions,
	requests: BulkRequests,
	bodies: IDataObject[],
	settings: SendSettings,
): Promise<BulkOutcome[]> {
	const chunks = chunkBySize(bodies, requests.oneObject ? 1 : requests.maxItems, LIMITS.bulkRequestBytes);
	const sent = await sendEachChunk(
		chunks,
		RATE_LIMITS[requests.route.group].inFlight,
		async (chunk) => {
			const body = requests.oneObject ? chunk[0] : requests.listKey ? { [requests.listKey]: chunk } : chunk;
			const response = await sendAuthenticated(exec, requests.route, { ...requests.request, body, json: true }, settings);
			return requests.pairResults(
				decodedList(exec, response, requests.answer).map((json) => ({ json })),
				chunk,
			);
		},
		requests.idOf,
	);
	return sent.flatMap((outcome, index): BulkOutcome[] => {
		// A request's results beyond its bodies (an answer that repeats one) name no body sent: dropped
		// here, so that they cannot take the place of the next request's results.
		if (outcome.ok) return outcome.value.slice(0, chunks[index].length).map(({ json }) => ({ ok: true, result: json }));
		const failure: BulkOutcome = { ok: false, error: outcome.error, message: asNodeError(exec.getNode(), outcome.error).message };
		return chunks[index].map(() => failure);
	});
}

export interface BulkWrite<Checked> extends BulkRequests {
	body: (value: Checked) => IDataObject;
	/** The id an invalid entry comes out with (it was never sent); none for a new discount, which has no id of its own. */
	idOfInvalid?: (raw: IDataObject) => unknown;
	/** What the output says about how an entry went out (a value converted), beside its result. */
	notesOf?: (value: Checked) => string[] | undefined;
}

/**
 * The `send` of Update Many, Discount Schedule and Discount Update: the valid entries sent with
 * `sendInBulk`, invalid entries reported in their place. When every request failed, the batch fails
 * with that error (nothing was written: an error, not rows).
 */
export function bulkWrite<Checked>(write: BulkWrite<Checked>): BulkOperation<Checked>['send'] {
	return async (exec, batch) => {
		const first = batch.entries[0].ctx;
		const simplify = readSimplify(first);
		const valid = batch.entries.filter((entry) => entry.problem === undefined);
		const bodies = valid.map((entry) => write.body(entry.value as Checked));
		const outcomes = await sendInBulk(exec, write, bodies, sendSettingsOf(first));
		const firstOutcome = outcomes[0];
		if (firstOutcome && !firstOutcome.ok && outcomes.every((outcome) => !outcome.ok)) throw asNodeError(exec.getNode(), firstOutcome.error);
		const results = outcomes.map((outcome, index): IDataObject =>
			outcome.ok
				? outcome.result
				: { id: idOrNull(write.idOfInvalid?.(bodies[index])), success: false, error: `The bulk request failed: ${outcome.message}`, input: bodies[index] },
		);
		let next = 0;
		return batch.entries.map((entry, position): BatchOutput => {
			if (entry.problem) {
				const json = { id: idOrNull(write.idOfInvalid?.(entry.raw)), success: false, error: problemText(entry.problem), input: entry.raw };
				return { json, entry: position };
			}
			const result = results[next++];
			const json = shapeBulkResult(result as Parameters<typeof shapeBulkResult>[0], simplify);
			const notes = write.notesOf?.(entry.value as Checked);
			if (notes) json.notes = notes;
			return { json, entry: position, rejected: result.success === false };
		});
	};
}

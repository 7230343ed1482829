/**
 * The run of a bulk operation, once over all input items as n8n's `customOperations` (why, and the
 * steps 1 to 5 of a run, in docs/architecture.md "Bulk operations"): every entry checked before
 * anything is sent, look-ups (`resolve`), Invalid Entries, the operation's `send` (write.ts for
 * the writes), rejected entries by On Error, and the execution hint.
 */
import {
	NodeApiError,
	NodeOperationError,
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INode,
	type INodeExecutionData,
	type INodeProperties,
	type INodePropertyOptions,
	type IPairedItemData,
} from 'n8n-workflow';

import { rejectionError } from '../../answers/bulkResults';
import { asNodeError } from '../../transport/errors';
import { InputError, isBlank } from '../../values/labels';
import { readFailOnItemErrors } from '../../values/values';
import { bulkResultFields } from '../common';
import { itemFailure, steps, type Steps } from '../run';
import { ItemContext, collectBatches, type Batch, type BulkEntry } from './entries';
import { bulkInputFields, skipsInvalidEntries, type BulkInput } from './fields';

/** One output of a batch: of the entry at a position in the batch, or batch-wide (paired with the batch's last item by default). */
export interface BatchOutput {
	json: IDataObject;
	entry?: number;
	/**
	 * An entry the service rejected or that was not written (an invalid entry under Skip and Report
	 * is one without saying so): loud by On Error, `runBulkOperation`.
	 */
	rejected?: boolean;
	/** A rejection in part: the entry's other changes were written (Sync: a price held back, its stock sent). */
	partlyWritten?: boolean;
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

/** The reason of an invalid entry as its output item says it: the field and the problem of its `InputError`, without the item (the output names its row). */
export function problemText(problem: NodeOperationError): string {
	return problem instanceof InputError ? problem.reason : problem.message;
}

/** How many entries an error names before "and N more". */
const NAMED_ENTRIES = 10;

/** Up to ten of `lines`, then "and N more": an error that names every row a merchant must fix, within reason. */
export function upToTen(lines: string[], separator = '; '): string {
	const named = lines.slice(0, NAMED_ENTRIES).join(separator);
	return lines.length > NAMED_ENTRIES ? `${named}${separator}and ${lines.length - NAMED_ENTRIES} more` : named;
}

/** A hint in parentheses at least this long is advice (a format's rules), not a detail of one row. */
const HINT_LENGTH = 30;

/** The texts in parentheses of `line` that follow a space, outermost only (a hint may hold examples in parentheses of its own). */
function outerParentheses(line: string): string[] {
	const found: string[] = [];
	let depth = 0;
	let start = -1;
	for (let index = 0; index < line.length; index++) {
		if (line[index] === '(') {
			if (depth === 0) start = line[index - 1] === ' ' ? index : -1;
			depth++;
		} else if (line[index] === ')' && depth > 0) {
			depth--;
			if (depth === 0 && start >= 0) found.push(line.slice(start + 1, index));
		}
	}
	return found;
}

/**
 * An error's list of rows, ending with a full stop: a hint in parentheses that several rows repeat
 * (the number format's rules under every unreadable price) is taken out of them and said once,
 * after the list.
 */
export function rowsSaidOnce(lines: string[], separator = '; '): string {
	const hintsIn = (line: string) => outerParentheses(line).filter((hint) => hint.length >= HINT_LENGTH);
	const counts = new Map<string, number>();
	for (const line of lines) for (const hint of new Set(hintsIn(line))) counts.set(hint, (counts.get(hint) ?? 0) + 1);
	const repeated = [...counts].filter(([, count]) => count > 1).map(([hint]) => hint);
	const shortened = lines.map((line) => repeated.reduce((text, hint) => text.split(` (${hint})`).join(''), line));
	const sentence = (text: string) => {
		const trimmed = text.trim();
		return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
	};
	return [sentence(upToTen(shortened, separator)), ...repeated.map((hint) => sentence(hint.charAt(0).toUpperCase() + hint.slice(1)))].join(' ');
}

/**
 * Stop the Run: one error naming every invalid entry (up to ten), each with its field and reason,
 * so that the merchant fixes them all at once. One invalid entry is its own error.
 */
function invalidEntriesError(node: INode, invalid: Array<BulkEntry<unknown>>): NodeOperationError {
	const problems = invalid.map((entry) => entry.problem as NodeOperationError);
	if (problems.length === 1) return problems[0];
	const hints = [...new Set(problems.map((problem) => problem.description).filter((text): text is string => typeof text === 'string' && text !== ''))];
	return new NodeOperationError(node, `${problems.length} entries are invalid, nothing was sent: ${rowsSaidOnce(problems.map(problemText))}`, {
		itemIndex: invalid[0].ctx.itemIndex,
		description: [...hints.slice(0, 3), 'Fix them all, or set Invalid Entries to Skip and Report to send the valid entries and report these.'].join('\n'),
	});
}

/** "Fail on Item Errors" (On Error = Continue (using regular output)): the entries the service rejected fail their item. */
function failOnRejected(exec: IExecuteFunctions, outputs: BatchOutput[], batch: Batch<unknown>): Error | undefined {
	const failOnItemErrors = readFailOnItemErrors(new ItemContext(exec, batch.items[0]));
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
	partlyWritten: boolean;
}

function rejectionOf(output: BatchOutput, owner: BulkEntry<unknown> | undefined, itemIndex: number, pairedItem: Rejection['pairedItem']): Rejection {
	const row = owner?.label() ?? output.label ?? `item ${itemIndex + 1}`;
	const reason = isBlank(output.json.error) ? 'rejected' : String(output.json.error);
	return { row, line: reason.startsWith(row) ? reason : `${row}: ${reason}`, json: output.json, itemIndex, pairedItem, partlyWritten: output.partlyWritten === true };
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

/**
 * The default On Error: the run fails once the accepted entries are written, naming the rejected
 * ones, so that n8n's error workflow fires. Entries written in part (Sync: a price held back, its
 * stock sent) are counted and told apart.
 */
function rejectedRunError(node: INode, rejections: Rejection[], total: number): NodeOperationError {
	const others = total - rejections.length;
	const held = rejections.filter((rejection) => rejection.partlyWritten).length;
	const what = held === 0 ? 'rejected' : held === rejections.length ? 'written in part' : `rejected or written in part (${held} in part)`;
	const heldHow =
		held === 0
			? ''
			: ' An entry written in part had its price held back by the price guard and its stock change sent; let it past the guard as its reason says, or turn on the operation\'s Options › Keep Held Prices Quiet to leave such runs green.';
	return new NodeOperationError(
		node,
		`${rejections.length} of ${total} entries ${what}${others > 0 ? ` (the other ${others} went through)` : ''}: ${rowsSaidOnce(rejections.map(({ line }) => line))}`,
		{
			itemIndex: rejections[0].itemIndex,
			description: `The entries that went through were written; the rejected ones were not.${heldHow} To go on with the workflow instead, set the node's Settings › On Error to "Continue (using error output)" (each rejected entry leaves through the error output, e.g. to a Send Email node) or "Continue" (each comes out with success false).`,
		},
	);
}

/**
 * 1. collect the batches; 2. check every entry before anything is sent; 3. Stop the Run: any invalid
 * entry stops the run, named with all others (On Error = Continue: each invalid entry fails alone,
 * an error item in its place, and the valid entries of its list or item are sent; node version 1:
 * its whole input item fails); 4. send
 * each batch, outputs paired with their items in input order; 5. rejected entries by On Error: the
 * default fails the run once everything else is written, Continue (using error output) sends them
 * there, Continue (using regular output) keeps them as items with success false; and the hint.
 */
async function runBulkOperation<Checked>(exec: IExecuteFunctions, operation: BulkOperation<Checked>): Promise<INodeExecutionData[][]> {
	const itemCount = exec.getInputData().length;
	const continueOnFail = exec.continueOnFail();
	const toErrorOutput = continueOnFail && exec.getNode().onError === 'continueErrorOutput';
	/** Items that fail as a whole: their list unreadable, an invalid entry under On Error = Continue (node version 1), a failed request. */
	const failed = new Map<number, Error>();
	const fail = (itemIndex: number, error: unknown) => {
		// The node's error for the item, as n8n shows it: the item's index on it.
		const nodeFailure = itemFailure(exec.getNode(), error, itemIndex);
		if (!continueOnFail) throw nodeFailure;
		failed.set(itemIndex, nodeFailure);
	};

	const batches = operation.collect?.(exec) ?? collectBatches<Checked>(exec, operation.input, failed);
	if (!continueOnFail && failed.size > 0) throw [...failed.values()][0];
	const skipInvalid = itemCount > 0 && skipsInvalidEntries(new ItemContext(exec, 0));
	const preview = itemCount > 0 && operation.preview !== undefined && operation.preview(new ItemContext(exec, 0));

	// 2.
	const allEntries = batches.length === 1 ? batches[0].entries : batches.flatMap((batch) => batch.entries);
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

	// 3. (an entry `resolve` found invalid stops the run here, named with the others; under On Error
	// = Continue each invalid entry fails alone, in its place, and the valid ones of its list are sent)
	if (!skipInvalid && !continueOnFail && allEntries.some((entry) => entry.problem)) throw invalidEntriesError(exec.getNode(), allEntries.filter((entry) => entry.problem));
	// Node version 1 (its saved workflows, docs/versioning.md): an invalid entry fails its whole input item.
	const eachRowAlone = exec.getNode().typeVersion >= 2;
	if (!skipInvalid && !eachRowAlone) {
		for (const entry of allEntries) if (entry.problem && !failed.has(entry.ctx.itemIndex)) fail(entry.ctx.itemIndex, entry.problem);
	}
	/** Stop the Run under On Error = Continue: an invalid entry is an error item of its own, not a rejection. */
	const failsAlone = (entry: BulkEntry<Checked> | undefined) => !skipInvalid && eachRowAlone && entry?.problem !== undefined;

	// 4.
	const outputsOfItem: INodeExecutionData[][] = Array.from({ length: itemCount }, () => []);
	/** One pairedItem per input item, shared by its outputs (as RoutingNode does): 50,000 outputs of one item hold one. */
	const pairedOf: IPairedItemData[] = [];
	let entryCount = 0;
	const rejections: Rejection[] = [];
	for (const fullBatch of batches) {
		const batch = failed.size === 0 ? fullBatch : { ...fullBatch, entries: fullBatch.entries.filter((entry) => !failed.has(entry.ctx.itemIndex)) };
		if (batch.entries.length === 0) continue;
		let outputs: BatchOutput[];
		try {
			// A batch of invalid entries only sends (and reads) nothing: each of its entries fails alone.
			outputs = batch.entries.every(failsAlone)
				? batch.entries.map((_, position) => ({ json: {}, entry: position }))
				: await operation.send(exec, batch);
		} catch (error) {
			for (const itemIndex of new Set(batch.entries.map((entry) => entry.ctx.itemIndex))) fail(itemIndex, error);
			continue;
		}
		entryCount += batch.entries.length;
		// Fail on Item Errors: only Continue (using regular output) needs it; the default On Error fails the run anyway.
		const rejection = continueOnFail && !toErrorOutput ? failOnRejected(exec, outputs.filter((output) => !failsAlone(output.entry === undefined ? undefined : batch.entries[output.entry])), batch) : undefined;
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
			const pairedItem = output.pairedItem ?? (pairedOf[itemIndex] ??= { item: itemIndex });
			if (failsAlone(owner)) {
				// As RoutingNode gives a failed item under On Error = Continue: the error on the item, here one per invalid entry.
				const error = itemFailure(exec.getNode(), (owner as BulkEntry<Checked>).problem, itemIndex) as NodeApiError | NodeOperationError;
				outputsOfItem[itemIndex].push({ json: {}, error, pairedItem });
				continue;
			}
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
	return outputsOfItem;
}

/**
 * A bulk operation on the skeleton (actions/run.ts) with its own act: its entries are read across
 * items by Input Mode (a list per item, or one entry per item in one batch), so each item's read
 * takes nothing and `actAll` is the whole bulk run (`runBulkOperation`, steps 1 to 5 above), each
 * input item's outputs (its entries', its error) given back in item order.
 */
export function bulkSteps<Checked>(operation: BulkOperation<Checked>): Steps {
	return steps<undefined, undefined>({
		read: () => undefined,
		actAll: async (exec) => (await runBulkOperation(exec, operation)).map((value) => ({ ok: true, value })),
	});
}

/** A bulk operation that writes (Update Many, Discount Schedule and Update): its input and result fields, run over all input items. */
export function bulkOperationModule<Checked>(resource: string, option: INodePropertyOptions, operation: BulkOperation<Checked>) {
	const displayOptions = { show: { resource: [resource], operation: [String(option.value)] } };
	return {
		option,
		fields: updateDisplayOptions(displayOptions, [...bulkInputFields(operation.input), ...bulkResultFields(operation.options)]),
		steps: bulkSteps(operation),
	};
}


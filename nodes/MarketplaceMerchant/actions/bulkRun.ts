/**
 * How a bulk operation runs: once over all input items, as n8n's `customOperations` (why, and the
 * steps 1 to 5 of a run, in docs/architecture.md "Bulk operations").
 */
import {
	NodeApiError,
	NodeOperationError,
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodePropertyOptions,
	type IPairedItemData,
} from 'n8n-workflow';

import { decodedList, idOrNull, rejectionError, shapeBulkResult, type AnswerSchema } from '../answers/answers';
import { LIMITS, RATE_LIMITS } from '../transport/endpoints';
import {
	asNodeError,
	chunkBySize,
	sendAuthenticated,
	sendEachChunk,
	sendSettingsOf,
	type Route,
	type SendSettings,
} from '../transport/engine';
import { ItemContext, bulkInputFields, readBulkEntries, readItemEntry, readsOneEntryPerItem, type BulkInput, type BulkSource, type EntryRead } from './bulkInput';
import { bulkResultFields } from './common';
import { readSimplify } from '../values/values';

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
	/** An entry the service rejected or did not write (counted in the hint). */
	rejected?: boolean;
	pairedItem?: IPairedItemData[];
}

export interface BulkOperation<Checked> {
	input: BulkInput;
	/** A user value the service would refuse or misread throws `invalidInput`. */
	check: (entry: BulkEntry<Checked>) => Checked;
	/** Look-ups once every entry of the run is checked (products given by EAN): may mark entries invalid. */
	resolve?: (exec: IExecuteFunctions, entries: Array<BulkEntry<Checked>>) => Promise<void>;
	/** Sends a batch (its invalid entries reported, not sent); outputs in entry order. */
	send: (exec: IExecuteFunctions, batch: Batch<Checked>) => Promise<BatchOutput[]>;
}

/** The reason of an invalid entry as its output item says it: the message without the trailing "(item N)". */
export function problemText(problem: NodeOperationError): string {
	return problem.message.replace(/ \(item \d+\)$/, '');
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

/** "Fail on Item Errors": the entries the service rejected fail their item. */
function failOnRejected(exec: IExecuteFunctions, outputs: BatchOutput[], batch: Batch<unknown>): Error | undefined {
	const failOnItemErrors = exec.getNodeParameter('options.failOnItemErrors', batch.items[0], false) as boolean;
	const rejected = outputs.filter((output) => output.rejected && output.entry !== undefined);
	if (!failOnItemErrors || rejected.length === 0) return undefined;
	const failed = rejected.map(({ json, entry }) => ({ json, position: batch.entries[entry as number].position + 1 }));
	return rejectionError(exec.getNode(), batch.items[0], failed, batch.entries.length);
}

/**
 * 1. collect the batches; 2. check every entry before anything is sent; 3. Stop the Run: any invalid
 * entry stops the run (On Error = Continue: its item fails alone); 4. send each batch, outputs paired
 * with their items in input order; 5. the execution hint.
 */
export async function runBulkOperation<Checked>(exec: IExecuteFunctions, operation: BulkOperation<Checked>): Promise<INodeExecutionData[][]> {
	const itemCount = exec.getInputData().length;
	const continueOnFail = exec.continueOnFail();
	/** Items that fail as a whole: their list unreadable, an invalid entry under On Error = Continue, a failed request. */
	const failed = new Map<number, Error>();
	const fail = (itemIndex: number, error: unknown) => {
		// The node's error for the item, as n8n shows it: the item's index on it.
		const nodeFailure = error instanceof NodeApiError || error instanceof NodeOperationError ? error : asNodeError(exec.getNode(), error);
		nodeFailure.context.itemIndex ??= itemIndex;
		if (!continueOnFail) throw nodeFailure;
		failed.set(itemIndex, nodeFailure);
	};

	const batches = collectBatches<Checked>(exec, operation.input, failed);
	if (!continueOnFail && failed.size > 0) throw [...failed.values()][0];
	const skipInvalid = itemCount > 0 && exec.getNodeParameter('invalidEntries', 0, 'stop') === 'skip';

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
	if (operation.resolve) await operation.resolve(exec, allEntries.filter((entry) => entry.problem === undefined));

	// 3.
	if (!skipInvalid) {
		for (const entry of allEntries) if (entry.problem && !failed.has(entry.ctx.itemIndex)) fail(entry.ctx.itemIndex, entry.problem);
	}

	// 4.
	const outputsOfItem: INodeExecutionData[][] = Array.from({ length: itemCount }, () => []);
	let entryCount = 0;
	let rejectedCount = 0;
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
		const rejection = failOnRejected(exec, outputs, batch);
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
			outputsOfItem[itemIndex].push({ json: output.json, pairedItem });
			if (owner) {
				entryCount++;
				if (output.rejected || owner.problem) rejectedCount++;
			}
		}
	}

	// As RoutingNode gives a failed item under On Error = Continue: the error on the item.
	for (const [itemIndex, error] of failed) {
		outputsOfItem[itemIndex] = [{ json: {}, error: error as NodeApiError | NodeOperationError, pairedItem: { item: itemIndex } }];
	}
	// 5.
	if (rejectedCount > 0) {
		exec.addExecutionHints({
			message: `${rejectedCount} of ${entryCount} entries rejected: see the items with success false (the reason is in error)`,
			type: 'warning',
			location: 'outputPane',
		});
	}
	return [outputsOfItem.flat()];
}

/** A bulk operation that writes (Update Many, Discount Schedule and Update): its input and result fields, run over all input items. */
export function bulkOperationModule<Checked>(resource: string, option: INodePropertyOptions, operation: BulkOperation<Checked>) {
	const displayOptions = { show: { resource: [resource], operation: [String(option.value)] } };
	return {
		option,
		fields: updateDisplayOptions(displayOptions, [...bulkInputFields(operation.input), ...bulkResultFields()]),
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
	const chunks = chunkBySize(bodies, requests.maxItems, LIMITS.bulkRequestBytes);
	const sent = await sendEachChunk(
		chunks,
		RATE_LIMITS[requests.route.group].inFlight,
		async (chunk) => {
			const body = requests.listKey ? { [requests.listKey]: chunk } : chunk;
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
			return { json: shapeBulkResult(result as Parameters<typeof shapeBulkResult>[0], simplify), entry: position, rejected: result.success === false };
		});
	};
}

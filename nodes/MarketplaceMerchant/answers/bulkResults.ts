/**
 * Turning the per-entry results of a bulk answer (Product Update / Update Many, Discount Schedule /
 * Update) into one output item per entry sent, each carrying the entry it belongs to.
 *
 * The service answers one result per entry, in the order of the entries, so results are paired
 * by position: two entries for the same product keep their own inputs. An answer can hold fewer
 * results than entries, down to none (platform facts); every entry without a result comes out as
 * `success: false` with an error saying so, so a request never yields fewer items than entries.
 * Pairing runs per request (see `bulkWrite` in actions/bulkRun.ts), so how entries fall into requests never changes
 * what an entry is paired with.
 *
 * Every result is first read into the one shape `{ id, success, error, input }` (`BulkResult`);
 * `finishBulkResults` then fails the item when asked ("Fail on Item Errors") and gives each entry
 * that shape (Simplify, the default) or the service's own result with the input (Simplify off).
 * Items keep the entries' order, so the nth item is the nth entry's; a rejected entry is one with
 * `success: false` and the reason in `error`. An entry that succeeded has no `error` at all: in
 * n8n's table a column of nulls reads as a column of failures.
 */
import { type IDataObject, type IExecutePaginationFunctions, type INodeExecutionData } from 'n8n-workflow';
import { nodeError } from '../transport/errors';

/** The shape every bulk result takes in our output, whatever the endpoint's own shape. */
interface BulkResult extends IDataObject {
	/** What the entry is about: the product updated, the discount scheduled or changed; null when unknown. */
	id: string | number | null;
	success: boolean;
	/** Why the service rejected the entry, or why it has no result; absent on success. */
	error?: string;
	input: IDataObject;
}

/** A paired result on its way to the output: its shape, and the service's own result (none when it sent none). */
interface PairedResult extends BulkResult {
	raw?: IDataObject;
}

export const NO_RESULT_ERROR =
	'The service returned no result for this entry: it may or may not have been applied. Check it before sending it again.';

/** How one kind of bulk result is read: its shape, whether it may be an entry's, and the id of an entry without one. */
interface ResultKind {
	read: (raw: IDataObject, input: IDataObject) => BulkResult;
	names: (raw: IDataObject, entry: IDataObject) => boolean;
	idOfEntry: (entry: IDataObject) => string | number | null;
}

function item(result: PairedResult): INodeExecutionData {
	return { json: result };
}

function noResult(kind: ResultKind, input: IDataObject): INodeExecutionData {
	return item({ id: kind.idOfEntry(input), success: false, error: NO_RESULT_ERROR, input });
}

function paired(kind: ResultKind, raw: IDataObject, input: IDataObject): INodeExecutionData {
	return item({ ...kind.read(raw, input), raw });
}

/** Ids as the service and the user may write them (number or numeric text) are compared as text. */
function sameId(fromResult: unknown, fromEntry: unknown): boolean {
	if (fromResult === undefined || fromResult === null || fromResult === '') return true;
	return String(fromResult).trim() === String(fromEntry ?? '').trim();
}

/** A given id as it came (number or text), or null. */
function idOrNull(...candidates: unknown[]): string | number | null {
	for (const candidate of candidates) {
		if (typeof candidate === 'number' || (typeof candidate === 'string' && candidate.trim() !== '')) return candidate;
	}
	return null;
}

/**
 * Pairs results with the entries sent. With a result per entry (or more), by position. With fewer,
 * position alone cannot tell which are missing: an entry the next result does not name (`names`,
 * true when the result names nothing) has no result; results keep the entries' order, so this
 * finds results dropped anywhere, not only at the end, and entries left over at the end have none
 * either. Results beyond the entries, or naming none of them in order, come out with an empty
 * input rather than paired with an entry they may not belong to.
 */
function pairInOrder(results: INodeExecutionData[], sent: IDataObject[], kind: ResultKind): INodeExecutionData[] {
	if (results.length >= sent.length) return results.map(({ json }, index) => paired(kind, json, sent[index] ?? {}));
	const items: INodeExecutionData[] = [];
	let next = 0;
	for (const entry of sent) {
		const result = results[next]?.json;
		if (result && kind.names(result, entry)) {
			items.push(paired(kind, result, entry));
			next++;
		} else {
			items.push(noResult(kind, entry));
		}
	}
	for (const { json } of results.slice(next)) items.push(paired(kind, json, {}));
	return items;
}

const PRODUCT_RESULTS: ResultKind = {
	read: (raw, input) => {
		const errors = Array.isArray(raw.errors) ? raw.errors.map(String) : [];
		const success = String(raw.status).toUpperCase() === 'SUCCESS';
		const id = idOrNull(raw.myProductId, input.id);
		return success ? { id, success, input } : { id, success, error: errors.join('; ') || `Status ${String(raw.status)}`, input };
	},
	names: (raw, entry) => sameId(raw.myProductId, entry.id),
	idOfEntry: (entry) => idOrNull(entry.id),
};

/** Pairs product update results (`status`, `errors`, `myProductId`) with the entries sent. */
export function pairProductResults(results: INodeExecutionData[], sent: IDataObject[]): INodeExecutionData[] {
	return pairInOrder(results, sent, PRODUCT_RESULTS);
}

/** What a discount result names: the failure's fields, then the success's. */
function namedByDiscountResult(raw: IDataObject): IDataObject {
	return { ...((raw.error ?? {}) as IDataObject), ...((raw.data ?? {}) as IDataObject) };
}

/**
 * Discount results: an update entry and its result name the discount; a schedule entry and its
 * result name the product, and the result's discountId is the new discount's: the id it comes out
 * with. `productId` is the product's, where the entry or the result names it.
 */
const DISCOUNT_RESULTS: ResultKind = {
	read: (raw, input) => {
		const success = raw.success === true || raw.success === 'true';
		const failure = (raw.error ?? {}) as IDataObject;
		const named = namedByDiscountResult(raw);
		const result: BulkResult = { id: idOrNull(named.discountId, input.discountId), success, input };
		// Where the entry or the result names the product (a schedule does; an update names only its discount).
		const productId = idOrNull(named.merchantInventoryId, input.merchantInventoryId);
		if (productId !== null) result.productId = productId;
		if (!success) result.error = String(failure.errorMessage ?? 'The service rejected this entry');
		return result;
	},
	names: (raw, entry) => {
		const named = namedByDiscountResult(raw);
		if (entry.discountId !== undefined) return sameId(named.discountId, entry.discountId);
		return sameId(named.merchantInventoryId, entry.merchantInventoryId);
	},
	idOfEntry: (entry) => idOrNull(entry.discountId),
};

/** Pairs discount schedule/update results (`success`, `data`, `error`) with the entries sent. */
export function pairDiscountResults(results: INodeExecutionData[], sent: IDataObject[]): INodeExecutionData[] {
	return pairInOrder(results, sent, DISCOUNT_RESULTS);
}

/**
 * Bulk answers report failures per entry inside a 200 answer. By default they come out as items
 * with `success: false` and the reason; with the option "Fail on Item Errors" the node item fails.
 */
function failOnItemErrorsIfAsked(ctx: IExecutePaginationFunctions, items: INodeExecutionData[]): void {
	const failOnItemErrors = ctx.getNodeParameter('options.failOnItemErrors', false) as boolean;
	// Items keep the entries' order, so an item's position is its entry's (from 1, as the panel counts rows).
	const failed = items.map(({ json }, index) => ({ json, position: index + 1 })).filter(({ json }) => json.success === false);
	if (!failOnItemErrors || failed.length === 0) return;
	const examples = failed
		.slice(0, 5)
		.map(({ json, position }) => `Entry ${position} ${JSON.stringify(json.input)}: ${String(json.error)}`)
		.join('\n');
	const withoutResult = failed.filter(({ json }) => json.error === NO_RESULT_ERROR).length;
	const message =
		withoutResult === 0
			? `${failed.length} of ${items.length} entries were rejected by the service`
			: `${failed.length} of ${items.length} entries failed: ${failed.length - withoutResult} rejected by the service, ${withoutResult} without a result`;
	throw nodeError(ctx.getNode(), message, {
		itemIndex: ctx.getItemIndex(),
		description: examples,
	});
}

/** One entry's output: `{ id, success, error, input }` with Simplify, else the service's result (when there is one) with the input. */
export function shapeBulkResult({ raw, ...result }: PairedResult, simplify: boolean): IDataObject {
	if (simplify || raw === undefined) return result;
	return { ...raw, input: result.input };
}

/**
 * The end of every bulk write (Update, Update Many, Discount Schedule and Update): fails the item
 * when "Fail on Item Errors" is on and an entry failed, else gives each entry its output item,
 * simplified unless Simplify is off.
 */
export function finishBulkResults(this: IExecutePaginationFunctions, items: INodeExecutionData[], simplify: boolean): INodeExecutionData[] {
	failOnItemErrorsIfAsked(this, items);
	return items.map(({ json }) => ({ json: shapeBulkResult(json as PairedResult, simplify) }));
}

/**
 * Turning the per-entry results of a bulk answer (Product Update / Update Many, Discount Schedule /
 * Update) into one output item per entry sent, each carrying the entry it belongs to.
 *
 * The service answers one result per entry, in the order of the entries, so results are paired
 * by position: two entries for the same product keep their own inputs. An answer can hold fewer
 * results than entries, down to none (platform facts); every entry without a result comes out as
 * `success: false` with an error saying so, so a request never yields fewer items than entries.
 * Pairing runs per request (see `splitBodyList`), so how entries fall into requests never changes
 * what an entry is paired with.
 */
import { NodeOperationError, type IDataObject, type IExecutePaginationFunctions, type INodeExecutionData } from 'n8n-workflow';

/** The shape every bulk result takes in our output, whatever the endpoint's own shape. */
export interface BulkResult extends IDataObject {
	success: boolean;
	error?: string;
	input: IDataObject;
}

export const NO_RESULT_ERROR =
	'The service returned no result for this entry: it may or may not have been applied. Check it before sending it again.';

function noResult(input: IDataObject): INodeExecutionData {
	const result: BulkResult = { success: false, error: NO_RESULT_ERROR, input };
	return { json: result };
}

/** Ids as the service and the user may write them (number or numeric text) are compared as text. */
function sameId(fromResult: unknown, fromEntry: unknown): boolean {
	if (fromResult === undefined || fromResult === null || fromResult === '') return true;
	return String(fromResult).trim() === String(fromEntry ?? '').trim();
}

/**
 * Pairs results with the entries sent. With a result per entry (or more), by position. With fewer,
 * position alone cannot tell which are missing: an entry the next result does not name (`names`,
 * true when the result names nothing) has no result; results keep the entries' order, so this
 * finds results dropped anywhere, not only at the end, and entries left over at the end have none
 * either. Results beyond the entries, or naming none of them in order, come out with an empty
 * input rather than paired with an entry they may not belong to.
 */
function pairInOrder(
	results: INodeExecutionData[],
	sent: IDataObject[],
	names: (result: IDataObject, entry: IDataObject) => boolean,
	toItem: (result: IDataObject, input: IDataObject) => INodeExecutionData,
): INodeExecutionData[] {
	if (results.length >= sent.length) return results.map(({ json }, index) => toItem(json, sent[index] ?? {}));
	const items: INodeExecutionData[] = [];
	let next = 0;
	for (const entry of sent) {
		const result = results[next]?.json;
		if (result && names(result, entry)) {
			items.push(toItem(result, entry));
			next++;
		} else {
			items.push(noResult(entry));
		}
	}
	for (const { json } of results.slice(next)) items.push(toItem(json, {}));
	return items;
}

function productResult(json: IDataObject, input: IDataObject): INodeExecutionData {
	const errors = Array.isArray(json.errors) ? json.errors.map(String) : [];
	const success = String(json.status).toUpperCase() === 'SUCCESS';
	const result: BulkResult = { ...json, success, input };
	if (!success) result.error = errors.join('; ') || `Status ${String(json.status)}`;
	return { json: result };
}

/** Pairs product update results (`status`, `errors`, `myProductId`) with the entries sent. */
export function pairProductResults(results: INodeExecutionData[], sent: IDataObject[]): INodeExecutionData[] {
	return pairInOrder(results, sent, (result, entry) => sameId(result.myProductId, entry.id), productResult);
}

function discountResult(json: IDataObject, input: IDataObject): INodeExecutionData {
	const data = (json.data ?? {}) as IDataObject;
	const failure = (json.error ?? {}) as IDataObject;
	const success = json.success === true || json.success === 'true';
	const result: BulkResult = { ...data, ...failure, success, input };
	delete result.errorMessage;
	if (!success) result.error = String(failure.errorMessage ?? 'The service rejected this entry');
	return { json: result };
}

/**
 * Whether a discount result may be the entry's: an update entry and its result name the discount;
 * a schedule entry and its result name the product (the result's discountId is the new discount's).
 */
function namesDiscountEntry(result: IDataObject, entry: IDataObject): boolean {
	const named = { ...((result.error ?? {}) as IDataObject), ...((result.data ?? {}) as IDataObject) };
	if (entry.discountId !== undefined) return sameId(named.discountId, entry.discountId);
	return sameId(named.merchantInventoryId, entry.merchantInventoryId);
}

/** Pairs discount schedule/update results (`success`, `data`, `error`) with the entries sent. */
export function pairDiscountResults(results: INodeExecutionData[], sent: IDataObject[]): INodeExecutionData[] {
	return pairInOrder(results, sent, namesDiscountEntry, discountResult);
}

/**
 * Bulk answers report failures per entry inside a 200 answer. By default they come out as items
 * with `success: false` and the reason; with the option "Fail on Item Errors" the node item fails.
 */
export function failOnItemErrorsIfAsked(this: IExecutePaginationFunctions, items: INodeExecutionData[]): INodeExecutionData[] {
	const failOnItemErrors = this.getNodeParameter('options.failOnItemErrors', false) as boolean;
	const failed = items.filter(({ json }) => json.success === false);
	if (failOnItemErrors && failed.length > 0) {
		const examples = failed
			.slice(0, 5)
			.map(({ json }) => `${JSON.stringify(json.input)}: ${String(json.error)}`)
			.join('\n');
		const withoutResult = failed.filter(({ json }) => json.error === NO_RESULT_ERROR).length;
		const message =
			withoutResult === 0
				? `${failed.length} of ${items.length} entries were rejected by the service`
				: `${failed.length} of ${items.length} entries failed: ${failed.length - withoutResult} rejected by the service, ${withoutResult} without a result`;
		throw new NodeOperationError(this.getNode(), message, {
			itemIndex: this.getItemIndex(),
			description: examples,
		});
	}
	return items;
}

/**
 * A bulk write's results, paired with the entries sent: one output item per entry (bulk writes,
 * actions/bulk/write.ts, and Product › Update), as README.md's "Results are paired with entries"
 * tells; and the 400 by which a service refuses a body's shape (Import).
 */
import type { IDataObject, IExecutePaginationFunctions, INode, INodeExecutionData } from 'n8n-workflow';

import { nodeError, statusOf, withEnglishMeaning } from '../transport/errors';
import { readFailOnItemErrors } from '../values/values';

/**
 * A success has no `error` key at all: in n8n's table a column of nulls reads as a column of failures.
 */
/** `id`: the product updated, the discount scheduled or changed. `raw`: the service's own result (the output with Simplify off). */
interface BulkResult extends IDataObject {
	id: string | number | null;
	success: boolean;
	error?: string;
	input: IDataObject;
	raw?: IDataObject;
}

export const NO_RESULT_ERROR =
	'The service returned no result for this entry: it may or may not have been applied. Check it before sending it again.';

interface ResultKind {
	read: (raw: IDataObject, input: IDataObject) => BulkResult;
	names: (raw: IDataObject, entry: IDataObject) => boolean;
	idOfEntry: (entry: IDataObject) => string | number | null;
}

/** Ids as the service and the user may write them (number or numeric text) are compared as text. */
function sameId(fromResult: unknown, fromEntry: unknown): boolean {
	if (fromResult === undefined || fromResult === null || fromResult === '') return true;
	return String(fromResult).trim() === String(fromEntry ?? '').trim();
}

export function idOrNull(...candidates: unknown[]): string | number | null {
	for (const candidate of candidates) {
		if (typeof candidate === 'number' || (typeof candidate === 'string' && candidate.trim() !== '')) return candidate;
	}
	return null;
}

/**
 * With a result per entry (or more), pairs by position. With fewer, an entry the next result does not
 * name (`names`, true when the result names nothing) has no result: results keep the entries' order, so
 * this finds results dropped anywhere. Leftover results come out with an empty input, not with a guessed entry.
 */
function pairInOrder(kind: ResultKind) {
	const paired = (raw: IDataObject, input: IDataObject): INodeExecutionData => ({ json: { ...kind.read(raw, input), raw } });
	return function (results: INodeExecutionData[], sent: IDataObject[]): INodeExecutionData[] {
		if (results.length >= sent.length) return results.map(({ json }, index) => paired(json, sent[index] ?? {}));
		const items: INodeExecutionData[] = [];
		let next = 0;
		for (const entry of sent) {
			const result = results[next]?.json;
			if (result && kind.names(result, entry)) {
				items.push(paired(result, entry));
				next++;
			} else {
				items.push({ json: { id: kind.idOfEntry(entry), success: false, error: NO_RESULT_ERROR, input: entry } });
			}
		}
		for (const { json } of results.slice(next)) items.push(paired(json, {}));
		return items;
	};
}

/** The product a result names, where the service names it (the current pages: `productName`, `ean`). */
function productNamedIn(raw: IDataObject): IDataObject {
	const named: IDataObject = {};
	if (typeof raw.productName === 'string' && raw.productName !== '') named.productName = raw.productName;
	if (typeof raw.ean === 'string' && raw.ean !== '') named.ean = raw.ean;
	return named;
}

export const pairProductResults = pairInOrder({
	read: (raw, input) => {
		const errors = Array.isArray(raw.errors) ? raw.errors.map((error) => withEnglishMeaning(String(error))) : [];
		const success = String(raw.status).toUpperCase() === 'SUCCESS';
		const id = idOrNull(raw.myProductId, input.id);
		const named = productNamedIn(raw);
		return success ? { id, success, ...named, input } : { id, success, ...named, error: errors.join('; ') || `Status ${String(raw.status)}`, input };
	},
	names: (raw, entry) => sameId(raw.myProductId, entry.id),
	idOfEntry: (entry) => idOrNull(entry.id),
});

function namedByDiscountResult(raw: IDataObject): IDataObject {
	return { ...((raw.error ?? {}) as IDataObject), ...((raw.data ?? {}) as IDataObject) };
}

/**
 * An update entry and its result name the discount; a schedule entry and its result name the
 * product (`productId`), and the result's discountId is the new discount's: the id it comes out with.
 */
export const pairDiscountResults = pairInOrder({
	read: (raw, input) => {
		const success = raw.success === true || raw.success === 'true';
		const named = namedByDiscountResult(raw);
		const result: BulkResult = { id: idOrNull(named.discountId, input.discountId), success, input };
		const productId = idOrNull(named.merchantInventoryId, input.merchantInventoryId);
		if (productId !== null) result.productId = productId;
		if (!success) result.error = String((raw.error as IDataObject | undefined)?.errorMessage ?? 'The service rejected this entry');
		return result;
	},
	names: (raw, entry) => {
		const key = entry.discountId !== undefined ? 'discountId' : 'merchantInventoryId';
		return sameId(namedByDiscountResult(raw)[key], entry[key]);
	},
	idOfEntry: (entry) => idOrNull(entry.discountId),
});

export function shapeBulkResult({ raw, ...result }: BulkResult, simplify: boolean): IDataObject {
	if (simplify || raw === undefined) return result;
	return { ...raw, input: result.input };
}

/** "Fail on Item Errors": the error of an input item whose entries (`position` from 1, as the panel counts rows) failed, of `total`. */
export function rejectionError(node: INode, itemIndex: number, failed: Array<{ json: IDataObject; position: number }>, total: number) {
	const examples = failed.slice(0, 5).map(({ json, position }) => `Entry ${position} ${JSON.stringify(json.input)}: ${String(json.error)}`);
	const withoutResult = failed.filter(({ json }) => json.error === NO_RESULT_ERROR).length;
	const message =
		withoutResult === 0
			? `${failed.length} of ${total} entries were rejected by the service`
			: `${failed.length} of ${total} entries failed: ${failed.length - withoutResult} rejected by the service, ${withoutResult} without a result`;
	return nodeError(node, message, { itemIndex, description: examples.join('\n') });
}

/** The end of every bulk write: the item fails when "Fail on Item Errors" is on and an entry failed. */
export function finishBulkResults(this: IExecutePaginationFunctions, items: INodeExecutionData[], simplify: boolean): INodeExecutionData[] {
	const failed = items.map(({ json }, index) => ({ json, position: index + 1 })).filter(({ json }) => json.success === false);
	if (failed.length > 0 && readFailOnItemErrors(this)) {
		throw rejectionError(this.getNode(), this.getItemIndex(), failed, items.length);
	}
	return items.map(({ json }) => ({ json: shapeBulkResult(json as BulkResult, simplify) }));
}

/**
 * The 400 a Spring service's JSON binder gives a body of the shape its handler does not take
 * (Jackson 2.12+: `Cannot deserialize value of type `X` from Array value`; older: `... out of
 * START_ARRAY token`): which shape it refused, or undefined for any other error (a validation 400
 * is the service judging the products, not their shape). Read from the error's description (the
 * answer's `message`, as n8n puts it there) and message.
 */
export function refusedBodyShape(error: unknown): 'list' | 'object' | undefined {
	if (statusOf(error) !== 400) return undefined;
	const { description, message } = (error ?? {}) as { description?: unknown; message?: unknown };
	const text = `${typeof description === 'string' ? description : ''} ${typeof message === 'string' ? message : ''}`;
	if (!/Cannot deserialize|JSON parse error/i.test(text)) return undefined;
	if (/from Array value|out of START_ARRAY token/i.test(text)) return 'list';
	if (/from Object value|out of START_OBJECT token/i.test(text)) return 'object';
	return undefined;
}

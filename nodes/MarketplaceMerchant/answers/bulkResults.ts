/**
 * A bulk write's results, paired with the entries sent: one output item per entry (bulk writes,
 * actions/bulk/write.ts, and Product › Update), as README.md's "Results are paired with entries"
 * tells; and the 400 by which a service refuses a body's shape (Import).
 */
import type { IDataObject, INode, INodeExecutionData } from 'n8n-workflow';

import { nodeError, statusOf, withEnglishMeaning } from '../transport/errors';
import { readFailOnItemErrors } from '../values/values';
import type { ItemFunctions } from '../transport/send';

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

/** How every entry without a result of its own ends its error. */
const MAY_HAVE_BEEN_APPLIED = 'it may or may not have been applied. Check it before sending it again.';

export const NO_RESULT_ERROR = `The service returned no result for this entry: ${MAY_HAVE_BEEN_APPLIED}`;

/** An entry of a request whose answer names no entry in any of its results and is not one result per entry. */
export function unnamedResultsError(results: number, entries: number): string {
	return `The service answered ${results} result${results === 1 ? '' : 's'} for ${entries} entries without naming the entry of any, so which one is this entry's is unknown: ${MAY_HAVE_BEEN_APPLIED}`;
}

/** Whether an entry's error says it has no result of its own (NO_RESULT_ERROR or unnamedResultsError). */
export function isWithoutResult(error: unknown): boolean {
	return typeof error === 'string' && error.startsWith('The service ') && error.endsWith(MAY_HAVE_BEEN_APPLIED);
}

interface ResultKind {
	read: (raw: IDataObject, input: IDataObject) => BulkResult;
	/** The id by which a result names its entry (a product's, a discount's), as the entry gives it. */
	keyOfEntry: (entry: IDataObject) => unknown;
	/** The same id as a result carries it; `entry` (any entry of the request) says which id the request's results carry. */
	keyOfResult: (raw: IDataObject, entry: IDataObject | undefined) => unknown;
	/** The id an entry without a result comes out with. */
	idOfEntry: (entry: IDataObject) => string | number | null;
}

/** An id as the service and the user may write it (number or numeric text), compared as text; undefined when there is none. */
function idKey(value: unknown): string | undefined {
	if (value === undefined || value === null) return undefined;
	const text = String(value).trim();
	return text === '' ? undefined : text;
}

export function idOrNull(...candidates: unknown[]): string | number | null {
	for (const candidate of candidates) {
		if (typeof candidate === 'number' || (typeof candidate === 'string' && candidate.trim() !== '')) return candidate;
	}
	return null;
}

/**
 * The one pairing of a request's results with the entries it sent (every bulk write; README.md
 * "Results are paired with entries by the id they carry"):
 * - one result per entry, each naming the entry at its position or nothing: by position, as the
 *   documentation promises (one element per requested entry);
 * - otherwise each result goes to the entry whose id it names, wherever it stands in the answer
 *   (a service that lists them in another order). An entry no result names has none: it fails
 *   with NO_RESULT_ERROR (or, when results name no entry at all, unnamedResultsError), never with
 *   a neighbour's result. Two entries of one request with the same id cannot be told apart by it:
 *   such an entry gets a result by id only in an answer in order, otherwise none (sendInBulk never
 *   puts one id twice in a request). Leftover results come out after the entries with an empty input.
 */
function pairById(kind: ResultKind) {
	const paired = (raw: IDataObject, input: IDataObject): INodeExecutionData => ({ json: { ...kind.read(raw, input), raw } });
	const without = (entry: IDataObject, error: string): INodeExecutionData => ({ json: { id: kind.idOfEntry(entry), success: false, error, input: entry } });
	return function (results: INodeExecutionData[], sent: IDataObject[]): INodeExecutionData[] {
		const entryKeys = sent.map((entry) => idKey(kind.keyOfEntry(entry)));
		const resultKeys = results.map(({ json }) => idKey(kind.keyOfResult(json, sent[0])));
		const inOrder = results.length === sent.length && resultKeys.every((key, index) => key === undefined || key === entryKeys[index]);
		if (inOrder) return results.map(({ json }, index) => paired(json, sent[index]));

		const positions = new Map<string, number[]>();
		entryKeys.forEach((key, index) => {
			if (key !== undefined) positions.set(key, [...(positions.get(key) ?? []), index]);
		});
		const resultOf = new Map<number, IDataObject>();
		const leftovers: IDataObject[] = [];
		results.forEach(({ json }, index) => {
			const at = resultKeys[index] === undefined ? undefined : positions.get(resultKeys[index] as string);
			// An id two entries share names neither of them for sure.
			if (at === undefined || at.length !== 1 || resultOf.has(at[0])) leftovers.push(json);
			else resultOf.set(at[0], json);
		});
		const namesNone = results.length > 0 && resultKeys.every((key) => key === undefined);
		const missing = namesNone ? unnamedResultsError(results.length, sent.length) : NO_RESULT_ERROR;
		return [
			...sent.map((entry, index) => {
				const result = resultOf.get(index);
				return result === undefined ? without(entry, missing) : paired(result, entry);
			}),
			...leftovers.map((json) => paired(json, {})),
		];
	};
}

/** The product a result names, where the service names it (the current pages: `productName`, `ean`). */
function productNamedIn(raw: IDataObject): IDataObject {
	const named: IDataObject = {};
	if (typeof raw.productName === 'string' && raw.productName !== '') named.productName = raw.productName;
	if (typeof raw.ean === 'string' && raw.ean !== '') named.ean = raw.ean;
	return named;
}

export const pairProductResults = pairById({
	read: (raw, input) => {
		const errors = Array.isArray(raw.errors) ? raw.errors.map((error) => withEnglishMeaning(String(error))) : [];
		const success = String(raw.status).toUpperCase() === 'SUCCESS';
		const id = idOrNull(raw.myProductId, input.id);
		const named = productNamedIn(raw);
		return success ? { id, success, ...named, input } : { id, success, ...named, error: errors.join('; ') || `Status ${String(raw.status)}`, input };
	},
	keyOfEntry: (entry) => entry.id,
	keyOfResult: (raw) => raw.myProductId,
	idOfEntry: (entry) => idOrNull(entry.id),
});

function namedByDiscountResult(raw: IDataObject): IDataObject {
	return { ...((raw.error ?? {}) as IDataObject), ...((raw.data ?? {}) as IDataObject) };
}

/** An update entry and its result name the discount (discountId); a schedule entry and its result, the product (merchantInventoryId). */
function discountKey(entry: IDataObject | undefined): 'discountId' | 'merchantInventoryId' {
	return entry?.discountId !== undefined ? 'discountId' : 'merchantInventoryId';
}

/**
 * An update entry and its result name the discount; a schedule entry and its result name the
 * product (`productId`), and the result's discountId is the new discount's: the id it comes out with.
 */
export const pairDiscountResults = pairById({
	read: (raw, input) => {
		const success = raw.success === true || raw.success === 'true';
		const named = namedByDiscountResult(raw);
		const result: BulkResult = { id: idOrNull(named.discountId, input.discountId), success, input };
		const productId = idOrNull(named.merchantInventoryId, input.merchantInventoryId);
		if (productId !== null) result.productId = productId;
		if (!success) result.error = String((raw.error as IDataObject | undefined)?.errorMessage ?? 'The service rejected this entry');
		return result;
	},
	keyOfEntry: (entry) => entry[discountKey(entry)],
	keyOfResult: (raw, entry) => namedByDiscountResult(raw)[discountKey(entry)],
	idOfEntry: (entry) => idOrNull(entry.discountId),
});

export function shapeBulkResult({ raw, ...result }: BulkResult, simplify: boolean): IDataObject {
	if (simplify || raw === undefined) return result;
	return { ...raw, input: result.input };
}

/** "Fail on Item Errors": the error of an input item whose entries (`position` from 1, as the panel counts rows) failed, of `total`. */
export function rejectionError(node: INode, itemIndex: number, failed: Array<{ json: IDataObject; position: number }>, total: number) {
	const examples = failed.slice(0, 5).map(({ json, position }) => `Entry ${position} ${JSON.stringify(json.input)}: ${String(json.error)}`);
	const withoutResult = failed.filter(({ json }) => isWithoutResult(json.error)).length;
	const message =
		withoutResult === 0
			? `${failed.length} of ${total} entries were rejected by the service`
			: `${failed.length} of ${total} entries failed: ${failed.length - withoutResult} rejected by the service, ${withoutResult} without a result`;
	return nodeError(node, message, { itemIndex, description: examples.join('\n') });
}

/** The end of every bulk write: the item fails when "Fail on Item Errors" is on and an entry failed. */
export function finishBulkResults(this: ItemFunctions, items: INodeExecutionData[], simplify: boolean): INodeExecutionData[] {
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

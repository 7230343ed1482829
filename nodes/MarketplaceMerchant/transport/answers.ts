/**
 * postReceive actions shared by the operations: reading an answer (JSON or XML, tolerant of
 * wrapped lists and of bodies that are not what they claim), and pairing bulk results with the
 * entries they belong to.
 */
import {
	NodeApiError,
	NodeOperationError,
	type FunctionsBase,
	type IDataObject,
	type IExecutePaginationFunctions,
	type IExecuteSingleFunctions,
	type IN8nHttpFullResponse,
	type INodeExecutionData,
	type JsonObject,
} from 'n8n-workflow';

import { looksLikeXml, parseXmlAnswer, type XmlReadOptions } from './xml';

/** Property names under which services commonly wrap a list answer. */
const LIST_WRAPPERS = new Set(['content', 'data', 'items', 'results', 'list', 'elements']);

/**
 * A list may arrive wrapped in an object (`{content: [...]}`, `{data: [...], total: 3}`): take the
 * list out. An object is a wrapper when its only property is a list, or when it has exactly one
 * list and that list sits under a usual wrapper name. Anything else (e.g. an update result
 * `{status, errors: [], myProductId}`) is an answer in its own right.
 */
export function unwrapList(body: unknown): unknown {
	if (Array.isArray(body) || !body || typeof body !== 'object') return body;
	const entries = Object.entries(body as IDataObject);
	const lists = entries.filter(([, value]) => Array.isArray(value));
	if (lists.length !== 1) return body;
	const [name, list] = lists[0];
	return entries.length === 1 || LIST_WRAPPERS.has(name) ? list : body;
}

/** The answer's body as data: XML parsed, JSON text parsed, anything else a clear error. */
export function decodeBody(
	ctx: Pick<FunctionsBase, 'getNode'>,
	response: IN8nHttpFullResponse,
	xmlOptions: XmlReadOptions = {},
): unknown {
	const { body, headers } = response;
	if (Buffer.isBuffer(body)) return decodeBody(ctx, { ...response, body: body.toString('utf8') }, xmlOptions);
	if (typeof body !== 'string') return body;
	if (body.trim() === '') return undefined;
	if (looksLikeXml(headers?.['content-type'], body)) {
		try {
			return parseXmlAnswer(body, xmlOptions);
		} catch (error) {
			throw new NodeApiError(ctx.getNode(), { message: (error as Error).message } as JsonObject, {
				message: 'The service answered with XML that could not be read',
				description: (error as Error).message,
			});
		}
	}
	try {
		return JSON.parse(body);
	} catch {
		throw new NodeApiError(ctx.getNode(), { body: body.slice(0, 200) } as JsonObject, {
			message: 'The service answered with a body that is not valid JSON',
			description: `HTTP ${response.statusCode}; the answer starts with: ${body.slice(0, 120)}`,
		});
	}
}

/**
 * postReceive that reads an answer as one item per element of a list answer, or one item for an
 * object answer. `xmlOptions` are field hints for XML answers (e.g. corrections' `fba` stays text).
 */
export function readAnswerWith(xmlOptions: XmlReadOptions) {
	return async function readAnswer(
		this: IExecuteSingleFunctions,
		_items: INodeExecutionData[],
		response: IN8nHttpFullResponse,
	): Promise<INodeExecutionData[]> {
		const data = unwrapList(decodeBody(this, response, xmlOptions));
		if (data === undefined || data === null) return [];
		const list = Array.isArray(data) ? data : [data];
		return list.map((json) => ({ json: json && typeof json === 'object' ? (json as IDataObject) : { value: json as string } }));
	};
}

/** The first postReceive action of almost every operation (see `readAnswerWith`). */
export const readAnswer = readAnswerWith({});

/** Reads an answer that is an object (e.g. `{scheduleResult: [...]}`) as one item per list element. */
export function readListProperty(property: string) {
	return async function (
		this: IExecuteSingleFunctions,
		_items: INodeExecutionData[],
		response: IN8nHttpFullResponse,
	): Promise<INodeExecutionData[]> {
		const data = decodeBody(this, response) as IDataObject | undefined;
		const list = data?.[property] ?? unwrapList(data);
		return (Array.isArray(list) ? list : []).map((json) => ({ json: json as IDataObject }));
	};
}

/** The shape every bulk result takes in our output, whatever the endpoint's own shape. */
export interface BulkResult extends IDataObject {
	success: boolean;
	error?: string;
	input: IDataObject;
}

/** Pairs product update results (`status`, `errors`, `myProductId`) with the entries sent. */
export function pairProductResults(results: INodeExecutionData[], sent: IDataObject[]): INodeExecutionData[] {
	const byId = new Map(sent.map((entry) => [String(entry.id), entry]));
	return results.map(({ json }, index) => {
		const input = byId.get(String(json.myProductId)) ?? sent[index] ?? {};
		const errors = Array.isArray(json.errors) ? json.errors.map(String) : [];
		const success = String(json.status).toUpperCase() === 'SUCCESS';
		const result: BulkResult = { ...json, success, input };
		if (!success) result.error = errors.join('; ') || `Status ${String(json.status)}`;
		return { json: result };
	});
}

/** Pairs discount schedule/update results (`success`, `data`, `error`) with the entries sent, in order. */
export function pairDiscountResults(results: INodeExecutionData[], sent: IDataObject[]): INodeExecutionData[] {
	return results.map(({ json }, index) => {
		const data = (json.data ?? {}) as IDataObject;
		const failure = (json.error ?? {}) as IDataObject;
		const success = json.success === true || json.success === 'true';
		const result: BulkResult = { ...data, ...failure, success, input: sent[index] ?? {} };
		delete result.errorMessage;
		if (!success) result.error = String(failure.errorMessage ?? 'The service rejected this entry');
		return { json: result };
	});
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
		throw new NodeOperationError(this.getNode(), `${failed.length} of ${items.length} entries were rejected by the service`, {
			itemIndex: this.getItemIndex(),
			description: examples,
		});
	}
	return items;
}

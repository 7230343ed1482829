/**
 * postReceive actions shared by the operations: reading an answer (JSON or XML, tolerant of
 * wrapped lists and of bodies that are not what they claim). Bulk results are paired with their
 * entries in bulkResults.ts.
 */
import {
	NodeApiError,
	type FunctionsBase,
	type IDataObject,
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

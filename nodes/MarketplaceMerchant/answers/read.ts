/**
 * The one reader of the service's answers (docs/architecture.md, "Reading answers"), by their schema
 * (schemas.ts), where they are received: JSON, and XML through xml.ts's tree. Two spellings of one
 * field: the spec's own wins. An absent field is `null`, as Jackson's XML omits nulls, so JSON and
 * XML answers give identical items. An answer that cannot be read is an error naming its request
 * (send.ts gives every answer its request's label), never fewer items.
 */
import type {
	FunctionsBase,
	IDataObject,
	IExecuteSingleFunctions,
	IN8nHttpFullResponse,
	INodeExecutionData,
	JsonObject,
} from 'n8n-workflow';

import { serviceError } from '../transport/errors';
import type { Answer, ReadAnswer } from '../transport/send';
import { isPlainObject } from '../values/labels';
import type { AnswerSchema, ObjectSchema, ScalarKind, Schema } from './schemas';
import { IncompleteXml, parseXmlDocument, type XmlContent } from './xml';

function keyOf(name: string): string {
	return name.trim().toLowerCase();
}

/** A schema's field names by every spelling (`keyOf`), and by the exact keys answers used (`seen`: no lower-casing per key of 100,000 elements). */
interface SpecNames {
	byKey: Map<string, string>;
	seen: Map<string, string | undefined>;
}

const specNamesCache = new WeakMap<ObjectSchema, SpecNames>();

/** Exact keys remembered per schema: the keys of the service's answers, never an answer's own data keys without end. */
const SEEN_KEYS = 1_000;

function specNameOf(schema: ObjectSchema, key: string): string | undefined {
	let names = specNamesCache.get(schema);
	if (!names) {
		const byKey = new Map(
			Object.entries(schema.fields).flatMap(([name, field]) => [...(field.spelledAlso ?? []), name].map((spelling): [string, string] => [keyOf(spelling), name])),
		);
		names = { byKey, seen: new Map() };
		specNamesCache.set(schema, names);
	}
	if (names.seen.has(key)) return names.seen.get(key);
	const name = names.byKey.get(keyOf(key));
	if (names.seen.size < SEEN_KEYS) names.seen.set(key, name);
	return name;
}

/** An object read field by field; every field of the schema the answer left out is `[]` (lists) or `null`. */
function readObject<T>(schema: ObjectSchema, source: Record<string, T>, read: (field: Schema, value: T, key: string) => unknown, passThrough: (value: T) => unknown): IDataObject {
	const result: IDataObject = {};
	for (const [key, value] of Object.entries(source)) {
		const name = specNameOf(schema, key);
		if (name === undefined) result[key] = passThrough(value) as IDataObject[string];
		else if (result[name] === undefined || result[name] === null || key === name) {
			result[name] = read(schema.fields[name], value, key) as IDataObject[string];
		}
	}
	for (const [name, field] of Object.entries(schema.fields)) {
		if (!(name in result) && !field.optional) result[name] = field.kind === 'list' ? [] : null;
	}
	return result;
}

/** A number as Java services print one, also in exponent form (`1.0E7`). */
const NUMERIC = /^\s*-?\d+(\.\d+)?([eE][-+]?\d+)?\s*$/;
const BOOLEAN_TEXT = /^\s*(true|false)\s*$/i;

function readScalar(kind: ScalarKind, value: unknown): unknown {
	if (value === undefined || value === null) return null;
	if (kind === 'string') return typeof value === 'number' || typeof value === 'boolean' ? String(value) : value;
	if (kind === 'number' || kind === 'integer') return typeof value === 'string' && NUMERIC.test(value) ? Number(value) : value;
	if (kind === 'boolean') return typeof value === 'string' && BOOLEAN_TEXT.test(value) ? value.trim().toLowerCase() === 'true' : value;
	return value;
}

const LIST_WRAPPERS = new Set(['content', 'data', 'items', 'results', 'list', 'elements']);

/**
 * The list out of a wrapper (`{content: [...]}`, `{data: [...], total: 3}`): an object whose only
 * property is a list, or whose one list sits under a usual wrapper name. Anything else (an update
 * result `{status, errors: [], myProductId}`) is an answer in its own right.
 */
export function unwrapList(body: unknown): unknown {
	if (Array.isArray(body) || !isPlainObject(body)) return body;
	const entries = Object.entries(body);
	const lists = entries.filter(([, value]) => Array.isArray(value));
	if (lists.length !== 1) return body;
	const [name, list] = lists[0];
	return entries.length === 1 || LIST_WRAPPERS.has(name) ? list : body;
}

function jsonElements(value: unknown): unknown[] {
	if (Array.isArray(value)) return value;
	if (value === undefined || value === null) return [];
	if (typeof value !== 'string') return [value];
	const text = value.trim();
	if (text === '') return [];
	if (!(text.startsWith('[') && text.endsWith(']'))) return [value];
	try {
		const parsed: unknown = JSON.parse(text);
		if (Array.isArray(parsed)) return parsed;
	} catch {
		// `[COD, VOUCHER]`: a Java list's toString, not JSON
	}
	const inner = text.slice(1, -1).trim();
	return inner === '' ? [] : inner.split(',').map((entry) => entry.trim());
}

function readJson(schema: Schema, value: unknown): unknown {
	if (schema.kind === 'list') return jsonElements(value).map((element) => readJson(schema.of, element));
	if (schema.kind !== 'object' && schema.kind !== 'map') return readScalar(schema.kind, value);
	if (!isPlainObject(value)) return value ?? null;
	if (schema.kind === 'object') return readObject(schema, value, readJson, (unknown) => unknown);
	return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key.trim(), readJson(schema.values, entry)]));
}

/** Whether every key of `value` the schema knows is spelled as the schema's own name (then reading it in place keeps its keys' order). */
function spelledAsSchema(schema: ObjectSchema, value: IDataObject): boolean {
	for (const key in value) {
		const name = specNameOf(schema, key);
		if (name !== undefined && name !== key) return false;
	}
	return true;
}

/**
 * `readJson` of JSON this module parsed itself, which nothing else holds: objects and lists are read
 * in place, giving what `readJson` gives (the same keys in the same order, fields left out as
 * `null` or `[]` at the end) without a second copy of every element, which a Return All of 100,000
 * products held beside the parsed page. An object with another spelling of a field is copied, as
 * `readJson` does.
 */
function readParsedJson(schema: Schema, value: unknown): unknown {
	if (schema.kind === 'list' && Array.isArray(value)) {
		for (let index = 0; index < value.length; index++) value[index] = readParsedJson(schema.of, value[index]);
		return value;
	}
	if (schema.kind !== 'object' || !isPlainObject(value) || !spelledAsSchema(schema, value)) return readJson(schema, value);
	for (const key in value) {
		const name = specNameOf(schema, key);
		if (name !== undefined) value[key] = readParsedJson(schema.fields[name], value[key]) as IDataObject[string];
	}
	for (const name in schema.fields) {
		const field = schema.fields[name];
		if (!(name in value) && !field.optional) value[name] = field.kind === 'list' ? [] : null;
	}
	return value;
}

const XML_ITEM = 'item';

/** The occurrences of an XML element the schema does not know, read as their structure says: an empty element is null. */
function xmlAsIs(occurrences: XmlContent[]): unknown {
	if (occurrences.length !== 1) return occurrences.map((occurrence) => xmlAsIs([occurrence]));
	const [content] = occurrences;
	if (typeof content === 'string') return content === '' ? null : content;
	return Object.fromEntries(Object.entries(content).map(([name, children]) => [name, xmlAsIs(children)]));
}

/**
 * The elements of list field `name`: repeated unwrapped elements (`<f>a</f><f>b</f>`), or one
 * wrapper whose children all have one name, the field's own (Jackson: `<f><f>a</f></f>`) or
 * `item`. A child named like a field of the element is that element's field, not a wrapper.
 */
function xmlElements(occurrences: XmlContent[], name: string, of: Schema): XmlContent[] {
	if (occurrences.length !== 1) return occurrences;
	const [only] = occurrences;
	if (typeof only === 'string') return [only];
	const childNames = Object.keys(only);
	if (childNames.length !== 1) return [only];
	const [child] = childNames;
	const isOwnName = keyOf(child) === keyOf(name) || keyOf(child) === XML_ITEM;
	const isElementField = of.kind === 'object' && specNameOf(of, child) !== undefined;
	return isOwnName && !isElementField ? only[child] : [only];
}

/** Reads the occurrences of the element `name` (one, or several for an unwrapped list) against its schema. */
function readXml(schema: Schema, occurrences: XmlContent[], name: string): unknown {
	if (schema.kind === 'list') {
		if (occurrences.length === 1 && typeof occurrences[0] === 'string') {
			return jsonElements(occurrences[0]).map((element) => readJson(schema.of, element));
		}
		return xmlElements(occurrences, name, schema.of).map((element) => readXml(schema.of, [element], name));
	}
	if (occurrences.length !== 1) return occurrences.map((occurrence) => readXml(schema, [occurrence], name));
	const [content] = occurrences;
	if (content === '') return null;
	if (typeof content === 'string') return schema.kind === 'object' || schema.kind === 'map' ? content : readScalar(schema.kind, content);
	if (schema.kind === 'object') return readObject<XmlContent[]>(schema, content, readXml, xmlAsIs);
	if (schema.kind === 'map') {
		return Object.fromEntries(Object.entries(content).map(([key, children]) => [key.trim(), readXml(schema.values, children, key)]));
	}
	return xmlAsIs(occurrences);
}

/** An answer's JSON read against its schema; `parsedHere`: parsed by this module, so read in place (`readParsedJson`). */
export function decodeJson(body: unknown, answer: AnswerSchema, parsedHere = false): unknown {
	const { body: schema, itemsAt, asList } = answer;
	if (Array.isArray(body)) {
		if (asList !== undefined) return body.map((element) => readJson(asList, element));
		// A bare list where an object holding one is expected (`content`, `scheduleResult`).
		if (itemsAt !== undefined && schema.kind === 'object') return readJson(schema, { [itemsAt]: body });
		// An object answer wrapped in a list (ean/exists does this): each element read as the object.
		if (schema.kind === 'object' || schema.kind === 'map') return body.map((element) => readJson(schema, element));
	}
	const content = schema.kind === 'list' ? unwrapList(body) : body;
	return parsedHere ? readParsedJson(schema, content) : readJson(schema, content);
}

/** Whether an answer is XML (xml.ts parses it): by its Content-Type, or markup where JSON was expected. */
export function looksLikeXml(contentType: unknown, body: unknown): boolean {
	if (typeof body !== 'string') return false;
	if (typeof contentType === 'string' && contentType.includes('xml')) return true;
	return body.trimStart().startsWith('<');
}

/** Undefined without a root element. A list answer's root only wraps (Jackson's `<List><item>…</item></List>`). */
function readXmlBody({ body: schema }: AnswerSchema, xml: string): unknown {
	const document = parseXmlDocument(xml);
	if (document === undefined) return undefined;
	const { rootName, root } = document;
	if (schema.kind !== 'list') return readXml(schema, [root], rootName);
	const elements = typeof root === 'string' ? (root === '' ? [] : [root]) : Object.values(root).flat();
	return elements.map((element) => readXml(schema.of, [element], XML_ITEM));
}

/** Reads an answer's text, JSON or XML, against its schema. Throws on a body that is neither; undefined for an empty body. */
export function decodeText(text: string, contentType: unknown, answer: AnswerSchema): unknown {
	if (text.trim() === '') return undefined;
	if (looksLikeXml(contentType, text)) return readXmlBody(answer, text);
	return decodeJson(JSON.parse(text), answer, true);
}

/** Whether JSON that failed to parse was cut (the parser ran out of input), not garbled. */
function endsEarly(text: string, error: unknown): boolean {
	const message = String((error as Error)?.message ?? '');
	if (/end of (JSON )?input/i.test(message)) return true;
	const position = /at position (\d+)/.exec(message)?.[1];
	return position !== undefined && Number(position) >= text.trimEnd().length;
}

/** An answer as send.ts gives it, with its request's label; a body read elsewhere may come without one. */
type Received = IN8nHttpFullResponse & Partial<Pick<Answer, 'request'>>;

function unreadable(ctx: Pick<FunctionsBase, 'getNode'>, response: Received, text: string, error: unknown): Error {
	const status = `HTTP ${response.statusCode}, ${Buffer.byteLength(text)} bytes`;
	const stops = 'The node stops rather than return only the part that arrived: run it again, and if this persists,';
	const reason = (error as Error).message;
	const isXml = error instanceof IncompleteXml || looksLikeXml(response.headers?.['content-type'], text);
	const cause: JsonObject = isXml ? { message: reason } : { body: text.slice(0, 200) };
	let message = 'The service answered with a body that is not valid JSON';
	let description = `HTTP ${response.statusCode}; the answer starts with: ${text.slice(0, 120)}`;
	if (error instanceof IncompleteXml) {
		message = "The service's answer is not a complete XML document: it was cut off or is broken";
		description = `The XML answer ${reason} (${status}). ${stops} ask for shorter date ranges or check for a proxy that cuts answers.`;
	} else if (isXml) {
		message = 'The service answered with XML that could not be read';
		description = reason;
	} else if (endsEarly(text, error)) {
		message += ': it ends before the document does (cut off)';
		description = `${status}; the answer starts with: ${text.slice(0, 120)}. ${stops} check for a proxy that cuts answers.`;
	}
	const unreadableError = serviceError(ctx.getNode(), cause, { message, description });
	if (response.request === undefined) return unreadableError;
	unreadableError.description = `${unreadableError.description ?? ''} Request: ${response.request}.`.trim();
	return unreadableError;
}

/** An answer's body read against its schema; one that cannot be read is an error naming the request, never fewer items. */
export function decodeAnswer(ctx: Pick<FunctionsBase, 'getNode'>, response: Received, answer: AnswerSchema): unknown {
	const body: unknown = Buffer.isBuffer(response.body) ? response.body.toString('utf8') : response.body;
	if (typeof body !== 'string') return body === undefined || body === null ? undefined : decodeJson(body, answer);
	try {
		return decodeText(body, response.headers?.['content-type'], answer);
	} catch (error) {
		throw unreadable(ctx, response, body, error);
	}
}

/** The elements of an answer's body as read (`decodeAnswer`): a list's, or those under the schema's `itemsAt`. */
export function elementsOf(body: unknown, answer: AnswerSchema): unknown[] {
	const data = answer.itemsAt !== undefined && isPlainObject(body) ? body[answer.itemsAt] : body;
	if (data === undefined || data === null) return [];
	return Array.isArray(data) ? data : [data];
}

/** A list answer's elements, for code that needs a body's list rather than output items (editor lists, lookups); an empty body is `[]`. */
export function decodedList<T = IDataObject>(ctx: Pick<FunctionsBase, 'getNode'>, response: Received, answer: AnswerSchema): T[] {
	return elementsOf(decodeAnswer(ctx, response, answer), answer) as T[];
}

/** What an operation makes of its answer's items, with the answer and its body (read by schema) at hand: simplify, pair, attach. */
export type Shaping = (
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
	answer: Answer,
	body: unknown,
) => Promise<INodeExecutionData[]>;

/**
 * A routed operation's reader (actions/common.ts `pacedRouting`): the answer by its schema, where it
 * is received, as one output item per element (a scalar as `{ value }`), then the operation's shaping.
 */
export function readInto(answer: AnswerSchema, shape: Shaping[] = []): ReadAnswer {
	return async function (received) {
		const body = decodeAnswer(this, received, answer);
		const elements = elementsOf(body, answer);
		// pairedItem from the start (forInputItem, transport/routing.ts, sets it): no property added later to each of 100,000 items.
		let items: INodeExecutionData[] = elements.map((json) => ({ json: isPlainObject(json) ? json : { value: json as string }, pairedItem: undefined }));
		for (const step of shape) items = await step.call(this, items, received, body);
		return items;
	};
}

/** A number field of a decoded answer, or null when left out or not a number (the reader never guesses). */
export function decodedNumber(value: unknown): number | null {
	return typeof value === 'number' && Number.isFinite(value) ? value : null;
}


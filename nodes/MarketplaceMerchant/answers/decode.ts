/**
 * The one reader of the service's answers (docs/architecture.md, "Reading answers"). Two spellings of
 * one field: the spec's own wins. An absent field is `null`, as Jackson's XML omits nulls, so JSON and
 * XML answers give identical items. XML is parsed safely: only the predefined entities and character
 * references are decoded, and a DOCTYPE is refused, so nested entity definitions stay small.
 */
import {
	type FunctionsBase,
	type IDataObject,
	type IN8nHttpFullResponse,
	type JsonObject,
	type PostReceiveAction,
} from 'n8n-workflow';
import { XMLParser } from 'fast-xml-parser';

import { type AnswerSchema, type ObjectSchema, type ScalarKind, type Schema } from './schema';
import { serviceError } from '../transport/errors';
import { isPlainObject } from '../values/values';

/** An element's text (trimmed; `''` when empty), or its children by name, each with all its occurrences in order. */
type XmlContent = string | { [name: string]: XmlContent[] };

const PREDEFINED_ENTITY = /&(lt|gt|amp|quot|apos|#\d+|#x[0-9a-f]+);/gi;
const PREDEFINED_TEXT: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decodeEntities(text: string): string {
	if (!text.includes('&')) return text;
	return text.replace(PREDEFINED_ENTITY, (whole, name: string) => {
		if (name[0] !== '#') return PREDEFINED_TEXT[name.toLowerCase()] ?? whole;
		const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
		return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
	});
}

/** Every element as a list of its occurrences, so a one-element list and a single value differ by structure. */
const parser = new XMLParser({
	ignoreAttributes: true,
	ignoreDeclaration: true,
	ignorePiTags: true,
	processEntities: false,
	htmlEntities: false,
	parseTagValue: false,
	trimValues: true,
	isArray: () => true,
});

function contentOf(parsed: unknown): XmlContent {
	if (typeof parsed === 'string') return decodeEntities(parsed);
	if (!parsed || typeof parsed !== 'object') return '';
	return Object.fromEntries(Object.entries(parsed as Record<string, unknown[]>).map(([name, found]) => [name, found.map(contentOf)]));
}

class IncompleteXml extends Error {}

/** Markup starting with `<!` or `<?`: where it ends, and its name in a message. */
const SKIPPED_MARKUP: Array<{ opening: string; closing: string; name: string }> = [
	{ opening: '<!--', closing: '-->', name: 'a comment' },
	{ opening: '<![CDATA[', closing: ']]>', name: 'a CDATA section' },
	{ opening: '<?', closing: '?>', name: 'a processing instruction' },
];

/** The end (`>`) of the tag starting at `start`, past any `>` inside quoted attribute values; -1 when it never ends. */
function tagEnd(xml: string, start: number): number {
	const end = xml.indexOf('>', start);
	if (end < 0) return -1;
	const inside = xml.slice(start, end);
	if (!inside.includes('"') && !inside.includes("'")) return end;
	let quote = '';
	for (let index = start; index < xml.length; index++) {
		const char = xml[index];
		if (quote !== '') {
			if (char === quote) quote = '';
		} else if (char === '"' || char === "'") quote = char;
		else if (char === '>') return index;
	}
	return -1;
}

/**
 * Checks that every element is closed, in order: the parser reads an answer cut after a complete
 * tag (a proxy, a dropped connection), or `<a><b></a>`, as fewer elements without any error.
 */
function checkComplete(xml: string): void {
	const open: string[] = [];
	let rootClosed = false;
	for (let start = xml.indexOf('<'); start >= 0; ) {
		const next = xml[start + 1];
		let end: number;
		if (next === '!' || next === '?') {
			const markup = SKIPPED_MARKUP.find(({ opening }) => xml.startsWith(opening, start));
			if (!markup) throw new IncompleteXml(`has markup that is not XML at character ${start}`);
			end = xml.indexOf(markup.closing, start + markup.opening.length);
			if (end < 0) throw new IncompleteXml(`ends inside ${markup.name}`);
			end += markup.closing.length - 1;
		} else {
			end = tagEnd(xml, start + 1);
			if (end < 0) throw new IncompleteXml(`ends inside a tag${open.length > 0 ? ` within <${open[open.length - 1]}>` : ''}`);
			if (next === '/') {
				const name = xml.slice(start + 2, end).trim();
				const expected = open.pop();
				if (name !== expected) {
					throw new IncompleteXml(expected === undefined ? `closes </${name}>, which was never opened` : `closes </${name}> where <${expected}> is open`);
				}
				rootClosed ||= open.length === 0;
			} else {
				const name = /^[^\s/>]+/.exec(xml.slice(start + 1, end))?.[0] ?? '';
				if (rootClosed) throw new IncompleteXml(`has a second root element <${name}> after the first one`);
				if (xml[end - 1] !== '/') open.push(name);
				else rootClosed ||= open.length === 0;
			}
		}
		start = xml.indexOf('<', end + 1);
	}
	if (open.length > 0) {
		const innermost = open.length > 1 ? ` (${open.length} elements left open, the innermost <${open[open.length - 1]}>)` : '';
		throw new IncompleteXml(`ends before its <${open[0]}> element is closed${innermost}`);
	}
}

export function looksLikeXml(contentType: unknown, body: unknown): boolean {
	if (typeof body !== 'string') return false;
	if (typeof contentType === 'string' && contentType.includes('xml')) return true;
	return body.trimStart().startsWith('<');
}

function keyOf(name: string): string {
	return name.trim().toLowerCase();
}

const specNamesCache = new WeakMap<ObjectSchema, Map<string, string>>();

function specNameOf(schema: ObjectSchema, key: string): string | undefined {
	let names = specNamesCache.get(schema);
	if (!names) {
		names = new Map(Object.keys(schema.fields).map((name) => [keyOf(name), name]));
		specNamesCache.set(schema, names);
	}
	return names.get(keyOf(key));
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
		if (!(name in result)) result[name] = field.kind === 'list' ? [] : null;
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

export function decodeJson(body: unknown, answer: AnswerSchema): unknown {
	const { body: schema, itemsAt, asList } = answer;
	if (Array.isArray(body)) {
		if (asList !== undefined) return body.map((element) => readJson(asList, element));
		// A bare list where an object holding one is expected (`content`, `scheduleResult`).
		if (itemsAt !== undefined && schema.kind === 'object') return readJson(schema, { [itemsAt]: body });
		// An object answer wrapped in a list (ean/exists does this): each element read as the object.
		if (schema.kind === 'object' || schema.kind === 'map') return body.map((element) => readJson(schema, element));
	}
	return readJson(schema, schema.kind === 'list' ? unwrapList(body) : body);
}

/** Undefined without a root element. A list answer's root only wraps (Jackson's `<List><item>…</item></List>`). */
function readXmlBody({ body: schema }: AnswerSchema, xml: string): unknown {
	// The service's answers never declare one; reading on would hand the workflow unexpanded references (`&lol9;`) as data.
	if (/<!DOCTYPE/i.test(xml)) throw new Error('The XML answer declares a DOCTYPE with entity definitions; it is refused for safety');
	checkComplete(xml);
	const document = parser.parse(xml) as Record<string, unknown[]>;
	const [rootName] = Object.keys(document);
	if (rootName === undefined) return undefined;
	const root = contentOf(document[rootName][0]);
	if (schema.kind !== 'list') return readXml(schema, [root], rootName);
	const elements = typeof root === 'string' ? (root === '' ? [] : [root]) : Object.values(root).flat();
	return elements.map((element) => readXml(schema.of, [element], XML_ITEM));
}

/** Reads an answer's text, JSON or XML, against its schema. Throws on a body that is neither; undefined for an empty body. */
export function decodeText(text: string, contentType: unknown, answer: AnswerSchema): unknown {
	if (text.trim() === '') return undefined;
	if (looksLikeXml(contentType, text)) return readXmlBody(answer, text);
	return decodeJson(JSON.parse(text), answer);
}

/**
 * An error about an unreadable answer names its request: `sendAuthenticated` labels each answer here
 * before it is read; in routing, where the answer is read inside n8n, the sender names it (`namingRequest`).
 */
export const requestOfAnswer = new WeakMap<object, string>();
const unreadableAnswerErrors = new WeakSet<object>();

/** How a request is named in errors: its method, path and query, never the host (a Base URL may carry a password). */
export function requestLabel(method: unknown, url = '', qs?: unknown): string {
	// A path that is not a URL stays as it is.
	const parsed = URL.canParse(url, 'http://base.invalid') ? new URL(url, 'http://base.invalid') : undefined;
	const path = parsed ? `${parsed.pathname}${parsed.search}` : url;
	const query =
		isPlainObject(qs) && Object.keys(qs).length > 0
			? `${path.includes('?') ? '&' : '?'}${new URLSearchParams(Object.entries(qs).map(([key, value]): [string, string] => [key, String(value)])).toString()}`
			: '';
	const label = `${String(method ?? 'GET').toUpperCase()} ${path}${query}`;
	return label.length > 300 ? `${label.slice(0, 300)}…` : label;
}

export function namingRequest<T>(error: T, label: string): T {
	if (!unreadableAnswerErrors.delete(error as object)) return error;
	const named = error as { description?: string | null };
	named.description = `${named.description ?? ''} Request: ${label}.`.trim();
	return error;
}

/** Whether JSON that failed to parse was cut (the parser ran out of input), not garbled. */
function endsEarly(text: string, error: unknown): boolean {
	const message = String((error as Error)?.message ?? '');
	if (/end of (JSON )?input/i.test(message)) return true;
	const position = /at position (\d+)/.exec(message)?.[1];
	return position !== undefined && Number(position) >= text.trimEnd().length;
}

function unreadable(ctx: Pick<FunctionsBase, 'getNode'>, response: IN8nHttpFullResponse, text: string, error: unknown): Error {
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
	const built = serviceError(ctx.getNode(), cause, { message, description });
	unreadableAnswerErrors.add(built);
	const request = requestOfAnswer.get(response);
	return request === undefined ? built : namingRequest(built, request);
}

/** An answer's body read against its schema; one that cannot be read is an error naming the request, never fewer items. */
export function decodeAnswer(ctx: Pick<FunctionsBase, 'getNode'>, response: IN8nHttpFullResponse, answer: AnswerSchema): unknown {
	const body: unknown = Buffer.isBuffer(response.body) ? response.body.toString('utf8') : response.body;
	if (typeof body !== 'string') return body === undefined || body === null ? undefined : decodeJson(body, answer);
	try {
		return decodeText(body, response.headers?.['content-type'], answer);
	} catch (error) {
		throw unreadable(ctx, response, body, error);
	}
}

function elementsOf(body: unknown, answer: AnswerSchema): unknown[] {
	const data = answer.itemsAt !== undefined && isPlainObject(body) ? body[answer.itemsAt] : body;
	if (data === undefined || data === null) return [];
	return Array.isArray(data) ? data : [data];
}

/** A list answer's elements, for code outside an operation's postReceive (editor lists, lookups); an empty body is `[]`. */
export function decodedList<T = IDataObject>(ctx: Pick<FunctionsBase, 'getNode'>, response: IN8nHttpFullResponse, answer: AnswerSchema): T[] {
	return elementsOf(decodeAnswer(ctx, response, answer), answer) as T[];
}

/** A postReceive written as a function, typed by n8n. */
export type PostReceiveFunction = Extract<PostReceiveAction, (...args: never[]) => unknown>;

export function readAnswer(answer: AnswerSchema): PostReceiveFunction {
	return async function (_items, response) {
		const elements = elementsOf(decodeAnswer(this, response, answer), answer);
		return elements.map((json) => ({ json: isPlainObject(json) ? json : { value: json as string } }));
	};
}

/** A number field of a decoded answer, or null when left out or not a number (the reader never guesses). */
export function decodedNumber(value: unknown): number | null {
	return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

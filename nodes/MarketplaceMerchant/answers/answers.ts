/**
 * Reading the service's answers, in one place (docs/architecture.md "Reading answers"): the shape of
 * every answer as the spec gives it (Schemas), the one reader that turns an answer into items by its
 * shape (Reading), and the pairing of a bulk write's results with the entries sent (Bulk results).
 */
import {
	type FunctionsBase,
	type IDataObject,
	type IExecutePaginationFunctions,
	type IN8nHttpFullResponse,
	type INode,
	type INodeExecutionData,
	type JsonObject,
} from 'n8n-workflow';
import { XMLParser } from 'fast-xml-parser';

import { nodeError, serviceError, statusOf, unreadableAnswerError, withEnglishMeaning, type PostReceiveFunction } from '../transport/engine';
import { isPlainObject } from '../values/labels';
import { readFailOnItemErrors } from '../values/values';

// ─── Schemas ─────────────────────────────────────────────────────────────────────────────────────────
/**
 * The shape of every answer, written down once from the spec
 * (../../../shared/spec/merchant-integration-api.md); the reader below reads every answer through it.
 * Ids the spec types as strings (EAN, SKU, suborderId, apId…) are STRING: they keep leading zeros.
 */
type ScalarKind = 'string' | 'number' | 'integer' | 'boolean' | 'any';

/** `optional`: a field only the newer sources show; read when sent, left out (not null) when not. */
export type Schema = { readonly optional?: true } & (
	| { readonly kind: ScalarKind }
	| { readonly kind: 'list'; readonly of: Schema }
	| { readonly kind: 'object'; readonly fields: Readonly<Record<string, Schema>> }
	/** An object whose keys are data (EANs, suborder ids), each value of one schema. */
	| { readonly kind: 'map'; readonly values: Schema }
);

type ObjectSchema = Extract<Schema, { kind: 'object' }>;

export const STRING: Schema = { kind: 'string' };
export const NUMBER: Schema = { kind: 'number' };
const INTEGER: Schema = { kind: 'integer' };
export const BOOLEAN: Schema = { kind: 'boolean' };
/** A value the spec does not type ("not shown"): passed through as it comes. */
const ANY: Schema = { kind: 'any' };

export const listOf = (of: Schema): Schema => ({ kind: 'list', of });
export const objectOf = (fields: Record<string, Schema>): ObjectSchema => ({ kind: 'object', fields });
const mapOf = (values: Schema): Schema => ({ kind: 'map', values });
/**
 * A field the 2026 documentation adds (platform facts, "What the current documentation … add"):
 * absent from a service answering as the reference does, where it stays absent, so that outputs
 * keep their shape there.
 */
const optional = (schema: Schema): Schema => ({ ...schema, optional: true });
/** Fields of one kind, in the spec's order (the order of the fields a reader fills in). */
function fieldsOf(kind: Schema, ...names: string[]): Record<string, Schema> {
	return Object.fromEntries(names.map((name) => [name, kind]));
}

/** `brand` is a serialized object (`{"id":29785,"name":"Nike"}`) in a string. */
export const PRODUCT = objectOf({
	id: INTEGER,
	...fieldsOf(STRING, 'externalId', 'ean', 'platformCode', 'name', 'description', 'brand', 'sku', 'productType'),
	categories: listOf(STRING),
	...fieldsOf(NUMBER, 'newBasePrice', 'basePrice', 'vat', 'stockLevel', 'packageWeightValue'),
	packageWeightUnit: STRING,
	// The current pages: READY_FOR_PUBLISH, PUBLISHED, SOLD_OUT, UNPUBLISHED, UNPUBLISHED_OOS; the
	// variations of one product share groupId; specifications is a JSON string. The platform code
	// under a key named after the marketplace passes through as sent.
	...fieldsOf(optional(STRING), 'status', 'groupId'),
	...fieldsOf(optional(NUMBER), 'packageHeightValue', 'packageWidthValue', 'packageLengthValue'),
	...fieldsOf(optional(STRING), 'packageDimensionUnit', 'specifications'),
});

const BASIC_PRODUCT = objectOf({
	id: INTEGER,
	...fieldsOf(STRING, 'ean', 'sku'),
	...fieldsOf(NUMBER, 'newBasePrice', 'basePrice', 'stockLevel'),
	warehouse: STRING,
});

const PRICE_DETAILS = objectOf({
	...fieldsOf(NUMBER, 'unitPrice', 'unitPriceWithoutVat', 'basePrice', 'basePriceWithoutVat'),
	...fieldsOf(NUMBER, 'discountVat', 'discountAmount', 'vat', 'vatAmount'),
});

/**
 * An invoice or a correction: they differ in a correction's reason, the last field of fiscalDetails,
 * the id first in orderDetails, and `fba` (a boolean in an invoice, a string in a correction).
 */
function documentOf(reason: Record<string, Schema>, fiscalNumber: string, idField: string, fba: Schema, newerFields: { fiscal?: string; order?: string } = {}): ObjectSchema {
	const newer = (name: string | undefined) => (name === undefined ? {} : { [name]: optional(STRING) });
	return objectOf({
		invoiceHeader: objectOf({
			invoiceType: STRING,
			...reason,
			merchantDetails: objectOf({
				...fieldsOf(STRING, 'name', 'businessSpaceCode', 'taxIdentificationNumber', 'identificationNumber', 'taxAdministrationId', 'cashier'),
				contactDetails: objectOf({ phone: STRING, email: STRING }),
				address: objectOf({ street: STRING, city: STRING }),
			}),
			customerDetails: objectOf({
				firstName: STRING,
				lastName: STRING,
				address: objectOf({ street: STRING, city: STRING, postcode: STRING }),
			}),
			fiscalDetails: objectOf({ ...fieldsOf(STRING, 'invoiceCounter', 'verificationUrl', 'fiscalInvoiceDate', fiscalNumber), ...newer(newerFields.fiscal) }),
			orderDetails: objectOf({
				...fieldsOf(STRING, idField, 'invoicedDate', 'orderid', 'suborderId'),
				...newer(newerFields.order),
				paymentMethods: listOf(STRING),
				warehouseAddress: objectOf({ warehouseId: INTEGER, street: STRING, city: STRING }),
				orderDate: STRING,
				fba,
			}),
		}),
		productSpecification: objectOf({
			items: listOf(
				objectOf({
					productDetails: objectOf({ name: STRING, apId: STRING, sku: STRING, ean: STRING, acode: STRING }),
					quantity: INTEGER,
					itemPrice: PRICE_DETAILS,
					grandTotalPrice: PRICE_DETAILS,
				}),
			),
			totalDetails: objectOf({ basePrice: NUMBER, basePriceWithoutVat: NUMBER, vatAmount: NUMBER, chargedPrice: NUMBER }),
		}),
		taxRateSpecification: objectOf({
			taxRateSpecification: listOf(
				objectOf({ label: STRING, name: STRING, basePriceWithoutVat: NUMBER, vat: NUMBER, vatAmount: NUMBER }),
			),
			grandTotal: NUMBER,
		}),
	});
}

/** The pages' invoice example carries the id as `orderDetails.invoiceNumber`; a correction's fiscalDetails may carry `invoiceNumber`. */
export const INVOICE = documentOf({}, 'invoiceNumber', 'invoiceId', BOOLEAN, { order: 'invoiceNumber' });
const INVOICE_CORRECTION = documentOf({ invoiceCorrectionReason: STRING }, 'referentDocumentNumber', 'invoiceNumber', STRING, { fiscal: 'invoiceNumber' });

/** A discount schedule's or update's answer: under `list`, per entry, `data` on success or `error` with its message. */
function discountResults(list: string, data: Record<string, Schema>, error: Record<string, Schema>): AnswerSchema {
	const entry = objectOf({ success: BOOLEAN, data: objectOf(data), error: objectOf({ ...error, errorMessage: STRING }) });
	return { body: objectOf({ [list]: listOf(entry) }), itemsAt: list };
}

/**
 * No source shows the list carrying the type, the currency or the product's name (under the
 * schedule body's and the update results' names): read where present, absent otherwise.
 */
const DISCOUNT = objectOf({
	discountId: STRING,
	merchantInventoryId: INTEGER,
	discountPrice: NUMBER,
	dateFrom: STRING,
	dateTo: STRING,
	...fieldsOf(optional(STRING), 'discountType', 'discountPriceCurrency', 'productName'),
});
const PRICE_DATA = objectOf({ merchantInventoryId: NUMBER, basePrice: NUMBER, sellablePrice: NUMBER, discountId: STRING });

/** The current pages' update results also name the product (`type: "edit"` in a single result). */
const UPDATE_RESULT_NEWER = fieldsOf(optional(STRING), 'ean', 'productName');

export interface AnswerSchema {
	readonly body: Schema;
	/** The property of an object body whose list elements are the output items. */
	readonly itemsAt?: string;
	/**
	 * Each element's schema for a plain list where the spec has an object (links not keyed by
	 * suborder); without it, each element is read as that object (ean/exists).
	 */
	readonly asList?: Schema;
}

export const ANSWERS = {
	products: { body: listOf(PRODUCT) },
	basicProducts: { body: listOf(BASIC_PRODUCT) },
	/** The progress id of an import. */
	import: { body: objectOf({ id: STRING }) },
	/** The item type of `errors` is not shown in the spec; a bulk update's are strings. */
	productUpdate: { body: objectOf({ status: STRING, errors: listOf(ANY), myProductId: NUMBER, ...UPDATE_RESULT_NEWER, type: optional(STRING) }) },
	productBulkUpdate: { body: listOf(objectOf({ status: STRING, errors: listOf(STRING), myProductId: NUMBER, ...UPDATE_RESULT_NEWER })) },
	productTypes: { body: listOf(STRING) },
	/** Requested EAN (a key) → whether it exists. */
	eanExists: { body: mapOf(BOOLEAN) },
	warehouses: {
		body: objectOf({ content: listOf(objectOf({ id: NUMBER, warehouseName: STRING, defaultAddress: BOOLEAN })) }),
		itemsAt: 'content',
	},
	invoices: { body: listOf(INVOICE) },
	invoiceCorrections: { body: listOf(INVOICE_CORRECTION) },
	/** Keyed by suborder id (the spec's `suborderIdNumberValue` names the key); a plain list's links name their suborder. */
	invoiceUrls: {
		body: mapOf(listOf(objectOf({ documentCorrelationId: STRING, link: STRING }))),
		asList: objectOf({ suborderId: STRING, documentCorrelationId: STRING, link: STRING }),
	},
	discountSchedule: discountResults('scheduleResult', { merchantInventoryId: INTEGER, discountId: STRING }, { merchantInventoryId: INTEGER }),
	discountUpdate: discountResults('updateResult', { discountId: STRING }, { discountId: STRING }),
	discounts: { body: listOf(DISCOUNT) },
	discountCancel: { body: objectOf({ message: STRING }) },
	prices: { body: listOf(PRICE_DATA) },
	/** The spec marks id_token and refresh_token nullable: the reader keeps null as null. */
	token: { body: objectOf({ id_token: STRING, access_token: STRING, refresh_token: STRING, expires_in: INTEGER, token_type: STRING }) },
} as const satisfies Record<string, AnswerSchema>;

// ─── Reading ─────────────────────────────────────────────────────────────────────────────────────────
/**
 * The one reader of the service's answers (docs/architecture.md, "Reading answers"). Two spellings of
 * one field: the spec's own wins. An absent field is `null`, as Jackson's XML omits nulls, so JSON and
 * XML answers give identical items. XML is parsed safely: only the predefined entities and character
 * references are decoded, and a DOCTYPE is refused, so nested entity definitions stay small.
 */
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
	return unreadableAnswerError(serviceError(ctx.getNode(), cause, { message, description }), response);
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

// ─── Bulk results ────────────────────────────────────────────────────────────────────────────────────
/**
 * One output item per bulk entry sent, paired per request (bulkWrite, actions/bulk/write.ts) as
 * README.md's "Results are paired with entries" tells. A success has no `error` key at all: in
 * n8n's table a column of nulls reads as a column of failures.
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

// ─── Body shape refused ──────────────────────────────────────────────────────────────────────────────
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

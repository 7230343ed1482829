/**
 * Reads the service's XML answers into the same JSON shape its JSON answers have.
 *
 * The service writes XML the way Jackson does by default: a list answer is `<List><item>…</item></List>`
 * and a list field is a wrapper element whose children repeat the field's name
 * (`<paymentMethods><paymentMethods>COD</paymentMethods></paymentMethods>`). XML carries no types,
 * so numbers and booleans are restored by field name from the spec, and everything else stays a
 * string (EANs, ids and phone numbers must keep their leading zeros). Only the predefined entities
 * (`&amp;`, `&lt;`, …) and character references are decoded; DTD entities are never expanded, so a
 * hostile answer with nested entity definitions stays small.
 */
import { XMLParser } from 'fast-xml-parser';
import type { IDataObject } from 'n8n-workflow';

/** Fields the spec types as number or integer, in any answer. */
const NUMBER_FIELDS = new Set([
	'id',
	'newBasePrice',
	'basePrice',
	'vat',
	'stockLevel',
	'packageWeightValue',
	'myProductId',
	'warehouseId',
	'quantity',
	'unitPrice',
	'unitPriceWithoutVat',
	'basePriceWithoutVat',
	'discountVat',
	'discountAmount',
	'vatAmount',
	'chargedPrice',
	'grandTotal',
	'merchantInventoryId',
	'discountPrice',
	'sellablePrice',
	'expires_in',
]);

/** Fields the spec types as boolean (`fba` only in invoices: see XmlReadOptions.textFields). */
const BOOLEAN_FIELDS = new Set(['defaultAddress', 'success', 'fba']);

/** List fields that may arrive as an empty wrapper element. */
const LIST_FIELDS = new Set(['items', 'paymentMethods', 'taxRateSpecification', 'categories', 'gallery', 'errors', 'content']);

const ROOT_LIST = 'List';
const ROOT_LIST_ITEM = 'item';

export interface XmlReadOptions {
	/**
	 * Fields to keep as text although they are typed elsewhere: `fba` is a boolean in invoices
	 * but a string in corrections, and XML cannot tell the two apart.
	 */
	textFields?: ReadonlySet<string>;
}

/** The five predefined XML entities and character references; DTD entities stay as written. */
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

function restoreType(field: string, text: string, options: XmlReadOptions): unknown {
	if (options.textFields?.has(field)) return text;
	if (NUMBER_FIELDS.has(field)) {
		const value = Number(text);
		return text.trim() !== '' && Number.isFinite(value) ? value : text;
	}
	if (BOOLEAN_FIELDS.has(field) && (text === 'true' || text === 'false')) return text === 'true';
	return text;
}

/**
 * Every element is read as a list of its occurrences, so that a one-element list and a single
 * value can be told apart by structure afterwards (see `readElement`). Entities are not
 * processed by the parser at all: a DOCTYPE's definitions are never expanded.
 */
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

type Occurrences = unknown[];

/**
 * One element as JSON. An element whose only children repeat its own name is a list wrapper
 * (Jackson's default for list fields): its children are the list, however many there are. This
 * also reads `<taxRateSpecification>` right, an object holding a list of the same name. Other
 * elements are objects; a child that occurs several times without a wrapper is a list too.
 */
function readElement(name: string, occurrence: unknown, options: XmlReadOptions): unknown {
	if (typeof occurrence === 'string') {
		if (occurrence === '' && LIST_FIELDS.has(name)) return [];
		return restoreType(name, decodeEntities(occurrence), options);
	}
	if (!occurrence || typeof occurrence !== 'object') return occurrence;
	const children = Object.entries(occurrence as Record<string, Occurrences>);
	if (children.length === 1 && children[0][0] === name) {
		return children[0][1].map((child) => readElement(name, child, options));
	}
	const result: IDataObject = {};
	for (const [key, occurrences] of children) {
		const values = occurrences.map((child) => readElement(key, child, options));
		result[key] = (values.length === 1 ? values[0] : values) as IDataObject[keyof IDataObject];
	}
	return result;
}

/** Parses an XML answer body; a `<List>` root becomes an array (also with one or no `<item>`). */
/**
 * The service's answers never declare a DOCTYPE. One that does is refused outright: its entity
 * definitions are never expanded (processEntities is off), but reading on would hand the
 * workflow unexpanded references such as `&lol9;` as if they were data.
 */
const DOCTYPE = /<!DOCTYPE/i;

export function parseXmlAnswer(xml: string, options: XmlReadOptions = {}): unknown {
	if (DOCTYPE.test(xml)) {
		throw new Error('The XML answer declares a DOCTYPE with entity definitions; it is refused for safety');
	}
	const document = parser.parse(xml) as Record<string, Occurrences>;
	const [rootName] = Object.keys(document);
	if (rootName === undefined) return undefined;
	const root = document[rootName][0];
	if (rootName === ROOT_LIST) {
		const items = root && typeof root === 'object' ? ((root as Record<string, Occurrences>)[ROOT_LIST_ITEM] ?? []) : [];
		return items.map((item) => readElement(ROOT_LIST_ITEM, item, options));
	}
	return readElement(rootName, root, options);
}

export function looksLikeXml(contentType: unknown, body: unknown): boolean {
	if (typeof body !== 'string') return false;
	if (typeof contentType === 'string' && contentType.includes('xml')) return true;
	return body.trimStart().startsWith('<');
}

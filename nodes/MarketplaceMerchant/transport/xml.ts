/**
 * Parses XML answers safely into a neutral tree; what the elements mean (lists, numbers, nulls)
 * is decided by the answer's schema in decode.ts, since XML carries no types and the Java
 * services behind the API render lists in several ways.
 *
 * Only the predefined entities (`&amp;`, `&lt;`, …) and character references are decoded; DTD
 * entities are never expanded, and a document that declares a DOCTYPE is refused, so a hostile
 * answer with nested entity definitions stays small.
 */
import { XMLParser } from 'fast-xml-parser';

/**
 * An element's content: its text (entities decoded, trimmed; `''` for an empty element), or its
 * child elements by name, each with all its occurrences in document order.
 */
export type XmlContent = string | XmlChildren;
export interface XmlChildren {
	[name: string]: XmlContent[];
}

interface XmlDocument {
	rootName: string;
	root: XmlContent;
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

/**
 * Every element is read as a list of its occurrences, so that a one-element list and a single
 * value can be told apart by structure afterwards. Entities are not processed by the parser at
 * all: a DOCTYPE's definitions are never expanded.
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

function contentOf(parsed: unknown): XmlContent {
	if (typeof parsed === 'string') return decodeEntities(parsed);
	if (!parsed || typeof parsed !== 'object') return '';
	const children: XmlChildren = {};
	for (const [name, occurrences] of Object.entries(parsed as Record<string, unknown[]>)) {
		children[name] = occurrences.map(contentOf);
	}
	return children;
}

/**
 * The service's answers never declare a DOCTYPE. One that does is refused outright: its entity
 * definitions are never expanded (processEntities is off), but reading on would hand the
 * workflow unexpanded references such as `&lol9;` as if they were data.
 */
const DOCTYPE = /<!DOCTYPE/i;

/** Parses an XML answer; undefined for a document without a root element. */
export function parseXml(xml: string): XmlDocument | undefined {
	if (DOCTYPE.test(xml)) {
		throw new Error('The XML answer declares a DOCTYPE with entity definitions; it is refused for safety');
	}
	const document = parser.parse(xml) as Record<string, unknown[]>;
	const [rootName] = Object.keys(document);
	if (rootName === undefined) return undefined;
	return { rootName, root: contentOf(document[rootName][0]) };
}

export function looksLikeXml(contentType: unknown, body: unknown): boolean {
	if (typeof body !== 'string') return false;
	if (typeof contentType === 'string' && contentType.includes('xml')) return true;
	return body.trimStart().startsWith('<');
}

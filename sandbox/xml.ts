/**
 * XML as the live service (Spring + Jackson XML) speaks it. Answers use Jackson's default shape
 * unless the variants ask otherwise: root `<List>`, one `<item>` per element, arrays inside
 * objects wrapped in an element named after the field whose children repeat that name
 * (`listStyle` 'wrapped'; 'item' names the children `<item>`, 'unwrapped' repeats the field's
 * element without a wrapper), null fields omitted (or empty elements). Request bodies may use any
 * root and element names, as Jackson reads them.
 */
import { XMLParser } from 'fast-xml-parser';
import { isRecord } from './values';
import type { XmlListStyle } from './variants';

export interface XmlRendering {
	listStyle: XmlListStyle;
	nullsAsEmptyElements: boolean;
}

const JACKSON_DEFAULT: XmlRendering = { listStyle: 'wrapped', nullsAsEmptyElements: false };

function escapeText(text: string): string {
	return text.replace(/[&<>"']/g, (char) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": 'apos' }[char]};`);
}

function element(name: string, value: unknown, rendering: XmlRendering): string {
	if (value === null || value === undefined) return rendering.nullsAsEmptyElements ? `<${name}/>` : '';
	if (Array.isArray(value)) {
		if (rendering.listStyle === 'unwrapped') return value.map((entry) => element(name, entry, rendering)).join('');
		const childName = rendering.listStyle === 'item' ? 'item' : name;
		return `<${name}>${value.map((entry) => element(childName, entry, rendering)).join('')}</${name}>`;
	}
	if (typeof value === 'object') {
		const children = Object.entries(value as Record<string, unknown>).map(([key, child]) => element(key, child, rendering));
		return `<${name}>${children.join('')}</${name}>`;
	}
	return `<${name}>${escapeText(String(value))}</${name}>`;
}

/** An answer as Jackson XML: a list as `<List><item>…</item></List>` (in every list style), an object under `<Answer>`. */
export function toJacksonXml(value: unknown, rendering: XmlRendering = JACKSON_DEFAULT): string {
	if (!Array.isArray(value)) return element('Answer', value, rendering);
	return `<List>${value.map((entry) => element('item', entry, rendering)).join('')}</List>`;
}

const parser = new XMLParser({
	ignoreAttributes: true,
	ignoreDeclaration: true,
	ignorePiTags: true,
	// Values stay strings: EANs would lose their meaning as numbers; routes read numbers leniently.
	parseTagValue: false,
	trimValues: true,
	processEntities: true,
	htmlEntities: false,
});

/** The content of the document's root element; throws on malformed XML or several roots. */
export function parseXmlBody(text: string): unknown {
	const document = parser.parse(text, true) as Record<string, unknown>;
	const roots = Object.keys(document);
	if (roots.length !== 1) throw new Error('XML body must have exactly one root element');
	const root = document[roots[0]];
	return Array.isArray(root) ? root[0] : root;
}

/**
 * A list read from XML: `<wrapper><x>…</x><x>…</x></wrapper>` parses as `{ x: [...] }` (or `{ x: {...} }`
 * for one element); the element name is free unless `elementNames` restricts it (so an object with
 * a single field is not mistaken for a wrapper).
 */
export function xmlList(value: unknown, elementNames?: string[]): unknown[] {
	if (Array.isArray(value)) return value;
	if (value === undefined || value === null || value === '') return [];
	if (isRecord(value)) {
		const keys = Object.keys(value);
		if (keys.length === 1 && (!elementNames || elementNames.includes(keys[0]))) {
			const inner = value[keys[0]];
			return Array.isArray(inner) ? inner : [inner];
		}
	}
	return [value];
}

/** A "billion laughs" document: nested entity definitions that expand exponentially. */
export const XML_BOMB = [
	'<?xml version="1.0" encoding="UTF-8"?>',
	'<!DOCTYPE List [',
	'  <!ENTITY lol "lol">',
	...Array.from({ length: 9 }, (_, level) => {
		const inner = level === 0 ? 'lol' : `lol${level}`;
		return `  <!ENTITY lol${level + 1} "${`&${inner};`.repeat(10)}">`;
	}),
	']>',
	'<List><item><invoiceHeader><invoiceType>&lol9;</invoiceType></invoiceHeader></item></List>',
].join('\n');

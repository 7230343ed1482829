/**
 * XML answers, parsed safely into a neutral tree (read.ts reads the tree by its schema): only the
 * predefined entities and character references are decoded, a DOCTYPE is refused, so nested entity
 * definitions stay small, and the document must be complete: the parser reads a cut answer as a
 * shorter one.
 */
import { XMLParser } from 'fast-xml-parser';

/** An element's text (trimmed; `''` when empty), or its children by name, each with all its occurrences in order. */
export type XmlContent = string | { [name: string]: XmlContent[] };

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
 * Every element as a list of its occurrences, so a one-element list and a single value differ by
 * structure. Made on first use: a parser made when the module loads would keep fast-xml-parser in
 * every bundle that imports the reader, the credential's too, which reads only JSON.
 */
let parser: XMLParser | undefined;
const newParser = () =>
	new XMLParser({
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

export class IncompleteXml extends Error {}

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

/** A complete XML document's root element, by name and content; undefined without one. Throws IncompleteXml or on a DOCTYPE. */
export function parseXmlDocument(xml: string): { rootName: string; root: XmlContent } | undefined {
	// The service's answers never declare one; reading on would hand the workflow unexpanded references (`&lol9;`) as data.
	if (/<!DOCTYPE/i.test(xml)) throw new Error('The XML answer declares a DOCTYPE with entity definitions; it is refused for safety');
	checkComplete(xml);
	parser ??= newParser();
	const document = parser.parse(xml) as Record<string, unknown[]>;
	const [rootName] = Object.keys(document);
	if (rootName === undefined) return undefined;
	return { rootName, root: contentOf(document[rootName][0]) };
}

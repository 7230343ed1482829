/**
 * The answer-shape switches of variants.ts, applied where answers are serialised (server.ts), so
 * every route answers in the same varied shape: key spellings, stringified lists, numbers as
 * strings, and the XML renderings of lists and nulls. The EAN switches live in the ean/exists
 * route, the only answer they concern.
 */
import type { RouteResult } from './route';
import type { RouteKey } from './types';
import type { SandboxVariants } from './variants';
import { toJacksonXml } from './xml';
import { isRecord } from './values';

/** Spellings seen in live answers (platform facts). */
const SEEN_SPELLINGS: Record<string, string> = {
	defaultAddress: 'defaultAddress ',
	orderid: 'orderId',
	invoiceId: 'invoiceid',
	acode: 'aCode',
};

/** Answers whose top-level keys are data (EANs, suborder ids), not field names. */
const KEYED_BY_DATA = new Set<RouteKey>(['eanExists', 'invoiceUrls', 'invoiceCorrectionUrls']);

/**
 * Another spelling of a field name: the ones seen live, else (by the key's position, so every
 * answer mixes them) a capital first letter, or surrounding whitespace (JSON) / lower case (XML,
 * whose element names cannot hold spaces).
 */
function respell(key: string, position: number, forXml: boolean): string {
	const seen = SEEN_SPELLINGS[key];
	if (seen !== undefined) return forXml ? seen.trim() : seen;
	switch (position % 3) {
		case 1:
			return key.charAt(0).toUpperCase() + key.slice(1);
		case 2:
			return forXml ? key.toLowerCase() : ` ${key} `;
		default:
			return key;
	}
}

interface Shaping {
	variants: SandboxVariants;
	forXml: boolean;
	keysAreData: boolean;
}

function isScalarList(value: unknown[]): boolean {
	return value.every((entry) => typeof entry === 'string' || typeof entry === 'number');
}

function shape(value: unknown, shaping: Shaping, depth: number): unknown {
	const { variants, forXml } = shaping;
	if (Array.isArray(value)) {
		// `"[COD, VOUCHER]"`: a Java list's toString in place of the list (fields only, not the answer).
		if (variants.stringifiedLists && depth > 0 && isScalarList(value)) return `[${value.join(', ')}]`;
		return value.map((entry) => shape(entry, shaping, depth + 1));
	}
	if (isRecord(value)) {
		const renameKeys = variants.keySpellings && !(shaping.keysAreData && depth === 0);
		return Object.fromEntries(
			Object.entries(value).map(([key, child], position) => [
				renameKeys ? respell(key, position, forXml) : key,
				shape(child, shaping, depth + 1),
			]),
		);
	}
	if (typeof value === 'number' && variants.numbersAsStrings && !forXml) return String(value);
	return value;
}

/**
 * The first half of an answer, ending right after the first `>` (XML) or `}` (JSON) from the
 * middle on: a cut at an element's boundary, which a lenient reader takes for a shorter document.
 */
function cutInHalf(body: string, xml: boolean): string {
	const end = body.indexOf(xml ? '>' : '}', Math.floor(body.length / 2));
	return end < 0 || end === body.length - 1 ? body.slice(0, Math.floor(body.length / 2)) : body.slice(0, end + 1);
}

function cutIfAsked(result: RouteResult, routeKey: RouteKey, variants: SandboxVariants, xml: boolean): RouteResult {
	if (!variants.cutAnswers.includes(routeKey)) return result;
	const body = result.body ?? JSON.stringify(result.json ?? null);
	return { ...result, body: cutInHalf(typeof body === 'string' ? body : body.toString('utf8'), xml) };
}

/**
 * A route's answer as the switches shape it: JSON varied, `xml` rendered in the chosen list and
 * null style, and cut in half for the routes of `cutAnswers`.
 */
export function shapeAnswer(result: RouteResult, routeKey: RouteKey, variants: SandboxVariants): RouteResult {
	const status = result.status ?? 200;
	if (routeKey === 'control' || status >= 300 || result.stream) return result;
	const keysAreData = KEYED_BY_DATA.has(routeKey);
	if (result.xml !== undefined) {
		const shaped = shape(result.xml, { variants, forXml: true, keysAreData }, 0);
		const rendered: RouteResult = {
			...result,
			body: toJacksonXml(shaped, { listStyle: variants.xmlListStyle, nullsAsEmptyElements: variants.xmlNullsAsEmptyElements }),
			contentType: 'application/xml',
		};
		return cutIfAsked(rendered, routeKey, variants, true);
	}
	if (result.json === undefined || result.body !== undefined) return cutIfAsked(result, routeKey, variants, result.contentType?.includes('xml') === true);
	return cutIfAsked({ ...result, json: shape(result.json, { variants, forXml: false, keysAreData }, 0) }, routeKey, variants, false);
}

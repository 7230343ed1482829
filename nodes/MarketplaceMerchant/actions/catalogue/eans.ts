/**
 * EANs: the key they are compared by, `ean/exists` answers, and every look-up of products by EAN
 * (`lookUpEans`): many EANs per GET products where the service takes a repeated `ean`
 * (`productsByEan`), a run's EANs asked together by the skeleton's plan (actions/run.ts); the
 * forms of one code (`eanForms`: 8, 12, 13 and 14 digits, leading zeros) are one EAN everywhere.
 */
import { type IDataObject } from 'n8n-workflow';

import { ANSWERS } from '../../answers/schemas';
import { decodedList } from '../../answers/read';
import { LIMITS, PATHS } from '../../transport/endpoints';
import { chunkBySize } from '../../transport/batches';
import { CREDENTIAL_TYPE, sendAuthenticated, type AuthenticatedContext } from '../../transport/send';
import { normalizeBaseUrl } from '../../transport/hosts';
import { isBlank, type ValueContext } from '../../values/labels';
import { readEan, readList } from '../../values/values';
import { CATALOGUE } from './fields';
import { processWide } from '../../transport/state';

/** An EAN for comparing: 0740617304350 and 740617304350 are the same GTIN, and the service may answer either. */
export function eanKey(ean: unknown): string {
	return String(ean ?? '').trim().replace(/^0+(?=\d)/, '');
}

/** What `ean/exists` says of a code: whether the catalogue knows it, and by which form (null when the answer cannot tell the forms apart). */
export interface EanExistence {
	exists: boolean;
	matchedEan: string | null;
}

/** The body of `ean/exists` for these EANs (Check EANs, Import): every form of each code (`eanForms`), each once. */
export function eanExistsBody(eans: string[]): string[] {
	return [...new Set(eans.flatMap(eanForms))];
}

/**
 * What `ean/exists` answers say of each code asked with its forms (`eanExistsBody`). A form the
 * answer calls true is the one the catalogue knows; every form false is "unknown". An answer whose
 * keys lost their leading zeros (a service that reads EANs as numbers: its forms are one key) says
 * whether the code is known, not by which form. An EAN the answer says nothing readable about is
 * undefined: nothing is guessed for it.
 */
export class EanAnswers {
	private readonly exact = new Map<string, unknown>();
	private readonly byKey = new Map<string, unknown[]>();

	add(answers: IDataObject[]): this {
		for (const answer of answers) {
			for (const [key, value] of Object.entries(answer)) {
				this.exact.set(key.trim(), value);
				this.byKey.set(eanKey(key), [...(this.byKey.get(eanKey(key)) ?? []), value]);
			}
		}
		return this;
	}

	of(ean: string): EanExistence | undefined {
		const forms = eanForms(ean);
		const matched = forms.find((form) => this.exact.get(form) === true);
		if (matched !== undefined) return { exists: true, matchedEan: matched };
		if (forms.every((form) => this.exact.get(form) === false)) return { exists: false, matchedEan: null };
		const values = this.byKey.get(eanKey(ean)) ?? [];
		if (values.length === 0 || !values.every((value) => typeof value === 'boolean')) return undefined;
		return { exists: values.includes(true), matchedEan: null };
	}
}

export function readEanList(ctx: ValueContext, field: string, value: unknown): string[] {
	return readList(ctx, field, value, {
		empty: { problem: 'the list is empty', hint: 'Give at least one EAN' },
		readEntry: (ean, eanField) => readEan(ctx, eanField, ean),
	});
}

/**
 * The forms of one code (GTIN): the code as given first, then its digits left-padded with zeros to
 * each GTIN length that holds them (8, 12, 13, 14). `740617304350` (a UPC-A) is also
 * `0740617304350` (its EAN-13) and `00740617304350` (its GTIN-14): stored EANs may carry zeros the
 * merchant's data lacks, and the reverse. Every form has the same `eanKey`.
 */
export function eanForms(ean: string): string[] {
	const digits = eanKey(ean);
	const padded = [8, 12, 13, 14].filter((length) => length >= digits.length).map((length) => digits.padStart(length, '0'));
	return [...new Set([ean.trim(), ...padded])];
}

/** A product an EAN look-up found: its ID, and the form of the EAN it is stored with (`matchedEan` in outputs). */
export interface FoundProduct {
	id: number;
	ean: string;
	/** As GET products answered it (name, price…). */
	product: IDataObject;
}

function foundWith(products: IDataObject[], ean: string): FoundProduct[] {
	return products.filter((product) => eanKey(product.ean) === eanKey(ean)).map((product) => ({ id: Number(product.id), ean: String(product.ean).trim(), product }));
}

const EAN_LOOKUP_SIZE = 20;
/** Products asked for with one `ean` value: the filter may match loosely, so a few show whether it is ambiguous. */
async function productsWithEan(ctx: AuthenticatedContext, ean: string): Promise<FoundProduct[]> {
	const qs = { ean, page: 0, size: EAN_LOOKUP_SIZE };
	return foundWith(decodedList(ctx, await sendAuthenticated(ctx, CATALOGUE, { method: 'GET', url: PATHS.products, qs }), ANSWERS.products), ean);
}

/** One EAN asked with one `ean` value per request: each of its forms in turn, until one finds products. */
async function productsWithEanAlone(ctx: AuthenticatedContext, ean: string): Promise<FoundProduct[]> {
	for (const form of eanForms(ean)) {
		const found = await productsWithEan(ctx, form);
		if (found.length > 0) return found;
	}
	return [];
}

/**
 * Whether a service's GET products takes a repeated `ean` (`ean=A&ean=B`), per base URL, learned in
 * this process: the current pages say it does, the interface reference has one `ean`, and a service
 * that binds one value may take the first, the last, or the values joined (matching none).
 */
const eanRepeatsByBaseUrl = processWide('eanRepeatsByBaseUrl', () => new Map<string, boolean>());

async function baseUrlOf(ctx: AuthenticatedContext): Promise<string> {
	return normalizeBaseUrl((await ctx.getCredentials(CREDENTIAL_TYPE)).baseUrl);
}

/**
 * Every page of one GET products for many EANs, each with every form of its code (`eanForms`), and
 * the `probe` EAN among them when given (`probedTogether`); a page holding a product of an EAN not
 * asked ends it (the filter is not working).
 */
async function productsWithEans(ctx: AuthenticatedContext, eans: string[], probe?: string): Promise<{ products: IDataObject[]; filtered: boolean }> {
	const asked = new Set([...eans, ...(probe === undefined ? [] : [probe])].map(eanKey));
	const forms = [...new Set(eans.flatMap(eanForms))];
	if (probe !== undefined) {
		// Neither first nor last: a service that binds one `ean` takes one of those, or the values joined.
		const half = Math.max(1, Math.floor(forms.length / 2));
		forms.splice(half, 0, probe);
		if (half === forms.length - 1) forms.push(forms[0]);
	}
	const products: IDataObject[] = [];
	const size = LIMITS.productsPageSize;
	for (let page = 0; ; page++) {
		const request = { method: 'GET' as const, url: PATHS.products, qs: { ean: forms, page, size }, arrayFormat: 'repeat' as const };
		const answer = decodedList(ctx, await sendAuthenticated(ctx, CATALOGUE, request), ANSWERS.products);
		if (!answer.every((product) => asked.has(eanKey(product.ean)))) return { products, filtered: false };
		const known = new Set(products.map((product) => String(product.id)));
		const fresh = answer.filter((product) => !known.has(String(product.id)));
		products.push(...fresh);
		// Several products per EAN can fill a page: read on to the short one (or one that repeats what came, a service that ignores `page`).
		if (answer.length < size || fresh.length === 0) return { products, filtered: true };
	}
}

/**
 * The products of each EAN one request could answer for; an EAN absent from the map was not
 * answered for and is asked alone. Never a guess: an EAN without products is "none" only when the
 * service is known to take the repeated `ean` (the request asked every form of its code). An answer
 * with products of two or more of the EANs proves that it does; one with products of a single EAN
 * answers for that EAN only (a service that binds one `ean` answered for the one it took), and one
 * with none answers for none.
 */
async function askedTogether(ctx: AuthenticatedContext, baseUrl: string, eans: string[]): Promise<Map<string, FoundProduct[]>> {
	const { products, filtered } = await productsWithEans(ctx, eans);
	if (!filtered) return new Map();
	const answeredKeys = new Set(products.map((product) => eanKey(product.ean)));
	if (answeredKeys.size >= 2) eanRepeatsByBaseUrl.set(baseUrl, true);
	const repeats = eanRepeatsByBaseUrl.get(baseUrl) === true;
	const answered = eans.filter((ean) => repeats || answeredKeys.has(eanKey(ean)));
	return new Map(answered.map((ean) => [ean, foundWith(products, ean)]));
}

/**
 * When a group answer cannot tell whether the service takes a repeated `ean` (it found products of
 * fewer than two EANs), the EANs it left out are asked once more with the EAN of one product of
 * the merchant's among them, neither first nor last: the answer holds that product only where the
 * service takes every value, and then it answers for every EAN asked. Two requests, once per
 * service (the answer is remembered), in place of a request or more per EAN. Undefined when nothing
 * was learned (no product to probe with): the EANs are asked alone.
 */
async function probedTogether(ctx: AuthenticatedContext, baseUrl: string, eans: string[]): Promise<Map<string, FoundProduct[]> | undefined> {
	const qs = { page: 0, size: 1 };
	const [probe] = decodedList(ctx, await sendAuthenticated(ctx, CATALOGUE, { method: 'GET', url: PATHS.products, qs }), ANSWERS.products);
	const probeEan = probe === undefined || isBlank(probe.ean) ? undefined : String(probe.ean).trim();
	if (probeEan === undefined || eans.some((ean) => eanKey(ean) === eanKey(probeEan))) return undefined;
	const { products, filtered } = await productsWithEans(ctx, eans, probeEan);
	if (!filtered) return undefined;
	const repeats = products.some((product) => eanKey(product.ean) === eanKey(probeEan));
	eanRepeatsByBaseUrl.set(baseUrl, repeats);
	return repeats ? new Map(eans.map((ean) => [ean, foundWith(products, ean)])) : undefined;
}

/**
 * The products of every EAN (each distinct EAN given once), whichever form of its code they are
 * stored with: many EANs per request where the service takes them (LIMITS.eansPerProductsRequest
 * codes, each with its forms), the others alone, form by form. The first group goes alone so that
 * the others know what it learned; an EAN found alone after a group answer left it out proves that
 * the service takes one `ean`, and later look-ups ask one at a time.
 */
async function productsByEan(ctx: AuthenticatedContext, eans: string[], catalogue?: ReadCatalogue): Promise<Map<string, FoundProduct[]>> {
	const baseUrl = await baseUrlOf(ctx);
	const found = new Map<string, FoundProduct[]>();
	/** The EANs asked alone once every group is answered, each with whether a group answer left it out. */
	const alone: Array<{ ean: string; afterGroup: boolean }> = [];
	const askGroup = async (group: string[]) => {
		const repeats = eanRepeatsByBaseUrl.get(baseUrl);
		if ((group.length === 1 && repeats !== true) || repeats === false) {
			alone.push(...group.map((ean) => ({ ean, afterGroup: false })));
			return;
		}
		const answered = await askedTogether(ctx, baseUrl, group);
		let left = group.filter((ean) => !answered.has(ean));
		if (left.length > 0 && eanRepeatsByBaseUrl.get(baseUrl) === undefined) {
			for (const [ean, products] of (await probedTogether(ctx, baseUrl, left)) ?? []) answered.set(ean, products);
			left = left.filter((ean) => !answered.has(ean));
		}
		for (const [ean, products] of answered) found.set(ean, products);
		const afterGroup = eanRepeatsByBaseUrl.get(baseUrl) === undefined;
		alone.push(...left.map((ean) => ({ ean, afterGroup })));
	};
	const groups = lookUpGroups(eans);
	if (groups.length > 0) await askGroup(groups[0]);
	await Promise.all(groups.slice(1).map(askGroup));
	if (catalogue && alone.length > EANS_ALONE_AT_MOST) {
		// Cheaper than a request or two per EAN: the catalogue's own list, 2,500 products a request.
		const products = await catalogue(ctx);
		for (const { ean } of alone) found.set(ean, foundWith(products, ean));
		return found;
	}
	await Promise.all(
		alone.map(async ({ ean, afterGroup }) => {
			const products = await productsWithEanAlone(ctx, ean);
			if (afterGroup && products.length > 0) eanRepeatsByBaseUrl.set(baseUrl, false);
			found.set(ean, products);
		}),
	);
	return found;
}

/**
 * The EANs of each GET products: up to LIMITS.eansPerProductsRequest, their forms within
 * LIMITS.eanQueryBytes of query (`ean=…&` each): 100 EAN-13s or UPCs fit, about 85 EAN-8s (4 forms each).
 */
function lookUpGroups(eans: string[]): string[][] {
	const queries = eans.map((ean) => eanForms(ean).map((form) => `ean=${form}&`).join(''));
	let next = 0;
	return chunkBySize(queries, LIMITS.eansPerProductsRequest, LIMITS.eanQueryBytes).map((chunk) => eans.slice(next, (next += chunk.length)));
}

/** Every product of the catalogue, with its id and EAN (catalogue/catalogue.ts `readBasicProducts`). */
export type ReadCatalogue = (ctx: AuthenticatedContext) => Promise<IDataObject[]>;

/**
 * EANs asked alone beyond which `catalogue` (where given: Import, whose EANs are mostly new, each
 * costing two requests alone) is read instead: 2,500 products a request.
 */
const EANS_ALONE_AT_MOST = 20;

/**
 * The merchant's products of each EAN, found by any form of its code (`eanForms`). With
 * `catalogue`, where the service takes one `ean` and more than EANS_ALONE_AT_MOST EANs are left to
 * ask alone, the catalogue's list is read instead (its products then carry the list's fields only).
 */
export async function lookUpEans(ctx: AuthenticatedContext, eans: string[], catalogue?: ReadCatalogue): Promise<Map<string, FoundProduct[]>> {
	if (eans.length === 0) return new Map();
	return await productsByEan(ctx, [...new Set(eans)], catalogue);
}

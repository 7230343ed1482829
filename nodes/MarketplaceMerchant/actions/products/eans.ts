/**
 * EANs: the key they are compared by, `ean/exists` answers, and every look-up of products by EAN
 * (`lookUpEans`): many EANs per GET products where the service takes a repeated `ean`
 * (`productIdsByEan`), the look-ups of one node run gathered.
 */
import { type IDataObject } from 'n8n-workflow';

import { ANSWERS } from '../../answers/schemas';
import { decodedList } from '../../answers/read';
import { LIMITS, PATHS } from '../../transport/endpoints';
import { CREDENTIAL_TYPE, sendAuthenticated, type AuthenticatedContext } from '../../transport/send';
import { normalizeBaseUrl } from '../../transport/hosts';
import type { ValueContext } from '../../values/labels';
import { readEan, readList } from '../../values/values';
import { CATALOGUE } from './fields';
import { PerRunGathering } from '../../transport/perRun';
import { processWide } from '../../transport/state';

/** An EAN for comparing: 0740617304350 and 740617304350 are the same GTIN, and the service may answer either. */
export function eanKey(ean: unknown): string {
	return String(ean ?? '').trim().replace(/^0+(?=\d)/, '');
}

/** What `ean/exists` answers say, added to `into` by `eanKey` (Check EANs, Import): a key may lack its leading zeros. */
export function addEanAnswers(into: Map<string, unknown>, answers: IDataObject[]): void {
	for (const answer of answers) for (const [key, value] of Object.entries(answer)) into.set(eanKey(key), value);
}

export function readEanList(ctx: ValueContext, field: string, value: unknown): string[] {
	return readList(ctx, field, value, {
		empty: { problem: 'the list is empty', hint: 'Give at least one EAN' },
		readEntry: (ean, eanField) => readEan(ctx, eanField, ean),
	});
}

const EAN_LOOKUP_SIZE = 20;
/** Products asked for per EAN asked alone: the `ean` filter may match loosely, so a few show whether it is ambiguous. */
async function productIdsWithEan(ctx: AuthenticatedContext, ean: string): Promise<number[]> {
	const qs = { ean, page: 0, size: EAN_LOOKUP_SIZE };
	const products = decodedList(ctx, await sendAuthenticated(ctx, CATALOGUE, { method: 'GET', url: PATHS.products, qs }), ANSWERS.products);
	return products.filter((product) => eanKey(product.ean) === eanKey(ean)).map((product) => Number(product.id));
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

/** Every page of one GET products for many EANs; a page holding a product of an EAN not asked ends it (the filter is not working). */
async function productsWithEans(ctx: AuthenticatedContext, eans: string[]): Promise<{ products: IDataObject[]; filtered: boolean }> {
	const asked = new Set(eans.map(eanKey));
	const products: IDataObject[] = [];
	const size = LIMITS.productsPageSize;
	for (let page = 0; ; page++) {
		const request = { method: 'GET' as const, url: PATHS.products, qs: { ean: eans, page, size }, arrayFormat: 'repeat' as const };
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
 * The repeated `ean` matches full EANs only, where one `ean` may match loosely: an EAN with leading
 * zeros or under 13 digits, not found in a batch, may be stored in another form, so it is asked alone.
 */
function writtenOtherwisePerhaps(ean: string): boolean {
	return ean.length < 13 || ean.startsWith('0');
}

/**
 * The product IDs of each EAN one request could answer for; an EAN absent from the map was not
 * answered for and is asked alone. Never a guess: an EAN without products is "none" only when the
 * service is known to take the repeated `ean`. An answer with products of two or more of the EANs
 * proves that it does; one with products of a single EAN answers for that EAN only (a service that
 * binds one `ean` answered for the one it took), and one with none answers for none.
 */
async function askedTogether(ctx: AuthenticatedContext, baseUrl: string, eans: string[]): Promise<Map<string, number[]>> {
	const { products, filtered } = await productsWithEans(ctx, eans);
	const idsOf = (ean: string) => products.filter((product) => eanKey(product.ean) === eanKey(ean)).map((product) => Number(product.id));
	if (!filtered) return new Map();
	const answeredKeys = new Set(products.map((product) => eanKey(product.ean)));
	if (answeredKeys.size >= 2) eanRepeatsByBaseUrl.set(baseUrl, true);
	const repeats = eanRepeatsByBaseUrl.get(baseUrl) === true;
	const answered = eans.filter((ean) => answeredKeys.has(eanKey(ean)) || (repeats && !writtenOtherwisePerhaps(ean)));
	return new Map(answered.map((ean) => [ean, idsOf(ean)]));
}

/**
 * The product IDs of every EAN (each distinct EAN given once): many EANs per request where the
 * service takes them (LIMITS.eansPerProductsRequest), the others one per request as before. The
 * first group goes alone so that the others know what it learned; an EAN (in its full form) found
 * alone after a group answer left it out proves that the service takes one `ean`, and later
 * look-ups ask one at a time.
 */
async function productIdsByEan(ctx: AuthenticatedContext, eans: string[]): Promise<Map<string, number[]>> {
	const baseUrl = await baseUrlOf(ctx);
	const found = new Map<string, number[]>();
	const askAlone = async (ean: string, afterGroup: boolean) => {
		const ids = await productIdsWithEan(ctx, ean);
		if (afterGroup && ids.length > 0) eanRepeatsByBaseUrl.set(baseUrl, false);
		found.set(ean, ids);
	};
	const askGroup = async (group: string[]) => {
		if (group.length === 1 || eanRepeatsByBaseUrl.get(baseUrl) === false) {
			await Promise.all(group.map(async (ean) => await askAlone(ean, false)));
			return;
		}
		const answered = await askedTogether(ctx, baseUrl, group);
		for (const [ean, ids] of answered) found.set(ean, ids);
		const unknown = eanRepeatsByBaseUrl.get(baseUrl) !== true;
		const left = group.filter((ean) => !answered.has(ean));
		await Promise.all(left.map(async (ean) => await askAlone(ean, unknown && !writtenOtherwisePerhaps(ean))));
	};
	const groups = chunked(eans, LIMITS.eansPerProductsRequest);
	if (groups.length > 0) await askGroup(groups[0]);
	await Promise.all(groups.slice(1).map(askGroup));
	return found;
}

function chunked<T>(list: T[], size: number): T[][] {
	return Array.from({ length: Math.ceil(list.length / size) }, (_, index) => list.slice(index * size, (index + 1) * size));
}

/**
 * The look-ups of one node run, gathered (transport/perRun.ts): Product › Update and Price Get Many
 * look up per input item, and the EANs the items of one run ask for go out together.
 */
const eanLookUps = new PerRunGathering<string[], Map<string, number[]>>();

export async function lookUpEans(ctx: AuthenticatedContext, eans: string[]): Promise<Map<string, number[]>> {
	if (eans.length === 0) return new Map();
	return await eanLookUps.join(ctx, '', eans, async (asked) => await productIdsByEan(ctx, [...new Set(asked.flat())])).result;
}

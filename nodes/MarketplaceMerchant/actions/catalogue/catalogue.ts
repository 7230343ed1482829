/**
 * Reads of the merchant's catalogue by product ID: the service cannot be asked for products by ID
 * (GET products filters by search text, EAN and modification day only), so `readBasicProducts` pages
 * through basic-products (2,500 a page, the largest page the service gives), and `productsById` then
 * looks the full products of those IDs up by their EANs (eans.ts: up to 100 EANs a request).
 */
import type { IDataObject } from 'n8n-workflow';

import { ANSWERS } from '../../answers/schemas';
import { decodedList } from '../../answers/read';
import { LIMITS, PATHS, RATE_LIMITS } from '../../transport/endpoints';
import { readAllPages } from '../../transport/batches';
import { sendAuthenticated, type AuthenticatedContext, type SendSettings } from '../../transport/send';
import { isBlank } from '../../values/labels';
import { lookUpEans, type FoundProduct } from './eans';
import { CATALOGUE } from './fields';

/**
 * Every basic product (Sync Stock and Prices: pages go out ahead, up to the catalogue's requests in
 * flight), or with `onlyIds` those of these IDs, until the last of them is found. `ahead: false`
 * (and `onlyIds`) reads one page at a time: no page past the last, the catalogue's 60 requests a
 * minute being shared with the rest of the run. With `each`, every product goes to it instead, in
 * catalogue order as its page arrives (while the pages after it are still on their way), and
 * none is kept: the result is empty.
 */
export async function readBasicProducts(
	ctx: AuthenticatedContext,
	settings?: SendSettings,
	{ onlyIds, ahead = onlyIds === undefined, each }: { onlyIds?: ReadonlySet<number>; ahead?: boolean; each?: (product: IDataObject) => void } = {},
): Promise<IDataObject[]> {
	const pageSize = LIMITS.basicProductsPageSize;
	const keep = onlyIds
		? (product: IDataObject) => onlyIds.has(Number(product.id))
		: each &&
			((product: IDataObject) => {
				each(product);
				return false;
			});
	return await readAllPages(
		pageSize,
		ahead ? RATE_LIMITS[CATALOGUE.group].inFlight : 1,
		async (page, wanted) => {
			const response = await sendAuthenticated(ctx, CATALOGUE, { method: 'GET', url: PATHS.basicProducts, qs: { page, size: pageSize } }, { ...settings, wanted });
			return decodedList(ctx, response, ANSWERS.basicProducts);
		},
		undefined,
		onlyIds ? onlyIds.size : Infinity,
		keep,
	);
}

/**
 * The full products (name, price…) of these IDs, by ID; an ID the catalogue does not list is
 * absent. Costs the basic-products pages up to the last of the IDs (one per 2,500 products), then
 * one GET products per 100 of their EANs (where the service takes a repeated `ean`).
 */
export async function productsById(ctx: AuthenticatedContext, ids: number[], settings?: SendSettings): Promise<Map<number, IDataObject>> {
	const wanted = new Set(ids.filter((id) => Number.isInteger(id)));
	if (wanted.size === 0) return new Map();
	const basic = await readBasicProducts(ctx, settings, { onlyIds: wanted });
	const eans = [...new Set(basic.filter((product) => !isBlank(product.ean)).map((product) => String(product.ean).trim()))];
	const found = await lookUpEans(ctx, eans);
	const byId = new Map<number, IDataObject>();
	for (const products of found.values()) for (const { id, product } of products) if (wanted.has(id)) byId.set(id, product);
	return byId;
}

/**
 * The merchant's own products of each EAN (Import: which EANs are yours), found as `lookUpEans`
 * finds them; where the service takes one `ean` and many EANs are left, by one read of the
 * basic product list instead of a request or two per EAN.
 */
export async function yourProductsByEan(ctx: AuthenticatedContext, eans: string[], settings?: SendSettings): Promise<Map<string, FoundProduct[]>> {
	return await lookUpEans(ctx, eans, async (reader) => await readBasicProducts(reader, settings, { ahead: false }));
}

/**
 * The product locator: how a user names a product in Update, Update Many rows, Price Get Many and
 * Discount Schedule rows. One field definition (`productLocatorField`), one reader
 * (`readProductRef`), one resolution of EANs to product IDs (`resolveProductIds`) and the
 * editor's search (`searchProducts`), all sending through the shared engine (send.ts).
 *
 * Modes: From List (search by name, SKU or EAN), By ID (digits) and By EAN (8 to 14 digits,
 * looked up with Get Many's `ean` filter before anything else is sent). A plain value (text or a
 * number, as workflows made before the locator hold, or a JSON entry's `id`) is read as By ID.
 */
import {
	NodeOperationError,
	type IDataObject,
	type ILoadOptionsFunctions,
	type INodeListSearchResult,
	type INodeProperties,
} from 'n8n-workflow';

import { decodedList, decodedNumber } from '../answers/decode';
import { PATHS } from '../transport/endpoints';
import { ANSWERS } from '../answers/schema';
import { sendAuthenticated, type AuthenticatedContext, type Route } from '../transport/send';
import { invalidInput, isBlank, readEan, readId, readLocator, readText, readWholeNumber, type ValueContext } from '../values/values';
import { eanKey } from './productValues';

/** Name of the list search method on the node (`methods.listSearch`). */
const SEARCH_PRODUCTS_METHOD = 'searchProducts';

/** Product reads are catalogue requests and change nothing. */
const CATALOGUE_READ: Route = { group: 'catalogue', idempotent: true };

/** Products per page of the editor's list: n8n asks for the next page as the user scrolls. */
const SEARCH_PAGE_SIZE = 50;

/**
 * Products asked for when looking up one EAN: one is expected; more than one (the service's `ean`
 * filter may match more loosely than "equal") are compared here, so a few are enough to see
 * whether the EAN is ambiguous.
 */
const EAN_LOOKUP_SIZE = 20;

/** The locator's modes, by the labels the panel shows. */
const MODES = { list: 'From List', id: 'By ID', ean: 'By EAN' };

interface ProductLocatorOptions {
	name: string;
	displayName?: string;
	description?: string;
	required?: boolean;
}

/** A product locator field (From List, By ID, By EAN), the same wherever a product is named. */
export function productLocatorField({ name, displayName = 'Product ID', description, required = true }: ProductLocatorOptions): INodeProperties {
	return {
		displayName,
		name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required,
		description:
			description ??
			'The product: pick it from the list (search by name, SKU or EAN), give its ID (the API calls it merchantInventoryId), or give its EAN',
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Select a product...',
				typeOptions: { searchListMethod: SEARCH_PRODUCTS_METHOD, searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. 100001',
				validation: [
					{
						type: 'regex',
						properties: { regex: '^\\s*[0-9]+\\s*$', errorMessage: 'A product ID is a whole number, e.g. 100001' },
					},
				],
			},
			{
				displayName: 'By EAN',
				name: 'ean',
				type: 'string',
				placeholder: 'e.g. 8600123456782',
				validation: [
					{
						type: 'regex',
						properties: { regex: '^\\s*[0-9]{8,14}\\s*$', errorMessage: 'An EAN is 8 to 14 digits, e.g. 8600123456782' },
					},
				],
			},
		],
	};
}

/** A product as the user named it: by its ID, or by an EAN still to be looked up. */
type ProductRef = { id: number } | { ean: string };

/**
 * Reads a product locator's value (or a plain ID, as older workflows and JSON entries give it).
 * Only checks the value: an EAN is looked up later by `resolveProductIds`, after every other value
 * of the item has been checked.
 */
export function readProductRef(ctx: ValueContext, field: string, value: unknown): ProductRef {
	const locator = readLocator(ctx, field, value, MODES);
	return locator.mode === 'ean' ? { ean: readEan(ctx, field, locator.value) } : { id: readId(ctx, field, locator.value) };
}

/**
 * What a product value names, for labels (`EAN 8600892210086`, `Product ID 100001`); undefined when
 * it is not a product reference: the value's own check reports that, with its field.
 */
export function productNamedBy(ctx: ValueContext, value: unknown): string | undefined {
	try {
		const ref = readProductRef(ctx, 'Product', value);
		return 'ean' in ref ? `EAN ${ref.ean}` : `Product ID ${ref.id}`;
	} catch {
		return undefined;
	}
}

/** A product reference with the field it came from, for errors about its EAN. */
export interface NamedProductRef {
	field: string;
	ref: ProductRef;
}

/** The IDs of the products whose EAN is exactly `ean`, through Get Many's `ean` filter. */
async function productIdsWithEan(ctx: AuthenticatedContext, ean: string): Promise<number[]> {
	const response = await sendAuthenticated(ctx, CATALOGUE_READ, {
		method: 'GET',
		url: PATHS.products,
		qs: { ean, page: 0, size: EAN_LOOKUP_SIZE },
	});
	const products = decodedList(ctx, response, ANSWERS.products);
	return products.filter((product) => eanKey(product.ean) === eanKey(ean)).map((product) => Number(product.id));
}

/**
 * The product ID of every reference, in order, or why it has none: IDs as given, each distinct EAN
 * looked up once (the lookups wait at the catalogue gate like any request). An EAN that no product
 * or more than one product has is an error naming the field (and so the row) and the item of its
 * own `ctx`.
 */
export async function lookUpProductIds(
	sender: AuthenticatedContext,
	refs: Array<NamedProductRef & { ctx: ValueContext }>,
): Promise<Array<number | NodeOperationError>> {
	const eans = [...new Set(refs.flatMap(({ ref }) => ('ean' in ref ? [ref.ean] : [])))];
	const found = new Map(await Promise.all(eans.map(async (ean) => [ean, await productIdsWithEan(sender, ean)] as const)));
	return refs.map(({ ctx, field, ref }) => {
		if ('id' in ref) return ref.id;
		const ids = found.get(ref.ean) ?? [];
		if (ids.length === 1) return ids[0];
		return ids.length === 0
			? invalidInput(ctx, field, `no product has the EAN "${ref.ean}"`, 'Check the EAN, or pick the product from the list')
			: invalidInput(
					ctx,
					field,
					`${ids.length} products have the EAN "${ref.ean}" (IDs ${ids.join(', ')})`,
					'Give the product by its ID instead',
				);
	});
}

/** The product ID of every reference of one item, in order (`lookUpProductIds`); the first that has none fails the item. */
export async function resolveProductIds(ctx: AuthenticatedContext & ValueContext, refs: NamedProductRef[]): Promise<number[]> {
	const ids = await lookUpProductIds(ctx, refs.map((ref) => ({ ...ref, ctx })));
	return ids.map((id) => {
		if (id instanceof NodeOperationError) throw id;
		return id;
	});
}

/** The currency of every price the service gives (platform facts: RSD in every example). */
const CURRENCY = 'RSD';

/** A price as the list shows it: thousands grouped, decimals only when there are any (31,129 or 1,299.50). */
function shownPrice(price: number): string {
	const whole = Number.isInteger(price);
	return price.toLocaleString('en-US', { minimumFractionDigits: whole ? 0 : 2, maximumFractionDigits: 2 });
}

/**
 * A product as the list shows it, with what tells similar products apart: the price that applies,
 * the stock, and the codes merchants search by ("Blender J375 · 31,129 RSD · stock 127 · SKU BL-375
 * · EAN 8600123456782").
 */
function listEntryName(product: IDataObject): string {
	const price = decodedNumber(product.basePrice);
	const stock = decodedNumber(product.stockLevel);
	return [
		isBlank(product.name) ? `Product ${String(product.id)}` : String(product.name),
		price === null ? undefined : `${shownPrice(price)} ${CURRENCY}`,
		stock === null ? undefined : `stock ${stock}`,
		isBlank(product.sku) ? undefined : `SKU ${String(product.sku)}`,
		isBlank(product.ean) ? undefined : `EAN ${String(product.ean)}`,
	]
		.filter((part) => part !== undefined)
		.join(' · ');
}

/**
 * From List of the product locator: Get Many's `search` (name, SKU and EAN), a page at a time;
 * the token is the next page number. The service gives no product page to link to.
 */
export async function searchProducts(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	const page = isBlank(paginationToken) ? 0 : readWholeNumber(this, 'Page', paginationToken, 0);
	const qs: IDataObject = { page, size: SEARCH_PAGE_SIZE };
	if (!isBlank(filter)) qs.search = readText(this, 'Search', filter);
	const response = await sendAuthenticated(this, CATALOGUE_READ, { method: 'GET', url: PATHS.products, qs });
	const products = decodedList(this, response, ANSWERS.products);
	return {
		results: products.map((product) => ({
			name: listEntryName(product),
			value: String(product.id),
		})),
		// A page shorter than asked for is the last one (the answers carry no paging metadata).
		paginationToken: products.length < SEARCH_PAGE_SIZE ? undefined : String(page + 1),
	};
}

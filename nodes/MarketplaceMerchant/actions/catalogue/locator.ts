/**
 * The product locator of Product Update, Update Many rows, Price Get Many and Discount Schedule
 * rows: From List (search by name, SKU or EAN, `searchProducts`), By ID, and By EAN, looked up
 * with Get Many's `ean` filter (eans.ts) before anything else is sent. A plain value (older
 * workflows, JSON entries) is By ID.
 */
import {
	NodeOperationError,
	type IDataObject,
	type ILoadOptionsFunctions,
	type INodeListSearchResult,
	type INodeProperties,
} from 'n8n-workflow';

import { ANSWERS } from '../../answers/schemas';
import { decodedList, decodedNumber } from '../../answers/read';
import { PATHS } from '../../transport/endpoints';
import { sendAuthenticated, type AuthenticatedContext } from '../../transport/send';
import { fieldPath, invalidInput, isBlank, listEntry, readingParameter, type ParameterContext, type ValueContext } from '../../values/labels';
import { readId, readWholeNumber, shownPrice } from '../../values/numbers';
import { readEan, readList, readLocator, readText, toList } from '../../values/values';
import { locatorField } from '../common';
import { eanForms, lookUpEans, type FoundProduct } from './eans';
import { CATALOGUE } from './fields';

/** Products per page of the editor's list: n8n asks for the next page as the user scrolls. */
const SEARCH_PAGE_SIZE = 50;

const MODES = { list: 'From List', id: 'By ID', ean: 'By EAN' };

/** `product` says which product the field is for. */
export function productLocatorField({ name, product = 'The product' }: { name: string; product?: string }): INodeProperties {
	const ways = 'pick it from the list (search by name, SKU or EAN), give its ID (the API calls it merchantInventoryId), or give its EAN';
	return locatorField('Product ID', name, `${product}: ${ways}`, {
		list: { placeholder: 'Select a product...', searchListMethod: 'searchProducts' },
		// No `validation` regex on the modes: n8n checks them at every execution start in a vm with a
		// 250 ms wall-clock watchdog (one per row of an Update Many), which a busy machine trips, failing
		// the whole execution. The readers below check an ID or an EAN when the item runs, naming the field.
		modes: [
			{ displayName: MODES.id, name: 'id', type: 'string', placeholder: 'e.g. 100001' },
			{ displayName: MODES.ean, name: 'ean', type: 'string', placeholder: 'e.g. 8600123456782' },
		],
	});
}

type ProductRef = { id: number } | { ean: string };

/** Only checks the value: an EAN is looked up later, once every other value of the item is checked. */
export function readProductRef(ctx: ValueContext, field: string, value: unknown): ProductRef {
	const locator = readLocator(ctx, field, value, MODES);
	return locator.mode === 'ean' ? { ean: readEan(ctx, field, locator.value) } : { id: readId(ctx, field, locator.value) };
}

/** What a product value names, for labels (`EAN 8600892210086`); undefined when invalid: its own check says why. */
export function productNamedBy(ctx: ValueContext, value: unknown): string | undefined {
	try {
		const ref = readProductRef(ctx, 'Product', value);
		return 'ean' in ref ? `EAN ${ref.ean}` : `Product ID ${ref.id}`;
	} catch {
		return undefined;
	}
}

export type NamedProductRef = { field: string; ref: ProductRef; name?: string | null };

/** The name a product picked From List showed (n8n keeps it as `cachedResultName`); null when given By ID or By EAN. */
export function pickedName(value: unknown): string | null {
	if (value === null || typeof value !== 'object' || (value as IDataObject).mode !== 'list') return null;
	const name = (value as IDataObject).cachedResultName;
	return isBlank(name) ? null : String(name);
}

/** The field of picked products (Price › Get Many, Publish, Unpublish): rows of the product locator, added to a list of IDs. */
export function pickedProductsField(description: string): INodeProperties {
	return {
		displayName: 'Products',
		name: 'products',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Product',
		default: {},
		description,
		options: [{ name: 'product', displayName: 'Product', values: [productLocatorField({ name: 'id' })] }],
	};
}

/**
 * The products of a list of IDs and of the picked rows (`pickedProductsField`), in that order; the
 * list may be empty when rows are picked, else `empty` says what is missing. Only checked: EANs are
 * looked up for the whole run (`lookUpNamedProducts`, then `productsFound`) once every value is.
 */
export function readListedAndPicked(
	ctx: ParameterContext & ValueContext,
	list: { label: string; value: unknown; empty: { problem: string; hint: string } },
): NamedProductRef[] {
	const rows = (ctx.getNodeParameter('products.product', []) as IDataObject[] | undefined) ?? [];
	const listed: NamedProductRef[] =
		rows.length > 0 && toList(list.value).length === 0
			? []
			: readList(ctx, list.label, list.value, { empty: list.empty, readEntry: (id, idField) => ({ field: idField, ref: { id: readId(ctx, idField, id) } }) });
	const picked = rows.map((row, index) => {
		const field = fieldPath(listEntry('Products', index, 'row'), 'Product ID');
		return { field, ref: readProductRef(readingParameter(ctx, `products.product[${index}].id`), field, row.id), name: pickedName(row.id) };
	});
	return [...listed, ...picked];
}

/** A product named by a reference: its ID, and for one named By EAN in another form of the code than the product has (leading zeros), the form it has. */
export interface ResolvedProduct {
	id: number;
	matchedEan?: string;
}

/** The EANs the references name, each once. */
function eansOf(refs: NamedProductRef[]): string[] {
	return [...new Set(refs.flatMap(({ ref }) => ('ean' in ref ? [ref.ean] : [])))];
}

/** The products of every EAN the references name, looked up together (products given by ID alone look nothing up). */
export async function lookUpNamedProducts(sender: AuthenticatedContext, refs: NamedProductRef[]): Promise<Map<string, FoundProduct[]>> {
	const eans = eansOf(refs);
	return eans.length === 0 ? new Map<string, FoundProduct[]>() : await lookUpEans(sender, eans);
}

/** The product of every reference from the products `found` by EAN, in order, or why it has none. */
function productsOf(refs: Array<NamedProductRef & { ctx: ValueContext }>, found: Map<string, FoundProduct[]>): Array<ResolvedProduct | NodeOperationError> {
	return refs.map(({ ctx, field, ref }) => {
		if ('id' in ref) return { id: ref.id };
		const products = found.get(ref.ean) ?? [];
		if (products.length === 1) return products[0].ean === ref.ean ? { id: products[0].id } : { id: products[0].id, matchedEan: products[0].ean };
		if (products.length === 0) {
			const hint = `Looked for in every form of the code (${eanForms(ref.ean).join(', ')}): check the EAN, or pick the product from the list`;
			return invalidInput(ctx, field, `no product has the EAN "${ref.ean}"`, hint);
		}
		const problem = `${products.length} products have the EAN "${ref.ean}" (IDs ${products.map(({ id }) => id).join(', ')})`;
		return invalidInput(ctx, field, problem, 'Give the product by its ID instead');
	});
}

/** The product of every reference, in order, or why it has none. */
async function lookUpProducts(
	sender: AuthenticatedContext,
	refs: Array<NamedProductRef & { ctx: ValueContext }>,
): Promise<Array<ResolvedProduct | NodeOperationError>> {
	return productsOf(refs, await lookUpNamedProducts(sender, refs));
}

/**
 * The `resolve` of a bulk operation whose entries name a product: each gets its ID (and the EAN
 * form that matched, for its output), or is invalid when its EAN names none or several.
 */
export async function resolveEntryProducts<Checked extends { product: NamedProductRef; productId?: number; matchedEan?: string }>(
	sender: AuthenticatedContext,
	entries: Array<{ ctx: ValueContext; value?: Checked; problem?: NodeOperationError }>,
): Promise<void> {
	const products = await lookUpProducts(sender, entries.map(({ ctx, value }) => ({ ctx, ...(value as Checked).product })));
	entries.forEach((entry, index) => {
		const product = products[index];
		if (product instanceof NodeOperationError) entry.problem = product;
		else {
			(entry.value as Checked).productId = product.id;
			if (product.matchedEan !== undefined) (entry.value as Checked).matchedEan = product.matchedEan;
		}
	});
}

/** For an output item: `matchedEan`, the EAN as the product has it, when the product was named By EAN in another form (nothing otherwise). */
export function foundBy({ matchedEan }: { matchedEan?: string }): IDataObject {
	return matchedEan === undefined ? {} : { matchedEan };
}

/**
 * The products of one item's references, from the run's look-up (`found`, `lookUpNamedProducts`
 * over every item's references: the skeleton's plan, actions/run.ts); the first that has none
 * fails the item.
 */
export function productsFound(item: ValueContext, refs: NamedProductRef[], found: Map<string, FoundProduct[]>): ResolvedProduct[] {
	const products = productsOf(refs.map((ref) => ({ ...ref, ctx: item })), found);
	const problem = products.find((product): product is NodeOperationError => product instanceof NodeOperationError);
	if (problem) throw problem;
	return products as ResolvedProduct[];
}

/** With what tells similar products apart: "Blender J375 · 31 129 RSD · stock 127 · SKU BL-375 · EAN 8600123456782" (prices by values/numbers.ts `shownPrice`). */
function listEntryName(product: IDataObject): string {
	const price = decodedNumber(product.basePrice);
	const stock = decodedNumber(product.stockLevel);
	return [
		isBlank(product.name) ? `Product ${String(product.id)}` : String(product.name),
		price === null ? undefined : shownPrice(price),
		stock === null ? undefined : `stock ${stock}`,
		isBlank(product.sku) ? undefined : `SKU ${String(product.sku)}`,
		isBlank(product.ean) ? undefined : `EAN ${String(product.ean)}`,
	]
		.filter((part) => part !== undefined)
		.join(' · ');
}

/** From List: Get Many's `search` (name, SKU and EAN), a page at a time; the token is the next page number. */
export async function searchProducts(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	const page = isBlank(paginationToken) ? 0 : readWholeNumber(this, 'Page', paginationToken, 0);
	const qs: IDataObject = { page, size: SEARCH_PAGE_SIZE };
	if (!isBlank(filter)) qs.search = readText(this, 'Search', filter);
	const response = await sendAuthenticated(this, CATALOGUE, { method: 'GET', url: PATHS.products, qs });
	const products = decodedList(this, response, ANSWERS.products);
	return {
		results: products.map((product) => ({ name: listEntryName(product), value: String(product.id) })),
		// A page shorter than asked for is the last one (the answers carry no paging metadata).
		paginationToken: products.length < SEARCH_PAGE_SIZE ? undefined : String(page + 1),
	};
}


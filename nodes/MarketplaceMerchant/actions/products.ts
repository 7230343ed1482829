/**
 * What the product operations share with Price › Get Many, the discount operations and the
 * trigger's Product Changed: the product fields and readers (built on values.ts), the update
 * entry of Update and Update Many (`buildProductUpdate`), and the product
 * locator of Product Update, Update Many rows, Price Get Many and Discount Schedule rows: From List
 * (search by name, SKU or EAN), By ID, and By EAN, looked up with Get Many's `ean` filter before
 * anything else is sent, many EANs per request where the service takes a repeated `ean`
 * (`productIdsByEan`). A plain value (older workflows, JSON entries) is By ID.
 */
import {
	NodeOperationError,
	sleep,
	type IDataObject,
	type ILoadOptionsFunctions,
	type INodeListSearchResult,
	type INodeProperties,
} from 'n8n-workflow';

import { ANSWERS, decodedList, decodedNumber } from '../answers/answers';
import { LIMITS, PATHS } from '../transport/endpoints';
import { processWide } from '../transport/state';
import { CREDENTIAL_TYPE, normalizeBaseUrl, runOf, sendAuthenticated, type AuthenticatedContext, type Route } from '../transport/engine';
import {
	VAT_RATES,
	describeValue,
	fieldPath,
	invalidInput,
	isBlank,
	readBoolean,
	readChoice,
	readEan,
	readId,
	readList,
	readLocator,
	readNumber,
	readPrice,
	readSignedStockLevel,
	readText,
	readVat,
	readWholeNumber,
	readNumberFormat,
	shownPrice,
	type NumberFormat,
	type NumberReader,
	type SettingsContext,
	type ValueContext,
} from '../values/values';
import type { EntryRead } from './bulkRun';
import { locatorField, textField } from './common';

/**
 * The route of every product request. Each is safe to repeat: reads (Check EANs is a POST that only
 * reads), updates set absolute values, and Import creates or edits by EAN.
 */
export const CATALOGUE: Route = { group: 'catalogue', idempotent: true };

/** How every price comparison is made (Sync, the trigger's Product Changed): 1299.00 and a float's 1299.9999999 are one price. */
export function priceInCents(price: number): number {
	return Math.round(price * 100);
}

export const PRICE_FORMS = 'At most 2 decimals, written as Options › Number Format says: Plain (the default) 1299 or 1299.50, Serbian 1.299,50, English 1,299.50';

/** A text field, not a number defaulting to 0: n8n (2.41) flags an empty required field before a run only for text types. */
export function requiredPriceField(name: string, displayName: string, description: string): INodeProperties {
	return textField(displayName, name, description, { required: true, placeholder: 'e.g. 1299.99' });
}

const DIMENSION_FORMS = 'above 0, plain digits with at most 2 decimals (e.g. 12.5)';

/** A length in centimetres: the unit the service's answers give dimensions in (`packageDimensionUnit: "cm"`, platform facts). */
function dimensionField(displayName: string, name: string, what: string): INodeProperties {
	return textField(`${displayName} (cm)`, name, `${what} in centimetres; ${DIMENSION_FORMS}`, { placeholder: 'e.g. 12.5' });
}

/**
 * Base Price, Package Weight Value and Stock Level are text fields that start empty: an n8n number
 * field added to a collection holds 0, a value the merchant never typed (a stock of 0 would empty
 * the shelf). The readers take text as they take numbers, so older workflows' numbers still read.
 */
export const PRODUCT_FIELDS = {
	basePrice: textField('Base Price', 'basePrice', `Price with VAT included; above 0. ${PRICE_FORMS}.`, { placeholder: 'e.g. 1299.99' }),
	packageWeightUnit: {
		displayName: 'Package Weight Unit',
		name: 'packageWeightUnit',
		type: 'options',
		options: [
			{ name: 'Grams (G)', value: 'G' },
			{ name: 'Kilograms (KG)', value: 'KG' },
		],
		default: 'KG',
		description: 'Unit of the package weight',
	},
	packageWeightValue: textField(
		'Package Weight Value',
		'packageWeightValue',
		'Package weight; above 0, plain digits with at most 3 decimals (e.g. 1.25)',
		{ placeholder: 'e.g. 1.25' },
	),
	packageHeightValue: dimensionField('Package Height', 'packageHeightValue', 'Package height'),
	packageLengthValue: dimensionField('Package Length', 'packageLengthValue', 'Package length'),
	packageWidthValue: dimensionField('Package Width', 'packageWidthValue', 'Package width'),
	productHeightValue: dimensionField('Product Height', 'productHeightValue', 'Height of the product itself'),
	productLengthValue: dimensionField('Product Length', 'productLengthValue', 'Length of the product itself'),
	productWidthValue: dimensionField('Product Width', 'productWidthValue', 'Width of the product itself'),
	productWeightValue: textField(
		'Product Weight (kg)',
		'productWeightValue',
		'Weight of the product itself in kilograms (the service stores weights in kilograms); above 0, plain digits with at most 3 decimals (e.g. 1.25)',
		{ placeholder: 'e.g. 1.25' },
	),
	serviceable: {
		displayName: 'Serviceable',
		name: 'serviceable',
		type: 'boolean',
		default: false,
		description:
			"Whether the product is serviceable: the service's `serviceable` flag, which its current pages list for updates without defining it further (a production client sends true for every product)",
	},
	sku: textField('SKU', 'sku', 'Stock keeping unit'),
	stockLevel: textField('Stock Level', 'stockLevel', 'Available stock; a whole number of 0 or more, plain digits (e.g. 1000)', {
		placeholder: 'e.g. 1000',
	}),
	vat: {
		displayName: 'VAT',
		name: 'vat',
		type: 'options',
		options: VAT_RATES.map((rate) => ({ name: `${rate}%`, value: rate })),
		default: 20,
		description: 'VAT rate in percent; the service accepts 0, 10 and 20',
	},
} satisfies Record<string, INodeProperties>;

/** Above 0, at most 3 decimal places (grams of a kilogram). */
export function readWeight(ctx: ValueContext, field: string, value: unknown, format?: NumberFormat): number {
	return readNumber(ctx, field, value, { min: 0, minExclusive: true, maxDecimals: 3, kind: 'a weight', format, data: true });
}

export type WeightUnit = 'KG' | 'G';

export function readWeightUnit(ctx: ValueContext, field: string, value: unknown): WeightUnit {
	return readChoice(ctx, field, value, ['KG', 'G'] as const);
}

/** A package or product dimension in centimetres. */
export function readDimension(ctx: ValueContext, field: string, value: unknown, format?: NumberFormat): number {
	return readNumber(ctx, field, value, { min: 0, minExclusive: true, maxDecimals: 2, kind: 'a length in centimetres', format, data: true });
}

/** The product's own dimensions, for Import (platform facts: import takes them; product/bulk is not said to). */
export const PRODUCT_DIMENSION_READERS = {
	productWidthValue: readDimension,
	productLengthValue: readDimension,
	productHeightValue: readDimension,
	productWeightValue: readWeight,
} satisfies Record<string, NumberReader>;

export const PRODUCT_DIMENSION_FIELDS: INodeProperties[] = [
	PRODUCT_FIELDS.productHeightValue,
	PRODUCT_FIELDS.productLengthValue,
	PRODUCT_FIELDS.productWeightValue,
	PRODUCT_FIELDS.productWidthValue,
];

/**
 * Every weight goes out in kilograms, and this is the one place that says how: each writer of a
 * package weight (Update, Update Many, Import) passes the fields it read (`packageWeightValue` as
 * readWeight reads it, `packageWeightUnit` as readWeightUnit does) and sends what this leaves in
 * them. Platform facts: the live service stores the number as kilograms whatever unit is sent
 * ("hard-coded KG"), so `500 G` would become 500 kg; where the service honours the unit (the
 * interface reference), 0.5 KG is the same 500 g. Grams (at most 3 decimals) are counted in whole
 * milligrams and divided once, so the kilograms are exact: 300 G is 0.3 KG, not 0.30000000000000004.
 * Returns what the output should tell the merchant: the conversion, or a unit given without a value
 * (not sent: it only says what a value is in, and a service that honours units would re-read the
 * stored number in it).
 */
export function packageWeightInKg(fields: IDataObject): string | undefined {
	const { packageWeightValue: value, packageWeightUnit: unit } = fields;
	if (value === undefined) {
		if (unit === undefined) return undefined;
		delete fields.packageWeightUnit;
		return `Package Weight Unit ${String(unit)} not sent: no Package Weight Value was given`;
	}
	fields.packageWeightUnit = 'KG';
	if (unit !== 'G') return undefined;
	const kilograms = Math.round((value as number) * 1000) / 1_000_000;
	fields.packageWeightValue = kilograms;
	return `Package Weight ${String(value)} G sent as ${kilograms} KG, as the service stores kilograms`;
}

/** Options › Negative Stock, of Update, Update Many and Sync Stock and Prices (read by `readNegativeStock` only). */
export const NEGATIVE_STOCK_OPTION: INodeProperties = {
	displayName: 'Negative Stock',
	name: 'negativeStock',
	type: 'options',
	options: [
		{
			name: 'Send as 0',
			value: 'zero',
			description: 'A stock below 0 (an item oversold in the ERP) goes out as 0, as the service stores it; the entry says so in notes',
		},
		{
			name: 'Treat as Invalid',
			value: 'invalid',
			description: 'A stock below 0 makes its entry invalid (Invalid Entries decides what happens to the run; Update fails the item)',
		},
	],
	default: 'zero',
	description: 'What to do with a Stock Level below 0',
};

const NEGATIVE_STOCK_LABEL = fieldPath('Options', NEGATIVE_STOCK_OPTION.displayName);
type NegativeStock = 'zero' | 'invalid';

function readNegativeStock(settings: SettingsContext): NegativeStock {
	const choice = settings.getNodeParameter(`options.${NEGATIVE_STOCK_OPTION.name}`, NEGATIVE_STOCK_OPTION.default);
	if (choice === 'zero' || choice === 'invalid') return choice;
	throw invalidInput(settings, NEGATIVE_STOCK_LABEL, `${describeValue(choice)} is not one of zero, invalid`, 'Pick Send as 0 or Treat as Invalid');
}

/**
 * The stock every writer sends for a stock level read with readSignedStockLevel: as given from 0
 * up; below 0 (an ERP's oversold item), 0 with a note by default, since the service stores a
 * negative stock as 0 (platform facts) and one such row used to stop a whole run; or invalid, as
 * Options › Negative Stock says (read only for a negative stock: long lists have none).
 */
export function stockLevelToSend(
	settings: SettingsContext,
	ctx: ValueContext,
	field: string,
	stock: number,
	/** Sync says "taken": an unchanged entry sends nothing. */
	verb: 'sent' | 'taken' = 'sent',
): { stockLevel: number; note?: string } {
	if (stock >= 0) return { stockLevel: stock === 0 ? 0 : stock };
	if (readNegativeStock(settings) === 'invalid') {
		throw invalidInput(ctx, field, `must be at least 0, got ${stock}`, `${NEGATIVE_STOCK_LABEL} is Treat as Invalid; choose Send as 0 to send a stock below 0 as 0`);
	}
	return { stockLevel: 0, note: `Stock Level ${stock} ${verb} as 0, as the service stores it` };
}

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

/** Products per page of the editor's list: n8n asks for the next page as the user scrolls. */
const SEARCH_PAGE_SIZE = 50;

const EAN_LOOKUP_SIZE = 20;

const MODES = { list: 'From List', id: 'By ID', ean: 'By EAN' };

const regexCheck = (regex: string, errorMessage: string) => [{ type: 'regex', properties: { regex, errorMessage } }];
const ID_CHECK = regexCheck('^\\s*[0-9]+\\s*$', 'A product ID is a whole number, e.g. 100001');
const EAN_CHECK = regexCheck('^\\s*[0-9]{8,14}\\s*$', 'An EAN is 8 to 14 digits, e.g. 8600123456782');

/** `product` says which product the field is for. */
export function productLocatorField({ name, product = 'The product' }: { name: string; product?: string }): INodeProperties {
	const ways = 'pick it from the list (search by name, SKU or EAN), give its ID (the API calls it merchantInventoryId), or give its EAN';
	return locatorField('Product ID', name, `${product}: ${ways}`, {
		list: { placeholder: 'Select a product...', searchListMethod: 'searchProducts' },
		modes: [
			{ displayName: MODES.id, name: 'id', type: 'string', placeholder: 'e.g. 100001', validation: ID_CHECK },
			{ displayName: MODES.ean, name: 'ean', type: 'string', placeholder: 'e.g. 8600123456782', validation: EAN_CHECK },
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

export type NamedProductRef = { field: string; ref: ProductRef };

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
 * The look-ups of one node run, gathered: Product › Update and Price Get Many look up per input
 * item, and RoutingNode starts every item in one synchronous loop, so the EANs the items ask for
 * before the next turn of the event loop go out together.
 */
const gatheringByRun = new WeakMap<object, { eans: Set<string>; found: Promise<Map<string, number[]>> }>();

async function lookUpEans(ctx: AuthenticatedContext, eans: string[]): Promise<Map<string, number[]>> {
	const run = runOf(ctx);
	if (eans.length === 0) return new Map();
	if (!run) return await productIdsByEan(ctx, eans);
	let gathering = gatheringByRun.get(run);
	if (!gathering) {
		const gathered = new Set<string>();
		const found = (async () => {
			await sleep(0);
			gatheringByRun.delete(run);
			return await productIdsByEan(ctx, [...gathered]);
		})();
		gathering = { eans: gathered, found };
		gatheringByRun.set(run, gathering);
	}
	for (const ean of eans) gathering.eans.add(ean);
	return await gathering.found;
}

/** The product ID of every reference, in order, or why it has none. */
async function lookUpProductIds(
	sender: AuthenticatedContext,
	refs: Array<NamedProductRef & { ctx: ValueContext }>,
): Promise<Array<number | NodeOperationError>> {
	const found = await lookUpEans(sender, [...new Set(refs.flatMap(({ ref }) => ('ean' in ref ? [ref.ean] : [])))]);
	return refs.map(({ ctx, field, ref }) => {
		if ('id' in ref) return ref.id;
		const ids = found.get(ref.ean) ?? [];
		if (ids.length === 1) return ids[0];
		if (ids.length === 0) {
			return invalidInput(ctx, field, `no product has the EAN "${ref.ean}"`, 'Check the EAN, or pick the product from the list');
		}
		const problem = `${ids.length} products have the EAN "${ref.ean}" (IDs ${ids.join(', ')})`;
		return invalidInput(ctx, field, problem, 'Give the product by its ID instead');
	});
}

/** The `resolve` of a bulk operation whose entries name a product: each gets its ID, or is invalid when its EAN names none or several. */
export async function resolveEntryProducts<Checked extends { product: NamedProductRef; productId?: number }>(
	sender: AuthenticatedContext,
	entries: Array<{ ctx: ValueContext; value?: Checked; problem?: NodeOperationError }>,
): Promise<void> {
	const ids = await lookUpProductIds(sender, entries.map(({ ctx, value }) => ({ ctx, ...(value as Checked).product })));
	entries.forEach((entry, index) => {
		const id = ids[index];
		if (id instanceof NodeOperationError) entry.problem = id;
		else (entry.value as Checked).productId = id;
	});
}

/** The product IDs of one item's references; the first that has none fails the item. */
export async function resolveProductIds(ctx: AuthenticatedContext & ValueContext, refs: NamedProductRef[]): Promise<number[]> {
	const ids = await lookUpProductIds(ctx, refs.map((ref) => ({ ...ref, ctx })));
	const problem = ids.find((id): id is NodeOperationError => id instanceof NodeOperationError);
	if (problem) throw problem;
	return ids as number[];
}

/**
 * Platform facts: product/bulk and product/{id} also take `serviceable` and package dimensions
 * (product dimensions only Import). No `packageDimensionUnit` is sent: the sources name it only in
 * answers, as `cm`, not among what a write takes, so the fields are in centimetres.
 */
export const productUpdateFieldOptions: INodeProperties[] = [
	{
		...PRODUCT_FIELDS.basePrice,
		description: `New price with VAT included; above 0. The service applies it from the next day. ${PRICE_FORMS}.`,
	},
	PRODUCT_FIELDS.packageHeightValue,
	PRODUCT_FIELDS.packageLengthValue,
	{
		...PRODUCT_FIELDS.packageWeightUnit,
		description: 'Unit of Package Weight Value; grams are sent converted to kilograms, the unit the service stores',
	},
	PRODUCT_FIELDS.packageWeightValue,
	PRODUCT_FIELDS.packageWidthValue,
	PRODUCT_FIELDS.serviceable,
	PRODUCT_FIELDS.sku,
	{
		...PRODUCT_FIELDS.stockLevel,
		description: 'Available stock; a whole number, plain digits (e.g. 1000). Below 0 (oversold) goes out as 0, as the service stores it, unless Options › Negative Stock says otherwise.',
	},
	PRODUCT_FIELDS.vat,
];

/** Update Fields, of Update and of an Update Many row. */
export function updateFieldsCollection(description: string): INodeProperties {
	const options = productUpdateFieldOptions;
	return { displayName: 'Update Fields', name: 'updateFields', type: 'collection', placeholder: 'Add Field', default: {}, description, options };
}

/** One reader per field; a stock level below 0 and a weight in grams then go out by the writers' rules (`stockLevelToSend`, `packageWeightInKg`). */
const UPDATE_FIELD_READERS: Record<string, (ctx: ValueContext, field: string, value: unknown, format: NumberFormat) => string | number | boolean> = {
	basePrice: readPrice,
	vat: readVat,
	stockLevel: readSignedStockLevel,
	sku: readText,
	packageWeightValue: readWeight,
	packageWeightUnit: readWeightUnit,
	serviceable: readBoolean,
	packageHeightValue: readDimension,
	packageWidthValue: readDimension,
	packageLengthValue: readDimension,
};

export const UPDATE_FIELD_NAMES = Object.keys(UPDATE_FIELD_READERS);

/** For hints that serve the panel's fields and JSON keys alike: `Base Price (basePrice)`. */
const UPDATE_FIELDS_NAMED = productUpdateFieldOptions.map(({ name, displayName }) => `${displayName} (${name})`).join(', ');

/** An update entry checked, its product still as the user named it (an EAN is looked up before sending). */
export interface CheckedProductUpdate {
	product: NamedProductRef;
	/** As they go out: the stock from 0 up, the weight in kilograms. */
	fields: IDataObject;
	/** What the output tells about how a value went out (a weight converted, a stock below 0 sent as 0). */
	notes?: string[];
	/** Update Many's, once the product is resolved. */
	productId?: number;
}

/** An entry of Update Many, or Update's parameters as one. */
type UpdateEntry = Pick<EntryRead, 'raw' | 'label' | 'reader' | 'fromPanel'> & { ctx: SettingsContext };

/**
 * Other properties of the entry are not sent, so items from Get Many pass as they are. From the
 * panel (`fromPanel`), a field added but left empty fails as missing rather than being dropped
 * unseen; in a JSON entry a blank value means "not given" (a sheet's empty cell).
 */
export function buildProductUpdate({ ctx, raw, label, reader, fromPanel }: UpdateEntry): CheckedProductUpdate {
	const product = { field: label('id'), ref: readProductRef(reader('id'), label('id'), raw.id) };
	const fields: IDataObject = {};
	const format = readNumberFormat(ctx);
	for (const [property, read] of Object.entries(UPDATE_FIELD_READERS)) {
		const given = fromPanel ? Object.prototype.hasOwnProperty.call(raw, property) : !isBlank(raw[property]);
		if (given) fields[property] = read(reader(property), label(property), raw[property], format);
	}
	const notes: string[] = [];
	if (fields.stockLevel !== undefined) {
		const { stockLevel, note } = stockLevelToSend(ctx, reader('stockLevel'), label('stockLevel'), fields.stockLevel as number);
		fields.stockLevel = stockLevel;
		if (note) notes.push(note);
	}
	const weightNote = packageWeightInKg(fields);
	if (weightNote) notes.push(weightNote);
	if (Object.keys(fields).length === 0) {
		throw invalidInput(ctx, label(), 'nothing to update', `Give at least one of: ${UPDATE_FIELDS_NAMED}`);
	}
	return notes.length > 0 ? { product, fields, notes } : { product, fields };
}

/** With what tells similar products apart: "Blender J375 · 31 129 RSD · stock 127 · SKU BL-375 · EAN 8600123456782" (prices by values.ts `shownPrice`). */
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

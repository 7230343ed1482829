/** Product routes: lists, import, updates, product types and EAN checks. */
import { randomUUID } from 'node:crypto';
import { PRODUCT_TYPES } from '../data';
import { dayStartIn, parseIsoDay, parseTimestamp, startOfUtcDay } from '../dates';
import { badRequest, integerParam, notFound, requireBody, type RequestBody } from '../http';
import { type ProductFilter, serializeBrand, toBasicProduct, toProduct } from '../products';
import type { RouteContext, RouteDefinition, RouteResult } from '../route';
import type { Product, ProductRecord, ProductUpdateResult, WeightUnit } from '../types';
import { importFailsLater, reportedResults } from '../result-variants';
import { UNKNOWN_PRODUCT_SERBIAN, documentedProduct, documentedUpdateResult } from '../documented-shapes';
import { isBlank, isRecord, toNumber, toText } from '../values';
import { xmlList } from '../xml';
import type { SandboxCore } from '../core';
import type { VariantSwitches } from '../variants';

const BASE = '/product/api/v1/merchant-integration';
const DEFAULT_PAGE_SIZE = 20;
const MAX_PRODUCTS_PAGE = 200;
const MAX_BASIC_PRODUCTS_PAGE = 2500;
export const MAX_BULK_ITEMS = 30_000;
const WEIGHT_UNITS: WeightUnit[] = ['KG', 'G'];

function pageOf(query: URLSearchParams, maxSize: number): { page: number; size: number } {
	return {
		page: integerParam(query, 'page', 0, 0, Number.MAX_SAFE_INTEGER),
		size: integerParam(query, 'size', DEFAULT_PAGE_SIZE, 1, maxSize),
	};
}

/** `date-modified-after`: a day, counted from its start where the service reads days (the variant `serviceTimeZone`). */
function modifiedSince(query: URLSearchParams, zone: string): string | undefined {
	const raw = query.get('date-modified-after');
	if (raw === null || raw === '') return undefined;
	const dayMs = parseIsoDay(raw);
	if (dayMs === undefined) throw badRequest('date-modified-after must be a date in format yyyy-MM-dd');
	return new Date(dayStartIn(dayMs, zone)).toISOString();
}

/**
 * The `ean` filter of GET products. The interface reference has one `ean`; the current pages say it
 * may repeat (`?ean=A&ean=B`). By default (the sandbox as it always was) a repeated `ean` counts
 * only its first value; with `productsEanRepeats` every value given counts.
 */
function eansAsked(query: URLSearchParams, repeats: boolean): Set<string> | undefined {
	const eans = (repeats ? query.getAll('ean') : [query.get('ean') ?? '']).filter((ean) => ean !== '');
	return eans.length > 0 ? new Set(eans) : undefined;
}

/** The current pages' filter of basic-products: a UTC timestamp without zone or fraction, as Spring's pattern binds it. */
function modifiedSinceTimestamp(query: URLSearchParams): string | undefined {
	const raw = query.get('dateModifiedAfter');
	if (raw === null || raw === '') return undefined;
	const ms = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/.test(raw) ? parseTimestamp(raw) : undefined;
	if (ms === undefined) throw badRequest('dateModifiedAfter must be a timestamp in format yyyy-MM-ddTHH:mm:ss');
	return new Date(ms).toISOString();
}

/** basic-products' modified filter under the switch `basicProductsModifiedFilter`: the later of the bounds honoured. */
function basicModifiedSince(core: SandboxCore, query: URLSearchParams): string | undefined {
	const honoured = core.variants.current.basicProductsModifiedFilter;
	const bounds = [
		honoured === 'documented' ? undefined : modifiedSince(query, core.variants.current.serviceTimeZone),
		honoured === 'reference' ? undefined : modifiedSinceTimestamp(query),
	].filter((bound): bound is string => bound !== undefined);
	return bounds.sort().at(-1);
}

/** The body as a list: a JSON array, or any XML list. */
function bodyList(body: RequestBody): unknown[] {
	const value = requireBody(body);
	const list = body.format === 'xml' ? xmlList(value) : value;
	if (!Array.isArray(list)) throw badRequest('Request body must be an array');
	return list;
}

function bodyListLength(body: RequestBody): number | undefined {
	if (body.value === undefined) return undefined;
	const list = body.format === 'xml' ? xmlList(body.value) : body.value;
	return Array.isArray(list) ? list.length : undefined;
}

type ServiceField = 'serviceable' | (typeof PACKAGE_DIMENSIONS)[number];

interface FieldChanges {
	errors: string[];
	changes: Partial<Pick<ProductRecord, 'vat' | 'stockLevel' | 'packageWeightValue' | 'packageWeightUnit' | 'sku' | ServiceField>>;
	basePrice?: number;
}

/** Platform facts: product/bulk and product/{id} also take these (dimensions in centimetres); unknown fields are ignored. */
const PACKAGE_DIMENSIONS = ['packageHeightValue', 'packageWidthValue', 'packageLengthValue'] as const;

/** `serviceable` and package dimensions, when given. */
function readServiceFields(item: Record<string, unknown>, result: FieldChanges): void {
	if (!isBlank(item.serviceable)) {
		const text = toText(item.serviceable) ?? String(item.serviceable);
		if (typeof item.serviceable === 'boolean') result.changes.serviceable = item.serviceable;
		else if (text === 'true' || text === 'false') result.changes.serviceable = text === 'true';
		else result.errors.push('serviceable must be true or false');
	}
	for (const name of PACKAGE_DIMENSIONS) {
		if (isBlank(item[name])) continue;
		const value = toNumber(item[name]);
		if (value === undefined || value <= 0) result.errors.push(`${name} must be positive`);
		else result.changes[name] = value;
	}
}

/**
 * The fields shared by updates and imports, checked against the live service's rules; the
 * variants `negativeStockStoredAsZero` and `weightStoredAsKg` store what the newer sources say.
 */
function readProductFields(item: Record<string, unknown>, variants: VariantSwitches): FieldChanges {
	const { negativeStockStoredAsZero, weightStoredAsKg, market } = variants.current;
	const result: FieldChanges = { errors: [], changes: {} };
	if (!isBlank(item.basePrice)) {
		const basePrice = toNumber(item.basePrice);
		if (basePrice === undefined || basePrice <= 0) result.errors.push('basePrice must be positive');
		else result.basePrice = basePrice;
	}
	if (!isBlank(item.vat)) {
		const vat = toNumber(item.vat);
		// The account's market's rates (variant `market`), in the service's words: 'VAT must be one of 0, 10, 20'.
		if (vat === undefined || !market.vatRates.includes(vat)) result.errors.push(`VAT must be one of ${market.vatRates.join(', ')}`);
		else result.changes.vat = vat;
	}
	if (!isBlank(item.stockLevel)) {
		const stockLevel = toNumber(item.stockLevel);
		if (stockLevel === undefined || !Number.isInteger(stockLevel) || (stockLevel < 0 && !negativeStockStoredAsZero)) {
			result.errors.push('stockLevel must be an integer >= 0');
		} else result.changes.stockLevel = Math.max(0, stockLevel);
	}
	if (!isBlank(item.packageWeightValue)) {
		const weight = toNumber(item.packageWeightValue);
		if (weight === undefined || weight <= 0) result.errors.push('packageWeightValue must be positive');
		else result.changes.packageWeightValue = weight;
	}
	if (!isBlank(item.packageWeightUnit)) {
		const unit = toText(item.packageWeightUnit)?.toUpperCase() as WeightUnit;
		if (!WEIGHT_UNITS.includes(unit)) result.errors.push('packageWeightUnit must be KG or G');
		else result.changes.packageWeightUnit = unit;
	}
	// "Hard-coded KG": the number is kept, the unit sent is not.
	if (weightStoredAsKg && result.changes.packageWeightValue !== undefined) result.changes.packageWeightUnit = 'KG';
	readServiceFields(item, result);
	if (!isBlank(item.sku)) {
		const sku = toText(item.sku)?.trim();
		if (!sku) result.errors.push('sku must be a non-empty string');
		else result.changes.sku = sku;
	}
	return result;
}

/** GET products' element; with `weightStoredAsKg`, every weight in kilograms, the unit in lower case as the live answers write it. */
/**
 * A seeded product's VAT in the account's market (variant `market`): the catalogue is seeded with
 * Serbia's rates, so a rate the market lacks is answered as its standard rate (the highest), a
 * reduced one (10) as the market's lowest rate above 0 where it has one. A rate set by an update is
 * the market's already.
 */
function marketVat(vat: number, rates: number[]): number {
	if (rates.includes(vat)) return vat;
	const positive = rates.filter((rate) => rate > 0).sort((a, b) => a - b);
	if (positive.length === 0) return vat;
	return vat > 0 && vat < 20 ? positive[0] : positive[positive.length - 1];
}

function answeredProduct(core: SandboxCore, record: ProductRecord): Product | (Omit<Product, 'packageWeightUnit'> & { packageWeightUnit: string }) {
	const product = { ...toProduct(record), vat: marketVat(record.vat, core.variants.current.market.vatRates) };
	if (!core.variants.current.weightStoredAsKg) return product;
	const inKg = product.packageWeightUnit === 'G' ? product.packageWeightValue / 1000 : product.packageWeightValue;
	return { ...product, packageWeightValue: inKg, packageWeightUnit: 'kg' };
}

/** A base price change applies from the next day: it goes to newBasePrice until then. */
function withBasePrice(record: ProductRecord, basePrice: number | undefined, nowMs: number): ProductRecord {
	if (basePrice === undefined) return record;
	if (basePrice === record.basePrice) return { ...record, newBasePrice: basePrice, priceChangeDay: null };
	return { ...record, newBasePrice: basePrice, priceChangeDay: startOfUtcDay(nowMs) };
}

function updateProduct(core: SandboxCore, product: ProductRecord, item: unknown): ProductUpdateResult {
	if (!isRecord(item)) return { status: 'FAIL', errors: ['Each product update must be an object'], myProductId: product.id };
	const { errors, changes, basePrice } = readProductFields(item, core.variants);
	if (errors.length > 0) return { status: 'FAIL', errors, myProductId: product.id };
	const nowMs = core.clock.nowMs();
	const updated = withBasePrice({ ...product, ...changes }, basePrice, nowMs);
	core.catalog.save({ ...updated, dateModified: new Date(nowMs).toISOString() });
	return { status: 'SUCCESS', errors: [], myProductId: product.id };
}

let brandsByName: Map<string, { id: number; name: string }> | undefined;

/** The known brands by lower-case name, built once: an import of 5,000 rows looks each up. */
function knownBrands(): Map<string, { id: number; name: string }> {
	if (!brandsByName) {
		brandsByName = new Map();
		for (const brand of PRODUCT_TYPES.flatMap((type) => type.brands)) if (!brandsByName.has(brand.name.toLowerCase())) brandsByName.set(brand.name.toLowerCase(), brand);
	}
	return brandsByName;
}

/** Brands are serialized objects; a plain name gets the id of the known brand of that name. */
function brandValue(raw: unknown): string | undefined {
	const text = toText(raw)?.trim();
	if (!text) return undefined;
	// Only text that can be an object is parsed: a thrown parse error per plain name slowed imports of thousands.
	if (text.startsWith('{')) {
		try {
			const parsed: unknown = JSON.parse(text);
			if (isRecord(parsed) && typeof parsed.name === 'string') return text;
		} catch {
			// a plain brand name
		}
	}
	const known = knownBrands().get(text.toLowerCase());
	let hash = 0;
	for (const char of text) hash = (hash * 31 + char.charCodeAt(0)) % 100_000;
	return serializeBrand(known?.id ?? 900_000 + hash, known?.name ?? text);
}

function stringList(value: unknown, elementName: string): string[] {
	return xmlList(value, [elementName, 'item'])
		.map((entry) => toText(entry))
		.filter((entry): entry is string => entry !== undefined);
}

/** The import request's Java type, as the live service's JSON binder names it in its 400s. */
const IMPORT_REQUEST_TYPE = 'rs.marketplace.merchant.integration.product.dto.ImportProductRequest';

/**
 * The 400 Spring Boot answers when Jackson cannot bind the body to the handler's parameter type:
 * the shape the route does not take (`importBodyShape`) gets this, not a validation message.
 */
function bindingError(path: string, nowMs: number, sent: 'list' | 'object'): RouteResult {
	const message =
		sent === 'list'
			? `JSON parse error: Cannot deserialize value of type \`${IMPORT_REQUEST_TYPE}\` from Array value (token \`JsonToken.START_ARRAY\`)`
			: `JSON parse error: Cannot deserialize value of type \`java.util.ArrayList<${IMPORT_REQUEST_TYPE}>\` from Object value (token \`JsonToken.START_OBJECT\`)`;
	return { status: 400, json: { timestamp: new Date(nowMs).toISOString(), status: 400, error: 'Bad Request', message, path } };
}

/** One import row checked; its errors, or the record it creates or edits. */
function importedRecord(core: SandboxCore, item: unknown): { errors: string[]; apply?: () => void } {
	if (!isRecord(item)) return { errors: ['each product must be an object'] };
	const ean = toText(item.ean)?.trim();
	if (!ean || !/^\d{8,14}$/.test(ean)) return { errors: ['ean must be a GTIN of 8 to 14 digits'] };
	const existing = core.catalog.getByEan(ean);
	const { errors, changes, basePrice } = readProductFields(item, core.variants);
	const name = toText(item.name)?.trim();
	if (!existing) {
		if (!name) errors.push('name is required');
		if (basePrice === undefined && isBlank(item.basePrice)) errors.push('basePrice is required');
		if (changes.vat === undefined && isBlank(item.vat)) errors.push('vat is required');
	}
	const parentEan = toText(item.parentEan)?.trim();
	if (parentEan && !core.catalog.getByEan(parentEan)) errors.push(`parentEan ${parentEan} does not exist`);
	if (errors.length > 0) return { errors };
	if (importFailsLater(core.variants, item)) return { errors: [], apply: () => undefined };
	return { errors: [], apply: () => saveImported(core, item, ean, name, changes, basePrice, parentEan) };
}

function saveImported(
	core: SandboxCore,
	item: Record<string, unknown>,
	ean: string,
	name: string | undefined,
	changes: FieldChanges['changes'],
	basePrice: number | undefined,
	parentEan: string | undefined,
): void {
	// Looked up again: an earlier row of the same list may have created it.
	const existing = core.catalog.getByEan(ean);
	const nowMs = core.clock.nowMs();
	const brand = brandValue(item.brand);
	const described = {
		...(name ? { name } : {}),
		...(isBlank(item.description) ? {} : { description: String(item.description) }),
		...(brand ? { brand } : {}),
		...(isBlank(item.productType) ? {} : { productType: String(item.productType) }),
		...(isBlank(item.category) ? {} : { categories: [String(item.category)] }),
		...(isBlank(item.externalId) ? {} : { externalId: String(item.externalId) }),
		...(isBlank(item.coverImage) ? {} : { coverImage: String(item.coverImage) }),
		...(isBlank(item.gallery) ? {} : { gallery: stringList(item.gallery, 'gallery') }),
		...(parentEan ? { parentEan } : {}),
		...(isRecord(item.attributes)
			? {
					attributes: Object.fromEntries(
						Object.entries(item.attributes).map(([attribute, values]) => [attribute, stringList(values, attribute)]),
					),
				}
			: {}),
		...changes,
		dateModified: new Date(nowMs).toISOString(),
	};
	if (existing) {
		core.catalog.save(withBasePrice({ ...existing, ...described }, basePrice, nowMs));
	} else {
		const price = basePrice as number;
		core.catalog.create({
			externalId: `EXT-${ean}`,
			ean,
			platformCode: `PC${Number(ean.slice(-9)).toString(36).toUpperCase()}`,
			name: name as string,
			description: '',
			brand: serializeBrand(0, ''),
			sku: `IMP-${ean}`,
			productType: '',
			categories: [],
			newBasePrice: price,
			basePrice: price,
			vat: changes.vat as number,
			stockLevel: 0,
			packageWeightValue: 1,
			packageWeightUnit: 'KG',
			warehouse: 'MERCHANT_WAREHOUSE',
			priceChangeDay: null,
			...described,
		});
	}
}

/**
 * POST import: one product object (the reference), a list (the current pages) or either, as
 * `importBodyShape` says. One progress id per request; a list is checked whole before any row is
 * applied, and a row's error names its position, as bean validation of a list does.
 */
function importProducts({ core, body, path }: RouteContext): RouteResult {
	const value = requireBody(body);
	const sentList = body.format === 'json' ? Array.isArray(value) : false;
	const takes = core.variants.current.importBodyShape;
	if (sentList && takes === 'object') return bindingError(path, core.clock.nowMs(), 'list');
	if (!sentList && takes === 'list' && body.format === 'json') return bindingError(path, core.clock.nowMs(), 'object');
	if (!sentList) {
		if (!isRecord(value)) throw badRequest('Request body must be one product import object');
		const { errors, apply } = importedRecord(core, value);
		if (errors.length > 0) throw badRequest(errors.join('; '));
		apply?.();
		return { json: { id: randomUUID() } };
	}
	const rows = value as unknown[];
	if (rows.length === 0) throw badRequest('Request body must list at least one product');
	if (rows.length > MAX_BULK_ITEMS) throw badRequest(`At most ${MAX_BULK_ITEMS} products per request`);
	const checked = rows.map((row) => importedRecord(core, row));
	const errors = checked.flatMap(({ errors: rowErrors }, index) => rowErrors.map((error) => `[${index}]: ${error}`));
	if (errors.length > 0) throw badRequest(errors.join('; '));
	for (const { apply } of checked) apply?.();
	return { json: { id: randomUUID() } };
}

/**
 * Changes made on the platform's side, as a sale from the platform warehouse makes them: stock goes
 * down by `sold` (or is set to `stockLevel`), and the product's modification time becomes now, so
 * `date-modified-after` finds it. Body: one `{id, sold?, stockLevel?}` or a list of them.
 */
function recordPlatformChanges({ core, body }: RouteContext): { json: unknown } {
	const value = requireBody(body);
	const changes = Array.isArray(value) ? value : [value];
	const nowIso = new Date(core.clock.nowMs()).toISOString();
	const changed = changes.map((change) => {
		const id = isRecord(change) ? toNumber(change.id) : undefined;
		const product = id === undefined ? undefined : core.catalog.getById(id);
		if (!isRecord(change) || !product) throw notFound(`Product ${String(isRecord(change) ? change.id : change)} does not exist`);
		const stockLevel = isBlank(change.stockLevel) ? product.stockLevel - (toNumber(change.sold) ?? 1) : toNumber(change.stockLevel);
		if (stockLevel === undefined || !Number.isInteger(stockLevel) || stockLevel < 0) throw badRequest(`Product ${id}: stock cannot become ${String(stockLevel)}`);
		const updated = { ...product, stockLevel, dateModified: nowIso };
		core.catalog.save(updated);
		return toBasicProduct(updated);
	});
	return { json: changed };
}

/**
 * The platform links a product to an EAN another product already has (variations or a merged
 * listing), so that one EAN names several products. Body: one `{id, ean}` or a list of them.
 */
function shareEans({ core, body }: RouteContext): { json: unknown } {
	const value = requireBody(body);
	return {
		json: (Array.isArray(value) ? value : [value]).map((change) => {
			const product = isRecord(change) ? core.catalog.getById(toNumber(change.id) ?? NaN) : undefined;
			const ean = isRecord(change) ? toText(change.ean)?.trim() : undefined;
			if (!product) throw notFound(`Product ${String(isRecord(change) ? change.id : change)} does not exist`);
			if (!ean || !/^\d{8,14}$/.test(ean)) throw badRequest('ean must be a GTIN of 8 to 14 digits');
			core.catalog.save({ ...product, ean });
			return toProduct({ ...product, ean });
		}),
	};
}

/** EANs other merchants sell, known to the master catalogue (core.ts `catalogueEans`). Body: a list of EANs. */
function addCatalogueEans({ core, body }: RouteContext): { json: unknown } {
	const eans = bodyList(body).map((entry) => toText(entry)?.trim());
	if (!eans.every((ean) => ean !== undefined && /^\d{8,14}$/.test(ean))) throw badRequest('each ean must be a GTIN of 8 to 14 digits');
	for (const ean of eans) core.catalogueEans.add(ean as string);
	return { json: [...core.catalogueEans] };
}

export const productRoutes: RouteDefinition[] = [
	{
		key: 'control',
		method: 'POST',
		pattern: /^\/__sandbox\/catalogue-eans$/,
		authenticated: false,
		handle: addCatalogueEans,
	},
	{
		key: 'control',
		method: 'POST',
		pattern: /^\/__sandbox\/product-eans$/,
		authenticated: false,
		handle: shareEans,
	},
	{
		key: 'control',
		method: 'POST',
		pattern: /^\/__sandbox\/product-changes$/,
		authenticated: false,
		handle: recordPlatformChanges,
	},
	{
		key: 'products',
		method: 'GET',
		pattern: new RegExp(`^${BASE}/products$`),
		authenticated: true,
		handle({ core, query }) {
			const { page, size } = pageOf(query, MAX_PRODUCTS_PAGE);
			const filter: ProductFilter = {
				search: query.get('search') || undefined,
				eans: eansAsked(query, core.variants.current.productsEanRepeats),
				modifiedSince: modifiedSince(query, core.variants.current.serviceTimeZone),
			};
			return { json: core.catalog.page(filter, page, size).map((record) => documentedProduct(core.variants, answeredProduct(core, record), record)) };
		},
	},
	{
		key: 'basicProducts',
		method: 'GET',
		pattern: new RegExp(`^${BASE}/basic-products$`),
		authenticated: true,
		handle({ core, query }) {
			const { page, size } = pageOf(query, MAX_BASIC_PRODUCTS_PAGE);
			return { json: core.catalog.page({ modifiedSince: basicModifiedSince(core, query) }, page, size).map(toBasicProduct) };
		},
	},
	{
		key: 'import',
		method: 'POST',
		pattern: new RegExp(`^${BASE}/import$`),
		authenticated: true,
		handle: importProducts,
		itemCount: ({ body }) => (isRecord(body.value) ? 1 : bodyListLength(body)),
	},
	{
		key: 'productBulk',
		method: 'PUT',
		pattern: new RegExp(`^${BASE}/product/bulk$`),
		authenticated: true,
		handle({ core, body }) {
			const items = bodyList(body);
			if (items.length === 0) throw badRequest('Request body must list at least one product update');
			if (items.length > MAX_BULK_ITEMS) throw badRequest(`At most ${MAX_BULK_ITEMS} products per request`);
			const products = items.map((item) => {
				const id = isRecord(item) ? toNumber(item.id) : undefined;
				return { id, product: id === undefined ? undefined : core.catalog.getById(id) };
			});
			if (products.every(({ product }) => !product)) throw notFound('None of the products exist');
			const results = items.map((item, index): ProductUpdateResult => {
				const { id, product } = products[index];
				if (id === undefined) return { status: 'FAIL', errors: ['id is required'], myProductId: null };
				if (!product) return { status: 'FAIL', errors: [`Product ${id} does not exist`], myProductId: id };
				return updateProduct(core, product, item);
			});
			const shaped = results.map((result, index) => documentedUpdateResult(core.variants, result, products[index].product, false));
			return { json: reportedResults(core.variants, shaped) };
		},
		itemCount: ({ body }) => bodyListLength(body),
	},
	{
		key: 'productUpdate',
		method: 'PUT',
		pattern: new RegExp(`^${BASE}/product/(?<id>[^/]+)$`),
		authenticated: true,
		handle({ core, params, body }) {
			if (!/^\d+$/.test(params.id)) throw badRequest('id must be an integer');
			const product = core.catalog.getById(Number(params.id));
			if (!product) throw notFound(core.variants.current.documentedUpdateResults ? UNKNOWN_PRODUCT_SERBIAN : `Product ${params.id} does not exist`);
			const item = requireBody(body);
			if (!isRecord(item)) throw badRequest('Request body must be one product update object');
			const [result] = reportedResults(core.variants, [documentedUpdateResult(core.variants, updateProduct(core, product, item), product, true)]);
			return result ? { json: result } : { body: '', contentType: 'application/json' };
		},
	},
	{
		key: 'productTypes',
		method: 'GET',
		pattern: new RegExp(`^${BASE}/product-type$`),
		authenticated: true,
		handle({ core, headers }) {
			const english = /^en\b/i.test(headers['accept-language'] ?? '');
			return { json: core.productTypes.map((type) => (english ? type.en : type.local)) };
		},
	},
	{
		key: 'eanExists',
		method: 'POST',
		pattern: new RegExp(`^${BASE}/ean/exists$`),
		authenticated: true,
		handle({ core, body }) {
			// Variants seen live: keys without their leading zeros, the object in a one-element list.
			const { eanKeysWithoutLeadingZeros, eanAnswerInArray } = core.variants.current;
			const result: Record<string, boolean> = {};
			for (const entry of bodyList(body)) {
				const ean = toText(entry);
				if (ean === undefined) throw badRequest('Request body must be an array of EAN strings');
				const key = eanKeysWithoutLeadingZeros ? ean.replace(/^0+(?=\d)/, '') : ean;
				const known = core.catalog.getByEan(ean.trim()) !== undefined || core.catalogueEans.has(ean.trim());
				// Keys without their zeros are a service that reads EANs as numbers: every form of a code is one key, known if any form is.
				result[key] = known || (eanKeysWithoutLeadingZeros && result[key] === true);
			}
			return { json: eanAnswerInArray ? [result] : result };
		},
		itemCount: ({ body }) => bodyListLength(body),
	},
];

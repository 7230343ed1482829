/** Product › Get Many, and the Filters collection Get Many Basic shares with it. */
import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteSingleFunctions,
	type IHttpRequestOptions,
	type INodeExecutionData,
	type INodeProperties,
	type INodePropertyOptions,
} from 'n8n-workflow';

import { LIMITS, PATHS } from '../../transport/endpoints';
import { readAnswer } from '../../answers/decode';
import { pageThrough } from '../../transport/pagination';
import { ANSWERS } from '../../answers/schema';
import { formatYearMonthDay } from '../../values/dates';
import { DATE_FORMS, fieldPath, isBlank, readDay, readEan, readText } from '../../values/values';
import { pacedRouting, readSimplify, returnAllAndLimit, simplifyField, textField } from '../common';
import { CATALOGUE } from '../products';
import type { OperationModule } from '../contract';

export function productFilters(filters: INodeProperties[]): INodeProperties {
	return { displayName: 'Filters', name: 'filters', type: 'collection', placeholder: 'Add Filter', default: {}, options: filters };
}

export const modifiedAfterFilter: INodeProperties = {
	displayName: 'Modified After',
	name: 'modifiedAfter',
	type: 'dateTime',
	default: '',
	description: `Only products changed on or after this day (the time of day is ignored): ${DATE_FORMS}`,
};

const FILTERS: Record<string, { parameter: string; label: string; read: (ctx: IExecuteSingleFunctions, field: string, value: unknown) => string }> = {
	search: { parameter: 'search', label: fieldPath('Filters', 'Search'), read: readText },
	ean: { parameter: 'ean', label: fieldPath('Filters', 'EAN'), read: readEan },
	modifiedAfter: {
		parameter: 'date-modified-after',
		label: fieldPath('Filters', 'Modified After'),
		read: (ctx, field, value) => formatYearMonthDay(readDay(ctx, field, value)),
	},
};

export async function addProductFilters(this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	const filters = this.getNodeParameter('filters', {}) as IDataObject;
	const qs: IDataObject = { ...requestOptions.qs };
	for (const [filter, { parameter, label, read }] of Object.entries(FILTERS)) {
		const value = filters[filter];
		if (!isBlank(value)) qs[parameter] = read(this, label, value);
	}
	requestOptions.qs = qs;
	return requestOptions;
}

/** The service sends `brand` serialized (`{"id":29785,"name":"Nike"}`); a plain name or a parsed object is read too. */
function brandNameOf(brand: unknown): string | undefined {
	if (isBlank(brand)) return undefined;
	if (typeof brand === 'object') {
		const name = (brand as IDataObject).name;
		return isBlank(name) ? undefined : String(name);
	}
	const text = String(brand).trim();
	if (!text.startsWith('{')) return text;
	try {
		return brandNameOf(JSON.parse(text));
	} catch {
		return text;
	}
}

const SIMPLIFIED_FIELDS = [
	'id', 'externalId', 'ean', 'sku', 'name', 'brand', 'basePrice', 'newBasePrice', 'vat', 'stockLevel', 'productType',
] as const;

async function simplifyProductsIfAsked(this: IExecuteSingleFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	if (!readSimplify(this)) return items;
	return items.map(({ json }) => {
		const simplified: IDataObject = {};
		for (const field of SIMPLIFIED_FIELDS) simplified[field] = field === 'brand' ? brandNameOf(json.brand) ?? null : json[field] ?? null;
		return { json: simplified };
	});
}

const getManyProducts: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getMany',
	action: 'Get many products',
	description:
		"List products of the catalogue, optionally only those whose name, SKU or EAN contains a text, with one EAN, or changed since a day. One item per product; with Simplify: the product's ID (the one other operations take), externalId, ean, sku, name, brand, basePrice and newBasePrice (RSD, VAT included; newBasePrice applies from the next day), vat, stockLevel, productType. Without Return All, at most Limit products.",
	routing: pacedRouting({
		...CATALOGUE,
		request: { method: 'GET', url: PATHS.products },
		preSend: [addProductFilters],
		strategy: pageThrough(LIMITS.productsPageSize),
		postReceive: [readAnswer(ANSWERS.products), simplifyProductsIfAsked],
	}),
};

const displayOptions = { show: { resource: ['product'], operation: ['getMany'] } };

const getManyProductsFields = updateDisplayOptions(displayOptions, [
	...returnAllAndLimit(),
	productFilters([
		textField('EAN', 'ean', 'Only the product with this EAN (8 to 14 digits)', { placeholder: 'e.g. 8600000000017' }),
		modifiedAfterFilter,
		textField('Search', 'search', 'Text to look for in the name, SKU and EAN'),
	]),
	simplifyField(
		'Whether to return only the main fields (ID, external ID, EAN, SKU, name, brand name, prices, VAT, stock level, product type) instead of the full product',
	),
]);

export const operation: OperationModule = { option: getManyProducts, fields: getManyProductsFields };

/**
 * What Get Many and Get Many Basic share: the query filters and the reading of product fields
 * the service serializes (`brand`).
 */
import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { formatYearMonthDay } from '../../values/dates';
import { DATE_FORMS, fieldPath, isBlank, readDay, readEan, readText } from '../../values/values';
import { readSimplify } from '../common';

/** The Filters collection of a product list, with the filters the endpoint supports. */
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

type FilterReader = (ctx: IExecuteSingleFunctions, field: string, value: unknown) => string;

/** Query parameter and reader of each filter of the Filters collection. */
const FILTERS: Record<string, { parameter: string; label: string; read: FilterReader }> = {
	search: { parameter: 'search', label: fieldPath('Filters', 'Search'), read: readText },
	ean: { parameter: 'ean', label: fieldPath('Filters', 'EAN'), read: readEan },
	modifiedAfter: {
		parameter: 'date-modified-after',
		label: fieldPath('Filters', 'Modified After'),
		read: (ctx, field, value) => formatYearMonthDay(readDay(ctx, field, value)),
	},
};

/** preSend of the product lists: puts the Filters collection into the query. */
export async function addProductFilters(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const filters = this.getNodeParameter('filters', {}) as IDataObject;
	const qs: IDataObject = { ...requestOptions.qs };
	for (const [filter, { parameter, label, read }] of Object.entries(FILTERS)) {
		const value = filters[filter];
		if (!isBlank(value)) qs[parameter] = read(this, label, value);
	}
	requestOptions.qs = qs;
	return requestOptions;
}

/**
 * The brand's name. The service sends `brand` as a serialized object (`{"id":29785,"name":"Nike"}`);
 * a plain name or an already parsed object is read too.
 */
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
	'id',
	'externalId',
	'ean',
	'sku',
	'name',
	'brand',
	'basePrice',
	'newBasePrice',
	'vat',
	'stockLevel',
	'productType',
] as const;

function simplifyProduct(product: IDataObject): IDataObject {
	const simplified: IDataObject = {};
	for (const field of SIMPLIFIED_FIELDS) {
		simplified[field] = field === 'brand' ? brandNameOf(product.brand) ?? null : product[field] ?? null;
	}
	return simplified;
}

/** postReceive of Get Many: flat products when the Simplify option is on. */
export async function simplifyProductsIfAsked(
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	if (!readSimplify(this)) return items;
	return items.map(({ json }) => ({ json: simplifyProduct(json) }));
}

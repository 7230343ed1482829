/** Product › Get Many, and what Get Many Basic shares with it: the paging, the Filters collection and its reader. */
import { updateDisplayOptions, type IDataObject, type INodeProperties, type INodePropertyOptions, type PreSendAction } from 'n8n-workflow';

import { LIMITS, PATHS } from '../../transport/endpoints';
import { ANSWERS, type AnswerSchema } from '../../answers/schemas';
import { pageThrough } from '../../transport/batches';
import type { Shaping } from '../../answers/read';
import { formatYearMonthDay } from '../../values/dates';
import { fieldPath, isBlank, type ValueContext } from '../../values/labels';
import { DATE_FORMS, readDay, readEan, readOutput, readText, shapeOutput } from '../../values/values';
import { outputFields, pacedRouting, returnAllAndLimit, textField } from '../common';
import { CATALOGUE } from '../products/fields';
import type { OperationModule } from '../contract';

export const modifiedAfterFilter: INodeProperties = {
	displayName: 'Modified After',
	name: 'modifiedAfter',
	type: 'dateTime',
	default: '',
	description: `Only products changed on or after this day (the time of day is ignored): ${DATE_FORMS}`,
};

/** The query parameters one filter's value becomes. */
type FilterQuery = (ctx: ValueContext, field: string, value: unknown) => IDataObject;

const FILTERS: Record<string, { label: string; query: FilterQuery }> = {
	search: { label: fieldPath('Filters', 'Search'), query: (ctx, field, value) => ({ search: readText(ctx, field, value) }) },
	ean: { label: fieldPath('Filters', 'EAN'), query: (ctx, field, value) => ({ ean: readEan(ctx, field, value) }) },
	modifiedAfter: {
		label: fieldPath('Filters', 'Modified After'),
		query: (ctx, field, value) => ({ 'date-modified-after': formatYearMonthDay(readDay(ctx, field, value)) }),
	},
};

/** The Filters collection read into the query; `queries` replaces a filter's parameters for one route. */
function productFilters(queries: Partial<Record<string, FilterQuery>>): PreSendAction {
	return async function (requestOptions) {
		const filters = this.getNodeParameter('filters', {}) as IDataObject;
		const qs: IDataObject = { ...requestOptions.qs };
		for (const [filter, { label, query }] of Object.entries(FILTERS)) {
			const value = filters[filter];
			if (!isBlank(value)) Object.assign(qs, (queries[filter] ?? query)(this, label, value));
		}
		requestOptions.qs = qs;
		return requestOptions;
	};
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

/**
 * Fields the current pages add (answers/schemas.ts): kept where the service sends them, so that a merchant
 * sees why a product does not sell (only PUBLISHED is visible to customers); left out where it does not.
 */
const SIMPLIFIED_NEWER_FIELDS = ['status', 'groupId', 'packageHeightValue', 'packageWidthValue', 'packageLengthValue', 'packageDimensionUnit'] as const;

function simplifyProduct(json: IDataObject): IDataObject {
	const simplified: IDataObject = {};
	for (const field of SIMPLIFIED_FIELDS) simplified[field] = field === 'brand' ? brandNameOf(json.brand) ?? null : json[field] ?? null;
	for (const field of SIMPLIFIED_NEWER_FIELDS) if (json[field] !== undefined) simplified[field] = json[field];
	return simplified;
}

const shapeProductsAsAsked: Shaping = async function (items) {
	const output = readOutput(this);
	if (output.mode === 'raw') return items;
	return items.map(({ json }) => ({ json: shapeOutput(output, json, simplifyProduct) }));
};

type ListRequest = {
	url: string;
	pageSize: number;
	/** The answer's schema and what the operation makes of its items (pacedRouting). */
	answer: AnswerSchema;
	shape?: Shaping[];
	/** Filters whose query parameters differ on this route. */
	filterQueries?: Partial<Record<string, FilterQuery>>;
};

/** A list of the catalogue in pages, with Return All and Limit, the Filters `filters`, then the fields `more`. */
export function productListOperation(
	option: Omit<INodePropertyOptions, 'routing'>,
	{ url, pageSize, answer, shape, filterQueries = {} }: ListRequest,
	filters: INodeProperties[],
	more: INodeProperties[] = [],
): OperationModule {
	const strategy = pageThrough(pageSize);
	const preSend = [productFilters(filterQueries)];
	const routing = pacedRouting({ ...CATALOGUE, request: { method: 'GET', url }, preSend, strategy, answer, shape });
	return {
		option: { ...option, routing },
		fields: updateDisplayOptions({ show: { resource: ['product'], operation: [String(option.value)] } }, [
			...returnAllAndLimit(),
			{ displayName: 'Filters', name: 'filters', type: 'collection', placeholder: 'Add Filter', default: {}, options: filters },
			...more,
		]),
	};
}

export const operation = productListOperation(
	{
		name: 'Get Many',
		value: 'getMany',
		action: 'Get many products',
		description:
			"List products of the catalogue, optionally only those whose name, SKU or EAN contains a text, with one EAN, or changed since a day. One item per product; with Simplify: the product's ID (the one other operations take), externalId, ean, sku, name, brand, basePrice and newBasePrice (RSD, VAT included; newBasePrice applies from the next day), vat, stockLevel, productType, and where the service sends them status (only PUBLISHED is visible to customers), groupId and the package dimensions. Without Return All, at most Limit products.",
	},
	{ url: PATHS.products, pageSize: LIMITS.productsPageSize, answer: ANSWERS.products, shape: [shapeProductsAsAsked] },
	[
		textField('EAN', 'ean', 'Only the product with this EAN (8 to 14 digits)', { placeholder: 'e.g. 8600000000017' }),
		modifiedAfterFilter,
		textField('Search', 'search', 'Text to look for in the name, SKU and EAN'),
	],
	outputFields(
		'Whether to return only the main fields (ID, external ID, EAN, SKU, name, brand name, prices, VAT, stock level, product type; status, group ID and package dimensions where the service sends them) instead of the full product',
	),
);

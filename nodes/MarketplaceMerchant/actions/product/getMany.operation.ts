/** Product › Get Many, and what Get Many Basic shares with it: the paging, the Filters collection and its reader. */
import {
	updateDisplayOptions,
	type IDataObject,
	type INodeExecutionData,
	type INodeProperties,
	type INodePropertyOptions,
} from 'n8n-workflow';

import { LIMITS, PATHS } from '../../transport/endpoints';
import { ANSWERS, type AnswerSchema } from '../../answers/schemas';
import { pageThrough, type PaginationFunction } from '../../transport/batches';
import { formatYearMonthDay } from '../../values/dates';
import { fieldPath, invalidInput, isBlank, readChoice, type ValueContext } from '../../values/labels';
import { DATE_FORMS, readDay, readEan, readList, readOutput, readText, shapeOutput } from '../../values/values';
import { outputFields, pacedRouting, returnAllAndLimit, textField } from '../common';
import { CATALOGUE } from '../catalogue/fields';
import type { OperationModule } from '../contract';
import type { ItemFunctions, RequestStep } from '../../transport/send';

export const modifiedAfterFilter: INodeProperties = {
	displayName: 'Modified After',
	name: 'modifiedAfter',
	type: 'dateTime',
	default: '',
	description: `Only products changed on or after this day (the day the date names; its time is ignored): ${DATE_FORMS}`,
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
function productFilters(queries: Partial<Record<string, FilterQuery>>): RequestStep {
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

/** Output, applied once the pages are read: the Status filter needs each product's status whatever the output keeps. */
function shapeProductsAsAsked(ctx: ItemFunctions, items: INodeExecutionData[]): INodeExecutionData[] {
	const output = readOutput(ctx);
	if (output.mode === 'raw') return items;
	return items.map(({ json }) => ({ json: shapeOutput(output, json, simplifyProduct) }));
}

/** The statuses of the current pages (only PUBLISHED is visible to customers). */
const PRODUCT_STATUSES = ['PUBLISHED', 'READY_FOR_PUBLISH', 'SOLD_OUT', 'UNPUBLISHED', 'UNPUBLISHED_OOS'] as const;
const STATUS_LABEL = fieldPath('Filters', 'Status');

const statusFilter: INodeProperties = {
	displayName: 'Status',
	name: 'status',
	type: 'multiOptions',
	options: [
		{ name: 'Published', value: 'PUBLISHED', description: 'Visible to customers' },
		{ name: 'Ready for Publish', value: 'READY_FOR_PUBLISH', description: 'Never published yet' },
		{ name: 'Sold Out', value: 'SOLD_OUT', description: 'Published, out of stock' },
		{ name: 'Unpublished', value: 'UNPUBLISHED', description: 'Hidden from customers' },
		{ name: 'Unpublished (Out of Stock)', value: 'UNPUBLISHED_OOS', description: 'Hidden from customers, out of stock' },
	],
	default: [],
	description:
		"Only products in one of these statuses. The service takes no status in its query: the node reads the catalogue's pages and keeps the matching products, so a Limit may take many pages. Needs a service whose products carry their status (the current API pages); with one whose products do not, the node stops with an error rather than return nothing.",
};

/**
 * Filters › Status, applied to the answers (the service's query has no status): undefined when not
 * set. A product answered without a status cannot be judged: an error naming the filter, never an
 * empty list that would read as "no product is published".
 */
function statusKeeper(ctx: ItemFunctions): ((item: INodeExecutionData) => boolean) | undefined {
	const value = (ctx.getNodeParameter('filters', {}) as IDataObject).status;
	if (isBlank(value) || (Array.isArray(value) && value.length === 0)) return undefined;
	const statuses = readList(ctx, STATUS_LABEL, value, {
		empty: { problem: 'no status given', hint: `Use ${PRODUCT_STATUSES.join(', ')}` },
		readEntry: (entry, field) => readChoice(ctx, field, entry, PRODUCT_STATUSES),
	});
	const wanted = new Set<unknown>(statuses);
	return ({ json }) => {
		if (json.status === undefined) {
			throw invalidInput(
				ctx,
				STATUS_LABEL,
				"cannot be applied: the service's products carry no status",
				'This service answers products as the older interface reference does, without their status. Remove the Status filter.',
			);
		}
		return wanted.has(json.status);
	};
}

type ListRequest = {
	url: string;
	pageSize: number;
	/** A filter the service cannot apply, applied to each answer's items (pageThrough's `keepOf`). */
	keepOf?: Parameters<typeof pageThrough>[1];
	/** The answer's schema (pacedRouting), and what the operation makes of the items of all pages. */
	answer: AnswerSchema;
	shape?: (ctx: ItemFunctions, items: INodeExecutionData[]) => INodeExecutionData[];
	/** Filters whose query parameters differ on this route. */
	filterQueries?: Partial<Record<string, FilterQuery>>;
};

/** A list of the catalogue in pages, with Return All and Limit, the Filters `filters`, then the fields `more`. */
export function productListOperation(
	option: INodePropertyOptions,
	{ url, pageSize, answer, shape, filterQueries = {}, keepOf }: ListRequest,
	filters: INodeProperties[],
	more: INodeProperties[] = [],
): OperationModule {
	const pages = pageThrough(pageSize, keepOf);
	const strategy: PaginationFunction = async function (requestData) {
		const items = await pages.call(this, requestData);
		return shape ? shape(this, items) : items;
	};
	const preSend = [productFilters(filterQueries)];
	const steps = pacedRouting({ ...CATALOGUE, request: { method: 'GET', url }, preSend, strategy, answer });
	return {
		steps,
		option,
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
			"List products of the catalogue, optionally only those whose name, SKU or EAN contains a text, with one EAN, changed since a day, or in some statuses (e.g. Unpublished, to publish them). One item per product; with Simplify: the product's ID (the one other operations take), externalId, ean, sku, name, brand, basePrice and newBasePrice (in the currency of the account, VAT included; newBasePrice applies from the next day), vat, stockLevel, productType, and where the service sends them status (only PUBLISHED is visible to customers), groupId and the package dimensions. Without Return All, at most Limit products.",
	},
	{ url: PATHS.products, pageSize: LIMITS.productsPageSize, answer: ANSWERS.products, shape: shapeProductsAsAsked, keepOf: statusKeeper },
	[
		textField('EAN', 'ean', 'Only the product with this EAN (8 to 14 digits)', { placeholder: 'e.g. 8600000000017' }),
		modifiedAfterFilter,
		textField('Search', 'search', 'Text to look for in the name, SKU and EAN'),
		statusFilter,
	],
	outputFields(
		'Whether to return only the main fields (ID, external ID, EAN, SKU, name, brand name, prices, VAT, stock level, product type; status, group ID and package dimensions where the service sends them) instead of the full product',
		ANSWERS.products,
	),
);

import { updateDisplayOptions, type INodePropertyOptions } from 'n8n-workflow';

import { LIMITS, PATHS } from '../../transport/endpoints';
import { readAnswer } from '../../answers/decode';
import { pageThrough } from '../../transport/pagination';
import { ANSWERS } from '../../answers/schema';
import { pacedRouting, returnAllAndLimit, simplifyField } from '../common';
import { addProductFilters, productFilters, modifiedAfterFilter, simplifyProductsIfAsked } from './productList';
import type { OperationModule } from '../contract';

const getManyProducts: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getMany',
	action: 'Get many products',
	description:
		"List products of the catalogue, optionally only those whose name, SKU or EAN contains a text, with one EAN, or changed since a day. One item per product; with Simplify: the product's ID (the one other operations take), externalId, ean, sku, name, brand, basePrice and newBasePrice (RSD, VAT included; newBasePrice applies from the next day), vat, stockLevel, productType. Without Return All, at most Limit products.",
	routing: pacedRouting({
		group: 'catalogue',
		idempotent: true,
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
		{
			displayName: 'EAN',
			name: 'ean',
			type: 'string',
			default: '',
			placeholder: 'e.g. 8600000000017',
			description: 'Only the product with this EAN (8 to 14 digits)',
		},
		modifiedAfterFilter,
		{
			displayName: 'Search',
			name: 'search',
			type: 'string',
			default: '',
			description: 'Text to look for in the name, SKU and EAN',
		},
	]),
	simplifyField(
		'Whether to return only the main fields (ID, external ID, EAN, SKU, name, brand name, prices, VAT, stock level, product type) instead of the full product',
	),
]);

export const operation: OperationModule = { option: getManyProducts, fields: getManyProductsFields };

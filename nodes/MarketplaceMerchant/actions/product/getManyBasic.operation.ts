import { updateDisplayOptions, type INodePropertyOptions } from 'n8n-workflow';

import { readAnswer } from '../../answers/decode';
import { LIMITS, PATHS } from '../../transport/endpoints';
import { pageThrough } from '../../transport/pagination';
import { ANSWERS } from '../../answers/schema';
import { pacedRouting, returnAllAndLimit } from '../common';
import { addProductFilters, productFilters, modifiedAfterFilter } from './getMany.operation';
import { CATALOGUE } from '../products';
import type { OperationModule } from '../contract';

const getManyBasicProducts: INodePropertyOptions = {
	name: 'Get Many Basic',
	value: 'getManyBasic',
	action: 'Get many basic products',
	description:
		'List products with only ID, EAN, SKU, prices (RSD, VAT included), stock level and warehouse: one item per product; faster than Get Many for large catalogues (2,500 per request). Without Return All, at most Limit products.',
	routing: pacedRouting({
		...CATALOGUE,
		request: { method: 'GET', url: PATHS.basicProducts },
		preSend: [addProductFilters],
		strategy: pageThrough(LIMITS.basicProductsPageSize),
		postReceive: [readAnswer(ANSWERS.basicProducts)],
	}),
};

const displayOptions = { show: { resource: ['product'], operation: ['getManyBasic'] } };

const getManyBasicProductsFields = updateDisplayOptions(displayOptions, [
	...returnAllAndLimit(),
	productFilters([modifiedAfterFilter]),
]);

export const operation: OperationModule = { option: getManyBasicProducts, fields: getManyBasicProductsFields };

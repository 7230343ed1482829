import { ANSWERS } from '../../answers/schemas';
import { LIMITS, PATHS } from '../../transport/endpoints';
import { basicProductsModifiedAfter } from '../../values/dates';
import { readDay } from '../../values/values';
import { modifiedAfterFilter, productListOperation } from './getMany.operation';

export const operation = productListOperation(
	{
		name: 'Get Many Basic',
		value: 'getManyBasic',
		action: 'Get many basic products',
		description:
			'List products with only ID, EAN, SKU, prices (in the currency of the account, VAT included), stock level and warehouse: one item per product; faster than Get Many for large catalogues (2,500 per request). Without Return All, at most Limit products.',
	},
	{
		url: PATHS.basicProducts,
		pageSize: LIMITS.basicProductsPageSize,
		answer: ANSWERS.basicProducts,
		// Both names of the filter (values/dates.ts), from the day's midnight: the same products whichever the service honours.
		filterQueries: { modifiedAfter: (ctx, field, value) => basicProductsModifiedAfter(readDay(ctx, field, value)) },
	},
	[modifiedAfterFilter],
);

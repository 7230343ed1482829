import { ANSWERS } from '../../answers/schemas';
import { LIMITS, PATHS } from '../../transport/endpoints';
import { basicProductsModifiedAfter, dayNoLaterThan } from '../../values/dates';
import { DATE_FORMS, readDate } from '../../values/values';
import { modifiedAfterFilter, productListOperation } from './getMany.operation';

/** Get Many Basic's Modified After: an instant, as the service's `dateModifiedAfter` takes one. */
const modifiedAfterInstant = {
	...modifiedAfterFilter,
	description: `Only products changed at or after this time (e.g. {{ $now.minus({ hours: 3 }) }}); a day alone means from its start: ${DATE_FORMS}`,
};

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
		// Both names of the filter (values/dates.ts): the instant, and a day no later than its day, so the same products whichever the service honours.
		filterQueries: {
			modifiedAfter: (ctx, field, value) => {
				const since = readDate(ctx, field, value);
				return basicProductsModifiedAfter(since, dayNoLaterThan(since, ctx.getTimezone()));
			},
		},
	},
	[modifiedAfterInstant],
);

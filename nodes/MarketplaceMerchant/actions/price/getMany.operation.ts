import { updateDisplayOptions } from 'n8n-workflow';

import { formatDayMonthYear } from '../../values/dates';
import { ANSWERS } from '../../answers/schemas';
import { LIMITS, PATHS, SERVICE_HOST_ENDPOINTS } from '../../transport/endpoints';
import { splitQueryList } from '../../transport/batches';
import { isBlank } from '../../values/labels';
import { DATE_FORMS, readDayFromToday, today } from '../../values/values';
import { lookUpNamedProducts, pickedProductsField, productsFound, readListedAndPicked } from '../catalogue/locator';
import type { FoundProduct } from '../catalogue/eans';
import { pacedRouting } from '../common';
import type { OperationModule } from '../contract';
import type { ItemFunctions, RequestStep } from '../../transport/send';

/** The Product IDs list, then the picked Products rows: read (and checked) alone, their EANs looked up for the whole run (`plan`). */
function readProducts(ctx: ItemFunctions) {
	return readListedAndPicked(ctx, {
		label: 'Product IDs',
		value: ctx.getNodeParameter('merchantInventoryIds', ''),
		empty: { problem: 'no ids given', hint: 'Give a list of product ids, e.g. 100001, 100002 or an expression returning an array, or add products under Products' },
	});
}

const setDateAndCheckProducts: RequestStep = async function (requestOptions) {
	const dateValue = this.getNodeParameter('date', '');
	// The service answers a past day with 400 ("present or future date"): refused before sending.
	const date = isBlank(dateValue) ? today(this) : readDayFromToday(this, 'Date', dateValue, 'Prices are for');
	readProducts(this);
	return { ...requestOptions, qs: { ...requestOptions.qs, dateFrom: formatDayMonthYear(date) } };
};

export const operation: OperationModule = {
	steps: pacedRouting({
		group: 'payments',
		idempotent: true,
		host: SERVICE_HOST_ENDPOINTS.prices,
		request: { method: 'GET', url: PATHS.prices },
		preSend: [setDateAndCheckProducts],
		// Every item's EANs looked up together, one request per 100 of the run's.
		plan: async (exec, requests) => await lookUpNamedProducts(exec, requests.flatMap(({ ctx }) => readProducts(ctx))),
		complete: (ctx, options, found) => {
			const ids = productsFound(ctx, readProducts(ctx), found as Map<string, FoundProduct[]>).map(({ id }) => id);
			return { ...options, qs: { ...options.qs, merchantInventoryIds: ids.join(',') } };
		},
		// A chunk whose ids have no price at all is answered 404: it contributes no items.
		strategy: splitQueryList('merchantInventoryIds', LIMITS.priceIdsPerRequest, { notFoundIsEmpty: true }),
		answer: ANSWERS.prices,
	}),
	option: {
		name: 'Get Many',
		value: 'getMany',
		action: 'Get many prices',
		description:
			'Get the prices of products, named by product ID or EAN, on a day (today or later): one item per product with merchantInventoryId (the product ID), basePrice and sellablePrice (in the currency of the account, VAT included; sellablePrice with any discount) and the discountId of an active discount. Products without a price give no item.',
	},
	fields: updateDisplayOptions({ show: { resource: ['price'], operation: ['getMany'] } }, [
		{
			displayName: 'Product IDs',
			name: 'merchantInventoryIds',
			type: 'string',
			default: '',
			placeholder: 'e.g. 100001, 100002, 100003',
			description:
				'Product IDs (the API calls them merchantInventoryId) separated by commas or new lines, or an expression returning an array. Any number: they are sent 100 per request. Products picked below are added to these.',
		},
		pickedProductsField('Products picked one by one (from the list, by ID or by EAN), asked for after the Product IDs above'),
		{
			displayName: 'Date',
			name: 'date',
			type: 'dateTime',
			default: '',
			description: `Day the prices are for: today or a future day; empty means today in the workflow's time zone. Accepts ${DATE_FORMS}.`,
		},
	]),
};

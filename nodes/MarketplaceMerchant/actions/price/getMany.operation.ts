import {
	updateDisplayOptions,
	type IExecuteSingleFunctions,
	type IHttpRequestOptions,
	type INodePropertyOptions,
} from 'n8n-workflow';

import { formatDayMonthYear } from '../../transport/dates';
import { readAnswer } from '../../transport/decode';
import { LIMITS, PATHS } from '../../transport/endpoints';
import { splitQueryList } from '../../transport/pagination';
import { ANSWERS } from '../../transport/schema';
import { DATE_FORMS, isBlank, readDay, readId, readList } from '../../transport/values';
import { pacedRouting } from '../common';

const RESOURCE = 'price';
const OPERATION = 'getMany';

/**
 * Checks the ids (any number: they are sent 100 per request) and sets the day, today (UTC) unless
 * given, as the dd/MM/yyyy the service wants.
 */
async function setIdsAndDate(this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	const ids = readList(this, 'Product IDs', this.getNodeParameter('merchantInventoryIds', ''), {
		empty: { problem: 'no ids given', hint: 'Give a list of product ids, e.g. 100001, 100002 or an expression returning an array' },
		readEntry: (id, idField) => readId(this, idField, id),
	});
	const dateValue = this.getNodeParameter('date', '');
	const date = isBlank(dateValue) ? new Date() : readDay(this, 'Date', dateValue);
	requestOptions.qs = {
		...requestOptions.qs,
		merchantInventoryIds: ids.join(','),
		dateFrom: formatDayMonthYear(date),
	};
	return requestOptions;
}

export const getManyPrices: INodePropertyOptions = {
	name: 'Get Many',
	value: OPERATION,
	action: 'Get many prices',
	description:
		'Get the prices of products on a day: one item per product with basePrice, sellablePrice (with any discount) and the discountId of an active discount',
	routing: pacedRouting({
		group: 'payments',
		idempotent: true,
		request: { method: 'GET', url: PATHS.prices },
		preSend: [setIdsAndDate],
		// A chunk whose ids have no price at all is answered 404: it contributes no items.
		strategy: splitQueryList('merchantInventoryIds', LIMITS.priceIdsPerRequest, { notFoundIsEmpty: true }),
		postReceive: [readAnswer(ANSWERS.prices)],
	}),
};

const displayOptions = { show: { resource: [RESOURCE], operation: [OPERATION] } };

export const getManyPricesFields = updateDisplayOptions(displayOptions, [
	{
		displayName: 'Product IDs',
		name: 'merchantInventoryIds',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. 100001, 100002, 100003',
		description:
			'Product IDs (the API calls them merchantInventoryId) separated by commas or new lines, or an expression returning an array. Any number: they are sent 100 per request.',
	},
	{
		displayName: 'Date',
		name: 'date',
		type: 'dateTime',
		default: '',
		description: `Day the prices are for: today or a future day; empty means today (UTC). Accepts ${DATE_FORMS}.`,
	},
]);

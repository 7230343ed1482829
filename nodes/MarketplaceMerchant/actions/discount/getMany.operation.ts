import {
	updateDisplayOptions,
	type IExecutePaginationFunctions,
	type IExecuteSingleFunctions,
	type IHttpRequestOptions,
	type INodeExecutionData,
} from 'n8n-workflow';

import { formatDayMonthYear } from '../../values/dates';
import { ANSWERS, readAnswer } from '../../answers/answers';
import { PATHS } from '../../transport/endpoints';
import { resultLimit, sendRequest, type RequestData } from '../../transport/engine';
import { DATE_FORMS, readDay, readParameter } from '../../values/values';
import { pacedRouting, returnAllAndLimit } from '../common';
import { RESOURCE, checkDiscountPeriod, dayField } from './shared';
import type { OperationModule } from '../contract';

const OPERATION = 'getMany';

/** Both range days are required by the service, as dd/MM/yyyy. */
async function setDateRange(this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	const from = readParameter(this, 'dateFrom', 'Date From', readDay);
	const to = readParameter(this, 'dateTo', 'Date To', readDay);
	checkDiscountPeriod(this, 'Date To', undefined, from, to);
	return { ...requestOptions, qs: { ...requestOptions.qs, dateFrom: formatDayMonthYear(from), dateTo: formatDayMonthYear(to) } };
}

/** The endpoint answers the whole range at once (no paging): Limit keeps the first results. */
async function sendAndKeepLimit(this: IExecutePaginationFunctions, requestData: RequestData): Promise<INodeExecutionData[]> {
	return (await sendRequest(this, requestData)).slice(0, resultLimit(this));
}

export const operation: OperationModule = {
	option: {
		name: 'Get Many',
		value: OPERATION,
		action: 'Get many discounts',
		description:
			'List the discounts that run during a date range (ISO 8601 or dd/MM/yyyy days): one item per discount with discountId, merchantInventoryId (the product ID), discountPrice (RSD, VAT included), dateFrom and dateTo',
		routing: pacedRouting({
			group: 'payments',
			idempotent: true,
			request: { method: 'GET', url: PATHS.discounts },
			preSend: [setDateRange],
			strategy: sendAndKeepLimit,
			postReceive: [readAnswer(ANSWERS.discounts)],
		}),
	},
	fields: updateDisplayOptions({ show: { resource: [RESOURCE], operation: [OPERATION] } }, [
		dayField('Date From', 'dateFrom', `First day of the range: ${DATE_FORMS}`, true),
		dayField('Date To', 'dateTo', `Last day of the range: ${DATE_FORMS}`, true),
		...returnAllAndLimit(),
	]),
};

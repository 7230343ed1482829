import {
	NodeApiError,
	type IExecutePaginationFunctions,
	type IExecuteSingleFunctions,
	type IHttpRequestOptions,
	type INodeExecutionData,
	type JsonObject,
	updateDisplayOptions,
} from 'n8n-workflow';

import { ANSWERS, decodeAnswer } from '../../answers/answers';
import { PATHS } from '../../transport/endpoints';
import { sendRequest, serviceError, statusOf, type PostReceiveFunction, type RequestData } from '../../transport/engine';
import { pacedRouting } from '../common';
import { RESOURCE, discountLocatorField, readDiscountId } from './shared';
import type { OperationModule } from '../contract';

const OPERATION = 'cancel';

function discountIdOf(ctx: IExecuteSingleFunctions): string {
	return readDiscountId(ctx, 'Discount ID', ctx.getNodeParameter('discountId', ''));
}

async function setCancellationUrl(this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	return { ...requestOptions, url: `${PATHS.discounts}/${encodeURIComponent(discountIdOf(this))}/cancellations` };
}

/** A 404 names the discount instead of n8n's generic "resource could not be found". */
async function sendCancellation(this: IExecutePaginationFunctions, requestData: RequestData): Promise<INodeExecutionData[]> {
	try {
		return await sendRequest(this, requestData);
	} catch (error) {
		// Errors of the request helpers are NodeApiErrors already: wrapping hands them back unchanged.
		if (statusOf(error) !== 404) throw serviceError(this.getNode(), error as JsonObject);
		const serviceMessage = (error as NodeApiError).description ?? undefined;
		throw serviceError(this.getNode(), { message: serviceMessage ?? 'Not found' } as JsonObject, {
			message: `Discount "${discountIdOf(this)}" was not found`,
			description: serviceMessage ?? 'Check the discount ID: Schedule and Get Many return it',
			httpCode: '404',
			itemIndex: this.getItemIndex(),
		});
	}
}

/** The service answers with a message only: the item says which discount was cancelled. */
const cancellationResult: PostReceiveFunction = async function (_items, response) {
	const body = decodeAnswer(this, response, ANSWERS.discountCancel) as { message?: unknown } | undefined;
	const message = typeof body?.message === 'string' ? body.message : '';
	return [{ json: { discountId: discountIdOf(this), cancelled: true, message } }];
};

export const operation: OperationModule = {
	option: {
		name: 'Cancel',
		value: OPERATION,
		action: 'Cancel a discount',
		description: "Cancel a scheduled or running discount by its discountId (Schedule and Get Many give it); the product returns to its regular price. Outputs discountId, cancelled true and the service's message.",
		routing: pacedRouting({
			group: 'cancellation',
			// Cancelling a cancelled discount changes nothing.
			idempotent: true,
			request: { method: 'PUT' },
			preSend: [setCancellationUrl],
			strategy: sendCancellation,
			postReceive: [cancellationResult],
		}),
	},
	fields: updateDisplayOptions({ show: { resource: [RESOURCE], operation: [OPERATION] } }, [
		discountLocatorField('The discount to cancel: pick a current or upcoming one from the list, or give its ID (Schedule and Get Many return it)'),
	]),
};

import {
	NodeApiError,
	type IHttpRequestOptions,
	type INodeExecutionData,
	type JsonObject,
	updateDisplayOptions,
} from 'n8n-workflow';

import { ANSWERS } from '../../answers/schemas';
import { PATHS } from '../../transport/endpoints';
import { sendRequest, type RequestData, type ItemFunctions } from '../../transport/send';
import { serviceError, statusOf } from '../../transport/errors';
import type { Shaping } from '../../answers/read';
import { pacedRouting } from '../common';
import { onceInRun } from '../run';
import { RESOURCE, discountLocatorField, readDiscountId } from './shared';
import type { OperationModule } from '../contract';

const OPERATION = 'cancel';

function discountIdOf(ctx: ItemFunctions): string {
	return readDiscountId(ctx, 'Discount ID', ctx.getNodeParameter('discountId', ''));
}

async function setCancellationUrl(this: ItemFunctions, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	return { ...requestOptions, url: `${PATHS.discounts}/${encodeURIComponent(discountIdOf(this))}/cancellations` };
}

/** A 404 names the discount instead of n8n's generic "resource could not be found". */
async function sendCancellation(ctx: ItemFunctions, requestData: RequestData): Promise<INodeExecutionData[]> {
	try {
		return await sendRequest(ctx, requestData);
	} catch (error) {
		// Errors of the request helpers are NodeApiErrors already: wrapping hands them back unchanged.
		if (statusOf(error) !== 404) throw serviceError(ctx.getNode(), error as JsonObject);
		const serviceMessage = (error as NodeApiError).description ?? undefined;
		throw serviceError(ctx.getNode(), { message: serviceMessage ?? 'Not found' } as JsonObject, {
			message: `Discount "${discountIdOf(ctx)}" was not found`,
			description: serviceMessage ?? 'Check the discount ID: Schedule and Get Many return it',
			httpCode: '404',
			itemIndex: ctx.getItemIndex(),
		});
	}
}

/**
 * The cancellations of one node run, by discount ID. A fixed Discount ID on every item of a run
 * (after a Get Many of 9 discounts) names one discount 9 times: it is cancelled once, and every
 * item that names it gets that one outcome, so that no item meets "already cancelled" for what an
 * earlier item of the same run did (actions/run.ts, `onceInRun`); a later run (a loop) cancels
 * again and meets the service's answer as before.
 */
async function cancelOncePerRun(this: ItemFunctions, requestData: RequestData): Promise<INodeExecutionData[]> {
	const { first, result } = onceInRun(this, `cancel|${discountIdOf(this)}`, async () => await sendCancellation(this, requestData));
	if (first) return await result;
	// Each item its own copies: the skeleton pairs them with this item.
	return (await result).map(({ json }) => ({ json: { ...json } }));
}

/** The service answers with a message only: the item says which discount was cancelled. */
const cancellationResult: Shaping = async function (_items, _answer, decoded) {
	const body = decoded as { message?: unknown } | undefined;
	const message = typeof body?.message === 'string' ? body.message : '';
	return [{ json: { discountId: discountIdOf(this), cancelled: true, message } }];
};

export const operation: OperationModule = {
	steps: pacedRouting({
		group: 'cancellation',
		// Cancelling a cancelled discount changes nothing.
		idempotent: true,
		request: { method: 'PUT' },
		preSend: [setCancellationUrl],
		strategy: cancelOncePerRun,
		answer: ANSWERS.discountCancel,
		shape: [cancellationResult],
	}),
	option: {
		name: 'Cancel',
		value: OPERATION,
		action: 'Cancel a discount',
		description: "Cancel a scheduled or running discount by its discountId (Schedule and Get Many give it); the product returns to its regular price. Outputs discountId, cancelled true and the service's message. The same ID on several input items is cancelled once, each item getting the outcome.",
	},
	fields: updateDisplayOptions({ show: { resource: [RESOURCE], operation: [OPERATION] } }, [
		discountLocatorField('The discount to cancel: pick a current or upcoming one from the list, or give its ID (Schedule and Get Many return it)'),
	]),
};

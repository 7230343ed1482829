/* eslint-disable @n8n/community-nodes/require-node-api-error -- sandbox code (the service twin tests and the bench run) and never loaded by n8n: it may use plain errors (docs/architecture.md, Toolchain). */
/**
 * Controls of the order flow under /__sandbox/ (the HTTP side of `sandbox.addOrders` and
 * `sandbox.advanceShipment`): orders arriving now, and a shipment moved on as the merchant or
 * the carrier would. No token, no rate limit, no faults.
 */
import { HttpError, badRequest, requireBody } from '../http';
import type { AddOrdersOptions, PaymentMethod } from '../order-types';
import type { RouteContext, RouteDefinition, RouteResult } from '../route';
import { isRecord, toNumber } from '../values';

function objectBody(context: RouteContext): Record<string, unknown> {
	const value = context.body.format === 'none' ? {} : requireBody(context.body);
	if (!isRecord(value)) throw badRequest('Request body must be a JSON object');
	return value;
}

/** Body `{count?, lines?: [{merchantInventoryId, quantity?, warehouseAddressId?}], paymentMethods?, createdDate?, fulfilledByMarketplace?}`. */
function addOrders(context: RouteContext): RouteResult {
	const body = objectBody(context);
	const count = body.count === undefined ? 1 : toNumber(body.count);
	if (count === undefined) throw badRequest('count must be a number');
	const options: AddOrdersOptions = {};
	if (body.lines !== undefined) {
		if (!Array.isArray(body.lines)) throw badRequest('lines must be an array');
		options.lines = body.lines.map((line) => {
			const merchantInventoryId = isRecord(line) ? toNumber(line.merchantInventoryId) : undefined;
			if (merchantInventoryId === undefined) throw badRequest('Each line needs a merchantInventoryId');
			const quantity = isRecord(line) && line.quantity !== undefined ? toNumber(line.quantity) : undefined;
			const warehouseAddressId = isRecord(line) && line.warehouseAddressId !== undefined ? toNumber(line.warehouseAddressId) : undefined;
			return { merchantInventoryId, ...(quantity === undefined ? {} : { quantity }), ...(warehouseAddressId === undefined ? {} : { warehouseAddressId }) };
		});
	}
	if (body.paymentMethods !== undefined) options.paymentMethods = body.paymentMethods as PaymentMethod[];
	if (body.createdDate !== undefined) options.createdDate = body.createdDate as string;
	if (body.fulfilledByMarketplace !== undefined) options.fulfilledByMarketplace = body.fulfilledByMarketplace === true;
	return { json: context.core.addOrders(count, options) };
}

function wrapped(handler: (context: RouteContext) => RouteResult) {
	return (context: RouteContext): RouteResult => {
		try {
			return handler(context);
		} catch (error) {
			if (error instanceof HttpError) throw error;
			throw badRequest((error as Error).message);
		}
	};
}

export const orderControlRoutes: RouteDefinition[] = [
	{
		key: 'control',
		method: 'POST',
		pattern: /^\/__sandbox\/orders$/,
		authenticated: false,
		handle: wrapped(addOrders),
	},
	{
		key: 'control',
		method: 'POST',
		pattern: /^\/__sandbox\/shipments\/(?<suborderId>[^/]+)\/advance$/,
		authenticated: false,
		handle: wrapped((context) => {
			const to = objectBody(context).to;
			if (to !== undefined && typeof to !== 'string') throw badRequest('to must be a status name');
			return { json: context.core.orders.advance(context.params.suborderId, to) };
		}),
	},
];

/**
 * Order routes of the current pages (orders-and-shipments.md): status names and groups, orders
 * (a Spring page, newest first, at most 100 a page) and their confirmation. Shipments, packing and
 * labels are in shipments.ts and labels.ts.
 */
import { parseZonedIso } from '../dates';
import { badRequest, integerParam } from '../http';
import { ORDER_GROUPS, ORDER_STATUSES, STATUS_GROUPS, groupOf } from '../order-statuses';
import { orderAnswer, springPage } from '../order-shapes';
import type { OrderRecord } from '../order-types';
import type { RouteContext, RouteDefinition, RouteResult } from '../route';
import type { SandboxCore } from '../core';
import { isRecord, toNumber } from '../values';

export const ORDER_BASE = '/order/api/v1/merchant-integration';
const DEFAULT_PAGE_SIZE = 10;
export const MAX_ORDER_PAGE = 100;
const STATUS_GROUP_NAMES = STATUS_GROUPS.map(({ group }) => group as string);

/**
 * The group names `statusGroup` takes on an endpoint (variants.ts `statusGroupNames`): its own
 * set, the status-groups endpoint's, or both.
 */
export function acceptedGroupNames(core: SandboxCore, own: readonly string[]): string[] {
	switch (core.variants.current.statusGroupNames) {
		case 'status-groups':
			return STATUS_GROUP_NAMES;
		case 'any':
			return [...own, ...STATUS_GROUP_NAMES];
		default:
			return [...own];
	}
}

/** The named group of `query`, checked against the names taken; undefined when not given. */
export function statusGroupParam(core: SandboxCore, query: URLSearchParams, own: readonly string[]): string | undefined {
	const raw = query.get('statusGroup');
	if (raw === null || raw === '') return undefined;
	const accepted = acceptedGroupNames(core, own);
	if (!accepted.includes(raw)) throw badRequest(`statusGroup must be one of ${accepted.join(', ')}`);
	return raw;
}

function instantParam(query: URLSearchParams, name: string): number | undefined {
	const raw = query.get(name);
	if (raw === null || raw === '') return undefined;
	const ms = parseZonedIso(raw);
	if (ms === undefined) throw badRequest(`${name} must be in format yyyy-MM-dd'T'HH:mm:ss.SSSXXX, e.g. 2023-11-15T00:00:00Z`);
	return ms;
}

function listOrders({ core, query }: RouteContext): RouteResult {
	const page = integerParam(query, 'page', 0, 0, Number.MAX_SAFE_INTEGER);
	const size = integerParam(query, 'size', DEFAULT_PAGE_SIZE, 1, MAX_ORDER_PAGE);
	const group = statusGroupParam(core, query, ORDER_GROUPS);
	const orderId = query.get('orderId') || undefined;
	const fromMs = instantParam(query, 'dateFrom');
	const toMs = instantParam(query, 'dateTo');
	if (fromMs !== undefined && toMs !== undefined && fromMs > toMs) throw badRequest('dateFrom must not be after dateTo');
	const book = core.orders;
	const inGroup = (order: OrderRecord): boolean => {
		if (group === undefined) return true;
		if (group === 'SG_FOR_CONFIRMATION') return book.forConfirmation(order);
		if (group === 'SG_PROCESSED') return !book.forConfirmation(order);
		return book.shipmentsOf(order.id).some((shipment) => groupOf(shipment.status).group === group);
	};
	const matching = book.allOrders().filter((order) => {
		const createdMs = Date.parse(order.createdDate);
		return (
			// The marketplace's own (FBA) orders are not listed, not even by id (an empty list, as the merchants' clients met it).
			order.fulfilledBy !== 'marketplace' &&
			(orderId === undefined || order.id === orderId) &&
			(fromMs === undefined || createdMs >= fromMs) &&
			(toMs === undefined || createdMs <= toMs) &&
			inGroup(order)
		);
	});
	const variants = core.variants.current;
	const answered = matching.slice(page * size, page * size + size).map((order) => orderAnswer(order, book.shipmentsOf(order.id), variants));
	const shaped = springPage(matching, page, size);
	return { json: { ...shaped, content: answered } };
}

/** The confirm body: `[{merchantInventoryId, confirmedQuantities: [{warehouseAddressId, quantity}]}]`. */
function confirmBody(value: unknown): Array<{ merchantInventoryId: number; confirmedQuantities: Array<{ warehouseAddressId: number; quantity: number }> }> {
	if (!Array.isArray(value) || value.length === 0) throw badRequest('Request body must be a non-empty array of order items');
	return value.map((element, index) => {
		if (!isRecord(element)) throw badRequest(`[${index}] must be an object`);
		const merchantInventoryId = toNumber(element.merchantInventoryId);
		if (merchantInventoryId === undefined) throw badRequest(`[${index}].merchantInventoryId is required`);
		if (!Array.isArray(element.confirmedQuantities)) throw badRequest(`[${index}].confirmedQuantities must be an array`);
		const confirmedQuantities = element.confirmedQuantities.map((part, partIndex) => {
			const where = `[${index}].confirmedQuantities[${partIndex}]`;
			const warehouseAddressId = isRecord(part) ? toNumber(part.warehouseAddressId) : undefined;
			const quantity = isRecord(part) ? toNumber(part.quantity) : undefined;
			if (warehouseAddressId === undefined) throw badRequest(`${where}.warehouseAddressId is required`);
			if (quantity === undefined || !Number.isInteger(quantity) || quantity < 0) throw badRequest(`${where}.quantity must be a whole number >= 0`);
			return { warehouseAddressId, quantity };
		});
		return { merchantInventoryId, confirmedQuantities };
	});
}

export const merchantOrderRoutes: RouteDefinition[] = [
	{
		key: 'orderStatuses',
		method: 'GET',
		pattern: new RegExp(`^${ORDER_BASE}/outbound-orders/statuses$`),
		authenticated: true,
		handle: () => ({ json: [...ORDER_STATUSES] }),
	},
	{
		key: 'orderStatusGroups',
		method: 'GET',
		pattern: new RegExp(`^${ORDER_BASE}/outbound-orders/status-groups$`),
		authenticated: true,
		handle: () => ({ json: STATUS_GROUPS }),
	},
	{
		key: 'orders',
		method: 'GET',
		pattern: new RegExp(`^${ORDER_BASE}/orders$`),
		authenticated: true,
		handle: listOrders,
	},
	{
		key: 'orderConfirm',
		method: 'PUT',
		pattern: new RegExp(`^${ORDER_BASE}/orders/(?<orderId>[^/]+)/confirm$`),
		authenticated: true,
		handle({ core, params, body }) {
			if (body.error) throw badRequest(body.error);
			core.orders.confirm(params.orderId, confirmBody(body.value));
			return { status: 201, body: '' };
		},
		itemCount: ({ body }) => (Array.isArray(body.value) ? body.value.length : undefined),
	},
];

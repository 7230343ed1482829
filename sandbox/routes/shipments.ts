/**
 * Shipments (suborders) and packing (orders-and-shipments.md, "Fetch shipments", "Pack completed"):
 * a Spring page, newest purchase first, `search` or `statusGroup` required, sizes above 100 taken
 * as 100; a pack answers 204 once and is refused after.
 */
import { parseTimestamp } from '../dates';
import { badRequest, integerParam, listParam } from '../http';
import { SHIPMENT_GROUPS, groupOf, isShipmentStatus } from '../order-statuses';
import { shipmentAnswer, shipmentSubgroup, springPage } from '../order-shapes';
import type { OrderRecord, ShipmentRecord } from '../order-types';
import type { RouteContext, RouteDefinition, RouteResult } from '../route';
import { isRecord, toNumber } from '../values';
import { MAX_ORDER_PAGE, ORDER_BASE, statusGroupParam } from './merchant-orders';
import { suborderTypeOf } from '../order-book';

const DEFAULT_PAGE_SIZE = 10;

function confirmedBound(query: URLSearchParams, name: string): number | undefined {
	const raw = query.get(name);
	if (raw === null || raw === '') return undefined;
	const ms = parseTimestamp(raw);
	if (ms === undefined) throw badRequest(`${name} must be an ISO 8601 date-time`);
	return ms;
}

/** The `statuses` filter; ON_THE_BORDER (the other documented name) selects both border statuses. */
function statusesParam(query: URLSearchParams): Set<string> | undefined {
	const values = listParam(query, 'statuses');
	if (values.length === 0) return undefined;
	const statuses = new Set<string>();
	for (const value of values) {
		if (value === 'ON_THE_BORDER') {
			statuses.add('PACKED_ON_THE_BORDER').add('PARTIALLY_PACKED_ON_THE_BORDER');
		} else if (isShipmentStatus(value)) statuses.add(value);
		else throw badRequest(`Unknown status ${value}`);
	}
	return statuses;
}

function listShipments({ core, query }: RouteContext): RouteResult {
	const search = query.get('search') || undefined;
	const group = statusGroupParam(core, query, Object.keys(SHIPMENT_GROUPS));
	if (search === undefined && group === undefined) throw badRequest('Either search or statusGroup is required');
	const page = integerParam(query, 'page', 0, 0, Number.MAX_SAFE_INTEGER);
	const size = Math.min(integerParam(query, 'size', DEFAULT_PAGE_SIZE, 1, Number.MAX_SAFE_INTEGER), MAX_ORDER_PAGE);
	const statuses = statusesParam(query);
	const warehouseIds = new Set(listParam(query, 'warehouseIds').map(Number));
	const paymentMethods = new Set(listParam(query, 'paymentMethods'));
	const carriers = new Set(listParam(query, 'carriers').map((carrier) => carrier.toLowerCase()));
	const suborderTypes = new Set(listParam(query, 'suborderTypes'));
	const fromMs = confirmedBound(query, 'confirmedFrom');
	const toMs = confirmedBound(query, 'confirmedTo');
	const variants = core.variants.current;
	const book = core.orders;
	const inGroup = (shipment: ShipmentRecord): boolean => {
		if (group === undefined) return true;
		const subgroups = SHIPMENT_GROUPS[group];
		return subgroups ? subgroups.includes(shipmentSubgroup(shipment.status, variants)) : groupOf(shipment.status).group === group;
	};
	const orderOf = (shipment: ShipmentRecord) => book.order(shipment.orderId) as OrderRecord;
	const matching = book.allShipments().filter((shipment) => {
		const confirmedMs = shipment.confirmedDate === null ? undefined : Date.parse(shipment.confirmedDate);
		return (
			(search === undefined || shipment.suborderId === search || shipment.orderId === search) &&
			inGroup(shipment) &&
			(statuses === undefined || statuses.has(shipment.status)) &&
			(warehouseIds.size === 0 || warehouseIds.has(shipment.warehouseId)) &&
			(paymentMethods.size === 0 || orderOf(shipment).paymentMethods.some((method) => paymentMethods.has(method))) &&
			(carriers.size === 0 || carriers.has(shipment.carrierName?.toLowerCase() ?? '') || carriers.has(shipment.carrierCode?.toLowerCase() ?? '')) &&
			// The type its id names: DS (the merchant's own delivery) or FBA (fulfilled by the marketplace).
			(suborderTypes.size === 0 || suborderTypes.has(suborderTypeOf(shipment.suborderId))) &&
			(fromMs === undefined || (confirmedMs !== undefined && confirmedMs >= fromMs)) &&
			(toMs === undefined || (confirmedMs !== undefined && confirmedMs <= toMs))
		);
	});
	const content = matching.slice(page * size, page * size + size).map((shipment) => shipmentAnswer(shipment, orderOf(shipment), core.warehouses, variants));
	return { json: { ...springPage(matching, page, size), content } };
}

/** The pack body: `{numberOfBoxes, products: [{id, quantity}]}` (`id`: the line's merchant inventory id). */
function packBody(value: unknown): { numberOfBoxes: number; products: Array<{ id: number; quantity: number }> } {
	if (!isRecord(value)) throw badRequest('Request body must be an object with numberOfBoxes and products');
	const numberOfBoxes = toNumber(value.numberOfBoxes);
	if (numberOfBoxes === undefined) throw badRequest('numberOfBoxes is required');
	if (!Array.isArray(value.products) || value.products.length === 0) throw badRequest('products must be a non-empty array');
	const products = value.products.map((product, index) => {
		const id = isRecord(product) ? toNumber(product.id) : undefined;
		const quantity = isRecord(product) ? toNumber(product.quantity) : undefined;
		if (id === undefined || quantity === undefined) throw badRequest(`products[${index}] needs id and quantity`);
		return { id, quantity };
	});
	return { numberOfBoxes, products };
}

export const shipmentRoutes: RouteDefinition[] = [
	{
		key: 'shipments',
		method: 'GET',
		pattern: new RegExp(`^${ORDER_BASE}/outbound-orders/shipments$`),
		authenticated: true,
		handle: listShipments,
	},
	{
		key: 'shipmentPack',
		method: 'POST',
		pattern: new RegExp(`^${ORDER_BASE}/outbound-orders/(?<suborderId>[^/]+)/pack$`),
		authenticated: true,
		handle({ core, params, body }) {
			if (body.error) throw badRequest(body.error);
			core.orders.pack(params.suborderId, packBody(body.value));
			return { status: 204, body: '' };
		},
		itemCount: ({ body }) => (isRecord(body.value) && Array.isArray(body.value.products) ? body.value.products.length : undefined),
	},
];

/**
 * Orders and shipments as the node and the trigger put them out (orders-and-shipments.md): the
 * payment codes' names, the simplified order and shipment, and an order rebuilt from its shipments
 * (the marketplace's own, FBA, which the orders endpoint does not list). The reads are in orders.ts.
 */
import type { IDataObject } from 'n8n-workflow';

import { isBlank, isPlainObject } from '../../values/labels';

/**
 * The payment codes as the documentation means them (COD cash on delivery, PBC pay by card, POS pay
 * on site; the merchants' production clients read them alike): the one home of their names.
 */
export const PAYMENT_METHOD_NAMES = {
	COD: 'Cash on Delivery',
	PBC: 'Pay by Card',
	POS: 'Pay on Site',
	VOUCHER: 'Voucher',
} as const;
export type PaymentMethod = keyof typeof PAYMENT_METHOD_NAMES;
export const PAYMENT_METHODS = Object.keys(PAYMENT_METHOD_NAMES) as PaymentMethod[];

/** A payment method a user typed: its code (COD, any case) or its name as the option list shows it (Pay by Card); undefined otherwise. */
export function paymentMethodCode(value: string): PaymentMethod | undefined {
	const typed = value.trim().toUpperCase();
	return PAYMENT_METHODS.find((code) => code === typed || PAYMENT_METHOD_NAMES[code].toUpperCase() === typed);
}

/** Whether the marketplace fulfils a suborder itself (FBA): its id says so (`…-FBA-1`), or its type. */
export function isMarketplaceFulfilled(shipment: IDataObject): boolean {
	return /-FBA-\d+$/i.test(String(shipment.suborderId ?? '')) || String(shipment.type ?? '').toUpperCase() === 'FBA';
}

/**
 * An order rebuilt from its shipments, as the merchants' ERP client rebuilds the orders the orders
 * endpoint does not list (those the marketplace fulfils, FBA): its id, purchase time and total, and
 * one item per shipment line under the order's field names (the line's Product ID as `id`, its
 * shipment's warehouse, ordered, confirmed and packed quantities, unit price and total). What only
 * the orders endpoint has (buyer, address, VAT, shipping, commission) is absent, not made up;
 * `suborders` says where each line came from, `fromShipments` that it was rebuilt.
 */
export function orderFromShipments(orderId: string, shipments: IDataObject[]): IDataObject {
	const items = shipments.flatMap((shipment) =>
		(Array.isArray(shipment.items) ? (shipment.items as IDataObject[]) : []).map((item) => ({
			id: orNull(item.merchantInventoryId),
			suborderWarehouseAddressId: orNull(shipment.warehouseId),
			quantity: orNull(item.orderedQuantity),
			confirmedQuantity: orNull(item.confirmedQuantity),
			packedQuantity: orNull(item.packedQuantity),
			basePrice: orNull(item.unitPrice),
			grandTotal: orNull(item.totalPrice),
			productEan: orNull(item.productEan),
			productSku: orNull(item.productSku),
			productName: orNull(item.productName),
		})),
	);
	return {
		id: orderId,
		createdDate: orNull(shipments[0]?.createdDate),
		totalPrice: sumOver(shipments, 'totalPrice'),
		fulfilledBy: shipments.every(isMarketplaceFulfilled) ? 'marketplace' : 'merchant',
		fromShipments: true,
		suborders: shipments.map((shipment) => ({
			suborderId: orNull(shipment.suborderId),
			status: orNull(shipment.status),
			statusSubgroup: orNull(shipment.statusSubgroup),
			warehouseId: orNull(shipment.warehouseId),
			carrierName: orNull(shipment.carrierName),
		})),
		items,
	};
}

/** The shipments' orders rebuilt (`orderFromShipments`), each once, in the shipments' order (newest purchase first). */
export function ordersFromShipments(shipments: IDataObject[]): IDataObject[] {
	const byOrder = new Map<string, IDataObject[]>();
	for (const shipment of shipments) {
		if (isBlank(shipment.orderId)) continue;
		const orderId = String(shipment.orderId);
		byOrder.set(orderId, [...(byOrder.get(orderId) ?? []), shipment]);
	}
	return [...byOrder].map(([orderId, ofOrder]) => orderFromShipments(orderId, ofOrder));
}

/** An order's payment methods as a list, under either documented key (`paymentMethods`, `paymentMethod`). */
export function paymentMethodsOf(order: IDataObject): string[] {
	const value = order.paymentMethods ?? order.paymentMethod;
	if (value === undefined || value === null) return [];
	return (Array.isArray(value) ? value : [value]).filter((method) => !isBlank(method)).map(String);
}

const orNull = (value: unknown) => (value === undefined ? null : value);
const textOrNull = (value: unknown) => (isBlank(value) ? null : (value as IDataObject[string]));

/**
 * The buyer of the order's address: the person's name, the company's name and tax ID for a company
 * buyer (`buyerId` when `buyerType` is TIN), and the delivery city; null without an address.
 */
function buyerOf(address: IDataObject | null): IDataObject | null {
	if (!address) return null;
	const name = [address.firstName, address.lastName].filter((part) => !isBlank(part)).join(' ');
	const company = address.buyerType === 'TIN' || !isBlank(address.buyerName);
	return {
		name: name === '' ? null : name,
		company: textOrNull(address.buyerName),
		taxId: company && address.buyerType === 'TIN' ? textOrNull(address.buyerId) : null,
		city: textOrNull(address.city),
	};
}

/**
 * The address the order goes to: a delivery (shipping) address where the answer has one, else the
 * documented `billingAddress` (the only address of the documentation's order, the one the merchants'
 * clients deliver to); its `type` says which the service sent. Null without an address.
 */
function addressOf(order: IDataObject): IDataObject | null {
	const address = [order.deliveryAddress, order.shippingAddress, order.billingAddress].find(isPlainObject) as IDataObject | undefined;
	return address ?? null;
}

function deliveryAddressOf(address: IDataObject | null): IDataObject | null {
	if (!address) return null;
	const fields = { type: 'type', street: 'streetName', number: 'streetNumber', apartment: 'apartmentNumber', postcode: 'postcode', city: 'city', additionalInfo: 'additionalInfo' };
	return Object.fromEntries(Object.entries(fields).map(([name, key]) => [name, textOrNull(address[key])])) as IDataObject;
}

/** A number the answer sent (as a number or a numeric text), else undefined. */
function amountOf(value: unknown): number | undefined {
	if (typeof value === 'number' && Number.isFinite(value)) return value;
	if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
	return undefined;
}

/** The sum of one field over the order's lines, to the cent; null unless every line has it (nothing guessed). */
function sumOver(items: IDataObject[], key: string): number | null {
	if (items.length === 0) return null;
	let sum = 0;
	for (const item of items) {
		const amount = amountOf(item[key]);
		if (amount === undefined) return null;
		sum += amount;
	}
	return Math.round(sum * 100) / 100;
}

/**
 * An order as bookkeeping reads it: totals with and without VAT (the service's total, the lines'
 * charged prices without VAT), shipping and the marketplace's commission summed over the lines, the
 * buyer, the delivery address; each line by its Product ID (`productId`, the merchant inventory id
 * the rest of the node calls Product ID; `merchantInventoryId` the same, as Confirm reads it) with
 * the platform's product uuid as `platformProductId`. A sum is null where a line lacks the field.
 */
export function simplifyOrder(order: IDataObject): IDataObject {
	const items = Array.isArray(order.items) ? (order.items as IDataObject[]) : [];
	const methods = paymentMethodsOf(order);
	const address = addressOf(order);
	return {
		orderId: orNull(order.id),
		createdDate: orNull(order.createdDate),
		// The orders endpoint lists only the merchant's own deliveries; a rebuilt order says whose it is.
		fulfilledBy: order.fromShipments === true ? orNull(order.fulfilledBy) : 'merchant',
		fromShipments: order.fromShipments === true,
		totalPrice: orNull(order.totalPrice),
		totalPriceWithoutVat: sumOver(items, 'chargedPriceWithoutVat'),
		itemsTotal: sumOver(items, 'grandTotal'),
		itemsTotalWithoutVat: sumOver(items, 'grandTotalWithoutVat'),
		shippingCost: sumOver(items, 'shippingCost'),
		shippingCostWithoutVat: sumOver(items, 'shippingCostWithoutVat'),
		commission: sumOver(items, 'takeRateTotal'),
		currency: orNull(order.currency),
		paymentMethods: methods,
		paymentMethodNames: methods.map((code) => PAYMENT_METHOD_NAMES[code as PaymentMethod] ?? code),
		buyer: buyerOf(address),
		deliveryAddress: deliveryAddressOf(address),
		numberOfItems: orNull(order.numberOfItems),
		lines: items.map((item) => ({
			productId: orNull(item.id),
			merchantInventoryId: orNull(item.id),
			platformProductId: orNull(item.productId),
			ean: orNull(item.productEan),
			sku: orNull(item.productSku),
			name: orNull(item.productName),
			quantity: orNull(item.quantity),
			confirmedQuantity: orNull(item.confirmedQuantity),
			packedQuantity: orNull(item.packedQuantity),
			unitPrice: orNull(item.basePrice),
			unitPriceWithoutVat: orNull(item.basePriceWithoutVat),
			vat: orNull(item.vat),
			total: orNull(item.grandTotal),
			totalWithoutVat: orNull(item.grandTotalWithoutVat),
			shippingCost: orNull(amountOf(item.shippingCost)),
			commission: orNull(amountOf(item.takeRateTotal)),
			warehouseAddressId: orNull(item.suborderWarehouseAddressId),
		})),
	};
}

export function simplifyShipment(shipment: IDataObject): IDataObject {
	const items = Array.isArray(shipment.items) ? (shipment.items as IDataObject[]) : [];
	const fields = ['suborderId', 'orderId', 'status', 'statusSubgroup', 'createdDate', 'warehouseId', 'warehouseName', 'carrierName'];
	return {
		...Object.fromEntries(fields.map((field) => [field, orNull(shipment[field])])),
		totalPrice: orNull(shipment.totalPrice),
		confirmedQuantity: orNull(shipment.confirmedQuantity),
		packedQuantity: orNull(shipment.packedQuantity),
		lines: items.map((item) => ({
			merchantInventoryId: orNull(item.merchantInventoryId),
			ean: orNull(item.productEan),
			sku: orNull(item.productSku),
			name: orNull(item.productName),
			orderedQuantity: orNull(item.orderedQuantity),
			confirmedQuantity: orNull(item.confirmedQuantity),
			packedQuantity: orNull(item.packedQuantity),
			unitPrice: orNull(item.unitPrice),
			total: orNull(item.totalPrice),
		})),
	};
}

/**
 * Orders and shipments as the pages' examples show them (orders-and-shipments.md), reshaped by the
 * switches of variants.ts (`orderPaymentKey`, `orderSpecificationsKey`, `borderStatusName`,
 * `pendingSubgroup`), and Spring's page around a list.
 */
import { groupOf } from './order-statuses';
import type { OrderLine, OrderRecord, ShipmentRecord } from './order-types';
import { roundMoney } from './random';
import { MERCHANT_DETAILS } from './data';
import type { WarehouseRecord } from './types';
import type { SandboxVariants } from './variants';

const ASSET_ROOT = 'https://static.sandbox.invalid';
const MERCHANT = { id: 4242, name: MERCHANT_DETAILS.name, code: 'SBX4242MRC' };

const withoutVat = (amount: number, vat: number) => roundMoney(amount / (1 + vat / 100));

function imageOf(line: OrderLine): string {
	const path = `/assets/Product_Images/${line.productSku}/${line.merchantInventoryId}.jpeg`;
	return JSON.stringify({ key: 'CoverImage', trait: 'Glavna fotografija', type: 'ImageAttribute', image: { path, width: 700, height: 525 } });
}

function sumOf(parts: Array<{ quantity: number }>): number {
	return parts.reduce((sum, part) => sum + part.quantity, 0);
}

/** A line identifier as the variant `orderItemId: 'lineId'` answers it: digits from the order id and the line's position, unlike any product id. */
function lineIdOf(order: OrderRecord, index: number): string {
	let hash = 0;
	for (const char of order.id) hash = (hash * 31 + char.charCodeAt(0)) % 100_000;
	return String(70_000_000 + hash * 100 + index);
}

/** An item of an order: prices per unit and in total, quantities so far, the product. */
function orderItem(order: OrderRecord, index: number, packed: number | null, warehouseId: number, variants: SandboxVariants): Record<string, unknown> {
	const line = order.lines[index];
	const confirmed = order.confirmations ? sumOf(order.confirmations[index]) : null;
	const grandTotal = roundMoney(line.basePrice * line.quantity);
	const shippingWithoutVat = withoutVat(line.shippingCost, 20);
	const chargedPrice = roundMoney(grandTotal + line.shippingCost);
	const image = imageOf(line);
	const translation = (language: string) => ({ name: line.productName, coverImage: image, specification: line.specifications, language });
	return {
		// The pages' example: the merchant inventory id, as a string; or a line id of its own (variant `orderItemId`).
		id: variants.orderItemId === 'lineId' ? lineIdOf(order, index) : String(line.merchantInventoryId),
		suborderWarehouseAddressId: warehouseId,
		quantity: line.quantity,
		confirmedQuantity: confirmed,
		packedQuantity: packed,
		vat: line.vat,
		basePriceBeforeDeductionsWithoutVat: withoutVat(line.basePriceBeforeDeductions, line.vat),
		basePriceBeforeDeductions: line.basePriceBeforeDeductions,
		basePriceWithoutVat: withoutVat(line.basePrice, line.vat),
		basePrice: line.basePrice,
		grandTotalWithoutVat: withoutVat(grandTotal, line.vat),
		grandTotal,
		takeRate: line.takeRate,
		takeRateBasePrice: roundMoney((line.basePrice * line.takeRate) / 100),
		takeRateTotal: roundMoney((grandTotal * line.takeRate) / 100),
		shippingCost: line.shippingCost,
		shippingCostWithoutVat: shippingWithoutVat,
		shippingCostVat: 20,
		shippingCostBasePrice: line.shippingCost,
		shippingCostBasePriceWithoutVat: shippingWithoutVat,
		shippingCostAdjustment: 0,
		chargedPrice,
		chargedPriceWithoutVat: roundMoney(withoutVat(grandTotal, line.vat) + shippingWithoutVat),
		paymentData: order.paymentMethods.map((paymentMethod, position) => ({
			paymentMethod,
			paidAmount: position === 0 ? chargedPrice : 0,
			paidAmountAdjustment: 0,
		})),
		merchant: MERCHANT,
		productId: line.productId,
		productEan: line.productEan,
		productACode: line.productACode,
		productApid: line.productApid,
		assetRootUrl: ASSET_ROOT,
		thumbnailBaseUrl: ASSET_ROOT,
		productSku: line.productSku,
		lux: false,
		productName: line.productName,
		image,
		[variants.orderSpecificationsKey]: line.specifications,
		translations: [translation('en'), translation('sr')],
		shippingEligibleQuantity: confirmed ?? line.quantity,
		grandTotalBasePriceBeforeDeductions: roundMoney(line.basePriceBeforeDeductions * line.quantity),
	};
}

/** An order of GET orders; `shipments` give each item's warehouse and packed quantity. */
export function orderAnswer(order: OrderRecord, shipments: ShipmentRecord[], variants: SandboxVariants): Record<string, unknown> {
	const items = order.lines.map((line, index) => {
		const parts = shipments.flatMap((shipment) => shipment.lines.filter((entry) => entry.merchantInventoryId === line.merchantInventoryId).map((entry) => ({ shipment, entry })));
		const packedParts = parts.filter(({ entry }) => entry.packedQuantity !== null);
		const packed = packedParts.length > 0 ? packedParts.reduce((sum, { entry }) => sum + (entry.packedQuantity ?? 0), 0) : null;
		// Before the confirmation: the warehouse the line was ordered from; after: the one it was confirmed from.
		const warehouseId = order.confirmations === null ? (line.orderedFrom ?? shipments[0]?.warehouseId) : (parts[0]?.shipment.warehouseId ?? shipments[0]?.warehouseId);
		return orderItem(order, index, packed, warehouseId, variants);
	});
	return {
		id: order.id,
		createdDate: order.createdDate,
		totalPrice: roundMoney(items.reduce((sum, item) => sum + (item.chargedPrice as number), 0)),
		currency: variants.market.currency,
		[variants.orderPaymentKey]: order.paymentMethods,
		numberOfItems: order.lines.length,
		sumOfItemOrderedQuantities: order.lines.reduce((sum, line) => sum + line.quantity, 0),
		billingAddress: order.billingAddress,
		items,
	};
}

/** The status a shipment answer shows (`borderStatusName`). */
export function shownStatus(status: string, variants: SandboxVariants): string {
	return variants.borderStatusName === 'ON_THE_BORDER' && status.endsWith('_ON_THE_BORDER') ? 'ON_THE_BORDER' : status;
}

/** The subgroup a shipment answer shows (`pendingSubgroup`); the shipments' group filter reads the same. */
export function shipmentSubgroup(status: string, variants: SandboxVariants): string {
	return status === 'PENDING' ? variants.pendingSubgroup : groupOf(status).subGroup;
}

export function shipmentAnswer(shipment: ShipmentRecord, order: OrderRecord, warehouses: WarehouseRecord[], variants: SandboxVariants): Record<string, unknown> {
	const lineOf = (id: number) => order.lines.find((line) => line.merchantInventoryId === id) as OrderLine;
	const counted = (entry: ShipmentRecord['lines'][number]) => entry.confirmedQuantity ?? entry.orderedQuantity;
	const total = (key: 'packedQuantity' | 'confirmedQuantity') =>
		shipment.lines.some((entry) => entry[key] !== null) ? shipment.lines.reduce((sum, entry) => sum + (entry[key] ?? 0), 0) : null;
	return {
		orderId: shipment.orderId,
		suborderId: shipment.suborderId,
		status: shownStatus(shipment.status, variants),
		statusSubgroup: shipmentSubgroup(shipment.status, variants),
		totalPrice: roundMoney(shipment.lines.reduce((sum, entry) => sum + entry.unitPrice * counted(entry), 0)),
		packedQuantity: total('packedQuantity'),
		confirmedQuantity: total('confirmedQuantity'),
		warehouseName: warehouses.find((warehouse) => warehouse.id === shipment.warehouseId)?.warehouseName ?? null,
		warehouseId: shipment.warehouseId,
		carrierName: shipment.carrierName,
		type: 'Standard',
		createdDate: shipment.createdDate,
		items: shipment.lines.map((entry) => {
			const line = lineOf(entry.merchantInventoryId);
			return {
				packedQuantity: entry.packedQuantity,
				confirmedQuantity: entry.confirmedQuantity,
				merchantInventoryId: entry.merchantInventoryId,
				unitPrice: entry.unitPrice,
				totalPrice: roundMoney(entry.unitPrice * counted(entry)),
				orderedQuantity: entry.orderedQuantity,
				productName: line.productName,
				productEan: line.productEan,
				productSku: line.productSku,
				productSpecifications: line.specifications,
			};
		}),
	};
}

/** Spring Data's page of `all` (page from 0), sorted as the service sorts. */
export function springPage<T>(all: T[], page: number, size: number): Record<string, unknown> {
	const content = all.slice(page * size, page * size + size);
	const totalPages = Math.ceil(all.length / size);
	const sort = { empty: false, unsorted: false, sorted: true };
	return {
		content,
		pageable: { sort, offset: page * size, pageNumber: page, pageSize: size, paged: true, unpaged: false },
		last: page >= totalPages - 1,
		totalElements: all.length,
		totalPages,
		size,
		number: page,
		sort,
		first: page === 0,
		numberOfElements: content.length,
		empty: content.length === 0,
	};
}

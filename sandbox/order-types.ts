/**
 * Public types of the sandbox's orders, shipments and publishing (orders-and-shipments.md): what
 * the sandbox stores and its controls hand out. The wire shapes are built from these in
 * order-shapes.ts, where the variants reshape them.
 */
import type { ShipmentStatus } from './order-statuses';

export type PaymentMethod = 'COD' | 'PBC' | 'POS' | 'VOUCHER';

export interface BillingAddress {
	type: 'BILLING';
	firstName: string;
	lastName: string;
	city: string;
	postcode: string;
	streetName: string;
	streetNumber: string;
	apartmentNumber: string | null;
	additionalInfo: string | null;
	/** `TIN` for a company buyer (with its id and name), else null. */
	buyerType: 'TIN' | null;
	buyerId: string | null;
	buyerName: string | null;
}

/** One order line: a product, its ordered quantity and its prices (per unit, with VAT, RSD). */
export interface OrderLine {
	/** The merchant inventory id (the product's id), as the pages' example shows the item's `id`. */
	merchantInventoryId: number;
	quantity: number;
	/** The warehouse the customer ordered the line from (`suborderWarehouseAddressId`); null: the default address. */
	orderedFrom: number | null;
	vat: number;
	/** Unit price before the discount. */
	basePriceBeforeDeductions: number;
	/** Unit price after the discount. */
	basePrice: number;
	/** Commission, percent. */
	takeRate: number;
	/** The order's shipping cost sits on its first line; 0 on the others. */
	shippingCost: number;
	productId: string;
	productEan: string;
	productSku: string;
	productName: string;
	productACode: string;
	productApid: string;
	/** JSON string of the product's attributes. */
	specifications: string;
}

/** Confirmed quantities of one line: the merchant's warehouse address id → quantity. */
export type LineConfirmation = Array<{ warehouseAddressId: number; quantity: number }>;

export interface OrderRecord {
	id: string;
	/** ISO 8601 UTC (`…Z`). */
	createdDate: string;
	paymentMethods: PaymentMethod[];
	billingAddress: BillingAddress | null;
	lines: OrderLine[];
	/** Per line (same order as `lines`), null until the order is confirmed. */
	confirmations: LineConfirmation[] | null;
	/** ISO 8601 UTC of the confirmation, null before. */
	confirmedDate: string | null;
	/**
	 * 'marketplace' for an order the marketplace fulfils itself (FBA): the orders endpoint answers an
	 * empty list for it, its one suborder is `<orderId>-FBA-1`, confirmed by the marketplace.
	 */
	fulfilledBy?: 'marketplace';
}

export interface ShipmentLine {
	merchantInventoryId: number;
	orderedQuantity: number;
	/** null until the order is confirmed (the pages' example). */
	confirmedQuantity: number | null;
	/** null until the suborder is packed. */
	packedQuantity: number | null;
	unitPrice: number;
}

export interface ShipmentRecord {
	orderId: string;
	/** `<orderId>-DS-<n>`: one per warehouse the order was confirmed from. */
	suborderId: string;
	status: ShipmentStatus;
	warehouseId: number;
	/** null until the carrier is allocated (after packing). */
	carrierName: string | null;
	carrierCode: string | null;
	/** The order's creation (purchase) date: shipments sort by it. */
	createdDate: string;
	confirmedDate: string | null;
	packedDate: string | null;
	numberOfBoxes: number | null;
	lines: ShipmentLine[];
	/** Every status the shipment had, oldest first, with the sandbox time it was set. */
	history: Array<{ status: ShipmentStatus; at: string }>;
}

export type ProductStatus = 'READY_FOR_PUBLISH' | 'PUBLISHED' | 'SOLD_OUT' | 'UNPUBLISHED' | 'UNPUBLISHED_OOS';

/** One publish or unpublish request, as the service would report it by e-mail. */
export interface PublicationRecord {
	/** The progress id the request was answered with. */
	id: string;
	action: 'publish' | 'unpublish';
	at: string;
	/** Per id sent: whether it was applied, and why not. */
	results: Array<{ merchantInventoryId: number; applied: boolean; error?: string }>;
}

/** Options of `sandbox.addOrders` and `POST /__sandbox/orders`. */
export interface AddOrdersOptions {
	/** The lines of every order added; default 1 to 3 lines of seeded merchant-warehouse products. */
	lines?: Array<{ merchantInventoryId: number; quantity?: number; warehouseAddressId?: number }>;
	paymentMethods?: PaymentMethod[];
	/** Creation time (default: the sandbox's now). */
	createdDate?: string | number | Date;
	/** Orders the marketplace fulfils itself (FBA): invisible to GET orders, found through their shipments. */
	fulfilledByMarketplace?: boolean;
}

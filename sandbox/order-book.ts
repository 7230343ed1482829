/**
 * Orders and their shipments (suborders), with the status machine of orders-and-shipments.md:
 * an order is For Confirmation while its one suborder is CREATED; confirming splits its lines
 * into one suborder per warehouse (CONFIRMED, or PARTIALLY_CONFIRMED when less than ordered);
 * packing makes a suborder PACKED or PARTIALLY_PACKED and allocates a carrier, and after the
 * variant `carrierAllocationMs` (sandbox clock) it is READY_FOR_COLLECTION and its label exists;
 * the carrier then moves it on (the control `advanceShipment`). Errors are HttpErrors with the
 * answer the routes give.
 */
import { HttpError, badRequest, notFound } from './http';
import { OrderFactory } from './order-factory';
import { PACKABLE_STATUSES, isShipmentStatus, type ShipmentStatus } from './order-statuses';
import type { AddOrdersOptions, LineConfirmation, OrderRecord, ShipmentLine, ShipmentRecord } from './order-types';
import type { ProductCatalog } from './products';
import type { Rng } from './random';
import type { WarehouseRecord } from './types';

const MINUTE_MS = 60_000;
/** The marketplace's own warehouse, from which it ships the orders it fulfils (not one of the merchant's). */
export const PLATFORM_WAREHOUSE_ID = 0;

/** A suborder's type, as its id names it: DS the merchant's own delivery, FBA fulfilled by the marketplace. */
export type SuborderType = 'DS' | 'FBA';
export function suborderTypeOf(suborderId: string): SuborderType {
	return /-FBA-\d+$/.test(suborderId) ? 'FBA' : 'DS';
}
const WEEK_MS = 7 * 24 * 60 * MINUTE_MS;

/** How far each seeded order went: 'next' is one advanceShipment step, 'cancel' the customer's cancellation. */
const SEEDED_STAGES: Array<Array<'next' | 'cancel'>> = [
	[], [], [], ['next'], ['next'], ['next', 'next'], ['next', 'next', 'next', 'next'], ['next', 'next', 'next', 'next', 'next'], ['cancel'],
];

const CARRIERS = [
	{ code: 'CEX01', name: 'City Express' },
	{ code: 'DEX01', name: 'D Express' },
	{ code: 'AKS01', name: 'AKS' },
];

/** What `advanceShipment` does without a target: the carrier's next step after READY_FOR_COLLECTION. */
const CARRIER_STEPS: Partial<Record<ShipmentStatus, ShipmentStatus>> = {
	READY_FOR_COLLECTION: 'COLLECTED',
	COLLECTED: 'ON_DELIVERY',
	ON_DELIVERY: 'DELIVERED',
};

export interface PackRequest {
	numberOfBoxes: number;
	products: Array<{ id: number; quantity: number }>;
}

export class OrderBook {
	private readonly orders: OrderRecord[] = [];
	private readonly byId = new Map<string, OrderRecord>();
	private readonly shipmentsByOrder = new Map<string, ShipmentRecord[]>();
	private readonly bySuborder = new Map<string, ShipmentRecord>();
	private readonly factory: OrderFactory;
	private sequence = 0;
	private seedingAtMs: number | undefined;
	private newestFirst: OrderRecord[] | undefined;

	constructor(
		seed: number,
		catalog: ProductCatalog,
		private readonly warehouses: WarehouseRecord[],
		private readonly nowMs: () => number,
		/** Sandbox milliseconds from packing to READY_FOR_COLLECTION (variant `carrierAllocationMs`). */
		private readonly allocationMs: () => number,
	) {
		this.factory = new OrderFactory(seed, catalog);
	}

	/** New orders For Confirmation, each with one CREATED suborder at the default warehouse. */
	add(count: number, options: AddOrdersOptions = {}, createdMs = this.now()): OrderRecord[] {
		if (!Number.isInteger(count) || count < 0) throw new Error('count must be a non-negative integer');
		for (const wanted of options.lines ?? []) {
			const from = wanted.warehouseAddressId;
			if (from !== undefined && !this.warehouses.some((warehouse) => warehouse.id === from)) throw new Error(`Warehouse ${from} does not exist`);
		}
		const added: OrderRecord[] = [];
		for (let i = 0; i < count; i++) {
			const order = this.factory.order(this.sequence++, createdMs, options);
			this.orders.push(order);
			this.newestFirst = undefined;
			this.byId.set(order.id, order);
			if (order.fulfilledBy === 'marketplace') {
				// The marketplace ships it from its own warehouse: confirmed at once, nothing for the merchant to confirm.
				order.confirmations = order.lines.map((entry) => [{ warehouseAddressId: PLATFORM_WAREHOUSE_ID, quantity: entry.quantity }]);
				order.confirmedDate = order.createdDate;
				const shipment = this.newShipment(order, 1, PLATFORM_WAREHOUSE_ID, order.lines.map((entry) => ({ ...shipmentLine(entry), confirmedQuantity: entry.quantity })), 'FBA');
				shipment.confirmedDate = order.createdDate;
				this.setStatus(shipment, 'CONFIRMED', createdMs);
				this.store(order, [shipment]);
			} else {
				const warehouse = this.defaultWarehouse();
				this.store(order, [
					this.newShipment(order, 1, warehouse.id, order.lines.map((entry) => ({ ...shipmentLine(entry), confirmedQuantity: null }))),
				]);
			}
			added.push(order);
		}
		return added;
	}

	/**
	 * The seeded orders: `count` orders over the week before `startMs`, each taken along the usual
	 * path to a stage the seed picks (For Confirmation, confirmed, ready for collection, on delivery,
	 * delivered, cancelled by the customer), its history dated as it happened.
	 */
	seed(rng: Rng, count: number, startMs: number): void {
		const spacingMs = count > 0 ? WEEK_MS / count : 0;
		// Stepping by 4 through the 9 stages (coprime) puts every stage in any 9 orders in a row.
		const offset = rng.int(0, SEEDED_STAGES.length - 1);
		for (let i = 0; i < count; i++) {
			let atMs = startMs - WEEK_MS + Math.floor(i * spacingMs);
			this.seedingAtMs = atMs;
			const [order] = this.add(1, {}, atMs);
			const steps = SEEDED_STAGES[(offset + i * 4) % SEEDED_STAGES.length];
			const shipment = this.shipmentsByOrder.get(order.id)?.[0] as ShipmentRecord;
			for (const step of steps) {
				atMs += rng.int(10, 120) * MINUTE_MS;
				this.seedingAtMs = Math.min(atMs, startMs);
				for (const suborder of step === 'cancel' ? [shipment] : (this.shipmentsByOrder.get(order.id) ?? [])) {
					this.advance(suborder.suborderId, step === 'cancel' ? 'CANCELLED_BY_CUSTOMER' : undefined);
				}
			}
		}
		this.seedingAtMs = undefined;
	}

	/** Every order, newest first (ties: the later added first), after time-driven transitions. */
	allOrders(): OrderRecord[] {
		this.settle();
		// Sorted once per change: listing 10,000 orders page by page must not sort them per page.
		this.newestFirst ??= [...this.orders].reverse().sort((a, b) => (a.createdDate < b.createdDate ? 1 : a.createdDate > b.createdDate ? -1 : 0));
		return this.newestFirst;
	}

	order(id: string): OrderRecord | undefined {
		return this.byId.get(id);
	}

	shipmentsOf(orderId: string): ShipmentRecord[] {
		const shipments = this.shipmentsByOrder.get(orderId) ?? [];
		for (const shipment of shipments) this.settleOne(shipment);
		return shipments;
	}

	shipment(suborderId: string): ShipmentRecord | undefined {
		const shipment = this.bySuborder.get(suborderId);
		if (shipment) this.settleOne(shipment);
		return shipment;
	}

	/** Every shipment, newest purchase first. */
	allShipments(): ShipmentRecord[] {
		return this.allOrders().flatMap((order) => this.shipmentsByOrder.get(order.id) ?? []);
	}

	/** Whether the order waits for the merchant's confirmation (SG_FOR_CONFIRMATION). */
	forConfirmation(order: OrderRecord): boolean {
		return (this.shipmentsByOrder.get(order.id) ?? []).every((shipment) => shipment.status === 'CREATED');
	}

	/**
	 * PUT confirm: one element per order line, each split over warehouses. Every line must be
	 * named once; quantities are whole numbers from 0 to what was ordered.
	 */
	confirm(orderId: string, body: Array<{ merchantInventoryId: number; confirmedQuantities: LineConfirmation }>): void {
		const order = this.order(orderId);
		if (!order) throw notFound(`Order ${orderId} not found`);
		const current = this.shipmentsByOrder.get(order.id) ?? [];
		if (!this.forConfirmation(order)) {
			throw badRequest(`Order ${orderId} is not waiting for confirmation (suborders: ${current.map((s) => `${s.suborderId} ${s.status}`).join(', ')})`);
		}
		const warehouseIds = new Set(this.warehouses.map((warehouse) => warehouse.id));
		const confirmations: LineConfirmation[] = order.lines.map(() => []);
		for (const element of body) {
			const index = order.lines.findIndex((entry) => entry.merchantInventoryId === element.merchantInventoryId);
			if (index < 0) throw badRequest(`Order ${orderId} has no item with merchantInventoryId ${element.merchantInventoryId}`);
			if (confirmations[index].length > 0) throw badRequest(`Item ${element.merchantInventoryId} is confirmed twice`);
			for (const part of element.confirmedQuantities) {
				if (!warehouseIds.has(part.warehouseAddressId)) throw badRequest(`Unknown warehouseAddressId ${part.warehouseAddressId}`);
				confirmations[index].push({ ...part });
			}
			if (confirmations[index].length === 0) throw badRequest(`Item ${element.merchantInventoryId} needs a warehouseAddressId`);
			const total = confirmations[index].reduce((sum, part) => sum + part.quantity, 0);
			const ordered = order.lines[index].quantity;
			if (total > ordered) {
				throw badRequest(`Confirmed quantity ${total} of item ${element.merchantInventoryId} exceeds the ordered quantity ${ordered}`);
			}
		}
		const missing = order.lines.filter((_, index) => confirmations[index].length === 0);
		if (missing.length > 0) throw badRequest(`Every order item must be confirmed; missing: ${missing.map((entry) => entry.merchantInventoryId).join(', ')}`);
		this.applyConfirmation(order, confirmations);
	}

	/** POST pack: once per suborder; quantities up to what was confirmed per line. */
	pack(suborderId: string, request: PackRequest): void {
		const shipment = this.shipment(suborderId);
		if (!shipment) throw notFound(`Suborder ${suborderId} not found`);
		if (!PACKABLE_STATUSES.has(shipment.status)) throw badRequest(`Suborder ${suborderId} cannot be packed in status ${shipment.status}`);
		if (!Number.isInteger(request.numberOfBoxes) || request.numberOfBoxes < 1) throw badRequest('numberOfBoxes must be a whole number of at least 1');
		const packed = new Map<number, number>();
		for (const { id, quantity } of request.products) {
			const entry = shipment.lines.find((candidate) => candidate.merchantInventoryId === id);
			if (!entry) throw badRequest(`Suborder ${suborderId} has no item ${id}`);
			if (!Number.isInteger(quantity) || quantity < 0) throw badRequest(`Quantity of item ${id} must be a whole number >= 0`);
			const total = (packed.get(id) ?? 0) + quantity;
			if (total > (entry.confirmedQuantity ?? 0)) {
				throw badRequest(`Packed quantity ${total} of item ${id} exceeds the confirmed quantity ${entry.confirmedQuantity ?? 0}`);
			}
			packed.set(id, total);
		}
		const sum = [...packed.values()].reduce((a, b) => a + b, 0);
		if (sum === 0) throw badRequest('Nothing to pack: every quantity is 0');
		for (const entry of shipment.lines) entry.packedQuantity = packed.get(entry.merchantInventoryId) ?? 0;
		const complete = shipment.lines.every((entry) => entry.packedQuantity === entry.confirmedQuantity);
		const nowMs = this.now();
		shipment.numberOfBoxes = request.numberOfBoxes;
		shipment.packedDate = new Date(nowMs).toISOString();
		const carrier = CARRIERS[shipment.warehouseId % CARRIERS.length];
		shipment.carrierName = carrier.name;
		shipment.carrierCode = carrier.code;
		this.setStatus(shipment, complete ? 'PACKED' : 'PARTIALLY_PACKED', nowMs);
		this.settleOne(shipment);
	}

	/**
	 * The control: moves a suborder to `to`, or one step along the usual path (CREATED: confirm
	 * everything as ordered, each line from the warehouse it was ordered from (default: the default warehouse); confirmed: pack everything in one box; packed: carrier
	 * allocated; then COLLECTED, ON_DELIVERY, DELIVERED).
	 */
	advance(suborderId: string, to?: string): ShipmentRecord {
		const shipment = this.shipment(suborderId);
		if (!shipment) throw notFound(`Suborder ${suborderId} not found`);
		const nowMs = this.now();
		if (to !== undefined) {
			if (!isShipmentStatus(to)) throw badRequest(`Unknown status ${to}`);
			this.setStatus(shipment, to, nowMs);
			return shipment;
		}
		if (shipment.status === 'CREATED') {
			const order = this.byId.get(shipment.orderId) as OrderRecord;
			const warehouseAddressId = this.defaultWarehouse().id;
			this.applyConfirmation(order, order.lines.map((entry) => [{ warehouseAddressId: entry.orderedFrom ?? warehouseAddressId, quantity: entry.quantity }]));
			return this.shipmentsOf(order.id)[0];
		}
		if (PACKABLE_STATUSES.has(shipment.status)) {
			const products = shipment.lines.map((entry) => ({ id: entry.merchantInventoryId, quantity: entry.confirmedQuantity ?? 0 }));
			this.pack(suborderId, { numberOfBoxes: 1, products });
			return shipment;
		}
		const next = shipment.status === 'PACKED' || shipment.status === 'PARTIALLY_PACKED' ? 'READY_FOR_COLLECTION' : CARRIER_STEPS[shipment.status];
		if (!next) throw new HttpError(409, `Suborder ${suborderId} is ${shipment.status}: no next step (name one with "to")`);
		this.setStatus(shipment, next, nowMs);
		return shipment;
	}

	/** Packed suborders become READY_FOR_COLLECTION once the carrier allocation time has passed. */
	settle(): void {
		for (const shipment of this.bySuborder.values()) this.settleOne(shipment);
	}

	private settleOne(shipment: ShipmentRecord): void {
		if ((shipment.status === 'PACKED' || shipment.status === 'PARTIALLY_PACKED') && shipment.packedDate !== null) {
			const readyMs = Date.parse(shipment.packedDate) + this.allocationMs();
			if (readyMs <= this.now()) this.setStatus(shipment, 'READY_FOR_COLLECTION', readyMs);
		}
	}

	private applyConfirmation(order: OrderRecord, confirmations: LineConfirmation[]): void {
		const nowMs = this.now();
		const confirmedDate = new Date(nowMs).toISOString();
		order.confirmations = confirmations;
		order.confirmedDate = confirmedDate;
		const [created] = this.shipmentsByOrder.get(order.id) ?? [];
		const all = order.lines.every((entry, index) => sumOf(confirmations[index]) === entry.quantity);
		const warehouseIds = [...new Set(confirmations.flatMap((parts) => parts.filter((part) => part.quantity > 0).map((part) => part.warehouseAddressId)))];
		if (warehouseIds.length === 0) {
			// Nothing confirmed: the merchant refused the order.
			for (const entry of created.lines) entry.confirmedQuantity = 0;
			this.setStatus(created, 'CANCELLED_BY_MERCHANT', nowMs);
			return;
		}
		// The default warehouse's suborder keeps number 1, as the CREATED one was there.
		warehouseIds.sort((a, b) => Number(b === created.warehouseId) - Number(a === created.warehouseId) || a - b);
		const shipments = warehouseIds.map((warehouseId, index) => {
			const lines = order.lines
				.map((entry, line) => ({ entry, quantity: sumOf(confirmations[line].filter((part) => part.warehouseAddressId === warehouseId)) }))
				.filter(({ quantity }) => quantity > 0)
				.map(({ entry, quantity }) => ({ ...shipmentLine(entry), confirmedQuantity: quantity }));
			const shipment = index === 0 ? created : this.newShipment(order, index + 1, warehouseId, lines);
			if (index === 0) {
				shipment.warehouseId = warehouseId;
				shipment.lines = lines;
			}
			shipment.confirmedDate = confirmedDate;
			this.setStatus(shipment, all ? 'CONFIRMED' : 'PARTIALLY_CONFIRMED', nowMs);
			return shipment;
		});
		this.store(order, shipments);
	}

	private newShipment(order: OrderRecord, number: number, warehouseId: number, lines: ShipmentLine[], type: SuborderType = 'DS'): ShipmentRecord {
		return {
			orderId: order.id,
			suborderId: `${order.id}-${type}-${number}`,
			status: 'CREATED',
			warehouseId,
			carrierName: null,
			carrierCode: null,
			createdDate: order.createdDate,
			confirmedDate: null,
			packedDate: null,
			numberOfBoxes: null,
			lines,
			history: [{ status: 'CREATED', at: new Date(this.now()).toISOString() }],
		};
	}

	private store(order: OrderRecord, shipments: ShipmentRecord[]): void {
		this.shipmentsByOrder.set(order.id, shipments);
		for (const shipment of shipments) this.bySuborder.set(shipment.suborderId, shipment);
	}

	private setStatus(shipment: ShipmentRecord, status: ShipmentStatus, atMs: number): void {
		if (shipment.status === status) return;
		shipment.status = status;
		shipment.history.push({ status, at: new Date(atMs).toISOString() });
	}

	private defaultWarehouse(): WarehouseRecord {
		return this.warehouses.find((warehouse) => warehouse.defaultAddress) ?? this.warehouses[0];
	}

	/** The sandbox now, or the time a seeded order's step happened while seeding. */
	private now(): number {
		return this.seedingAtMs ?? this.nowMs();
	}
}

function sumOf(parts: LineConfirmation): number {
	return parts.reduce((sum, part) => sum + part.quantity, 0);
}

function shipmentLine(entry: OrderRecord['lines'][number]): ShipmentLine {
	return {
		merchantInventoryId: entry.merchantInventoryId,
		orderedQuantity: entry.quantity,
		confirmedQuantity: null,
		packedQuantity: null,
		unitPrice: entry.basePrice,
	};
}

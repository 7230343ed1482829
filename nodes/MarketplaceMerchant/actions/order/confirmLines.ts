/**
 * What Order › Confirm sends, worked out before anything is sent: each input item read (its order,
 * how it confirms, its line and warehouse), the items of one order put together, and checked against
 * that order as the service has it (one read of the order, one of its shipments): every line named
 * once per warehouse, no line above what was ordered, every line of the order confirmed (the service
 * takes an order as a whole). As Ordered (the Warehouse list's default) confirms each line from the
 * warehouse it was ordered from (the item's `suborderWarehouseAddressId`).
 *
 * What an order item's `id` is, nobody outside the service has shown (orders-and-shipments.md, last
 * section): the pages' example makes it the merchant inventory id, an ERP client a line id. The
 * order's shipments name each line's `merchantInventoryId` with its EAN and SKU, so a line's product
 * is the shipment line with its EAN (or SKU), else the one whose id is the item's `id`
 * (`inventoryIdsOf`); the confirm body takes the merchant inventory id.
 */
import type { IDataObject, INode } from 'n8n-workflow';

import { nodeError } from '../../transport/errors';
import { invalidInput, isBlank, readChoice, readParameter } from '../../values/labels';
import { readId, readWholeNumber } from '../../values/numbers';
import { readText } from '../../values/values';
import { AS_ORDERED, readWarehouseId } from '../orderReads';
import type { ItemContext } from '../bulk/entries';

export type ConfirmMode = 'allAsOrdered' | 'itemsAsLines';
export const CONFIRM_MODES: readonly ConfirmMode[] = ['allAsOrdered', 'itemsAsLines'];

/** The panel's labels, as errors name the fields (confirm.operation.ts checks them against its fields). */
export const LABELS = {
	orderId: 'Order ID',
	confirmWhat: 'Confirm',
	merchantInventoryId: 'Merchant Inventory ID',
	quantity: 'Quantity',
	warehouseId: 'Warehouse Name or ID',
} as const;

const MODE_NAMES: Record<ConfirmMode, string> = { allAsOrdered: 'All Lines as Ordered', itemsAsLines: 'Each Item Is a Line' };

/** What one input item asks. */
export interface ConfirmAsk {
	ctx: ItemContext;
	orderId: string;
	mode: ConfirmMode;
	/** Undefined: the default address, looked up when the node runs; As Ordered: each line's own (`asOrdered`). */
	warehouseId?: number;
	/** Each line from the warehouse it was ordered from (its `suborderWarehouseAddressId`). */
	asOrdered: boolean;
	/** Each Item Is a Line: the line and how many of it. */
	line?: { merchantInventoryId: number; quantity: number };
}

/** One element of the confirm body: a line, split over warehouses. */
export interface ConfirmedLine {
	merchantInventoryId: number;
	confirmedQuantities: Array<{ warehouseAddressId: number; quantity: number }>;
}

/** One order's request and what each of its items outputs once it is applied. */
export interface OrderPlan {
	orderId: string;
	asks: ConfirmAsk[];
	body: ConfirmedLine[];
	outputs: IDataObject[];
	/** The merchant inventory id of each order line, in the order's line order (for reading the order back). */
	inventoryIds: number[];
}

/** One input item's values; a value that cannot be sent throws its `InputError`. */
export function readAsk(ctx: ItemContext): ConfirmAsk {
	const orderId = readParameter(ctx, 'orderId', LABELS.orderId, readText);
	const choices = CONFIRM_MODES.map((choice) => `${choice} (${MODE_NAMES[choice]})`).join(' or ');
	const mode = readChoice(ctx, LABELS.confirmWhat, ctx.getNodeParameter('confirmWhat', 'allAsOrdered'), CONFIRM_MODES, `Use ${choices}`);
	const rawWarehouse = ctx.getNodeParameter('warehouseId', AS_ORDERED);
	// As Ordered: each line's own warehouse; empty: the default address, looked up when the node runs.
	const asOrdered = typeof rawWarehouse === 'string' && rawWarehouse.trim() === AS_ORDERED;
	const warehouseId = asOrdered ? undefined : readWarehouseId(ctx, LABELS.warehouseId, rawWarehouse);
	if (mode === 'allAsOrdered') return { ctx, orderId, mode, warehouseId, asOrdered };
	const merchantInventoryId = readParameter(ctx, 'merchantInventoryId', LABELS.merchantInventoryId, readId);
	const quantity = readParameter(ctx, 'quantity', LABELS.quantity, (reader, field, value) => readWholeNumber(reader, field, value, 0));
	return { ctx, orderId, mode, warehouseId, asOrdered, line: { merchantInventoryId, quantity } };
}

/** The asks of one run by order, in the order each order first appears. */
export function byOrder(asks: ConfirmAsk[]): ConfirmAsk[][] {
	const orders = new Map<string, ConfirmAsk[]>();
	for (const ask of asks) orders.set(ask.orderId, [...(orders.get(ask.orderId) ?? []), ask]);
	return [...orders.values()];
}

/** An order line as the service lists it. */
interface OrderLine {
	merchantInventoryId: number;
	name: IDataObject[string];
	ordered: number;
	confirmed: number | null;
	/** The warehouse the line was ordered from (`suborderWarehouseAddressId`), when the order names one. */
	warehouseId: number | undefined;
}

const itemsOf = (record: IDataObject): IDataObject[] => (Array.isArray(record.items) ? (record.items as IDataObject[]).filter((item) => item !== null && typeof item === 'object') : []);

/**
 * The merchant inventory id of each item of `order`, in its order, from what its `shipments` show
 * (see the file's comment): the item's own `merchantInventoryId` when it has one; else the shipment
 * line with the item's EAN, or SKU (one product); else the shipment line whose id is the item's `id`;
 * without shipment lines the item's `id` (the pages' example). An item none of them names is an error.
 */
export function inventoryIdsOf(node: INode, order: IDataObject, shipments: IDataObject[]): number[] {
	const shipped = shipments.flatMap(itemsOf).filter((line) => !isBlank(line.merchantInventoryId));
	const only = (key: string, value: unknown): number | undefined => {
		if (isBlank(value)) return undefined;
		const ids = new Set(shipped.filter((line) => String(line[key]) === String(value)).map((line) => Number(line.merchantInventoryId)));
		return ids.size === 1 ? [...ids][0] : undefined;
	};
	return itemsOf(order).map((item) => {
		if (!isBlank(item.merchantInventoryId)) return Number(item.merchantInventoryId);
		if (shipped.length === 0) return Number(item.id);
		const found = only('productEan', item.productEan) ?? only('productSku', item.productSku) ?? only('merchantInventoryId', item.id);
		if (found !== undefined) return found;
		throw nodeError(node, `Order ${String(order.id)}: the product of its line ${String(item.id)}${isBlank(item.productName) ? '' : ` (${String(item.productName)})`} is not among its shipments' lines`, {
			description:
				"The confirmation names each line by its merchant inventory ID, which the order's shipments give: none of them has this line's EAN, SKU or ID, so nothing was sent. Shipment › Get Many (by order) shows them.",
		});
	});
}

/** The lines of `order`, each with its product's merchant inventory id (`inventoryIds`, from `inventoryIdsOf`). */
export function linesOf(order: IDataObject, inventoryIds: number[]): OrderLine[] {
	return itemsOf(order).map((item, index) => {
		const warehouse = Number(item.suborderWarehouseAddressId);
		return {
			merchantInventoryId: inventoryIds[index] ?? Number(item.id),
			name: item.productName ?? null,
			ordered: Number(item.quantity),
			confirmed: typeof item.confirmedQuantity === 'number' ? item.confirmedQuantity : null,
			warehouseId: Number.isInteger(warehouse) && warehouse > 0 ? warehouse : undefined,
		};
	});
}

/** Whether an ask of `order` needs the default address: it names none, or it takes each line's own and a line names none. */
export function needsDefaultWarehouse(asks: ConfirmAsk[], order: IDataObject): boolean {
	const lines = linesOf(order, []);
	return asks.some((ask) => (ask.asOrdered ? lines.some((line) => line.warehouseId === undefined) : ask.warehouseId === undefined));
}

/** `100001 (Shoe)`: a line as messages name it. */
function lineName(line: OrderLine): string {
	return `${line.merchantInventoryId}${isBlank(line.name) ? '' : ` (${String(line.name)})`}`;
}

/** `100001 (Shoe) × 2`: a line and a count (what was ordered, unless told). */
function lineText(line: OrderLine, count: number | null = line.ordered): string {
	return `${lineName(line)} × ${count ?? 'none'}`;
}

const LISTED_LINES = 10;

export function linesText(lines: OrderLine[], count: (line: OrderLine) => number | null = (line) => line.ordered): string {
	const named = lines.slice(0, LISTED_LINES).map((line) => lineText(line, count(line)));
	return `${named.join(', ')}${lines.length > LISTED_LINES ? ` and ${lines.length - LISTED_LINES} more` : ''}`;
}

/** The total each line of `body` confirms, by merchant inventory id. */
export function totalsOf(body: ConfirmedLine[]): Map<number, number> {
	return new Map(body.map((line) => [line.merchantInventoryId, line.confirmedQuantities.reduce((sum, part) => sum + part.quantity, 0)]));
}

/** Checks the asks of one order against the order and makes its request; the first problem throws, naming its item. */
export function planOrder(node: INode, order: IDataObject, inventoryIds: number[], asks: ConfirmAsk[], defaultWarehouse: number | undefined): OrderPlan {
	const [first] = asks;
	const { orderId } = first;
	const lines = linesOf(order, inventoryIds);
	const confirmed = lines.filter((line) => line.confirmed !== null);
	if (confirmed.length > 0) {
		throw nodeError(node, `Order ${orderId} is not waiting for confirmation: it is confirmed already`, {
			itemIndex: first.ctx.itemIndex,
			description: `The service shows confirmed: ${linesText(confirmed, (line) => line.confirmed)}. Nothing was sent. Order › Get shows the order, Shipment › Get Many (by order) its shipments.`,
		});
	}
	const other = asks.find((ask) => ask.mode !== first.mode);
	if (other) {
		throw invalidInput(
			other.ctx,
			LABELS.confirmWhat,
			`is ${MODE_NAMES[other.mode]} here but ${MODE_NAMES[first.mode]} on item ${first.ctx.itemIndex} of the same order ${orderId}`,
			'The items of one order are confirmed together, in one way',
		);
	}
	// The warehouse of an ask's line: its own (As Ordered; the default address when the order names none), the chosen one, or the default address.
	const warehouseOf = (ask: ConfirmAsk, line?: OrderLine) => (ask.asOrdered ? line?.warehouseId : ask.warehouseId) ?? (defaultWarehouse as number);
	const choiceOf = (ask: ConfirmAsk) => (ask.asOrdered ? AS_ORDERED : warehouseOf(ask));
	if (first.mode === 'allAsOrdered') {
		const elsewhere = asks.find((ask) => choiceOf(ask) !== choiceOf(first));
		if (elsewhere) {
			throw invalidInput(
				elsewhere.ctx,
				LABELS.warehouseId,
				`differs from item ${first.ctx.itemIndex}'s for the same order ${orderId}: all lines as ordered are confirmed one way`,
				'To split an order over warehouses your own way, set Confirm to Each Item Is a Line, one item per line and warehouse',
			);
		}
		const body = lines.map((line) => ({ merchantInventoryId: line.merchantInventoryId, confirmedQuantities: [{ warehouseAddressId: warehouseOf(first, line), quantity: line.ordered }] }));
		const warehouseIds = [...new Set(body.map((line) => line.confirmedQuantities[0].warehouseAddressId))];
		const json = {
			orderId,
			confirmed: true,
			...(warehouseIds.length === 1 ? { warehouseId: warehouseIds[0] } : {}),
			warehouseIds,
			lines: lines.map((line, index) => ({
				merchantInventoryId: line.merchantInventoryId,
				name: line.name,
				quantity: line.ordered,
				warehouseId: body[index].confirmedQuantities[0].warehouseAddressId,
				...(first.asOrdered ? { warehouseAsOrdered: line.warehouseId !== undefined } : {}),
			})),
		};
		return { orderId, asks, body, inventoryIds, outputs: asks.map(() => ({ ...json, warehouseIds: [...warehouseIds], lines: json.lines.map((line) => ({ ...line })) })) };
	}
	return { ...planLines(node, orderId, lines, asks, warehouseOf), inventoryIds };
}

/** Each Item Is a Line: every item one line from one warehouse; together every line of the order. */
function planLines(node: INode, orderId: string, lines: OrderLine[], asks: ConfirmAsk[], warehouseOf: (ask: ConfirmAsk, line: OrderLine) => number): Omit<OrderPlan, 'inventoryIds'> {
	const body = new Map<number, ConfirmedLine>();
	const askedFrom = new Map<string, ConfirmAsk>();
	const outputs: IDataObject[] = [];
	for (const ask of asks) {
		const { merchantInventoryId, quantity } = ask.line as NonNullable<ConfirmAsk['line']>;
		const line = lines.find((candidate) => candidate.merchantInventoryId === merchantInventoryId);
		if (!line) {
			throw invalidInput(ask.ctx, LABELS.merchantInventoryId, `${merchantInventoryId} is not a line of order ${orderId}`, `The order's lines: ${linesText(lines)}`);
		}
		const warehouseAddressId = warehouseOf(ask, line);
		const key = `${merchantInventoryId}|${warehouseAddressId}`;
		const twice = askedFrom.get(key);
		if (twice) {
			throw invalidInput(
				ask.ctx,
				LABELS.merchantInventoryId,
				`line ${merchantInventoryId} from warehouse ${warehouseAddressId} is confirmed by item ${twice.ctx.itemIndex} already`,
				'Give a line one item per warehouse it leaves from',
			);
		}
		askedFrom.set(key, ask);
		const entry = body.get(merchantInventoryId) ?? { merchantInventoryId, confirmedQuantities: [] };
		entry.confirmedQuantities.push({ warehouseAddressId, quantity });
		body.set(merchantInventoryId, entry);
		const total = entry.confirmedQuantities.reduce((sum, part) => sum + part.quantity, 0);
		if (total > line.ordered) {
			const together = entry.confirmedQuantities.length > 1 ? ` (${total} with the line's other items)` : '';
			throw invalidInput(ask.ctx, LABELS.quantity, `${quantity}${together} is more than the ${line.ordered} ordered of line ${lineName(line)}`);
		}
		outputs.push({ orderId, confirmed: true, merchantInventoryId, name: line.name, orderedQuantity: line.ordered, quantity, warehouseId: warehouseAddressId });
	}
	const missing = lines.filter((line) => !body.has(line.merchantInventoryId));
	if (missing.length > 0) {
		throw nodeError(node, `Order ${orderId}: no input item confirms ${missing.length === 1 ? 'line' : 'lines'} ${linesText(missing)}`, {
			itemIndex: asks[0].ctx.itemIndex,
			description:
				'The service confirms an order as a whole: give every line an item (Quantity 0 refuses the line), or set Confirm to All Lines as Ordered. Nothing was sent for this order.',
		});
	}
	// The body in the order's own line order.
	return { orderId, asks, body: lines.map((line) => body.get(line.merchantInventoryId) as ConfirmedLine), outputs };
}

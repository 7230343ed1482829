/**
 * What Order › Confirm sends, worked out before anything is sent: each input item read (its order,
 * how it confirms, its line and warehouse), the items of one order put together, and checked against
 * that order as the service has it (one read): every line named once per warehouse, no line above
 * what was ordered, every line of the order confirmed (the service takes an order as a whole).
 */
import type { IDataObject, INode } from 'n8n-workflow';

import { nodeError } from '../../transport/errors';
import { MISSING, describeValue, invalidInput, isBlank, readParameter } from '../../values/labels';
import { readId, readWholeNumber } from '../../values/numbers';
import { readText } from '../../values/values';
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
	/** Undefined: the default address, looked up when the node runs. */
	warehouseId?: number;
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
}

/** One input item's values; a value that cannot be sent throws its `InputError`. */
export function readAsk(ctx: ItemContext): ConfirmAsk {
	const orderId = readParameter(ctx, 'orderId', LABELS.orderId, readText);
	const rawMode = ctx.getNodeParameter('confirmWhat', 'allAsOrdered');
	if (!CONFIRM_MODES.includes(rawMode as ConfirmMode)) {
		const choices = CONFIRM_MODES.map((mode) => `${mode} (${MODE_NAMES[mode]})`).join(' or ');
		throw invalidInput(ctx, LABELS.confirmWhat, isBlank(rawMode) ? MISSING : `${describeValue(rawMode)} is not ${choices}`, `Use ${choices}`);
	}
	const mode = rawMode as ConfirmMode;
	const rawWarehouse = ctx.getNodeParameter('warehouseId', '');
	// Empty: the default address (the list's first entry), looked up when the node runs.
	const warehouseId = isBlank(rawWarehouse) ? undefined : readWholeNumber(ctx, LABELS.warehouseId, rawWarehouse, 1);
	if (mode === 'allAsOrdered') return { ctx, orderId, mode, warehouseId };
	const merchantInventoryId = readParameter(ctx, 'merchantInventoryId', LABELS.merchantInventoryId, readId);
	const quantity = readParameter(ctx, 'quantity', LABELS.quantity, (reader, field, value) => readWholeNumber(reader, field, value, 0));
	return { ctx, orderId, mode, warehouseId, line: { merchantInventoryId, quantity } };
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
}

export function linesOf(order: IDataObject): OrderLine[] {
	const items = Array.isArray(order.items) ? (order.items as IDataObject[]) : [];
	return items.map((item) => ({
		merchantInventoryId: Number(item.id),
		name: item.productName ?? null,
		ordered: Number(item.quantity),
		confirmed: typeof item.confirmedQuantity === 'number' ? item.confirmedQuantity : null,
	}));
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
export function planOrder(node: INode, order: IDataObject, asks: ConfirmAsk[], defaultWarehouse: number | undefined): OrderPlan {
	const [first] = asks;
	const { orderId } = first;
	const lines = linesOf(order);
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
	const warehouseOf = (ask: ConfirmAsk) => ask.warehouseId ?? (defaultWarehouse as number);
	if (first.mode === 'allAsOrdered') {
		const elsewhere = asks.find((ask) => warehouseOf(ask) !== warehouseOf(first));
		if (elsewhere) {
			throw invalidInput(
				elsewhere.ctx,
				LABELS.warehouseId,
				`differs from item ${first.ctx.itemIndex}'s for the same order ${orderId}: all lines as ordered go out from one warehouse`,
				'To split an order over warehouses, set Confirm to Each Item Is a Line, one item per line and warehouse',
			);
		}
		const warehouseAddressId = warehouseOf(first);
		const body = lines.map((line) => ({ merchantInventoryId: line.merchantInventoryId, confirmedQuantities: [{ warehouseAddressId, quantity: line.ordered }] }));
		const json = {
			orderId,
			confirmed: true,
			warehouseId: warehouseAddressId,
			lines: lines.map((line) => ({ merchantInventoryId: line.merchantInventoryId, name: line.name, quantity: line.ordered })),
		};
		return { orderId, asks, body, outputs: asks.map(() => ({ ...json, lines: json.lines.map((line) => ({ ...line })) })) };
	}
	return planLines(node, orderId, lines, asks, warehouseOf);
}

/** Each Item Is a Line: every item one line from one warehouse; together every line of the order. */
function planLines(node: INode, orderId: string, lines: OrderLine[], asks: ConfirmAsk[], warehouseOf: (ask: ConfirmAsk) => number): OrderPlan {
	const body = new Map<number, ConfirmedLine>();
	const askedFrom = new Map<string, ConfirmAsk>();
	const outputs: IDataObject[] = [];
	for (const ask of asks) {
		const { merchantInventoryId, quantity } = ask.line as NonNullable<ConfirmAsk['line']>;
		const line = lines.find((candidate) => candidate.merchantInventoryId === merchantInventoryId);
		if (!line) {
			throw invalidInput(ask.ctx, LABELS.merchantInventoryId, `${merchantInventoryId} is not a line of order ${orderId}`, `The order's lines: ${linesText(lines)}`);
		}
		const warehouseAddressId = warehouseOf(ask);
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

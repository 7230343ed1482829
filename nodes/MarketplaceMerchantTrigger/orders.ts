/**
 * "New Order to Confirm": each order the service lists For Confirmation fires once. The orders
 * endpoint filters on the creation instant, so the state is an invoice cursor (cursor.ts, the
 * same rules): each poll asks for the orders For Confirmation created in [cursor − look-back,
 * now], emits those it has not emitted, and only then moves the cursor. An idle poll is one
 * request (one page of up to 100 orders created within the window).
 */
import type { IDataObject, INodeExecutionData, INodeProperties, IPollFunctions } from 'n8n-workflow';

import { listOrders } from '../MarketplaceMerchant/shared/orders/orders';
import { simplifyOrder } from '../MarketplaceMerchant/shared/orders/outputs';
import { nodeError } from '../MarketplaceMerchant/transport/errors';
import { parseServiceTimestamp } from '../MarketplaceMerchant/values/dates';
import { readSimplify } from '../MarketplaceMerchant/values/values';
import { EventCursor, cursorOptions, readCursorOptions, type EventState } from './cursor';
import { pollReader, type PollResult } from './poll';

export const NEW_ORDER_TO_CONFIRM = 'newOrderToConfirm';

/** Orders a poll reads at most: every page of the window (For Confirmation only, so bounded by what waits). */
const ALL = Infinity;

const SHOWN = { show: { event: [NEW_ORDER_TO_CONFIRM] } };

/** The event's own fields: the same Options as the document events (cursor.ts), worded for orders. */
export const orderTriggerFields: INodeProperties[] = [
	cursorOptions(
		{
			lookBack:
				'How far before the last poll each poll looks again, for orders the service lists later than their creation time. Orders already emitted are not emitted again.',
			startFrom:
				'Emit the orders created since this date that still wait for confirmation on the first poll (a date from the picker or an expression, ISO 8601 or dd/MM/yyyy; without a zone it is in the workflow\'s time zone), then the new ones. Empty: start with the orders that arrive after activation.',
		},
		SHOWN,
	),
];

function readSettings(ctx: IPollFunctions) {
	return { ...readCursorOptions(ctx), simplify: readSimplify(ctx) };
}

/**
 * The cursor's state as stored: the ids grouped by their creation second ({"1772442000": ["HPGUJ-1SQQI", …]}).
 * The state holds every order created within the look-back window, so its size matters in a burst (a
 * sale): there about 14 bytes an order instead of the cursor's 25; orders seconds apart cost about 29,
 * on a state that is small anyway (an hour of a day's 200 orders: under 300 bytes).
 */
interface StoredOrderState {
	origin: string;
	cursor?: string;
	seenAt: Record<string, string[]>;
}

function compactState({ origin, cursor, seen }: EventState): StoredOrderState {
	const seenAt: Record<string, string[]> = {};
	for (const [id, seconds] of Object.entries(seen)) (seenAt[String(seconds)] ??= []).push(id);
	return { origin, ...(cursor ? { cursor } : {}), seenAt };
}

/** The cursor's form of a stored state; anything else is passed on for the cursor to refuse (a new start). */
function expandState(stored: unknown): unknown {
	const state = (stored ?? {}) as Partial<StoredOrderState>;
	if (!state.seenAt || typeof state.seenAt !== 'object') return stored;
	const seen: Record<string, number> = {};
	for (const [seconds, ids] of Object.entries(state.seenAt)) {
		if (!Array.isArray(ids) || !Number.isFinite(Number(seconds))) return undefined;
		for (const id of ids) seen[String(id)] = Number(seconds);
	}
	return { origin: state.origin, cursor: state.cursor, seen };
}

function toItem(order: IDataObject, simplify: boolean): INodeExecutionData {
	return { json: { event: NEW_ORDER_TO_CONFIRM, ...(simplify ? simplifyOrder(order) : order) } };
}

const idOf = (order: IDataObject) => (typeof order.id === 'string' || typeof order.id === 'number' ? String(order.id) : '');

/** A scheduled poll: the orders For Confirmation created since the cursor less the look-back window, oldest first. */
export async function pollNewOrders(ctx: IPollFunctions): Promise<PollResult> {
	const settings = readSettings(ctx);
	const staticData = ctx.getWorkflowStaticData('node');
	const now = new Date();
	const cursor = EventCursor.open(expandState(staticData[NEW_ORDER_TO_CONFIRM]), { lookBackMs: settings.lookBackMs, startFrom: settings.startFrom, now });
	const windows = cursor.pendingWindows();
	const items: INodeExecutionData[] = [];
	if (windows.length > 0) {
		// The orders endpoint takes any range (the 3-month windows are the invoices' rule): one range, paged.
		// Its end is now, not open: an order the service dates after n8n's now is read by the next poll,
		// which keeps it as long as its query can return it (an open end would keep it too briefly).
		const range = { from: windows[0].from, to: now };
		const orders = await listOrders(pollReader(ctx), ctx.getNode(), { group: 'forConfirmation', createdFrom: range.from, createdTo: range.to }, ALL);
		// The service lists newest first (of the same instant, the later first): the workflow gets them as they arrived.
		const dated = orders.reverse().map((order) => ({ order, createdAt: parseServiceTimestamp(order.createdDate) }));
		dated.sort((a, b) => (a.createdAt?.getTime() ?? range.to.getTime()) - (b.createdAt?.getTime() ?? range.to.getTime()));
		for (const { order, createdAt } of dated) {
			const id = idOf(order);
			if (id === '') {
				ctx.logger.warn(`New Order to Confirm: skipped an order without an id (${JSON.stringify(order.id)})`);
				continue;
			}
			// admit() also drops an order listed twice (pages shifting under a new order).
			if (cursor.admit(id, createdAt, range) && cursor.emits) items.push(toItem(order, settings.simplify));
		}
		cursor.completeUpTo(now);
	}
	// Only now, with every page read, does the stored state change: a failed poll changes nothing.
	staticData[NEW_ORDER_TO_CONFIRM] = compactState(cursor.toJSON()) as unknown as IDataObject;
	return items.length === 0 ? null : [items];
}

/**
 * "Fetch Test Event": the newest order waiting for confirmation, else the newest order of any
 * status (its shape is what the workflow will get); the stored state is neither read nor changed.
 */
export async function fetchTestOrder(ctx: IPollFunctions): Promise<INodeExecutionData[][]> {
	const simplify = readSimplify(ctx);
	const read = pollReader(ctx);
	const [waiting] = await listOrders(read, ctx.getNode(), { group: 'forConfirmation' }, 1);
	if (waiting) return [[toItem(waiting, simplify)]];
	const [newest] = await listOrders(read, ctx.getNode(), {}, 1);
	if (newest) return [[toItem(newest, simplify)]];
	throw nodeError(ctx.getNode(), 'The account has no orders yet', {
		description: 'Once the workflow is active, the trigger fires for each new order waiting for confirmation.',
	});
}

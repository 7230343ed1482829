/**
 * Order › Confirm: the quantities of each order line per warehouse, one PUT per order whatever the
 * number of its items in the run (the skeleton's `actAll`, actions/run.ts: an order is confirmed as
 * a whole). Every item is read and every order checked against the service's copy (one
 * read each) before anything is sent. A confirmation whose answer was lost is never sent again
 * blindly: the order is read back (`confirmOrder`).
 */
import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INode,
	type INodeProperties,
} from 'n8n-workflow';

import { decodeAnswer } from '../../answers/read';
import { ANSWERS } from '../../answers/schemas';
import { sendEachChunk } from '../../transport/batches';
import { PATHS, RATE_LIMITS } from '../../transport/endpoints';
import { asNodeError, joinSentences, nodeError, statusOf } from '../../transport/errors';
import type { Settled } from '../../transport/policy';
import { sendAuthenticated, sendSettingsOf, type Route, type SendSettings } from '../../transport/send';
import { endpointReader, type ReadEndpoint } from '../../shared/read';
import { readOrder, shipmentsOf } from '../../shared/orders/orders';
import { textField } from '../common';
import { itemFailure, steps } from '../run';
import { AS_ORDERED, CONFIRM_WAREHOUSES_METHOD, defaultWarehouseId } from '../orderReads';
import { isRefusal, outcomeUnknownText, refusalError, uncertainOutcome } from '../../transport/outcomes';
import type { OperationModule } from '../contract';
import { LABELS, byOrder, inventoryIdsOf, linesOf, linesText, needsDefaultWarehouse, planOrder, readAsk, totalsOf, type ConfirmAsk, type OrderPlan } from './confirmLines';

const RESOURCE = 'order';
const OPERATION = 'confirm';

/**
 * Not idempotent: the service refuses a second confirmation of an order (400, no longer For
 * Confirmation), so a blind resend of an applied one would fail an item that succeeded.
 */
const ORDER_WRITE: Route = { group: 'orders', idempotent: false };

async function sendConfirmation(exec: IExecuteFunctions, plan: OrderPlan, settings: SendSettings): Promise<void> {
	const request = { method: 'PUT' as const, url: PATHS.orderConfirm(plan.orderId), body: plan.body, json: true };
	decodeAnswer(exec, await sendAuthenticated(exec, ORDER_WRITE, request, settings), ANSWERS.written);
}

/**
 * Whether a failure that may have been applied was the service's own answer at the end of its work
 * (500, 503): what the order shows right after is what it did. After a proxy's 502/504, a timeout or
 * a cut connection the service may still be working on the request: what it shows proves nothing yet.
 */
function answeredByTheService(error: unknown): boolean {
	const status = statusOf(error);
	return status === 500 || status === 503;
}

type Seen = { kind: 'asSent' | 'none' | 'other' | 'missing'; text: string };

/** What the order read back shows: this run's confirmation, none (every line's confirmedQuantity null), another, or no order. */
async function seenAfter(read: ReadEndpoint, node: INode, plan: OrderPlan): Promise<Seen> {
	const order = await readOrder(read, node, plan.orderId);
	if (!order) return { kind: 'missing', text: 'no such order' };
	const lines = linesOf(order, plan.inventoryIds);
	const text = linesText(lines, (line) => line.confirmed);
	if (lines.every((line) => line.confirmed === null)) return { kind: 'none', text };
	const totals = totalsOf(plan.body);
	const asSent = lines.length === totals.size && lines.every((line) => line.confirmed === totals.get(line.merchantInventoryId));
	return { kind: asSent ? 'asSent' : 'other', text };
}

/** What the service shows of an order after a refusal: its shipments' statuses, read back, or why they are not known. */
async function statusesAfter(read: ReadEndpoint, node: INode, orderId: string): Promise<string> {
	try {
		const shipments = await shipmentsOf(read, node, orderId);
		if (shipments.length === 0) return 'it shows no shipment when read back';
		return `its shipments: ${shipments.map((shipment) => `${String(shipment.suborderId)} is ${String(shipment.status ?? 'without a status')}`).join(', ')}`;
	} catch (error) {
		return `its status is unknown (its shipments could not be read back: ${asNodeError(node, error).message})`;
	}
}

/**
 * One order's PUT; after a failure that may have been applied, the order is read back once:
 * - it shows this confirmation: applied (the item says its answer was lost);
 * - it shows another: an error saying what it shows, nothing sent again;
 * - it shows none, after the service's own 500 or 503 (its work over): not applied, sent once
 *   more. Safe even were it applied meanwhile: the service confirms an order only while it waits
 *   for confirmation, so a second confirmation is refused, never applied twice;
 * - it shows none after a timeout, a cut connection or a proxy's 502/504: the first may still be
 *   under way, so nothing is proved and nothing is sent: the outcome is unknown.
 * Returns the note the items carry when the answer was lost.
 */
async function confirmOrder(exec: IExecuteFunctions, read: ReadEndpoint, plan: OrderPlan, settings: SendSettings): Promise<string | undefined> {
	const node = exec.getNode();
	const itemIndex = plan.asks[0].ctx.itemIndex;
	const what = `the confirmation of order ${plan.orderId}`;
	const check = `Check order ${plan.orderId} (Order › Get: its lines' confirmedQuantity, or the merchant portal) before running the node again; run again, it refuses an order that is confirmed already.`;
	const readBack = async (failure: string): Promise<Seen> => {
		try {
			return await seenAfter(read, node, plan);
		} catch (readError) {
			const words = outcomeUnknownText(what, failure, `The order could not be read back either (${asNodeError(node, readError).message}).`, check);
			throw nodeError(node, words.message, { itemIndex, description: words.description });
		}
	};
	try {
		await sendConfirmation(exec, plan, settings);
		return undefined;
	} catch (error) {
		const failure = uncertainOutcome(error);
		if (failure === undefined) {
			if (!isRefusal(error)) throw asNodeError(node, error);
			throw refusalError(node, error, {
				subject: `Order ${plan.orderId}`,
				notDone: 'confirmed',
				status: await statusesAfter(read, node, plan.orderId),
				next: 'Order › Get and Shipment › Get Many (by order) show it.',
			});
		}
		const seen = await readBack(failure);
		if (seen.kind === 'asSent') return `${failure}, but the order read back shows this confirmation: it was applied (not sent again)`;
		if (seen.kind === 'other') {
			throw nodeError(node, `Order ${plan.orderId} shows a confirmation other than this one after ${failure}`, {
				itemIndex,
				description: `The order now shows confirmed: ${seen.text}. Nothing was sent again. ${check}`,
			});
		}
		if (seen.kind === 'missing' || !answeredByTheService(error)) {
			const shown =
				seen.kind === 'missing'
					? 'The order was not found when read back.'
					: 'The order read back shows no confirmation yet, which proves nothing while the request may still be under way.';
			const words = outcomeUnknownText(what, failure, shown, check);
			throw nodeError(node, words.message, { itemIndex, description: words.description });
		}
		try {
			await sendConfirmation(exec, plan, settings);
			return `${failure} and the order read back showed no confirmation, so it was sent once more and accepted`;
		} catch (again) {
			const second = await readBack(uncertainOutcome(again) ?? failure);
			if (second.kind === 'asSent') return `${failure}, sent once more; the order read back shows this confirmation: it was applied`;
			const failed = asNodeError(node, again);
			failed.description = joinSentences(failed.description, `Sent twice: the first answer was ${failure} and the order read back showed no confirmation. It now shows: ${second.text}.`);
			throw failed;
		}
	}
}

/**
 * The suborders of an order just confirmed (`suborderIds`; `suborderId` when there is one), read from
 * its shipments. The confirmation stands whatever this read gives: a failed read is a note, not an error.
 */
async function subordersOf(read: ReadEndpoint, node: INode, orderId: string): Promise<IDataObject> {
	try {
		const ids = (await shipmentsOf(read, node, orderId)).map((shipment) => String(shipment.suborderId));
		return { suborderIds: ids, ...(ids.length === 1 ? { suborderId: ids[0] } : {}) };
	} catch (error) {
		return { suborderIds: null, suborderNote: `The order was confirmed, but its suborder IDs could not be read: ${asNodeError(node, error).message}. Shipment › Pack takes the Order ID too.` };
	}
}

/** Up to the orders group's in-flight allowance at once, each outcome kept, in order. */
async function eachOrder<T, R>(list: T[], keyOf: (entry: T) => string, run: (entry: T) => Promise<R>): Promise<Array<Settled<R>>> {
	return await sendEachChunk(list.map((entry) => [entry]), RATE_LIMITS.orders.inFlight, async ([entry]) => await run(entry), keyOf);
}

/** Each order of the run read and checked before anything is sent, by order ID: its plan, or the failure that fails each of its items. */
type ConfirmPlan = Map<string, Settled<OrderPlan>>;

/** An item's ask, and once planned its order's plan. */
interface ConfirmEntry {
	ask: ConfirmAsk;
	plan?: OrderPlan;
}

/**
 * The steps (actions/run.ts): 1. every item read (`readAsk`); 2. the plan: every order read and
 * checked (one read each), the default warehouse looked up once if an item leaves it empty; an
 * order that fails fails its items, and with On Error = Stop the run before anything is sent;
 * 3. one PUT per order, all sent, then each item's output; with On Error = Stop, a failed order
 * fails the run once the others are sent, naming those that were confirmed.
 */
const confirmSteps = steps<ConfirmEntry, ConfirmPlan>({
	read: (ctx) => ({ ask: readAsk(ctx) }),

	async plan(exec, items) {
		const node = exec.getNode();
		const settings = sendSettingsOf(items[0].ctx);
		const read = endpointReader(exec, settings);
		// The default address read once, when an order needs it: on first use.
		let defaultWarehouse: Promise<number> | undefined;
		const defaultOnce = async () => await (defaultWarehouse ??= defaultWarehouseId(exec, settings));
		const orders = byOrder(items.map(({ entry }) => entry.ask));
		const planned = await eachOrder(orders, (order) => order[0].orderId, async (orderAsks) => {
			const { orderId, ctx } = orderAsks[0];
			const order = await readOrder(read, node, orderId);
			if (!order) {
				throw nodeError(node, `Order ${orderId} was not found`, {
					itemIndex: ctx.itemIndex,
					description: 'Check the Order ID: Order › Get Many and the trigger give it (e.g. HPGUJ-1SQQI).',
				});
			}
			const inventoryIds = inventoryIdsOf(node, order, await shipmentsOf(read, node, orderId));
			const fallback = needsDefaultWarehouse(orderAsks, order) ? await defaultOnce() : undefined;
			return planOrder(node, order, inventoryIds, orderAsks, fallback);
		});
		return new Map(orders.map((order, index) => [order[0].orderId, planned[index]]));
	},

	complete(_ctx, entry, plan) {
		const outcome = plan.get(entry.ask.orderId) as Settled<OrderPlan>;
		if (!outcome.ok) throw outcome.error;
		return { ...entry, plan: outcome.value };
	},

	async actAll(exec, items) {
		const node = exec.getNode();
		const plans = [...new Set(items.map(({ entry }) => entry.plan as OrderPlan))];
		const settings = sendSettingsOf(items[0].ctx);
		const read = endpointReader(exec, settings);
		const sent = await eachOrder(plans, (plan) => plan.orderId, async (plan) => await confirmOrder(exec, read, plan, settings));
		// What Shipment › Pack and Get Label need: the suborders the service made of each confirmed order.
		const found = await eachOrder(plans, (plan) => plan.orderId, async (plan) => (sent[plans.indexOf(plan)].ok ? await subordersOf(read, node, plan.orderId) : {}));
		const confirmed = plans.filter((_, index) => sent[index].ok).map((plan) => plan.orderId);
		const failureOf = (error: unknown, plan: OrderPlan) => {
			const failure = itemFailure(node, error, plan.asks[0].ctx.itemIndex);
			// Under the default On Error the run fails with the first refused order: say which were confirmed all the same.
			if (!exec.continueOnFail() && confirmed.length > 0 && !failure.description?.includes('Confirmed in this run all the same')) {
				failure.description = joinSentences(failure.description, `Confirmed in this run all the same: ${confirmed.join(', ')}.`);
			}
			return failure;
		};
		return items.map(({ entry }) => {
			const plan = entry.plan as OrderPlan;
			const index = plans.indexOf(plan);
			const outcome = sent[index];
			if (!outcome.ok) return { ok: false, error: failureOf(outcome.error, plan) };
			const json = { ...plan.outputs[plan.asks.indexOf(entry.ask)], ...(found[index].ok ? found[index].value : {}) };
			return { ok: true, value: [{ json: outcome.value === undefined ? json : { ...json, note: outcome.value } }] };
		});
	},
});

const lineOnly = { show: { confirmWhat: ['itemsAsLines'] } };

const fields: INodeProperties[] = [
	textField(
		LABELS.orderId,
		'orderId',
		'The order to confirm, as Get Many and the New Order to Confirm trigger give it. Items with the same Order ID are confirmed together, in one request.',
		{ required: true, placeholder: 'e.g. HPGUJ-1SQQI' },
	),
	{
		displayName: LABELS.confirmWhat,
		name: 'confirmWhat',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'All Lines as Ordered', value: 'allAsOrdered', description: 'Every line of the order in full, from the warehouse below' },
			{
				name: 'Each Item Is a Line',
				value: 'itemsAsLines',
				description: "Each input item confirms one line of its order: the line's merchant inventory ID, the quantity and the warehouse",
			},
		],
		default: 'allAsOrdered',
		description: 'What to confirm. The quantities are checked against the order before anything is sent.',
	},
	textField(
		LABELS.merchantInventoryId,
		'merchantInventoryId',
		"The order line this item confirms: its product's ID (merchantInventoryId in Get Many's simplified lines)",
		{ required: true, placeholder: 'e.g. {{ $json.merchantInventoryId }}', displayOptions: lineOnly },
	),
	textField(
		LABELS.quantity,
		'quantity',
		'How many of the line leave from this warehouse: a whole number from 0 (the line is refused) to what was ordered. Every line of the order needs an item; a line split over warehouses has one item per warehouse.',
		{ required: true, placeholder: 'e.g. 2', displayOptions: lineOnly },
	),
	{
		displayName: LABELS.warehouseId,
		name: 'warehouseId',
		type: 'options',
		typeOptions: { loadOptionsMethod: CONFIRM_WAREHOUSES_METHOD },
		default: AS_ORDERED,
		description:
			'The warehouse the goods leave from: As Ordered is each line\'s own, the one it was ordered from; Default Address is the one marked so when the node runs. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
];

export const operation: OperationModule = {
	option: {
		name: 'Confirm',
		value: OPERATION,
		action: 'Confirm an order',
		description:
			'Confirm the quantities of an order per warehouse: all lines as ordered in one click, or one input item per line. One request per order; quantities checked against the order first. Outputs one item per input item.',
	},
	fields: updateDisplayOptions({ show: { resource: [RESOURCE], operation: [OPERATION] } }, fields),
	steps: confirmSteps,
};

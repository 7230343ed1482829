/**
 * "Shipment Status Changed". The shipments endpoint has no "changed since" filter and no history,
 * so the state keeps the last status seen of every shipment still moving: those For Packaging and
 * On Delivery, read whole each poll. A status that differs from the stored one fires once, with
 * both. A stored shipment missing from both lists has moved on (delivered, cancelled, returned: the
 * Completed group, which only grows and is not read): it is read alone by its suborder id, fires
 * with its new status and, once Completed, leaves the state. So the state holds the shipments in
 * progress, not every shipment ever seen.
 * Cost of a poll: one request per watched group and 100 shipments in it (an idle poll of an
 * account with up to 100 shipments in each: 2 requests; 3 where the service takes only the
 * status-groups endpoint's names: shared/orders/orders.ts), plus one per shipment that left them (and,
 * every poll, one per shipment in a status no group lists, e.g. NOT_READY, until it is back).
 * A shipment that went through several statuses between two polls fires once, from the status
 * the last poll saw to the one this poll sees: the service keeps no history to read.
 * New Status Names: only moves to one of them fire (a "label ready" workflow on
 * READY_FOR_COLLECTION); every move still updates the state, so each fires at most once.
 * Watch Returns: the Completed group's shipments purchased within the last Returns Window days are
 * read too (one more request per 100 of them each poll) and stay in the state while in the window,
 * so that moves within Completed (DELIVERED → RETURN_TO_SELLER → RETURNED_TO_SELLER) fire.
 */
import type { IDataObject, INodeExecutionData, INodeProperties, IPollFunctions } from 'n8n-workflow';

import { STATUSES_METHOD } from '../MarketplaceMerchant/shared/editorLists';
import { listShipments, readShipment } from '../MarketplaceMerchant/shared/orders/orders';
import { simplifyShipment } from '../MarketplaceMerchant/shared/orders/outputs';
import { nodeError } from '../MarketplaceMerchant/transport/errors';
import { DAY_MS } from '../MarketplaceMerchant/values/dates';
import type { ValueContext } from '../MarketplaceMerchant/values/labels';
import { readWholeNumber } from '../MarketplaceMerchant/values/numbers';
import { readFlag, readSimplify, readStatusNames } from '../MarketplaceMerchant/values/values';
import { pollReader, type PollResult } from './poll';

export const SHIPMENT_STATUS_CHANGED = 'shipmentStatusChanged';

const SHOWN = { show: { event: [SHIPMENT_STATUS_CHANGED] } };
const NEW_STATUSES = 'New Status Names or IDs';
const RETURNS_WINDOW = 'Returns Window (Days)';
const DEFAULT_RETURNS_WINDOW_DAYS = 30;

/** The event's own fields. */
export const shipmentTriggerFields: INodeProperties[] = [
	{
		displayName: NEW_STATUSES,
		name: 'newStatuses',
		type: 'multiOptions',
		typeOptions: { loadOptionsMethod: STATUSES_METHOD },
		default: [],
		description:
			'Fire only when a shipment moves to one of these statuses, e.g. READY_FOR_COLLECTION for a "print the label" workflow (each move once). Empty: every move fires. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		displayOptions: SHOWN,
	},
	{
		displayName: 'Watch Returns',
		name: 'watchReturns',
		type: 'boolean',
		default: false,
		description:
			'Whether to fire also for moves within Completed (a delivered parcel returned: DELIVERED → RETURN_TO_SELLER → RETURNED_TO_SELLER), where the service shows them. Costs one more request per poll for each 100 completed shipments purchased within the Returns Window.',
		displayOptions: SHOWN,
	},
	{
		displayName: RETURNS_WINDOW,
		name: 'returnsWindowDays',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 365 },
		default: DEFAULT_RETURNS_WINDOW_DAYS,
		description: 'How long after the purchase a completed shipment is still watched for returns',
		displayOptions: { show: { event: [SHIPMENT_STATUS_CHANGED], watchReturns: [true] } },
	},
];

interface ShipmentSettings {
	simplify: boolean;
	/** Undefined: every new status fires. */
	newStatuses?: Set<string>;
	/** The start of the returns window, when Watch Returns is on. */
	returnsSince?: Date;
}

function readNewStatuses(ctx: ValueContext, value: unknown): Set<string> | undefined {
	const names = readStatusNames(ctx, NEW_STATUSES, value);
	return names.length > 0 ? new Set(names) : undefined;
}

function readShipmentSettings(ctx: IPollFunctions): ShipmentSettings {
	const settings: ShipmentSettings = { simplify: readSimplify(ctx), newStatuses: readNewStatuses(ctx, ctx.getNodeParameter('newStatuses', [])) };
	if (readFlag(ctx, 'watchReturns', 'Watch Returns', false)) {
		const days = readWholeNumber(ctx, RETURNS_WINDOW, ctx.getNodeParameter('returnsWindowDays', DEFAULT_RETURNS_WINDOW_DAYS), 1);
		settings.returnsSince = new Date(Date.now() - days * DAY_MS);
	}
	return settings;
}

/** The groups read each poll: the shipments still moving. Completed shipments are met when they leave these. */
const WATCHED_GROUPS = ['forPackaging', 'onDelivery'] as const;
const ALL = Infinity;
const STATE_VERSION = 1;

/**
 * The subgroups of the Completed group (status-groups endpoint): a shipment there is done and
 * leaves the state. The statuses stand in where an answer has no subgroup.
 */
const COMPLETED_SUBGROUPS = new Set(['SSG_DELIVERED', 'SSG_CANCELLED', 'SSG_NOT_DELIVERED']);
const COMPLETED_STATUSES = new Set([
	...['DELIVERED', 'COMPLETED_PUDO', 'COMPLETED_LOCKER'],
	...['CANCELLED', 'CANCELLED_BY_JOB', 'CANCELLED_BY_CUSTOMER', 'CANCELLED_BY_MERCHANT', 'CANCELLED_BY_EMPLOYEE', 'TERMINATED', 'MISSING_ITEMS'],
	...['REJECTED_DELIVERY', 'CUSTOMER_ADDRESS_INVALID', 'RETURN_TO_SELLER', 'RETURN_TO_SELLER_CANCELLED', 'RETURN_TO_SELLER_UNVERIFIED'],
	...['RETURNED_TO_SELLER', 'DAMAGED', 'DAMAGED_CANCELLED', 'DAMAGED_UNVERIFIED', 'LOST', 'LOST_CANCELLED', 'LOST_UNVERIFIED'],
	...['ATTEMPTED_DELIVERY_PUDO', 'REJECTED_DELIVERY_PUDO', 'ADDRESS_INVALID_PUDO', 'DAMAGED_AT_PUDO', 'DAMAGED_AT_PUDO_CANCELLED'],
	...['DAMAGED_AT_PUDO_UNVERIFIED', 'LOST_AT_PUDO', 'LOST_AT_PUDO_CANCELLED', 'LOST_AT_PUDO_UNVERIFIED'],
]);

/**
 * Stored under `shipmentStatusChanged`, saved after every poll that fires: the suborder ids per
 * status, space-separated ({"CONFIRMED": "H7SRK-Z2IAO-DS-1 …"}), about 17 bytes a shipment.
 */
interface ShipmentState {
	v: number;
	byStatus: Record<string, string>;
}

function storedStatuses(value: unknown): Map<string, string> | undefined {
	const state = (value ?? {}) as Partial<ShipmentState>;
	if (state.v !== STATE_VERSION || !state.byStatus || typeof state.byStatus !== 'object') return undefined;
	const statuses = new Map<string, string>();
	for (const [status, ids] of Object.entries(state.byStatus)) {
		if (typeof ids !== 'string') return undefined;
		for (const id of ids.split(' ')) if (id !== '') statuses.set(id, status);
	}
	return statuses;
}

function encodeStatuses(statuses: Map<string, string>): ShipmentState {
	const byStatus: Record<string, string[]> = {};
	for (const [id, status] of statuses) (byStatus[status] ??= []).push(id);
	return { v: STATE_VERSION, byStatus: Object.fromEntries(Object.entries(byStatus).map(([status, ids]) => [status, ids.sort().join(' ')])) };
}

const text = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');

function isCompleted(shipment: IDataObject): boolean {
	const subgroup = text(shipment.statusSubgroup);
	return subgroup !== '' ? COMPLETED_SUBGROUPS.has(subgroup) : COMPLETED_STATUSES.has(text(shipment.status));
}

function toItem(shipment: IDataObject, previousStatus: string | null, simplify: boolean): INodeExecutionData {
	const json = simplify ? simplifyShipment(shipment) : shipment;
	return { json: { event: SHIPMENT_STATUS_CHANGED, previousStatus, ...json, status: text(shipment.status) } };
}

/**
 * The shipments of the watched groups now, by suborder id (one listed twice, pages shifting, counts
 * once); with `returnsSince`, also the completed ones purchased since then.
 */
async function shipmentsInProgress(ctx: IPollFunctions, returnsSince: Date | undefined): Promise<Map<string, IDataObject>> {
	const read = pollReader(ctx);
	const found = new Map<string, IDataObject>();
	const queries = [...WATCHED_GROUPS.map((group) => ({ group })), ...(returnsSince ? [{ group: 'completed' as const, createdFrom: returnsSince }] : [])];
	for (const query of queries) {
		for (const shipment of await listShipments(read, ctx.getNode(), query, ALL)) {
			const id = text(shipment.suborderId);
			if (id === '' || text(shipment.status) === '') {
				ctx.logger.warn(`Shipment Status Changed: skipped a shipment without a suborder id or status (${JSON.stringify(shipment.suborderId)})`);
				continue;
			}
			if (!found.has(id)) found.set(id, shipment);
		}
	}
	return found;
}

/**
 * A scheduled poll. The first (no stored state) remembers the statuses and fires nothing; after
 * it, a shipment seen for the first time (its order was confirmed since) fires with
 * `previousStatus` null.
 */
export async function pollShipmentChanges(ctx: IPollFunctions): Promise<PollResult> {
	const { simplify, newStatuses, returnsSince } = readShipmentSettings(ctx);
	const staticData = ctx.getWorkflowStaticData('node');
	const known = storedStatuses(staticData[SHIPMENT_STATUS_CHANGED]);
	const current = await shipmentsInProgress(ctx, returnsSince);
	const next = new Map<string, string>();
	const items: INodeExecutionData[] = [];
	// Every move is remembered; only the moves to a chosen status fire.
	const fire = (shipment: IDataObject, previous: string | null) => {
		if (newStatuses === undefined || newStatuses.has(text(shipment.status))) items.push(toItem(shipment, previous, simplify));
	};

	for (const [id, shipment] of current) {
		const status = text(shipment.status);
		// A completed shipment listed first with Watch Returns on was completed before: it is watched from now on, not fired.
		const newlyWatched = known !== undefined && !known.has(id) && returnsSince !== undefined && isCompleted(shipment);
		next.set(id, status);
		const previous = known?.get(id);
		if (known && previous !== status && !newlyWatched) fire(shipment, previous ?? null);
	}
	for (const [id, previous] of known ?? []) {
		if (current.has(id)) continue;
		// Watching returns, a completed shipment no longer listed has left the window: forgotten without a request.
		if (returnsSince !== undefined && isCompleted({ status: previous })) continue;
		const shipment = await readShipment(pollReader(ctx), ctx.getNode(), id);
		if (!shipment || text(shipment.status) === '') {
			ctx.logger.warn(`Shipment Status Changed: shipment ${id} (last seen ${previous}) is no longer listed; it is not watched any more`);
			continue;
		}
		const status = text(shipment.status);
		if (status !== previous) fire(shipment, previous);
		// Still in progress (missed by the lists while pages shifted): watched on; Completed: done.
		if (!isCompleted(shipment)) next.set(id, status);
	}

	// Only now, with every request done, does the stored state change: a failed poll changes nothing.
	staticData[SHIPMENT_STATUS_CHANGED] = encodeStatuses(next) as unknown as IDataObject;
	return items.length === 0 ? null : [items];
}

/** "Fetch Test Event": the newest shipment For Packaging, else On Delivery, else Completed, as the event shows it. */
export async function fetchTestShipmentChange(ctx: IPollFunctions): Promise<INodeExecutionData[][]> {
	const simplify = readSimplify(ctx);
	const read = pollReader(ctx);
	for (const group of [...WATCHED_GROUPS, 'completed'] as const) {
		const [newest] = await listShipments(read, ctx.getNode(), { group }, 1);
		if (newest) return [[toItem(newest, null, simplify)]];
	}
	throw nodeError(ctx.getNode(), 'The account has no shipments yet', {
		description: 'A shipment exists once an order is confirmed. Once the workflow is active, the trigger fires each time a shipment changes status.',
	});
}

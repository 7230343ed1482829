/**
 * "Shipment Status Changed" (nodes/MarketplaceMerchantTrigger/shipments.ts): each status change
 * fires once with previousStatus and status, across polls, restarts and failed polls; an idle poll
 * is one request per watched group; shipments that completed leave the static data.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { forgetGroupNaming } from '../../nodes/MarketplaceMerchant/shared/orders/orders';
import type { PollRunResult } from '../harness';
import { groupOf } from '../../sandbox/order-statuses';
import { DAY, MINUTE, TriggerUnderTest, advance, emittedItems, useTriggerSandbox } from './helpers';

const START = '2026-03-02T09:00:00.000Z';
const STATUS_CHANGED: INodeParameters = { event: 'shipmentStatusChanged' };

const { sandbox, restart } = useTriggerSandbox({ start: START, seed: 33, per: 'file', stretchMs: 2 * DAY });

beforeEach(() => {
	sandbox.resetVariants();
	forgetGroupNaming();
});

const shipmentRequests = () => sandbox.log.filter((entry) => entry.route === 'shipments');

/** New orders, each with its one suborder, confirmed from the default warehouse (For Packaging). */
function confirmedShipments(count: number): string[] {
	return sandbox.addOrders(count).map((order) => sandbox.advanceShipment(`${order.id}-DS-1`).suborderId);
}

type Change = [suborderId: string, previousStatus: unknown, status: unknown];

function changes(result: PollRunResult): Change[] {
	return emittedItems(result)
		.map(({ json }): Change => [String(json.suborderId), json.previousStatus, json.status])
		.sort(([a], [b]) => a.localeCompare(b));
}

function stored(trigger: TriggerUnderTest): Record<string, string> {
	return ((trigger.state.shipmentStatusChanged as IDataObject | undefined)?.byStatus ?? {}) as Record<string, string>;
}

async function seededTrigger(parameters: INodeParameters = STATUS_CHANGED): Promise<TriggerUnderTest> {
	const trigger = new TriggerUnderTest(sandbox, parameters);
	expect(emittedItems(await trigger.poll())).toEqual([]);
	return trigger;
}

test('the first poll remembers the statuses and fires nothing; an idle poll is one request per watched group', async () => {
	confirmedShipments(2);
	const trigger = new TriggerUnderTest(sandbox, STATUS_CHANGED);
	const first = await trigger.poll();
	expect(first.error).toBeUndefined();
	expect(first.emitted).toBeNull();

	sandbox.clearLog();
	advance(5 * MINUTE);
	expect(emittedItems(await trigger.poll())).toEqual([]);
	expect(shipmentRequests().map(({ query }) => query.statusGroup)).toEqual(['SG_FOR_PACKAGING', 'SG_SHIPMENT_ON_DELIVERY']);
	expect(sandbox.log).toHaveLength(2);
});

test('each step of a shipment fires once with previousStatus and status, through to delivery, after which it is forgotten', async () => {
	sandbox.setVariants({ carrierAllocationMs: 30 * MINUTE });
	const trigger = await seededTrigger();
	const [order] = sandbox.addOrders(1);
	const id = `${order.id}-DS-1`;
	advance(1 * MINUTE);
	// Still CREATED (its order For Confirmation): no shipment group lists it yet.
	expect(emittedItems(await trigger.poll())).toEqual([]);

	sandbox.advanceShipment(id);
	advance(1 * MINUTE);
	const confirmed = await trigger.poll();
	expect(changes(confirmed)).toEqual([[id, null, 'CONFIRMED']]);
	expect(emittedItems(confirmed)[0].json).toMatchObject({ event: 'shipmentStatusChanged', orderId: order.id, lines: expect.any(Array) });
	advance(1 * MINUTE);
	expect(emittedItems(await trigger.poll())).toEqual([]);

	sandbox.advanceShipment(id);
	advance(1 * MINUTE);
	expect(changes(await trigger.poll())).toEqual([[id, 'CONFIRMED', 'PACKED']]);
	advance(30 * MINUTE);
	expect(changes(await trigger.poll())).toEqual([[id, 'PACKED', 'READY_FOR_COLLECTION']]);
	sandbox.advanceShipment(id);
	advance(1 * MINUTE);
	expect(changes(await trigger.poll())).toEqual([[id, 'READY_FOR_COLLECTION', 'COLLECTED']]);
	sandbox.advanceShipment(id);
	advance(1 * MINUTE);
	expect(changes(await trigger.poll())).toEqual([[id, 'COLLECTED', 'ON_DELIVERY']]);
	expect(Object.values(stored(trigger)).join(' ')).toContain(id);

	// Delivered: out of the watched groups; one search by its suborder id tells its new status.
	sandbox.advanceShipment(id);
	sandbox.clearLog();
	advance(1 * MINUTE);
	expect(changes(await trigger.poll())).toEqual([[id, 'ON_DELIVERY', 'DELIVERED']]);
	expect(shipmentRequests().map(({ query }) => query.search ?? query.statusGroup)).toEqual(['SG_FOR_PACKAGING', 'SG_SHIPMENT_ON_DELIVERY', id]);
	expect(Object.values(stored(trigger)).join(' ')).not.toContain(id);
	advance(1 * MINUTE);
	expect(emittedItems(await trigger.poll())).toEqual([]);
});

test('several steps between two polls fire once, from the status the last poll saw to the current one', async () => {
	const trigger = await seededTrigger();
	const [id] = confirmedShipments(1);
	advance(1 * MINUTE);
	expect(changes(await trigger.poll())).toEqual([[id, null, 'CONFIRMED']]);
	// Packed, ready for collection (no allocation delay), collected.
	sandbox.advanceShipment(id);
	sandbox.advanceShipment(id);
	advance(1 * MINUTE);
	expect(changes(await trigger.poll())).toEqual([[id, 'CONFIRMED', 'COLLECTED']]);
});

test('a cancellation while For Packaging fires once with the cancelled status, unsimplified with every field', async () => {
	const trigger = await seededTrigger({ ...STATUS_CHANGED, simplify: false });
	const [id] = confirmedShipments(1);
	advance(1 * MINUTE);
	expect(changes(await trigger.poll())).toHaveLength(1);
	sandbox.advanceShipment(id, 'CANCELLED_BY_CUSTOMER');
	advance(1 * MINUTE);
	const result = await trigger.poll();
	expect(changes(result)).toEqual([[id, 'CONFIRMED', 'CANCELLED_BY_CUSTOMER']]);
	expect(emittedItems(result)[0].json).toMatchObject({ statusSubgroup: 'SSG_CANCELLED', items: [expect.objectContaining({ productSpecifications: expect.anything() })] });
	advance(1 * MINUTE);
	expect(emittedItems(await trigger.poll())).toEqual([]);
});

test('each change fires exactly once with n8n restarted (only the saved static data kept) between polls', async () => {
	let trigger = await seededTrigger();
	const ids = confirmedShipments(10);
	const fired: Change[] = [];
	advance(1 * MINUTE);
	const first = await trigger.poll();
	fired.push(...changes(first));

	// A new process from what n8n saved when the poll fired.
	trigger = new TriggerUnderTest(sandbox, STATUS_CHANGED);
	trigger.staticData = JSON.parse(JSON.stringify(first.savedStaticData)) as IDataObject;
	advance(1 * MINUTE);
	expect(emittedItems(await trigger.poll({ activation: 'init' }))).toEqual([]);
	for (const id of ids.slice(0, 5)) sandbox.advanceShipment(id);
	advance(1 * MINUTE);
	fired.push(...changes(await trigger.poll()));
	advance(1 * MINUTE);
	expect(emittedItems(await trigger.poll())).toEqual([]);

	expect(fired.filter(([, previous]) => previous === null).map(([id]) => id)).toEqual([...ids].sort());
	expect(fired.filter(([, previous]) => previous !== null)).toEqual(ids.slice(0, 5).sort().map((id) => [id, 'CONFIRMED', 'READY_FOR_COLLECTION']));
});

test('a poll whose search for a shipment that left the lists fails emits nothing, changes nothing; the next poll fires it once', async () => {
	const trigger = await seededTrigger();
	const [id] = confirmedShipments(1);
	advance(1 * MINUTE);
	expect(changes(await trigger.poll())).toHaveLength(1);
	sandbox.advanceShipment(id, 'CANCELLED_BY_MERCHANT');
	advance(1 * MINUTE);
	const stateBefore = JSON.stringify(trigger.staticData);

	// The two lists answer; every try of the search is refused.
	sandbox.injectFault({ route: 'shipments', delayMs: 0, count: 2 });
	sandbox.injectFault({ route: 'shipments', status: 503, count: 1000, retryAfterSeconds: 0 });
	const failed = await trigger.poll();
	expect(failed.emitted).toBeNull();
	expect(failed.error?.message).toMatch(new RegExp(`shipment ${id}.*503`));
	expect(JSON.stringify(trigger.staticData)).toBe(stateBefore);

	sandbox.clearFaults();
	advance(1 * MINUTE);
	expect(changes(await trigger.poll())).toEqual([[id, 'CONFIRMED', 'CANCELLED_BY_MERCHANT']]);
});

test('a shipment gone from the lists but not completed (a status no group lists) fires once, stays watched by its id, and fires again when it is back', async () => {
	const trigger = await seededTrigger();
	const [id] = confirmedShipments(1);
	advance(1 * MINUTE);
	expect(changes(await trigger.poll())).toHaveLength(1);

	sandbox.advanceShipment(id, 'NOT_READY');
	advance(1 * MINUTE);
	expect(changes(await trigger.poll())).toEqual([[id, 'CONFIRMED', 'NOT_READY']]);
	sandbox.clearLog();
	advance(1 * MINUTE);
	expect(emittedItems(await trigger.poll())).toEqual([]);
	// Still remembered: read by its suborder id, one request a poll while it stays out of the lists.
	expect(shipmentRequests().map(({ query }) => query.search ?? query.statusGroup)).toEqual(['SG_FOR_PACKAGING', 'SG_SHIPMENT_ON_DELIVERY', id]);

	sandbox.advanceShipment(id, 'CONFIRMED');
	advance(1 * MINUTE);
	expect(changes(await trigger.poll())).toEqual([[id, 'NOT_READY', 'CONFIRMED']]);
});

test("with the status-groups endpoint's group names (variant) each change still fires once", async () => {
	sandbox.setVariants({ statusGroupNames: 'status-groups' });
	const trigger = await seededTrigger();
	const [id] = confirmedShipments(1);
	advance(1 * MINUTE);
	expect(changes(await trigger.poll())).toEqual([[id, null, 'CONFIRMED']]);
	sandbox.advanceShipment(id);
	advance(1 * MINUTE);
	expect(changes(await trigger.poll())).toEqual([[id, 'CONFIRMED', 'READY_FOR_COLLECTION']]);
	sandbox.advanceShipment(id);
	advance(1 * MINUTE);
	expect(changes(await trigger.poll())).toEqual([[id, 'READY_FOR_COLLECTION', 'COLLECTED']]);

	// For Packaging is one query of SG_PROCESSING, On Delivery two (SG_PROCESSING packed, SG_ON_DELIVERY).
	sandbox.clearLog();
	advance(1 * MINUTE);
	expect(emittedItems(await trigger.poll())).toEqual([]);
	expect(shipmentRequests().map(({ query }) => query.statusGroup)).toEqual(['SG_PROCESSING', 'SG_PROCESSING', 'SG_ON_DELIVERY']);
});

test('Fetch Test Event gives the newest shipment For Packaging as the event shows it and leaves the state alone', async () => {
	const trigger = await seededTrigger();
	const stateBefore = JSON.stringify(trigger.staticData);
	advance(1 * MINUTE);
	const [id] = confirmedShipments(1);
	const result = await trigger.fetchTestEvent();
	expect(result.error).toBeUndefined();
	expect(changes(result)).toEqual([[id, null, 'CONFIRMED']]);
	expect(JSON.stringify(trigger.staticData)).toBe(stateBefore);
});

test('Fetch Test Event on an account without shipments says so', async () => {
	await restart({ orders: 0 });
	sandbox.addOrders(1);
	const result = await new TriggerUnderTest(sandbox, STATUS_CHANGED).fetchTestEvent();
	expect(result.error?.message).toBe('The account has no shipments yet');
	// One request per group: For Packaging, On Delivery, Completed.
	expect(shipmentRequests()).toHaveLength(3);
});

test('1,000 shipments through to delivery, polled every 10 minutes: every change once, and the static data holds only those in progress', async () => {
	const trigger = await seededTrigger();
	const rounds: string[][] = [];
	const fired = new Map<string, string[]>();
	let largest = 0;
	for (let round = 0; round < 52; round++) {
		// Each round: the shipments of the round before are packed (ready for collection at once), those of the
		// round before that collected, on delivery and delivered; 20 new ones confirmed (none after round 49).
		for (const id of rounds[round - 1] ?? []) sandbox.advanceShipment(id);
		for (const id of rounds[round - 2] ?? []) for (let step = 0; step < 3; step++) sandbox.advanceShipment(id);
		rounds.push(round < 50 ? confirmedShipments(20) : []);
		advance(10 * MINUTE);
		for (const [id, previous, status] of changes(await trigger.poll())) fired.set(id, [...(fired.get(id) ?? []), `${String(previous)}>${String(status)}`]);
		largest = Math.max(largest, Buffer.byteLength(JSON.stringify(trigger.staticData)));
	}
	const ids = rounds.flat();
	expect(ids).toHaveLength(1_000);
	expect(fired.size).toBe(1_000);
	for (const id of ids) expect(fired.get(id)).toEqual(['null>CONFIRMED', 'CONFIRMED>READY_FOR_COLLECTION', 'READY_FOR_COLLECTION>DELIVERED']);
	// What is left: the seeded shipments still in progress, none of the 1,000.
	const remembered = Object.values(stored(trigger)).join(' ').split(' ');
	expect(remembered.filter((id) => ids.includes(id))).toEqual([]);
	expect(largest).toBeLessThan(2 * 1024);
}, 120_000);

test('New Status Names READY_FOR_COLLECTION: only the move to it fires, once, when the carrier comes 2 minutes after packing; the other moves are remembered, not fired', async () => {
	sandbox.setVariants({ carrierAllocationMs: 2 * MINUTE });
	const trigger = await seededTrigger({ ...STATUS_CHANGED, newStatuses: ['READY_FOR_COLLECTION'] });
	const [id] = confirmedShipments(1);
	advance(1 * MINUTE);
	expect(emittedItems(await trigger.poll())).toEqual([]);
	sandbox.advanceShipment(id);
	advance(1 * MINUTE);
	// PACKED: not chosen.
	expect(emittedItems(await trigger.poll())).toEqual([]);
	expect(stored(trigger).PACKED).toContain(id);
	advance(1 * MINUTE);
	expect(changes(await trigger.poll())).toEqual([[id, 'PACKED', 'READY_FOR_COLLECTION']]);
	advance(1 * MINUTE);
	expect(emittedItems(await trigger.poll())).toEqual([]);
	sandbox.advanceShipment(id);
	advance(1 * MINUTE);
	expect(emittedItems(await trigger.poll())).toEqual([]);
	expect(stored(trigger).COLLECTED).toContain(id);
});

test('New Status Names refuses a value that is no status name, naming the field and entry', async () => {
	const trigger = new TriggerUnderTest(sandbox, { ...STATUS_CHANGED, newStatuses: 'READY_FOR_COLLECTION, ready' });
	const result = await trigger.poll();
	expect(result.error?.message).toMatch(/New Status Names or IDs/);
});

/** The groups (or searches) of the last poll's shipment requests. */
const readGroups = () => shipmentRequests().map(({ query }) => query.search ?? query.statusGroup);

/** One read of the completed group per 100 shipments purchased within the 30 days' window, at least one. */
function completedPages(): string[] {
	const since = Date.now() - 30 * DAY;
	const count = sandbox.state.shipments.filter((shipment) => Date.parse(shipment.createdDate) >= since && ['SSG_DELIVERED', 'SSG_CANCELLED', 'SSG_NOT_DELIVERED'].includes(groupOf(shipment.status).subGroup)).length;
	return Array.from({ length: Math.max(1, Math.ceil((count + 1) / 100)) }, () => 'SG_COMPLETED');
}

test('Watch Returns: a delivered parcel returned fires each move within Completed once; the completed shipments of the window are one more request a poll', async () => {
	const trigger = await seededTrigger({ ...STATUS_CHANGED, watchReturns: true });
	const [id] = confirmedShipments(1);
	advance(1 * MINUTE);
	expect(changes(await trigger.poll())).toEqual([[id, null, 'CONFIRMED']]);
	for (const to of ['PACKED', 'READY_FOR_COLLECTION', 'COLLECTED', 'ON_DELIVERY', 'DELIVERED']) sandbox.advanceShipment(id, to);
	sandbox.clearLog();
	advance(1 * MINUTE);
	expect(changes(await trigger.poll())).toEqual([[id, 'CONFIRMED', 'DELIVERED']]);
	// The completed group is read (purchased within the window): no search by suborder id needed.
	expect(readGroups()).toEqual(['SG_FOR_PACKAGING', 'SG_SHIPMENT_ON_DELIVERY', ...completedPages()]);
	expect(stored(trigger).DELIVERED).toContain(id);

	sandbox.advanceShipment(id, 'RETURN_TO_SELLER');
	advance(1 * MINUTE);
	expect(changes(await trigger.poll())).toEqual([[id, 'DELIVERED', 'RETURN_TO_SELLER']]);
	sandbox.advanceShipment(id, 'RETURNED_TO_SELLER');
	advance(1 * MINUTE);
	expect(changes(await trigger.poll())).toEqual([[id, 'RETURN_TO_SELLER', 'RETURNED_TO_SELLER']]);
	advance(1 * MINUTE);
	expect(emittedItems(await trigger.poll())).toEqual([]);

	// Past the window (30 days by default) it is forgotten without a request.
	advance(31 * DAY);
	sandbox.clearLog();
	expect(emittedItems(await trigger.poll())).toEqual([]);
	expect(Object.values(stored(trigger)).join(' ')).not.toContain(id);
	expect(readGroups()).toEqual(['SG_FOR_PACKAGING', 'SG_SHIPMENT_ON_DELIVERY', ...completedPages()]);
});

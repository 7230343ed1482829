/**
 * "New Order to Confirm" (nodes/MarketplaceMerchantTrigger/orders.ts): every order waiting for
 * confirmation fires once and only once, across polls, restarts (n8n keeps only the static data it
 * saved) and polls that fail; an idle poll is one request; the static data stays small.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { forgetGroupNaming } from '../../nodes/MarketplaceMerchant/shared/orders/orders';
import type { PollRunResult } from '../harness';
import { DAY, MINUTE, TriggerUnderTest, advance, emittedItems, useTriggerSandbox } from './helpers';

const START = '2026-03-02T09:00:00.000Z';
const NEW_ORDERS: INodeParameters = { event: 'newOrderToConfirm' };

const { sandbox, restart } = useTriggerSandbox({ start: START, seed: 31, per: 'file', stretchMs: 2 * DAY });

beforeEach(() => {
	sandbox.resetVariants();
	// Each test a new process: the group names are learned again.
	forgetGroupNaming();
});

const orderRequests = () => sandbox.log.filter((entry) => entry.route === 'orders');

function addOrders(count: number, options: Parameters<typeof sandbox.addOrders>[1] = {}): string[] {
	return sandbox.addOrders(count, options).map((order) => order.id);
}

function orderIds(result: PollRunResult): string[] {
	return emittedItems(result).map(({ json }) => String(json.orderId ?? json.id));
}

/** A trigger that has had its first poll (which seeds the cursor) at the current time. */
async function seededTrigger(parameters: INodeParameters = NEW_ORDERS): Promise<TriggerUnderTest> {
	const trigger = new TriggerUnderTest(sandbox, parameters);
	expect(emittedItems(await trigger.poll())).toEqual([]);
	return trigger;
}

test('the first poll remembers the orders already waiting and emits none of them', async () => {
	addOrders(3);
	const trigger = new TriggerUnderTest(sandbox, NEW_ORDERS);
	const first = await trigger.poll();
	expect(first.error).toBeUndefined();
	expect(first.emitted).toBeNull();

	advance(5 * MINUTE);
	expect(emittedItems(await trigger.poll())).toEqual([]);
});

test('new orders fire once, oldest first, simplified, and an idle poll is one request', async () => {
	const trigger = await seededTrigger();
	advance(1 * MINUTE);
	const first = addOrders(1, { lines: [{ merchantInventoryId: 100001, quantity: 2 }], paymentMethods: ['COD'] });
	advance(1 * MINUTE);
	const next = addOrders(2);
	advance(1 * MINUTE);

	const items = emittedItems(await trigger.poll());
	expect(items.map(({ json }) => json.orderId)).toEqual([...first, ...next]);
	expect(items[0].json).toMatchObject({ event: 'newOrderToConfirm', orderId: first[0], paymentMethods: ['COD'] });
	expect(items[0].json.lines).toEqual([expect.objectContaining({ merchantInventoryId: 100001, quantity: 2 })]);

	sandbox.clearLog();
	advance(1 * MINUTE);
	expect(emittedItems(await trigger.poll())).toEqual([]);
	expect(orderRequests()).toHaveLength(1);
	expect(sandbox.log).toHaveLength(1);
});

test('without Simplify the whole order comes as the service sent it, unknown fields included', async () => {
	const trigger = await seededTrigger({ ...NEW_ORDERS, simplify: false });
	advance(1 * MINUTE);
	const [id] = addOrders(1);
	advance(1 * MINUTE);
	const [item] = emittedItems(await trigger.poll());
	expect(item.json).toMatchObject({ event: 'newOrderToConfirm', id, currency: 'RSD', sumOfItemOrderedQuantities: expect.any(Number) });
	expect((item.json.items as IDataObject[])[0]).toHaveProperty('takeRateTotal');
});

test('30 orders arriving over 3 polls fire exactly once, with n8n restarted (only the saved static data kept) between', async () => {
	let trigger = await seededTrigger();
	const added: string[] = [];
	const emitted: string[] = [];
	let saved: IDataObject | undefined;
	for (let poll = 1; poll <= 3; poll++) {
		for (let order = 0; order < 10; order++) {
			advance(10_000);
			added.push(...addOrders(1));
		}
		advance(1 * MINUTE);
		const result = await trigger.poll();
		emitted.push(...orderIds(result));
		saved = result.savedStaticData;
		if (poll === 1) {
			// A new n8n process: a new engine run from what n8n wrote to its database.
			trigger = new TriggerUnderTest(sandbox, NEW_ORDERS);
			trigger.staticData = JSON.parse(JSON.stringify(saved)) as IDataObject;
			advance(1 * MINUTE);
			expect(emittedItems(await trigger.poll({ activation: 'init' }))).toEqual([]);
		}
	}
	expect(emitted).toEqual(added);
	expect(new Set(emitted).size).toBe(30);
	expect(saved).toBeDefined();

	advance(1 * MINUTE);
	expect(emittedItems(await trigger.poll())).toEqual([]);
});

test('a restart from an older saved state (idle polls since are not saved) repeats nothing', async () => {
	const trigger = await seededTrigger();
	advance(1 * MINUTE);
	const first = addOrders(2);
	advance(1 * MINUTE);
	const result = await trigger.poll();
	expect(orderIds(result)).toEqual(first);
	// Idle polls move the cursor in memory; n8n does not save them.
	for (let poll = 0; poll < 3; poll++) {
		advance(5 * MINUTE);
		expect((await trigger.poll()).savedStaticData).toBeUndefined();
	}
	trigger.staticData = JSON.parse(JSON.stringify(result.savedStaticData)) as IDataObject;
	const later = addOrders(1);
	advance(1 * MINUTE);
	expect(orderIds(await trigger.poll({ activation: 'init' }))).toEqual(later);
});

test('an order confirmed before the poll does not fire; one confirmed after it fired does not fire again', async () => {
	const trigger = await seededTrigger();
	advance(1 * MINUTE);
	const [confirmedEarly, waiting] = addOrders(2);
	sandbox.advanceShipment(`${confirmedEarly}-DS-1`);
	advance(1 * MINUTE);
	expect(orderIds(await trigger.poll())).toEqual([waiting]);

	sandbox.advanceShipment(`${waiting}-DS-1`);
	advance(1 * MINUTE);
	expect(emittedItems(await trigger.poll())).toEqual([]);
});

test('an order the service lists late (created before the last poll) fires once, within the look-back window', async () => {
	const trigger = await seededTrigger();
	advance(10 * MINUTE);
	expect(emittedItems(await trigger.poll())).toEqual([]);
	const late = addOrders(1, { createdDate: Date.now() - 20 * MINUTE });
	advance(1 * MINUTE);
	expect(orderIds(await trigger.poll())).toEqual(late);
	advance(1 * MINUTE);
	expect(emittedItems(await trigger.poll())).toEqual([]);
});

test('a poll that fails (orders answered 503 throughout) emits nothing, changes nothing, and the next poll emits what it missed', async () => {
	const trigger = await seededTrigger();
	advance(1 * MINUTE);
	const missed = addOrders(2);
	advance(1 * MINUTE);
	const stateBefore = JSON.stringify(trigger.staticData);

	sandbox.injectFault({ route: 'orders', status: 503, count: 1000, retryAfterSeconds: 0 });
	const failed = await trigger.poll();
	expect(failed.emitted).toBeNull();
	expect(failed.error?.message).toMatch(/503/);
	expect((failed.error as { description?: string } | undefined)?.description).toMatch(/Nothing was skipped/);
	expect(JSON.stringify(trigger.staticData)).toBe(stateBefore);

	sandbox.clearFaults();
	advance(1 * MINUTE);
	expect(orderIds(await trigger.poll())).toEqual(missed);
});

test('a poll that fails on its second page emits nothing of the first; the next poll emits all 150 once', async () => {
	const trigger = await seededTrigger();
	advance(1 * MINUTE);
	const added = addOrders(150);
	advance(1 * MINUTE);
	const stateBefore = JSON.stringify(trigger.staticData);
	sandbox.clearLog();

	// The first page answers; every try of the second is refused.
	sandbox.injectFault({ route: 'orders', delayMs: 0, count: 1 });
	sandbox.injectFault({ route: 'orders', status: 500, count: 1000 });
	const failed = await trigger.poll();
	expect(orderRequests().filter((entry) => entry.status === 200)).toHaveLength(1);
	expect(failed.emitted).toBeNull();
	expect(failed.error).toBeDefined();
	expect(JSON.stringify(trigger.staticData)).toBe(stateBefore);

	sandbox.clearFaults();
	advance(1 * MINUTE);
	const items = orderIds(await trigger.poll());
	expect(items).toHaveLength(150);
	expect(new Set(items)).toEqual(new Set(added));
});

test('Start From emits the orders waiting since that date on the first poll, then only new ones', async () => {
	const early = addOrders(2, { createdDate: Date.now() - 3 * 60 * MINUTE });
	const trigger = new TriggerUnderTest(sandbox, { ...NEW_ORDERS, options: { startFrom: new Date(Date.now() - 4 * 60 * MINUTE).toISOString() } });
	expect(orderIds(await trigger.poll())).toEqual(early);
	advance(1 * MINUTE);
	expect(emittedItems(await trigger.poll())).toEqual([]);
});

test('Fetch Test Event gives the newest order waiting for confirmation and leaves the state alone', async () => {
	const trigger = await seededTrigger();
	const stateBefore = JSON.stringify(trigger.staticData);
	advance(1 * MINUTE);
	const [, newest] = addOrders(2);
	const result = await trigger.fetchTestEvent();
	expect(result.error).toBeUndefined();
	expect(orderIds(result)).toEqual([newest]);
	expect(JSON.stringify(trigger.staticData)).toBe(stateBefore);
});

test.each([
	[{ startFrom: 'last tuesday' }, 'Options › Start From: "last tuesday" is not a date'],
	[{ lookBackMinutes: '1,5' }, 'Options › Look-Back Window (Minutes): "1,5" is not a whole number'],
])('the options are read by the shared readers, never guessed, before any request: %p', async (options, message) => {
	const result = await new TriggerUnderTest(sandbox, { ...NEW_ORDERS, options }).poll();
	expect(result.error?.message).toBe(message);
	expect(sandbox.log).toHaveLength(0);
});

test("with the status-groups endpoint's group names (variant) the first poll learns them with one extra request, then an idle poll is one", async () => {
	sandbox.setVariants({ statusGroupNames: 'status-groups' });
	const trigger = new TriggerUnderTest(sandbox, NEW_ORDERS);
	expect(emittedItems(await trigger.poll())).toEqual([]);
	expect(orderRequests().map(({ status, query }) => `${status} ${query.statusGroup}`)).toEqual(['400 SG_FOR_CONFIRMATION', '200 SG_ON_HOLD']);

	advance(1 * MINUTE);
	const added = addOrders(2);
	advance(1 * MINUTE);
	sandbox.clearLog();
	expect(orderIds(await trigger.poll())).toEqual(added);
	advance(1 * MINUTE);
	expect(emittedItems(await trigger.poll())).toEqual([]);
	expect(orderRequests().map(({ status, query }) => `${status} ${query.statusGroup}`)).toEqual(['200 SG_ON_HOLD', '200 SG_ON_HOLD']);
});

test('Fetch Test Event on an account without orders says so', async () => {
	await restart({ orders: 0 });
	const result = await new TriggerUnderTest(sandbox, NEW_ORDERS).fetchTestEvent();
	expect(result.error?.message).toBe('The account has no orders yet');
});

test('a burst of 1,000 orders: about 14 bytes of static data an order, pruned once older than the look-back window', async () => {
	const trigger = await seededTrigger();
	advance(1 * MINUTE);
	const added = addOrders(1_000);
	advance(1 * MINUTE);
	expect(orderIds(await trigger.poll())).toHaveLength(1_000);
	const bytes = () => Buffer.byteLength(JSON.stringify(trigger.staticData));
	expect(bytes()).toBeLessThan(1_000 * 15);
	expect(((trigger.state.newOrderToConfirm as IDataObject).seenAt as Record<string, string[]>)[String(Math.floor(Date.now() / 1000) - 60)]).toEqual(added);

	advance(61 * MINUTE);
	expect(emittedItems(await trigger.poll())).toEqual([]);
	expect(bytes()).toBeLessThan(200);
});

// Last: its orders reach 10 days past the clock of the tests before.
test('10,000 orders over 10 days, polled hourly: each fires once, the static data stays under 4 KB, an idle poll is one request', async () => {
	const trigger = await seededTrigger();
	const startMs = Date.now();
	const ORDERS = 10_000;
	const HOURS = 240;
	const spacingMs = (HOURS * 60 * MINUTE) / ORDERS;
	const added = new Set<string>();
	for (let index = 1; index <= ORDERS; index++) {
		for (const id of addOrders(1, { createdDate: startMs + index * spacingMs })) added.add(id);
	}
	const emitted: string[] = [];
	let largest = 0;
	for (let hour = 1; hour <= HOURS; hour++) {
		advance(60 * MINUTE);
		emitted.push(...orderIds(await trigger.poll()));
		largest = Math.max(largest, Buffer.byteLength(JSON.stringify(trigger.staticData)));
	}
	expect(emitted).toHaveLength(ORDERS);
	expect(new Set(emitted)).toEqual(added);
	expect(largest).toBeLessThan(4 * 1024);

	sandbox.clearLog();
	advance(60 * MINUTE);
	expect(emittedItems(await trigger.poll())).toEqual([]);
	expect(sandbox.log).toHaveLength(1);
}, 120_000);

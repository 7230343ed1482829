/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code, run by jest and never loaded by n8n: it may use process and timers (docs/architecture.md, Toolchain). */
/**
 * Every invoice fires once and only once: across polls, restarts, late and same-second
 * documents, and polls that fail.
 */
import type { INodeParameters } from 'n8n-workflow';

import { runPoll } from '../harness';
import {
	DAY,
	MINUTE,
	TRIGGER_TYPE,
	TriggerUnderTest,
	advance,
	documentIds,
	emittedItems,
	invoicedAt,
	requestsTo,
	useTriggerSandbox,
} from './helpers';

const START = '2025-06-15T10:00:00.000Z';
const NEW_INVOICES = { event: 'invoice' };

/** Each test runs on its own stretch of time, so documents of one test stay out of the others. */
const { sandbox } = useTriggerSandbox({ start: START, seed: 7, per: 'file', stretchMs: 2 * DAY });

function addInvoice(offsetMs: number, visibleAfterMs?: number): string {
	const invoice = sandbox.addInvoice(
		{ invoiceHeader: { orderDetails: { invoicedDate: invoicedAt(offsetMs) } } },
		visibleAfterMs === undefined ? {} : { visibleAt: Date.now() + visibleAfterMs },
	);
	return invoice.invoiceHeader.orderDetails.invoiceId;
}

/** A trigger that has had its first poll (which seeds the cursor) at the current time. */
async function seededTrigger(parameters: INodeParameters = NEW_INVOICES): Promise<TriggerUnderTest> {
	const trigger = new TriggerUnderTest(sandbox, parameters);
	expect(emittedItems(await trigger.poll())).toEqual([]);
	return trigger;
}

test('the first poll seeds the cursor and emits nothing, not even documents of the last hour', async () => {
	addInvoice(-10 * MINUTE);
	const trigger = new TriggerUnderTest(sandbox, NEW_INVOICES);

	const first = await trigger.poll();
	expect(first.error).toBeUndefined();
	expect(first.emitted).toBeNull();
	// The clock stands still within a test: the cursor is now.
	expect(trigger.state.invoice).toMatchObject({ cursor: new Date().toISOString() });

	advance(5 * MINUTE);
	expect(emittedItems(await trigger.poll())).toEqual([]);
});

test('new invoices are emitted once, with the full document and the event, and the next poll emits nothing', async () => {
	const trigger = await seededTrigger({ ...NEW_INVOICES, simplify: false });
	const ids = [addInvoice(1 * MINUTE), addInvoice(2 * MINUTE), addInvoice(3 * MINUTE)];
	advance(5 * MINUTE);

	const items = emittedItems(await trigger.poll());
	expect(documentIds(items)).toEqual(ids);
	expect(items[0].json).toMatchObject({ event: 'invoice', invoiceHeader: { orderDetails: { invoiceId: ids[0] } } });
	expect(items[0].json).toHaveProperty('productSpecification.items');

	advance(1 * MINUTE);
	expect(emittedItems(await trigger.poll())).toEqual([]);
});

test('a late invoice (invoiced before the last poll, visible only now) is emitted once', async () => {
	const trigger = await seededTrigger();
	advance(5 * MINUTE);
	expect(emittedItems(await trigger.poll())).toEqual([]);

	// Invoiced 20 minutes before the last poll, shown by the service 5 minutes from now.
	const late = addInvoice(-20 * MINUTE, 5 * MINUTE);
	advance(1 * MINUTE);
	expect(emittedItems(await trigger.poll())).toEqual([]);

	advance(5 * MINUTE);
	expect(documentIds(emittedItems(await trigger.poll()))).toEqual([late]);
	advance(1 * MINUTE);
	expect(emittedItems(await trigger.poll())).toEqual([]);
});

test('without a look-back window the same late invoice is missed (what the window is for)', async () => {
	const trigger = await seededTrigger({ ...NEW_INVOICES, options: { lookBackMinutes: 0 } } as typeof NEW_INVOICES);
	advance(5 * MINUTE);
	await trigger.poll();
	addInvoice(-20 * MINUTE, 5 * MINUTE);
	advance(6 * MINUTE);
	expect(emittedItems(await trigger.poll())).toEqual([]);
});

test('two invoices with the same timestamp are both emitted once, also when the second shows up later', async () => {
	const trigger = await seededTrigger();
	advance(5 * MINUTE);
	const sameSecond = invoicedAt(0);
	const pair = [1, 2].map(
		() => sandbox.addInvoice({ invoiceHeader: { orderDetails: { invoicedDate: sameSecond } } }).invoiceHeader.orderDetails.invoiceId,
	);
	// A third one with the same timestamp (the cursor's second) appears after this poll.
	const third = sandbox.addInvoice(
		{ invoiceHeader: { orderDetails: { invoicedDate: sameSecond } } },
		{ visibleAt: Date.now() + 30_000 },
	).invoiceHeader.orderDetails.invoiceId;

	expect(documentIds(emittedItems(await trigger.poll()))).toEqual(pair);
	advance(1 * MINUTE);
	expect(documentIds(emittedItems(await trigger.poll()))).toEqual([third]);
	advance(1 * MINUTE);
	expect(emittedItems(await trigger.poll())).toEqual([]);
});

test('after a restart (static data reloaded from JSON) nothing is repeated and new invoices still fire', async () => {
	const trigger = await seededTrigger();
	const before = addInvoice(1 * MINUTE);
	advance(2 * MINUTE);
	expect(documentIds(emittedItems(await trigger.poll()))).toEqual([before]);

	trigger.restart();
	advance(1 * MINUTE);
	expect(emittedItems(await trigger.poll({ activation: 'init' }))).toEqual([]);

	const after = addInvoice(1 * MINUTE);
	advance(2 * MINUTE);
	expect(documentIds(emittedItems(await trigger.poll({ activation: 'activate' })))).toEqual([after]);
});

test('a poll answered 503 throughout throws, keeps the cursor, and the next poll emits what it missed', async () => {
	const trigger = await seededTrigger();
	const missed = [addInvoice(1 * MINUTE), addInvoice(2 * MINUTE)];
	advance(5 * MINUTE);
	const stateBefore = JSON.stringify(trigger.staticData);

	sandbox.injectFault({ route: 'invoices', status: 503, count: 1000, retryAfterSeconds: 0 });
	const failed = await trigger.poll();
	expect(failed.emitted).toBeNull();
	expect(failed.error?.message).toMatch(/503/);
	expect(requestsTo(sandbox, 'invoices').length).toBeGreaterThan(1);
	expect(JSON.stringify(trigger.staticData)).toBe(stateBefore);

	sandbox.clearFaults();
	advance(1 * MINUTE);
	expect(documentIds(emittedItems(await trigger.poll()))).toEqual(missed);
});

test('a poll that fails midway (invoices read, corrections answered 500) emits nothing and changes nothing', async () => {
	const trigger = await seededTrigger({ event: 'any' });
	const invoice = addInvoice(1 * MINUTE);
	const correction = sandbox.addInvoiceCorrection({ invoiceHeader: { orderDetails: { invoicedDate: invoicedAt(2 * MINUTE) } } })
		.invoiceHeader.orderDetails.invoiceNumber;
	advance(5 * MINUTE);
	const stateBefore = JSON.stringify(trigger.staticData);

	sandbox.injectFault({ route: 'invoiceCorrections', status: 500, count: 1 });
	const failed = await trigger.poll();
	expect(requestsTo(sandbox, 'invoices')).toHaveLength(2);
	expect(failed.error?.message).toMatch(/500/);
	expect(failed.emitted).toBeNull();
	expect(JSON.stringify(trigger.staticData)).toBe(stateBefore);

	advance(1 * MINUTE);
	const items = emittedItems(await trigger.poll());
	expect(items.map(({ json }) => json.event)).toEqual(['invoice', 'invoiceCorrection']);
	expect(documentIds(items)).toEqual([invoice, correction]);
	advance(1 * MINUTE);
	expect(emittedItems(await trigger.poll())).toEqual([]);
});

test('an expired token is renewed (401, then a new token) and the poll goes on', async () => {
	const trigger = await seededTrigger();
	const id = addInvoice(1 * MINUTE);
	advance(2 * MINUTE);
	sandbox.expireAllTokens();
	sandbox.clearLog();

	expect(documentIds(emittedItems(await trigger.poll()))).toEqual([id]);
	expect(sandbox.log.map((entry) => `${entry.route} ${entry.status}`)).toEqual(['invoices 401', 'token 200', 'invoices 200']);
});

test('rejected credentials fail the poll with a clear message and leave the state alone', async () => {
	const trigger = await seededTrigger();
	const stateBefore = JSON.stringify(trigger.staticData);
	const wrong = new TriggerUnderTest(sandbox, NEW_INVOICES, { clientSecret: 'not-the-secret' });
	wrong.staticData = JSON.parse(stateBefore);

	const result = await wrong.poll();
	expect(result.emitted).toBeNull();
	expect(result.error?.message).toMatch(/client ID or client secret was rejected/);
	expect(JSON.stringify(result.error)).not.toContain('not-the-secret');
	expect(JSON.stringify(wrong.staticData)).toBe(stateBefore);
});

test('a tick that starts while the previous poll is still running is skipped, so nothing is emitted twice', async () => {
	const trigger = await seededTrigger();
	const id = addInvoice(1 * MINUTE);
	advance(2 * MINUTE);
	sandbox.clearLog();
	sandbox.injectFault({ route: 'invoices', count: 1, delayMs: 300 });

	const slow = trigger.poll();
	await new Promise((resolve) => setTimeout(resolve, 50));
	const overlapping = await runPoll(TRIGGER_TYPE, NEW_INVOICES, {
		staticData: trigger.staticData,
		credentialsHelper: trigger.credentialsHelper,
	});
	expect(overlapping.error).toBeUndefined();
	expect(overlapping.emitted).toBeNull();
	expect(documentIds(emittedItems(await slow))).toEqual([id]);
	expect(requestsTo(sandbox, 'invoices')).toHaveLength(1);

	advance(1 * MINUTE);
	expect(emittedItems(await trigger.poll())).toEqual([]);
});

test("keys an invoice by its id also where the current pages' example names it invoiceNumber, not by its content", async () => {
	sandbox.setVariants({ invoiceIdAsInvoiceNumber: true });
	try {
		const trigger = await seededTrigger();
		const id = addInvoice(1 * MINUTE);
		advance(2 * MINUTE);
		const [item] = emittedItems(await trigger.poll());
		expect(item.json).toMatchObject({ event: 'invoice', invoiceId: id });
		expect(Object.keys((trigger.state.invoice as { seen: Record<string, number> }).seen)).toContain(id);
		advance(1 * MINUTE);
		expect(emittedItems(await trigger.poll())).toEqual([]);
	} finally {
		sandbox.resetVariants();
	}
});

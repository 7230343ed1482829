/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code, run by jest and never loaded by n8n: it may use process and timers (docs/architecture.md, Toolchain). */
/**
 * Catching up: from a Start From date, and after a long pause, in windows the service accepts
 * (at most 3 months), oldest first, every document once.
 */
import type { Invoice } from '../../sandbox';
import {
	DAY,
	MINUTE,
	TriggerUnderTest,
	advance,
	documentIds,
	emittedItems,
	invoicedAt,
	requestsTo,
	useTriggerSandbox,
} from './helpers';

const START = '2025-06-15T10:00:00.000Z';

// A new sandbox for each test; it holds 180 days of invoices before its start (now).
const { sandbox } = useTriggerSandbox({ start: START, seed: 3, per: 'test' });

function invoicedMs(invoice: Invoice): number {
	return Date.parse(`${invoice.invoiceHeader.orderDetails.invoicedDate}Z`);
}

/** Ids of the sandbox's invoices invoiced within [from, to], in invoiced order. */
function invoiceIdsBetween(from: string | number, to: string | number): string[] {
	const [fromMs, toMs] = [new Date(from).getTime(), new Date(to).getTime()];
	return sandbox.state.invoices
		.filter((invoice) => invoicedMs(invoice) >= fromMs && invoicedMs(invoice) <= toMs)
		.map((invoice) => invoice.invoiceHeader.orderDetails.invoiceId);
}

function queriedRanges(): Array<[string, string]> {
	return requestsTo(sandbox, 'invoices').map(({ query }) => [query.dateFrom, query.dateTo]);
}

test('Start From 7 months back: 3 windows, oldest first, every invoice emitted once, then only new ones', async () => {
	const trigger = new TriggerUnderTest(sandbox, { event: 'invoice', options: { startFrom: '2024-11-15T10:00:00' } });
	const expected = invoiceIdsBetween('2024-11-15T10:00:00Z', START);
	expect(expected.length).toBeGreaterThan(100);

	const items = emittedItems(await trigger.poll());
	expect(queriedRanges()).toEqual([
		['2024-11-15T10:00:00.000Z', '2025-02-15T09:59:59.999Z'],
		['2025-02-15T10:00:00.000Z', '2025-05-15T09:59:59.999Z'],
		['2025-05-15T10:00:00.000Z', START],
	]);
	expect(documentIds(items)).toEqual(expected);

	sandbox.clearLog();
	const next = sandbox.addInvoice({ invoiceHeader: { orderDetails: { invoicedDate: invoicedAt(1 * MINUTE) } } });
	advance(2 * MINUTE);
	expect(documentIds(emittedItems(await trigger.poll()))).toEqual([next.invoiceHeader.orderDetails.invoiceId]);
	expect(queriedRanges()).toEqual([['2025-06-15T09:00:00.000Z', '2025-06-15T10:02:00.000Z']]);
});

test('after 7 months without polls, the trigger catches up window by window, oldest first', async () => {
	const trigger = new TriggerUnderTest(sandbox, { event: 'invoice' });
	expect(emittedItems(await trigger.poll())).toEqual([]);
	const added = Array.from({ length: 30 }, (_, week) =>
		sandbox.addInvoice({ invoiceHeader: { orderDetails: { invoicedDate: invoicedAt((week + 1) * 7 * DAY) } } }),
	).map((invoice) => invoice.invoiceHeader.orderDetails.invoiceId);

	advance(7 * 30 * DAY);
	sandbox.clearLog();
	expect(documentIds(emittedItems(await trigger.poll()))).toEqual(added);
	const ranges = queriedRanges();
	expect(ranges).toHaveLength(3);
	expect(ranges[0][0]).toBe('2025-06-15T09:00:00.000Z');
	expect(ranges.map(([from]) => from)).toEqual([...ranges.map(([from]) => from)].sort());

	advance(1 * MINUTE);
	expect(emittedItems(await trigger.poll())).toEqual([]);
});

test('a catch-up longer than 12 windows continues on the next poll, without gaps or repeats', async () => {
	const trigger = new TriggerUnderTest(sandbox, { event: 'invoice', options: { startFrom: '2022-05-01T00:00:00' } });

	const first = emittedItems(await trigger.poll());
	const firstRanges = queriedRanges();
	expect(firstRanges).toHaveLength(12);
	expect(firstRanges[11][1]).toBe('2025-04-30T23:59:59.999Z');

	sandbox.clearLog();
	advance(1 * MINUTE);
	const second = emittedItems(await trigger.poll());
	expect(queriedRanges()).toEqual([['2025-04-30T22:59:59.999Z', '2025-06-15T10:01:00.000Z']]);

	expect(documentIds([...first, ...second])).toEqual(invoiceIdsBetween('2022-05-01T00:00:00Z', Date.now()));
});

test('a catch-up that fails in its second window throws, keeps nothing, and the next poll does it all', async () => {
	const trigger = new TriggerUnderTest(sandbox, { event: 'invoice', options: { startFrom: '2024-11-15T10:00:00' } });
	// The first window's request goes through; every later one is answered 503.
	sandbox.injectFault({ route: 'invoices', count: 1, delayMs: 0 });
	sandbox.injectFault({ route: 'invoices', status: 503, count: 1000, retryAfterSeconds: 0 });

	const failed = await trigger.poll();
	expect(failed.error?.message).toMatch(/HTTP 503/);
	expect(failed.emitted).toBeNull();
	expect(trigger.state).toEqual({});

	sandbox.clearFaults();
	advance(1 * MINUTE);
	expect(documentIds(emittedItems(await trigger.poll()))).toEqual(invoiceIdsBetween('2024-11-15T10:00:00Z', START));
});

/** While the poll waits for a delayed answer, n8n's clock moves on by 3 minutes (over half the 5-minute budget). */
async function whileAnswerIsDelayed<T>(polling: Promise<T>): Promise<T> {
	await new Promise((resolve) => setTimeout(resolve, 100));
	advance(3 * MINUTE);
	return await polling;
}

test('a catch-up that runs out of time stops after a window and goes on at the next poll', async () => {
	const trigger = new TriggerUnderTest(sandbox, { event: 'invoice', options: { startFrom: '2024-11-15T10:00:00' } });
	sandbox.injectFault({ route: 'invoices', count: 1, delayMs: 400 });

	const first = emittedItems(await whileAnswerIsDelayed(trigger.poll()));
	expect(queriedRanges()).toEqual([['2024-11-15T10:00:00.000Z', '2025-02-15T09:59:59.999Z']]);
	expect(documentIds(first)).toEqual(invoiceIdsBetween('2024-11-15T10:00:00Z', '2025-02-15T09:59:59.999Z'));

	sandbox.clearLog();
	const second = emittedItems(await trigger.poll());
	expect(queriedRanges()[0][0]).toBe('2025-02-15T08:59:59.999Z');
	expect(documentIds([...first, ...second])).toEqual(invoiceIdsBetween('2024-11-15T10:00:00Z', START));
});

test('with PDFs, a long window is handled in steps when time runs out; no PDF is fetched twice', async () => {
	const trigger = new TriggerUnderTest(sandbox, { event: 'invoice', downloadPdfs: true });
	expect(emittedItems(await trigger.poll())).toEqual([]);
	const added = Array.from({ length: 120 }, (_, index) =>
		sandbox.addInvoice({ invoiceHeader: { orderDetails: { invoicedDate: invoicedAt((index + 1) * 1000) } } }),
	).map((invoice) => invoice.invoiceHeader.orderDetails.invoiceId);
	advance(5 * MINUTE);
	sandbox.injectFault({ route: 'document', count: 1, delayMs: 400 });

	const first = emittedItems(await whileAnswerIsDelayed(trigger.poll()));
	expect(documentIds(first)).toEqual(added.slice(0, 50));
	expect(first.every((item) => item.binary?.data?.mimeType === 'application/pdf')).toBe(true);
	// Handled up to just before the 51st invoice (invoiced 51 s after the seeding poll).
	expect((trigger.state.invoice as { cursor: string }).cursor).toBe(new Date(Date.parse(START) + 51_000 - 1).toISOString());

	const second = emittedItems(await trigger.poll());
	expect(documentIds(second)).toEqual(added.slice(50));
	expect(second.every((item) => item.binary?.data?.mimeType === 'application/pdf')).toBe(true);
	expect(sandbox.count('document')).toBe(120);
});

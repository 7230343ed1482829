/**
 * The trigger's static data stays small: it remembers only the ids a later query can still
 * return (those invoiced within the look-back window), not every document ever seen.
 */
import { DAY, TriggerUnderTest, advance, documentIds, emittedItems, useTriggerSandbox } from './helpers';

const START = '2025-06-15T10:00:00.000Z';
const DOCUMENTS = 10_000;
const DAYS = 10;
const SPACING_MS = (DAYS * DAY) / DOCUMENTS;

const { sandbox } = useTriggerSandbox({ start: START, seed: 11, per: 'file' });

test('10,000 invoices over 10 days, polled daily: each emitted once, static data under 16 KB throughout', async () => {
	const trigger = new TriggerUnderTest(sandbox, { event: 'invoice' });
	expect(emittedItems(await trigger.poll())).toEqual([]);

	const startMs = Date.now();
	const added = new Set<string>();
	for (let index = 1; index <= DOCUMENTS; index++) {
		const invoicedDate = new Date(startMs + index * SPACING_MS).toISOString().slice(0, 19);
		added.add(sandbox.addInvoice({ invoiceHeader: { orderDetails: { invoicedDate } } }).invoiceHeader.orderDetails.invoiceId);
	}

	const emitted: string[] = [];
	for (let day = 1; day <= DAYS; day++) {
		advance(DAY);
		emitted.push(...documentIds(emittedItems(await trigger.poll())));
		const stateBytes = Buffer.byteLength(JSON.stringify(trigger.staticData));
		expect(stateBytes).toBeLessThan(16 * 1024);
	}

	expect(emitted).toHaveLength(DOCUMENTS);
	expect(new Set(emitted)).toEqual(added);
	// What is left: the invoices of the last hour (the look-back window), about 42 of them.
	const seen = Object.keys((trigger.state.invoice as { seen: Record<string, number> }).seen);
	expect(seen.length).toBeLessThanOrEqual(Math.ceil((60 * 60_000) / SPACING_MS) + 1);
	expect(seen.every((id) => added.has(id))).toBe(true);
}, 60_000);

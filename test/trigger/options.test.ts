/**
 * The trigger's choices: events, invoice type, Simplify, PDFs, and "Fetch Test Event".
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { simplifyDocument } from '../../nodes/MarketplaceMerchant/shared/documents/documents';
import type { InvoiceType } from '../../sandbox';
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

/** Each test runs 200 days after the previous one: no test sees another's documents, even over 3 months. */
const { sandbox } = useTriggerSandbox({ start: START, seed: 5, per: 'file', stretchMs: 200 * DAY });

function addInvoice(offsetMs: number, invoiceType?: InvoiceType): string {
	const invoiceHeader = { orderDetails: { invoicedDate: invoicedAt(offsetMs) }, ...(invoiceType ? { invoiceType } : {}) };
	return sandbox.addInvoice({ invoiceHeader }).invoiceHeader.orderDetails.invoiceId;
}

function addCorrection(offsetMs: number): string {
	return sandbox.addInvoiceCorrection({ invoiceHeader: { orderDetails: { invoicedDate: invoicedAt(offsetMs) } } }).invoiceHeader
		.orderDetails.invoiceNumber;
}

async function seededTrigger(parameters: INodeParameters): Promise<TriggerUnderTest> {
	const trigger = new TriggerUnderTest(sandbox, parameters);
	expect(emittedItems(await trigger.poll())).toEqual([]);
	return trigger;
}

describe('events', () => {
	test('New Invoice Correction emits corrections once, remembered by their invoice number', async () => {
		const trigger = await seededTrigger({ event: 'invoiceCorrection' });
		addInvoice(1 * MINUTE);
		const corrections = [addCorrection(1 * MINUTE), addCorrection(2 * MINUTE)];
		advance(3 * MINUTE);

		const items = emittedItems(await trigger.poll());
		expect(items.map(({ json }) => json.event)).toEqual(['invoiceCorrection', 'invoiceCorrection']);
		expect(documentIds(items)).toEqual(corrections);
		expect(Object.keys((trigger.state.invoiceCorrection as { seen: object }).seen)).toEqual(corrections);
		expect(requestsTo(sandbox, 'invoices')).toHaveLength(0);

		// The next poll's look-back returns both again; they are recognised by invoice number.
		sandbox.clearLog();
		advance(1 * MINUTE);
		expect(emittedItems(await trigger.poll())).toEqual([]);
		expect(requestsTo(sandbox, 'invoiceCorrections')[0].query.dateFrom).toBe(new Date(Date.now() - 61 * MINUTE).toISOString());
	});

	test('New Invoice or Invoice Correction emits both kinds in invoiced order, each with its event', async () => {
		const trigger = await seededTrigger({ event: 'any' });
		const correction = addCorrection(1 * MINUTE);
		const invoice = addInvoice(2 * MINUTE);
		advance(3 * MINUTE);

		const items = emittedItems(await trigger.poll());
		expect(items.map(({ json }) => json.event)).toEqual(['invoiceCorrection', 'invoice']);
		expect(documentIds(items)).toEqual([correction, invoice]);
		expect(Object.keys(trigger.state).sort()).toEqual(['invoice', 'invoiceCorrection']);
	});

	test('Invoice Type asks the service for one type only', async () => {
		const trigger = await seededTrigger({ event: 'invoice', invoiceType: 'FISCAL' });
		const fiscal = addInvoice(1 * MINUTE, 'FISCAL');
		addInvoice(2 * MINUTE, 'NON_FISCAL');
		advance(3 * MINUTE);

		expect(documentIds(emittedItems(await trigger.poll()))).toEqual([fiscal]);
		expect(requestsTo(sandbox, 'invoices').every(({ query }) => query.type === 'FISCAL')).toBe(true);
	});
});

describe('output', () => {
	test('Simplify (on by default) gives the flat summary of each document, plus the event', async () => {
		const trigger = await seededTrigger({ event: 'any' });
		addInvoice(1 * MINUTE);
		addCorrection(2 * MINUTE);
		advance(3 * MINUTE);

		const items = emittedItems(await trigger.poll());
		const [invoice] = sandbox.state.invoices.slice(-1);
		const [correction] = sandbox.state.corrections.slice(-1);
		expect(items.map(({ json }) => json)).toEqual([
			{ event: 'invoice', ...simplifyDocument(invoice as unknown as IDataObject, 'invoice') },
			{ event: 'invoiceCorrection', ...simplifyDocument(correction as unknown as IDataObject, 'correction') },
		]);
		expect(items[0].json).not.toHaveProperty('invoiceHeader');
	});

	test('Download PDFs attaches each document PDF, fetched by suborder id, in the chosen binary field', async () => {
		const trigger = await seededTrigger({ event: 'invoice', downloadPdfs: true, binaryPropertyName: 'pdf' });
		const ids = [addInvoice(1 * MINUTE), addInvoice(2 * MINUTE)];
		const invoiceNumbers = ids.map((id) => sandbox.state.invoices.find((invoice) => invoice.invoiceHeader.orderDetails.invoiceId === id)?.invoiceHeader.fiscalDetails.invoiceNumber);
		advance(3 * MINUTE);

		const items = emittedItems(await trigger.poll());
		expect(documentIds(items)).toEqual(ids);
		for (const [index, item] of items.entries()) {
			const pdf = item.binary?.pdf;
			// Named by the invoice number the merchant's books know.
			expect(pdf).toMatchObject({ mimeType: 'application/pdf', fileName: `${invoiceNumbers[index]}.pdf` });
			expect(Buffer.from(pdf!.data, 'base64').subarray(0, 4).toString('latin1')).toBe('%PDF');
			expect(item.json).not.toHaveProperty('pdfError');
		}
		const suborders = items.map(({ json }) => String(json.suborderId));
		const linkRequests = requestsTo(sandbox, 'invoiceUrls');
		expect(linkRequests).toHaveLength(1);
		expect(linkRequests[0].query.suborderIds.split(',').sort()).toEqual([...suborders].sort());
		expect(sandbox.count('document')).toBe(2);
	});
});

describe('Fetch Test Event (manual mode)', () => {
	test('returns the newest matching invoice and leaves the stored state as it was', async () => {
		const trigger = await seededTrigger({ event: 'invoice', invoiceType: 'NON_FISCAL' });
		addInvoice(-3 * DAY, 'NON_FISCAL');
		const newestNonFiscal = addInvoice(-2 * DAY, 'NON_FISCAL');
		addInvoice(-1 * DAY, 'FISCAL');
		const stateBefore = JSON.stringify(trigger.staticData);
		sandbox.clearLog();

		const result = await trigger.fetchTestEvent();
		expect(result.error).toBeUndefined();
		expect(documentIds(emittedItems(result))).toEqual([newestNonFiscal]);
		expect(JSON.stringify(result.staticData)).toBe(stateBefore);
		expect(requestsTo(sandbox, 'invoices').map(({ query }) => query)).toEqual([
			{ dateFrom: new Date(Date.now() - 30 * DAY).toISOString(), dateTo: new Date().toISOString(), type: 'NON_FISCAL' },
		]);
	});

	test('looks back up to 3 months when the last 30 days have nothing', async () => {
		const trigger = new TriggerUnderTest(sandbox, { event: 'any' });
		const older = addInvoice(-60 * DAY);

		const items = emittedItems(await trigger.fetchTestEvent());
		expect(documentIds(items)).toEqual([older]);
		expect(requestsTo(sandbox, 'invoices')).toHaveLength(2);
		expect(requestsTo(sandbox, 'invoiceCorrections')).toHaveLength(2);
		expect(trigger.staticData).toEqual({});
	});

	test('fails with a clear message when there is nothing in the last 3 months', async () => {
		const trigger = new TriggerUnderTest(sandbox, { event: 'invoiceCorrection' });
		addInvoice(-1 * DAY);

		const result = await trigger.fetchTestEvent();
		expect(result.emitted).toBeNull();
		expect(result.error?.message).toBe('No invoice corrections found in the last 3 months');
	});
});

test('a Start From that is not a date fails with a message naming the option', async () => {
	const trigger = new TriggerUnderTest(sandbox, { event: 'invoice', options: { startFrom: 'last tuesday' } });
	const result = await trigger.poll();
	expect(result.error?.message).toBe('Options › Start From: "last tuesday" is not a date');
	expect(sandbox.log).toHaveLength(0);
});

test.each([
	[{ startFrom: '31/02/2026' }, 'Options › Start From: "31/02/2026" is not a date'],
	[{ lookBackMinutes: '1e3' }, 'Options › Look-Back Window (Minutes): "1e3" is not a whole number'],
	[{ lookBackMinutes: '1,5' }, 'Options › Look-Back Window (Minutes): "1,5" is not a whole number'],
])('the options are read by the shared readers, never guessed: %p', async (options, message) => {
	const trigger = new TriggerUnderTest(sandbox, { event: 'invoice', options });
	const result = await trigger.poll();
	expect(result.error?.message).toBe(message);
	expect(sandbox.log).toHaveLength(0);
});

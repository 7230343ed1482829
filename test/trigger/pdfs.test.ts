/**
 * Download PDFs when the link answer keys the links by the schema name: each PDF still belongs to
 * its own invoice; and where the service requires the dates beside the suborder IDs (sandbox
 * urlsSelection: all), as the trigger always sends them. Named as the node names them (shared/documents/pdfs.ts, pdfFileName).
 */
import { startSandbox, type Sandbox } from '../../sandbox';
import { DAY, MINUTE, TriggerUnderTest, advance, documentIds, emittedItems, invoicedAt, setNow, useSharedClock } from './helpers';

describe('trigger with Download PDFs, link answer keyed by the schema name', () => {
	const START = '2025-06-15T10:00:00.000Z';
	let sandbox: Sandbox;

	beforeAll(async () => {
		useSharedClock(START);
		sandbox = await startSandbox({ rateLimits: false, seed: 5 });
	});
	afterAll(async () => {
		await sandbox.close();
		jest.useRealTimers();
	});

	it('attaches each PDF to its own invoice by the document id, named <invoice number>.pdf', async () => {
		setNow(Date.parse(START) + 200 * DAY);
		const trigger = new TriggerUnderTest(sandbox, { event: 'invoice', downloadPdfs: true });
		expect(emittedItems(await trigger.poll())).toEqual([]);
		const invoices = [1, 2].map((minutes) => sandbox.addInvoice({ invoiceHeader: { orderDetails: { invoicedDate: invoicedAt(minutes * MINUTE) } } }));
		const ids = invoices.map((invoice) => invoice.invoiceHeader.orderDetails.invoiceId);
		const invoiceNumbers = invoices.map((invoice) => invoice.invoiceHeader.fiscalDetails.invoiceNumber);
		advance(3 * MINUTE);
		sandbox.setVariants({ urlsKeyedBySchemaName: true });

		const items = emittedItems(await trigger.poll());

		expect(documentIds(items)).toEqual(ids);
		for (const [index, item] of items.entries()) {
			expect(item.json).not.toHaveProperty('pdfError');
			// Named as the merchant's books know the invoice: by its invoice number.
			expect(item.binary?.data).toMatchObject({ mimeType: 'application/pdf', fileName: `${invoiceNumbers[index]}.pdf` });
			expect(Buffer.from(item.binary!.data.data, 'base64').toString('latin1')).toContain(ids[index]);
		}
		expect(sandbox.log.filter((entry) => entry.route === 'invoiceUrls').map((entry) => entry.query.suborderIds.split(',').length)).toEqual([2]);
	});

	it('asks the links by suborder IDs within the window, which a service requiring both accepts', async () => {
		sandbox.resetVariants();
		sandbox.setVariants({ urlsSelection: 'all' });
		const trigger = new TriggerUnderTest(sandbox, { event: 'invoice', downloadPdfs: true });
		expect(emittedItems(await trigger.poll())).toEqual([]);
		const invoice = sandbox.addInvoice({ invoiceHeader: { orderDetails: { invoicedDate: invoicedAt(MINUTE) } } });
		advance(2 * MINUTE);
		sandbox.clearLog();

		const items = emittedItems(await trigger.poll());

		expect(items.map((item) => item.binary?.data.fileName)).toEqual([`${invoice.invoiceHeader.fiscalDetails.invoiceNumber}.pdf`]);
		expect(sandbox.log.filter((entry) => entry.route === 'invoiceUrls').map((entry) => [entry.status, Boolean(entry.query.dateFrom)])).toEqual([[200, true]]);
		sandbox.resetVariants();
	});
});

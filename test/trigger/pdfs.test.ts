/** Download PDFs when the link answer keys the links by the schema name: each PDF still belongs to its own invoice. */
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
});

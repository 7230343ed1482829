/**
 * Invoice and Invoice Correction › Get Document Links (actions/documents/getDocumentLinks.operation.ts)
 * through n8n's real engine against the sandbox: one item per document with its suborder over all
 * windows, PDFs, and links keyed by the schema name instead of the suborder (a live variant, sandbox
 * switch urlsKeyedBySchemaName) still belonging to the suborder asked for. A month of invoices from
 * Get Many (issue 29): the suborder ids of every input item in one request, the dates left at their
 * defaults not sent, each link on the item that asked for it, PDFs named by invoice number; a date
 * range alone is one request per 3 months.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { NODE_UNDER_TEST_NAME } from '../../harness';
import { FROM, NOW, TO, inRange, outputRunner, runner, sandbox, sandboxPerFile, sent, type Document } from '../helpers';

describe('Invoice and Invoice Correction', () => {
	sandboxPerFile({ now: NOW, seed: 7 });
	const run = outputRunner();

	describe('Get Document Links', () => {
		function pickDocuments<T extends Document>(documents: T[], count: number): T[] {
			const candidates = inRange(documents) as T[];
			return [candidates[0], candidates[Math.floor(candidates.length / 2)], candidates[candidates.length - 1]].slice(0, count);
		}

		it('gives one item per document with its suborder, over all windows', async () => {
			const invoices = pickDocuments(sandbox.state.invoices, 3);
			const suborderIds = invoices.map((invoice) => invoice.invoiceHeader.orderDetails.suborderId);

			const { result, json } = await run({
				resource: 'invoice',
				operation: 'getDocumentLinks',
				suborderIds: suborderIds.join(', '),
				dateFrom: FROM,
				dateTo: TO,
			});

			expect(result.error).toBeUndefined();
			expect(json.map(({ suborderId, documentCorrelationId }) => ({ suborderId, documentCorrelationId }))).toEqual(
				invoices.map((invoice) => ({
					suborderId: invoice.invoiceHeader.orderDetails.suborderId,
					documentCorrelationId: invoice.invoiceHeader.orderDetails.invoiceId,
				})),
			);
			expect(json.every((link) => typeof link.link === 'string' && (link.link as string).startsWith(sandbox.url))).toBe(true);
			const requests = sent('invoiceUrls');
			expect(requests).toHaveLength(3);
			expect(requests.every((request) => request.query.suborderIds === suborderIds.join(','))).toBe(true);
		});

		it('treats a window without documents (404) as empty', async () => {
			const [invoice] = pickDocuments(sandbox.state.invoices, 1);

			const { result, json } = await run({
				resource: 'invoice',
				operation: 'getDocumentLinks',
				suborderIds: '={{ $json.ids }}',
				dateFrom: FROM,
				dateTo: TO,
			}, [{ ids: [invoice.invoiceHeader.orderDetails.suborderId] }]);

			expect(result.error).toBeUndefined();
			expect(json).toHaveLength(1);
			expect(sent('invoiceUrls').map((request) => request.status)).toEqual([200, 404, 404]);
		});

		it('fails the item naming the suborder ids and the range when nothing is found', async () => {
			const { result } = await run({
				resource: 'invoice',
				operation: 'getDocumentLinks',
				suborderIds: '999999-1,999999-2',
				dateFrom: FROM,
				dateTo: TO,
			});

			expect(result.error?.message).toBe(
				'No invoice documents found for suborder ID(s) 999999-1, 999999-2 from 2024-12-01T00:00:00.000Z to 2025-06-30T23:59:59.000Z',
			);
			expect(sent('invoiceUrls').map((request) => request.status)).toEqual([404, 404, 404]);
		});

		it('downloads the PDFs as binary data when asked', async () => {
			const invoices = pickDocuments(sandbox.state.invoices, 2);

			const { result, items } = await run({
				resource: 'invoice',
				operation: 'getDocumentLinks',
				suborderIds: invoices.map((invoice) => invoice.invoiceHeader.orderDetails.suborderId).join(','),
				dateFrom: FROM,
				dateTo: TO,
				options: { downloadPdfs: true, binaryPropertyName: 'pdf' },
			});

			expect(result.error).toBeUndefined();
			expect(items).toHaveLength(2);
			expect(sandbox.count('document')).toBe(2);
			items.forEach((item: INodeExecutionData, index) => {
				const id = invoices[index].invoiceHeader.orderDetails.invoiceId;
				expect(item.json.documentCorrelationId).toBe(id);
				const file = item.binary?.pdf;
				expect(file).toMatchObject({ fileName: `${id}.pdf`, mimeType: 'application/pdf' });
				const pdf = Buffer.from(file!.data, 'base64');
				expect(pdf.subarray(0, 4).toString('latin1')).toBe('%PDF');
				expect(pdf.toString('latin1')).toContain(id);
			});
		});

		it('gets correction links keyed by the correction number, and their PDFs', async () => {
			const corrections = pickDocuments(sandbox.state.corrections, 2);

			const { result, items } = await run({
				resource: 'invoiceCorrection',
				operation: 'getDocumentLinks',
				suborderIds: corrections.map((correction) => correction.invoiceHeader.orderDetails.suborderId).join(','),
				dateFrom: FROM,
				dateTo: TO,
				options: { downloadPdfs: true },
			});

			expect(result.error).toBeUndefined();
			expect(items.map((item) => [item.json.suborderId, item.json.documentCorrelationId])).toEqual(
				corrections.map((correction) => [
					correction.invoiceHeader.orderDetails.suborderId,
					correction.invoiceHeader.orderDetails.invoiceNumber,
				]),
			);
			expect(sent('invoiceCorrectionUrls').length).toBe(3);
			expect(sent('invoiceUrls')).toHaveLength(0);
			for (const item of items) {
				expect(Buffer.from(item.binary!.data.data, 'base64').subarray(0, 4).toString('latin1')).toBe('%PDF');
			}
		});
	});
});

describe('Invoice › Get Document Links, answer keyed by the schema name', () => {
	sandboxPerFile({ now: NOW, seed: 3, products: 1_400 });
	const run = runner();
	beforeEach(() => sandbox.resetVariants());

	const FROM = '2025-05-01T00:00:00';
	const TO = '2025-06-15T00:00:00';

	function invoicesWithSuborders(count: number) {
		const invoices = sandbox.state.invoices.filter((invoice) => invoice.invoiceHeader.orderDetails.invoicedDate >= '2025-05-02').slice(0, count);
		expect(invoices).toHaveLength(count);
		return invoices.map((invoice) => ({
			suborderId: invoice.invoiceHeader.orderDetails.suborderId,
			documentCorrelationId: invoice.invoiceHeader.orderDetails.invoiceId,
		}));
	}

	const links = (resource: string, suborderIds: string[]) =>
		run({ resource, operation: 'getDocumentLinks', suborderIds: suborderIds.join(','), dateFrom: FROM, dateTo: TO });

	it('takes the suborder from the request when one was asked, and leaves it null when several were', async () => {
		const [one, two] = invoicesWithSuborders(2);
		sandbox.setVariants({ urlsKeyedBySchemaName: true });

		const single = await links('invoice', [one.suborderId]);
		const several = await links('invoice', [one.suborderId, two.suborderId]);

		expect(single.error).toBeUndefined();
		expect(single.json(NODE_UNDER_TEST_NAME).map(({ suborderId, documentCorrelationId }) => ({ suborderId, documentCorrelationId }))).toEqual([one]);
		expect(several.json(NODE_UNDER_TEST_NAME).map(({ suborderId, documentCorrelationId }) => ({ suborderId, documentCorrelationId }))).toEqual([
			{ suborderId: null, documentCorrelationId: one.documentCorrelationId },
			{ suborderId: null, documentCorrelationId: two.documentCorrelationId },
		]);
	});

	it('gives each input item of Get Many its own link in one request, by the invoice ID the item carries', async () => {
		const invoices = invoicesWithSuborders(3);
		sandbox.setVariants({ urlsKeyedBySchemaName: true });

		const result = await run(
			{ resource: 'invoice', operation: 'getDocumentLinks', suborderIds: '={{ $json.suborderId }}' },
			invoices.map(({ suborderId, documentCorrelationId }) => ({ suborderId, invoiceId: documentCorrelationId })),
		);

		expect(result.error).toBeUndefined();
		expect(result.output(NODE_UNDER_TEST_NAME).map(({ json, pairedItem }) => [json.documentCorrelationId, pairedItem])).toEqual(
			invoices.map(({ documentCorrelationId }, index) => [documentCorrelationId, { item: index }]),
		);
		expect(sandbox.log.filter((entry) => entry.route === 'invoiceUrls')).toHaveLength(1);
	});

	it('asks the suborders of items that carry no invoice ID one by one, so that no link lands on another item', async () => {
		const invoices = invoicesWithSuborders(2);
		sandbox.setVariants({ urlsKeyedBySchemaName: true });

		const result = await run(
			{ resource: 'invoice', operation: 'getDocumentLinks', suborderIds: '={{ $json.id }}' },
			invoices.map(({ suborderId }) => ({ id: suborderId })),
		);

		expect(result.error).toBeUndefined();
		expect(result.json(NODE_UNDER_TEST_NAME).map(({ suborderId, documentCorrelationId }) => ({ suborderId, documentCorrelationId }))).toEqual(invoices);
		expect(sandbox.log.filter((entry) => entry.route === 'invoiceUrls').map((entry) => entry.query.suborderIds.split(',').length)).toEqual([2, 1, 1]);
	});

	it('fails an item whose mapped suborder ID is empty instead of asking for the whole range', async () => {
		const [one] = invoicesWithSuborders(1);

		const result = await run({ resource: 'invoice', operation: 'getDocumentLinks', suborderIds: '={{ $json.suborderId }}' }, [{ suborderId: one.suborderId }, {}]);

		expect(result.error?.message).toMatch(/^Suborder IDs: must list at least one suborder ID \(item 1\)/);
		expect(sandbox.log.filter((entry) => entry.route === 'invoiceUrls')).toHaveLength(0);
	});

	it('does the same for invoice corrections', async () => {
		const corrections = sandbox.state.corrections.filter((document) => document.invoiceHeader.orderDetails.invoicedDate >= '2025-05-02').slice(0, 2);
		expect(corrections).toHaveLength(2);
		const suborderIds = corrections.map((correction) => correction.invoiceHeader.orderDetails.suborderId);
		sandbox.setVariants({ urlsKeyedBySchemaName: true });

		const single = await links('invoiceCorrection', suborderIds.slice(0, 1));
		const several = await links('invoiceCorrection', suborderIds);

		const numbers = corrections.map((correction) => correction.invoiceHeader.orderDetails.invoiceNumber);
		expect(single.json(NODE_UNDER_TEST_NAME).map(({ suborderId, documentCorrelationId }) => [suborderId, documentCorrelationId])).toEqual([
			[suborderIds[0], numbers[0]],
		]);
		expect(several.json(NODE_UNDER_TEST_NAME).map(({ suborderId, documentCorrelationId }) => [suborderId, documentCorrelationId])).toEqual([
			[null, numbers[0]],
			[null, numbers[1]],
		]);
	});
});

describe('Invoice › Get Document Links for a month of invoices (issue 29)', () => {
	sandboxPerFile({ now: NOW, seed: 7 });
	const run = outputRunner('invoice');
	const MAY = { dateFrom: '2025-05-01T00:00:00Z', dateTo: '2025-05-31T23:59:59Z' };

	/** Invoice › Get Many's output for 66 invoices of May, as a merchant maps it into Get Document Links. */
	async function invoicesOfMay(simplify = true): Promise<IDataObject[]> {
		const { result, json } = await run({ operation: 'getMany', ...MAY, limit: 66, simplify });
		expect(result.error).toBeUndefined();
		expect(json).toHaveLength(66);
		sandbox.clearLog();
		return json;
	}

	it('sends the suborder IDs of all 66 items in one request, without the default dates, and names the PDFs by invoice number', async () => {
		const invoices = await invoicesOfMay();

		const { result, items } = await run(
			{ operation: 'getDocumentLinks', suborderIds: '={{ $json.suborderId }}', options: { downloadPdfs: true } },
			invoices,
		);

		expect(result.error).toBeUndefined();
		const requests = sent('invoiceUrls');
		expect(requests).toHaveLength(1);
		expect(requests[0].query).not.toHaveProperty('dateFrom');
		expect(requests[0].query.suborderIds.split(',')).toEqual(invoices.map((invoice) => invoice.suborderId));
		expect(items).toHaveLength(66);
		items.forEach((item: INodeExecutionData, index) => {
			expect(item.pairedItem).toEqual({ item: index });
			expect(item.json).toMatchObject({ suborderId: invoices[index].suborderId, documentCorrelationId: invoices[index].invoiceId });
			expect(item.binary?.data).toMatchObject({ fileName: `${String(invoices[index].invoiceNumber)}.pdf`, mimeType: 'application/pdf' });
		});
		expect(sandbox.count('document')).toBe(66);
	});

	it('names the PDFs by invoice number from the full documents too (Simplify off), and gives the links alone without Download PDFs', async () => {
		const invoices = await invoicesOfMay(false);
		const header = (invoice: IDataObject) => invoice.invoiceHeader as { orderDetails: IDataObject; fiscalDetails: IDataObject };

		const withPdfs = await run(
			{ operation: 'getDocumentLinks', suborderIds: '={{ $json.invoiceHeader.orderDetails.suborderId }}', options: { downloadPdfs: true } },
			invoices.slice(0, 5),
		);
		const linksOnly = await run({ operation: 'getDocumentLinks', suborderIds: '={{ $json.invoiceHeader.orderDetails.suborderId }}' }, invoices);

		expect(withPdfs.items.map((item) => item.binary?.data.fileName)).toEqual(invoices.slice(0, 5).map((invoice) => `${String(header(invoice).fiscalDetails.invoiceNumber)}.pdf`));
		expect(linksOnly.items.map((item) => item.json.documentCorrelationId)).toEqual(invoices.map((invoice) => header(invoice).orderDetails.invoiceId));
		expect(sent('invoiceUrls')).toHaveLength(2);
	});

	it('still narrows the suborders to dates the user set (both are sent, as before)', async () => {
		const invoices = await invoicesOfMay();

		const { result } = await run(
			{ operation: 'getDocumentLinks', suborderIds: '={{ $json.suborderId }}', dateFrom: '2025-06-01T00:00:00Z', dateTo: '2025-06-14T00:00:00Z' },
			invoices.slice(0, 3),
		);

		expect(result.error?.message).toMatch(/^No invoice documents found for suborder ID\(s\) .* from 2025-06-01T00:00:00.000Z to 2025-06-14T00:00:00.000Z$/);
		expect(sent('invoiceUrls').map((request) => [request.query.suborderIds.split(',').length, request.query.dateFrom])).toEqual([[3, '2025-06-01T00:00:00.000Z']]);
	});

	it('gives every document of a date range in one request per 3 months when no suborder IDs are given', async () => {
		const inMay = sandbox.state.invoices.filter((invoice) => invoice.invoiceHeader.orderDetails.invoicedDate.startsWith('2025-05'));

		const { result, json } = await run({ operation: 'getDocumentLinks', ...MAY, invoiceType: 'FISCAL' });

		expect(result.error).toBeUndefined();
		const fiscal = inMay.filter((invoice) => invoice.invoiceHeader.invoiceType === 'FISCAL');
		expect(new Set(json.map((link) => link.documentCorrelationId))).toEqual(new Set(fiscal.map((invoice) => invoice.invoiceHeader.orderDetails.invoiceId)));
		const requests = sent('invoiceUrls');
		expect(requests).toHaveLength(1);
		expect(requests[0].query).toMatchObject({ dateFrom: '2025-05-01T00:00:00.000Z', dateTo: '2025-05-31T23:59:59.000Z', type: 'FISCAL' });
		expect(requests[0].query).not.toHaveProperty('suborderIds');
	});
});

describe('Invoice › Get Document Links where the service requires dates and suborder IDs together (sandbox urlsSelection: all)', () => {
	sandboxPerFile({ now: NOW, seed: 7 });
	const run = outputRunner('invoice');
	const MAY = { dateFrom: '2025-05-01T00:00:00Z', dateTo: '2025-05-31T23:59:59Z' };
	beforeEach(() => sandbox.setVariants({ urlsSelection: 'all' }));
	afterEach(() => sandbox.resetVariants());

	async function invoicesOfMay(count: number): Promise<IDataObject[]> {
		const { json } = await run({ operation: 'getMany', ...MAY, limit: count });
		sandbox.clearLog();
		return json;
	}

	it("asks Get Many's items again within the range of their invoiced dates: one extra request", async () => {
		const invoices = await invoicesOfMay(20);

		const { result, json } = await run({ operation: 'getDocumentLinks', suborderIds: '={{ $json.suborderId }}' }, invoices);

		expect(result.error).toBeUndefined();
		expect(json.map((link) => link.documentCorrelationId)).toEqual(invoices.map((invoice) => invoice.invoiceId));
		const times = invoices.map((invoice) => Date.parse(String(invoice.invoicedDate)));
		expect(sent('invoiceUrls').map((request) => [request.status, request.query.dateFrom, request.query.dateTo])).toEqual([
			[400, undefined, undefined],
			[200, new Date(Math.min(...times)).toISOString(), new Date(Math.max(...times)).toISOString()],
		]);
	});

	it('fails saying which dates to set when the items carry no invoiced date', async () => {
		const [invoice] = await invoicesOfMay(1);

		const { result } = await run({ operation: 'getDocumentLinks', suborderIds: String(invoice.suborderId) });

		expect(result.error?.message).toBe('The service requires Date From and Date To with Suborder IDs (HTTP 400)');
		expect(sent('invoiceUrls')).toHaveLength(1);
	});

	it('fails a range alone saying that suborder IDs are needed', async () => {
		const { result } = await run({ operation: 'getDocumentLinks', ...MAY });

		expect(result.error?.message).toBe('The service requires Suborder IDs to select documents (HTTP 400)');
	});

});

/**
 * Invoice and Invoice Correction › Get Document Links (actions/documents/getDocumentLinks.operation.ts)
 * through n8n's real engine against the sandbox: one item per document with its suborder over all
 * windows, PDFs, and links keyed by the schema name instead of the suborder (a live variant, sandbox
 * switch urlsKeyedBySchemaName) still belonging to the suborder asked for.
 */
import type { INodeExecutionData } from 'n8n-workflow';

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

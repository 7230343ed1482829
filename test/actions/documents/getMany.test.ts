/**
 * Invoice and Invoice Correction › Get Many (actions/documents/getMany.operation.ts) through n8n's
 * real engine against the sandbox: date windows, deduplication, type filter, Return All and Limit,
 * the default range, Simplify, and the values rejected before sending. Download PDFs (issue 29): every
 * PDF of a month in one link request, each on its own invoice, named by invoice number.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { startSandbox, type Invoice, type InvoiceCorrection, type Sandbox } from '../../../sandbox';
import { runNode, sandboxCredential, type RunNodeOptions } from '../../harness';
import { FROM, FROM_MS, NODE, NOW, TO, inRange, outputRunner, sandbox, sandboxPerFile, sent, type Document } from '../helpers';

/** Every document of the range, as the service sends it (the defaults are a Limit of 50 and Simplify on). */
const FULL = { returnAll: true, simplify: false };

/** The sandbox's stored documents as JSON answers carry them. */
function asJson(documents: Document[]): IDataObject[] {
	return JSON.parse(JSON.stringify(documents)) as IDataObject[];
}

function credentialsOf(sandbox: Sandbox): RunNodeOptions {
	return {
		credentials: {
			marketplaceMerchantApi: sandboxCredential(sandbox),
		},
	};
}

const run = outputRunner();

describe('Invoice and Invoice Correction', () => {
	sandboxPerFile({ now: NOW, seed: 7 });

	describe('Get Many', () => {
		it('fetches a 7-month range of invoices in three windows, in order, as the full documents', async () => {
			const { result, json } = await run({ resource: 'invoice', operation: 'getMany', dateFrom: FROM, dateTo: TO, ...FULL });

			expect(result.error).toBeUndefined();
			const requests = sent('invoices');
			expect(requests).toHaveLength(3);
			expect(requests.map((request) => request.status)).toEqual([200, 200, 200]);
			expect(requests[0].query.dateFrom).toBe('2024-12-01T00:00:00.000Z');
			expect(requests[2].query.dateTo).toBe('2025-06-30T23:59:59.000Z');
			// Contiguous, non-overlapping windows.
			for (let i = 1; i < requests.length; i++) {
				expect(Date.parse(requests[i].query.dateFrom)).toBe(Date.parse(requests[i - 1].query.dateTo) + 1);
			}
			const expected = inRange(sandbox.state.invoices);
			expect(expected.length).toBeGreaterThan(100);
			expect(json).toEqual(asJson(expected));
			const ids = json.map((document) => (document.invoiceHeader as IDataObject & { orderDetails: IDataObject }).orderDetails.invoiceId);
			expect(new Set(ids).size).toBe(json.length);
		});

		it('drops a document that two windows both return, keeping the first', async () => {
			// A sandbox of its own: the duplicate would change the other tests' expectations.
			const ownSandbox = await startSandbox({ rateLimits: false, now: NOW, seed: 8 });
			try {
				const duplicateId = 'dup-00000000-0000-4000-8000-000000000001';
				const orderDetails = (invoicedDate: string) => ({ invoiceId: duplicateId, invoicedDate });
				const first = ownSandbox.addInvoice({ invoiceHeader: { orderDetails: orderDetails('2024-12-20T10:00:00') } });
				ownSandbox.addInvoice({ invoiceHeader: { orderDetails: orderDetails('2025-06-01T10:00:00') } });

				const result = await runNode(NODE, { resource: 'invoice', operation: 'getMany', dateFrom: FROM, dateTo: TO, ...FULL }, [{}], credentialsOf(ownSandbox));
				const json = result.json('Node');

				const withId = json.filter(
					(document) => (document.invoiceHeader as { orderDetails: IDataObject }).orderDetails.invoiceId === duplicateId,
				);
				expect(withId).toEqual(asJson([first]));
				expect(json).toHaveLength(inRange(ownSandbox.state.invoices).length - 1);
				expect(ownSandbox.count('invoices')).toBe(3);
			} finally {
				await ownSandbox.close();
			}
		});

		it('filters by type', async () => {
			const { json } = await run({ resource: 'invoice', operation: 'getMany', dateFrom: FROM, dateTo: TO, invoiceType: 'NON_FISCAL', ...FULL });

			const expected = inRange(sandbox.state.invoices).filter((invoice) => invoice.invoiceHeader.invoiceType === 'NON_FISCAL');
			expect(expected.length).toBeGreaterThan(0);
			expect(json).toEqual(asJson(expected));
			expect(sent('invoices').map((request) => request.query.type)).toEqual(['NON_FISCAL', 'NON_FISCAL', 'NON_FISCAL']);
		});

		it('includes the whole last day when To is a bare day', async () => {
			const lastDay = inRange(sandbox.state.invoices, Date.parse('2025-03-10T00:00:00Z'), Date.parse('2025-03-10T23:59:59.999Z'));
			expect(lastDay.length).toBeGreaterThan(0);

			const { json } = await run({ resource: 'invoice', operation: 'getMany', dateFrom: '2025-03-01T00:00:00', dateTo: '={{ "2025-03-10" }}', ...FULL });

			expect(sent('invoices')[0].query.dateTo).toBe('2025-03-10T23:59:59.999Z');
			expect(json).toEqual(asJson(inRange(sandbox.state.invoices, Date.parse('2025-03-01T00:00:00Z'), Date.parse('2025-03-10T23:59:59.999Z'))));
		});

		it('simplifies invoices into flat summaries', async () => {
			const { json } = await run({
				resource: 'invoice',
				operation: 'getMany',
				dateFrom: FROM,
				dateTo: TO,
				returnAll: true,
			});

			const expected = inRange(sandbox.state.invoices) as Invoice[];
			expect(json).toHaveLength(expected.length);
			const fiscalIndex = expected.findIndex((invoice) => invoice.invoiceHeader.invoiceType === 'FISCAL');
			const invoice = expected[fiscalIndex];
			const { orderDetails, customerDetails, fiscalDetails } = invoice.invoiceHeader;
			expect(json[fiscalIndex]).toEqual({
				invoiceId: orderDetails.invoiceId,
				invoiceNumber: fiscalDetails.invoiceNumber,
				invoiceType: 'FISCAL',
				suborderId: orderDetails.suborderId,
				orderId: orderDetails.orderid,
				invoicedDate: `${orderDetails.invoicedDate}.000Z`,
				fiscalInvoiceDate: fiscalDetails.fiscalInvoiceDate,
				orderDate: `${orderDetails.orderDate}.000Z`,
				customerName: `${customerDetails.firstName} ${customerDetails.lastName}`,
				customerCity: customerDetails.address.city,
				basePrice: invoice.productSpecification.totalDetails.basePrice,
				vatAmount: invoice.productSpecification.totalDetails.vatAmount,
				chargedPrice: invoice.productSpecification.totalDetails.chargedPrice,
				grandTotal: invoice.taxRateSpecification.grandTotal,
				vatRates: invoice.taxRateSpecification.taxRateSpecification.map((group) => group.vat),
				paymentMethods: orderDetails.paymentMethods,
				fba: orderDetails.fba,
			});
			// Non-fiscal invoices have no fiscal date: the field is left out rather than null.
			const nonFiscalIndex = expected.findIndex((candidate) => candidate.invoiceHeader.invoiceType === 'NON_FISCAL');
			expect(json[nonFiscalIndex]).not.toHaveProperty('fiscalInvoiceDate');
			expect(json.every((summary) => typeof summary.fba === 'boolean' && !('invoiceHeader' in summary))).toBe(true);
		});

		it("reads the invoice id where the current pages' example puts it (orderDetails.invoiceNumber), and a correction's fiscal invoiceNumber", async () => {
			sandbox.setVariants({ invoiceIdAsInvoiceNumber: true });
			try {
				const { json } = await run({ resource: 'invoice', operation: 'getMany', dateFrom: FROM, dateTo: TO, returnAll: true });
				const expected = inRange(sandbox.state.invoices) as Invoice[];
				expect(json.map((summary) => summary.invoiceId)).toEqual(expected.map((invoice) => invoice.invoiceHeader.orderDetails.invoiceId));
				expect(json.map((summary) => summary.invoiceNumber)).toEqual(expected.map((invoice) => invoice.invoiceHeader.fiscalDetails.invoiceNumber));

				const corrections = await run({ resource: 'invoiceCorrection', operation: 'getMany', dateFrom: FROM, dateTo: TO, ...FULL });
				const [first] = inRange(sandbox.state.corrections) as InvoiceCorrection[];
				expect((corrections.json[0].invoiceHeader as IDataObject).fiscalDetails).toEqual({
					...first.invoiceHeader.fiscalDetails,
					invoiceNumber: first.invoiceHeader.orderDetails.invoiceNumber,
				});
			} finally {
				sandbox.resetVariants();
			}
		});

		it('gets corrections with their own id, string fba and reason, and simplifies them', async () => {
			const { json } = await run({ resource: 'invoiceCorrection', operation: 'getMany', dateFrom: FROM, dateTo: TO, ...FULL });

			const expected = inRange(sandbox.state.corrections) as InvoiceCorrection[];
			expect(expected.length).toBeGreaterThan(5);
			expect(json).toEqual(asJson(expected));
			expect(sent('invoiceCorrections')).toHaveLength(3);
			expect(sent('invoices')).toHaveLength(0);

			const simplified = await run({
				resource: 'invoiceCorrection',
				operation: 'getMany',
				dateFrom: FROM,
				dateTo: TO,
				returnAll: true,
			});
			const correction = expected[0];
			expect(simplified.json[0]).toMatchObject({
				invoiceNumber: correction.invoiceHeader.orderDetails.invoiceNumber,
				referentDocumentNumber: correction.invoiceHeader.fiscalDetails.referentDocumentNumber,
				suborderId: correction.invoiceHeader.orderDetails.suborderId,
				correctionReason: correction.invoiceHeader.invoiceCorrectionReason,
				fba: correction.invoiceHeader.orderDetails.fba === 'true',
				grandTotal: correction.taxRateSpecification.grandTotal,
			});
			expect(simplified.json[0].grandTotal as number).toBeLessThan(0);
			expect(simplified.json[0]).not.toHaveProperty('invoiceId');
		});
	});

	describe('Get Many: Return All, Limit and the default range', () => {
		/** The documents of the first 3-month window of FROM..TO (2024-12-01 to 2025-02-28). */
		const firstWindow = () => inRange(sandbox.state.invoices, FROM_MS, Date.parse('2025-03-01T00:00:00Z') - 1);

		it('returns 50 by default, from the first window only: the later windows are never sent', async () => {
			expect(firstWindow().length).toBeGreaterThan(50);

			const { json } = await run({ resource: 'invoice', operation: 'getMany', dateFrom: FROM, dateTo: TO, simplify: false });

			expect(json).toEqual(asJson(firstWindow().slice(0, 50)));
			expect(sent('invoices').map((request) => request.query.dateFrom)).toEqual(['2024-12-01T00:00:00.000Z']);
		});

		it('sends the next window only while the limit is not reached, and cuts its answer at the limit', async () => {
			const limit = firstWindow().length + 3;

			const { json } = await run({ resource: 'invoice', operation: 'getMany', dateFrom: FROM, dateTo: TO, limit, simplify: false });

			expect(json).toEqual(asJson(inRange(sandbox.state.invoices).slice(0, limit)));
			expect(sent('invoices').map((request) => request.query.dateFrom)).toEqual(['2024-12-01T00:00:00.000Z', '2025-03-01T00:00:00.000Z']);
		});

		it('applies the limit to corrections too, simplified', async () => {
			const { json } = await run({ resource: 'invoiceCorrection', operation: 'getMany', dateFrom: FROM, dateTo: TO, limit: 2 });

			expect(json.map((summary) => summary.invoiceNumber)).toEqual(
				inRange(sandbox.state.corrections).slice(0, 2).map((correction) => (correction as InvoiceCorrection).invoiceHeader.orderDetails.invoiceNumber),
			);
			expect(sent('invoiceCorrections')).toHaveLength(1);
		});

		it('reads the last 7 days when no range is given (the defaults are expressions on $now)', async () => {
			// A sandbox on the real clock: the default range follows n8n's $now, not a test clock.
			const ownSandbox = await startSandbox({ rateLimits: false, seed: 9 });
			try {
				const before = Date.now();
				const result = await runNode(NODE, { resource: 'invoice', operation: 'getMany', ...FULL }, [{}], credentialsOf(ownSandbox));
				const after = Date.now();

				expect(result.error).toBeUndefined();
				const [request] = ownSandbox.log.filter((entry) => entry.route === 'invoices');
				const from = Date.parse(request.query.dateFrom);
				const to = Date.parse(request.query.dateTo);
				// The start of the day (in the workflow's time zone) 7 days ago, and now.
				expect(from).toBeLessThanOrEqual(before - 7 * 86_400_000);
				expect(from).toBeGreaterThan(before - 8 * 86_400_000);
				expect(to).toBeGreaterThanOrEqual(before - 1000);
				expect(to).toBeLessThanOrEqual(after);
				const expected = inRange(ownSandbox.state.invoices, from, to);
				expect(expected.length).toBeGreaterThan(0);
				expect(result.json('Node')).toEqual(asJson(expected));
			} finally {
				await ownSandbox.close();
			}
		});
	});

	describe('validation', () => {
		const cases: Array<[string, INodeParameters, RegExp]> = [
			['From missing', { dateFrom: '', dateTo: TO }, /^Date From: is missing \(item 1\)/],
			['To not a date', { dateFrom: FROM, dateTo: 'next tuesday' }, /^Date To: "next tuesday" is not a date \(item 1\)/],
			['To before From', { dateFrom: '2025-03-01T00:00:00', dateTo: '2025-02-01T00:00:00' }, /^Date To: must not be before Date From/],
			['From before 2022-05-01', { dateFrom: '2022-04-30T23:59:59', dateTo: '2022-06-01T00:00:00' }, /^Date From: must not be before 2022-05-01/],
			['type unknown', { dateFrom: FROM, dateTo: TO, invoiceType: '={{ "PROFORMA" }}' }, /^Invoice Type: "PROFORMA" is not one of FISCAL, NON_FISCAL/],
		];

		it.each(cases)('fails the item and sends nothing: %s', async (_name, fields, message) => {
			// Item 0 is valid and item 1 is not: only item 1 fails, and nothing at all is sent for it.
			const parameters: INodeParameters = {
				resource: 'invoice',
				operation: 'getMany',
				dateFrom: `={{ $json.valid ? "${FROM}" : ${JSON.stringify(String(fields.dateFrom))} }}`,
				dateTo: `={{ $json.valid ? "${TO}" : ${JSON.stringify(String(fields.dateTo))} }}`,
				invoiceType: fields.invoiceType ? `={{ $json.valid ? "all" : "PROFORMA" }}` : 'all',
				returnAll: true,
			};
			const { result, items } = await run(parameters, [{ valid: true }, { valid: false }], { node: { continueOnFail: true } });

			expect(result.error).toBeUndefined();
			const failed = items.filter((item) => item.json.error !== undefined || item.error !== undefined);
			expect(failed).toHaveLength(1);
			expect(String(failed[0].json.error ?? failed[0].error?.message)).toMatch(message);
			// Only item 0's three windows reached the service.
			expect(sent('invoices').map((request) => request.query.dateFrom)).toEqual([
				'2024-12-01T00:00:00.000Z',
				'2025-03-01T00:00:00.000Z',
				'2025-06-01T00:00:00.000Z',
			]);
		});

		it('stops the node without any request when the only item is invalid', async () => {
			const { result } = await run({ resource: 'invoice', operation: 'getMany', dateFrom: '2021-01-01T00:00:00', dateTo: TO });

			expect(result.error?.message).toMatch(/^Date From: must not be before 2022-05-01 .*\(item 0\)$/);
			expect(sandbox.log).toHaveLength(0);
		});

		it('requires suborder IDs for document links', async () => {
			const { result } = await run({ resource: 'invoice', operation: 'getDocumentLinks', suborderIds: ' , ', dateFrom: FROM, dateTo: TO });

			expect(result.error?.message).toMatch(/^Suborder IDs: must list at least one suborder ID \(item 0\)/);
			expect(sandbox.log).toHaveLength(0);
		});
	});
});

describe('Invoice and Invoice Correction › Get Many with Download PDFs', () => {
	sandboxPerFile({ now: NOW, seed: 7 });
	const MAY = { dateFrom: '2025-05-01T00:00:00Z', dateTo: '2025-05-31T23:59:59Z' };
	afterEach(() => sandbox.resetVariants());
	const ofMay = <T extends Document>(documents: T[]) => documents.filter((document) => document.invoiceHeader.orderDetails.invoicedDate.startsWith('2025-05'));

	it('attaches every fiscal PDF of last month, named by invoice number, after one link request by the range', async () => {
		const fiscal = ofMay(sandbox.state.invoices).filter((invoice) => invoice.invoiceHeader.invoiceType === 'FISCAL');

		const { result, items } = await run({
			resource: 'invoice',
			operation: 'getMany',
			...MAY,
			invoiceType: 'FISCAL',
			returnAll: true,
			options: { downloadPdfs: true },
		});

		expect(result.error).toBeUndefined();
		expect(items.length).toBe(fiscal.length);
		const requests = sent('invoiceUrls');
		expect(requests).toHaveLength(1);
		expect(requests[0].query).toMatchObject({ dateFrom: '2025-05-01T00:00:00.000Z', dateTo: '2025-05-31T23:59:59.000Z', type: 'FISCAL' });
		expect(requests[0].query).not.toHaveProperty('suborderIds');
		for (const item of items) {
			const invoice = fiscal.find((each) => each.invoiceHeader.orderDetails.invoiceId === item.json.invoiceId)!;
			expect(item.binary?.data).toMatchObject({ fileName: `${invoice.invoiceHeader.fiscalDetails.invoiceNumber}.pdf`, mimeType: 'application/pdf' });
			expect(Buffer.from(item.binary!.data.data, 'base64').toString('latin1')).toContain(invoice.invoiceHeader.orderDetails.invoiceId);
		}
		expect(sandbox.count('document')).toBe(fiscal.length);
	});

	it('under a Limit asks the links of the listed ones by their suborder IDs, in one request; corrections are named by their number', async () => {
		const { result, items } = await run({
			resource: 'invoiceCorrection',
			operation: 'getMany',
			...MAY,
			limit: 3,
			simplify: false,
			options: { downloadPdfs: true, pdfBinaryPropertyName: 'pdf' },
		});

		expect(result.error).toBeUndefined();
		expect(items).toHaveLength(3);
		const requests = sent('invoiceCorrectionUrls');
		expect(requests).toHaveLength(1);
		expect(requests[0].query.suborderIds.split(',')).toEqual(items.map((item) => (item.json as unknown as InvoiceCorrection).invoiceHeader.orderDetails.suborderId));
		for (const item of items) {
			const number = (item.json as unknown as InvoiceCorrection).invoiceHeader.orderDetails.invoiceNumber;
			expect(item.binary?.pdf).toMatchObject({ fileName: `${number}.pdf` });
		}
	});

	it('gets the PDFs by the listed suborder IDs where the service refuses the range alone (sandbox urlsSelection: all)', async () => {
		sandbox.setVariants({ urlsSelection: 'all' });
		const { result, items } = await run({ resource: 'invoice', operation: 'getMany', ...MAY, returnAll: true, options: { downloadPdfs: true } });

		expect(result.error).toBeUndefined();
		expect(items.every((item) => item.binary?.data.fileName === `${String(item.json.invoiceNumber)}.pdf`)).toBe(true);
		expect(sent('invoiceUrls').map((request) => [request.status, request.query.suborderIds?.split(',').length ?? 0])).toEqual([
			[400, 0],
			[200, items.length],
		]);
	});

	it('refuses to put the PDFs where the raw XML goes, before sending', async () => {
		const { result } = await run({
			resource: 'invoice',
			operation: 'getMany',
			...MAY,
			options: { downloadPdfs: true, attachRawXml: true },
		});

		expect(result.error?.message).toMatch(/Options › Put PDFs in Field/);
		expect(sent('invoiceUrls')).toHaveLength(0);
	});
});

/**
 * The documents family (actions/documents/): Invoice and Invoice Correction operations through
 * n8n's real engine against the sandbox (date windows, deduplication, type filter, Return All and
 * Limit, the default range, Simplify, validation, document links and PDFs), the fields as the
 * editor shows them, and the family's helpers on variant answers.
 */
import {
	NodeHelpers,
	type IDataObject,
	type INode,
	type INodeExecutionData,
	type INodeParameters,
	type INodeProperties,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { decodeText } from '../../../nodes/MarketplaceMerchant/transport/decode';
import {
	DOCUMENTS,
	documentIdOf,
	flattenDocumentLinks,
	simplifyDocument,
	type DocumentKind,
} from '../../../nodes/MarketplaceMerchant/actions/documents/documents';
import { readDocumentRange } from '../../../nodes/MarketplaceMerchant/actions/documents/fields';
import { startSandbox, type Invoice, type InvoiceCorrection, type Sandbox } from '../../../sandbox';
import { TestNodeTypes, packageNodeTypeName, runNode, type RunNodeOptions, sandboxCredential } from '../../harness';

const NODE = 'marketplaceMerchant';
/** The sandbox's documents cover the half year before its clock start. */
const SANDBOX_NOW = '2025-06-15T10:00:00Z';
/** Seven months: three 3-month windows. */
const FROM = '2024-12-01T00:00:00';
const TO = '2025-06-30T23:59:59';
const FROM_MS = Date.parse(`${FROM}Z`);
const TO_MS = Date.parse(`${TO}Z`);

type Document = Invoice | InvoiceCorrection;

/** Every document of the range, as the service sends it (the defaults are a Limit of 50 and Simplify on). */
const FULL = { returnAll: true, simplify: false };

function invoicedMs(document: Document): number {
	return Date.parse(`${document.invoiceHeader.orderDetails.invoicedDate}Z`);
}

function inRange(documents: Document[], fromMs = FROM_MS, toMs = TO_MS): Document[] {
	return documents.filter((document) => invoicedMs(document) >= fromMs && invoicedMs(document) <= toMs);
}

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

describe('Invoice and Invoice Correction', () => {
	let sandbox: Sandbox;
	let options: RunNodeOptions;

	beforeAll(async () => {
		sandbox = await startSandbox({ rateLimits: false, now: SANDBOX_NOW, seed: 7 });
		options = credentialsOf(sandbox);
	});
	afterAll(async () => await sandbox.close());
	beforeEach(() => sandbox.clearLog());

	async function run(parameters: INodeParameters, inputItems: unknown[] = [{}], runOptions: RunNodeOptions = {}) {
		const result = await runNode(NODE, parameters, inputItems, { ...options, ...runOptions });
		return { result, items: result.output('Node'), json: result.json('Node') };
	}

	function requestsTo(route: 'invoices' | 'invoiceCorrections' | 'invoiceUrls' | 'invoiceCorrectionUrls') {
		return sandbox.log.filter((entry) => entry.route === route);
	}

	describe('Get Many', () => {
		it('fetches a 7-month range of invoices in three windows, in order, as the full documents', async () => {
			const { result, json } = await run({ resource: 'invoice', operation: 'getMany', dateFrom: FROM, dateTo: TO, ...FULL });

			expect(result.error).toBeUndefined();
			const requests = requestsTo('invoices');
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
			const ownSandbox = await startSandbox({ rateLimits: false, now: SANDBOX_NOW, seed: 8 });
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
			expect(requestsTo('invoices').map((request) => request.query.type)).toEqual(['NON_FISCAL', 'NON_FISCAL', 'NON_FISCAL']);
		});

		it('includes the whole last day when To is a bare day', async () => {
			const lastDay = inRange(sandbox.state.invoices, Date.parse('2025-03-10T00:00:00Z'), Date.parse('2025-03-10T23:59:59.999Z'));
			expect(lastDay.length).toBeGreaterThan(0);

			const { json } = await run({ resource: 'invoice', operation: 'getMany', dateFrom: '2025-03-01T00:00:00', dateTo: '={{ "2025-03-10" }}', ...FULL });

			expect(requestsTo('invoices')[0].query.dateTo).toBe('2025-03-10T23:59:59.999Z');
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

		it('gets corrections with their own id, string fba and reason, and simplifies them', async () => {
			const { json } = await run({ resource: 'invoiceCorrection', operation: 'getMany', dateFrom: FROM, dateTo: TO, ...FULL });

			const expected = inRange(sandbox.state.corrections) as InvoiceCorrection[];
			expect(expected.length).toBeGreaterThan(5);
			expect(json).toEqual(asJson(expected));
			expect(requestsTo('invoiceCorrections')).toHaveLength(3);
			expect(requestsTo('invoices')).toHaveLength(0);

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
			expect(requestsTo('invoices').map((request) => request.query.dateFrom)).toEqual(['2024-12-01T00:00:00.000Z']);
		});

		it('sends the next window only while the limit is not reached, and cuts its answer at the limit', async () => {
			const limit = firstWindow().length + 3;

			const { json } = await run({ resource: 'invoice', operation: 'getMany', dateFrom: FROM, dateTo: TO, limit, simplify: false });

			expect(json).toEqual(asJson(inRange(sandbox.state.invoices).slice(0, limit)));
			expect(requestsTo('invoices').map((request) => request.query.dateFrom)).toEqual(['2024-12-01T00:00:00.000Z', '2025-03-01T00:00:00.000Z']);
		});

		it('applies the limit to corrections too, simplified', async () => {
			const { json } = await run({ resource: 'invoiceCorrection', operation: 'getMany', dateFrom: FROM, dateTo: TO, limit: 2 });

			expect(json.map((summary) => summary.invoiceNumber)).toEqual(
				inRange(sandbox.state.corrections).slice(0, 2).map((correction) => (correction as InvoiceCorrection).invoiceHeader.orderDetails.invoiceNumber),
			);
			expect(requestsTo('invoiceCorrections')).toHaveLength(1);
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
			expect(requestsTo('invoices').map((request) => request.query.dateFrom)).toEqual([
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
			const requests = requestsTo('invoiceUrls');
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
			expect(requestsTo('invoiceUrls').map((request) => request.status)).toEqual([200, 404, 404]);
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
			expect(requestsTo('invoiceUrls').map((request) => request.status)).toEqual([404, 404, 404]);
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
			expect(requestsTo('invoiceCorrectionUrls').length).toBe(3);
			expect(requestsTo('invoiceUrls')).toHaveLength(0);
			for (const item of items) {
				expect(Buffer.from(item.binary!.data.data, 'base64').subarray(0, 4).toString('latin1')).toBe('%PDF');
			}
		});
	});
});

describe('documents fields as the editor shows them', () => {
	const nodeTypes = new TestNodeTypes();
	const descriptionOf = (type: string) => nodeTypes.getByNameAndVersion(packageNodeTypeName(type), 1).description;
	const node = descriptionOf(NODE);
	const trigger = descriptionOf('marketplaceMerchantTrigger');

	/** The properties n8n shows for these parameters (n8n's own displayOptions check, as the panel does). */
	function shown(description: INodeTypeDescription, parameters: INodeParameters): INodeProperties[] {
		return description.properties.filter((property) => NodeHelpers.displayParameter(parameters, property, { typeVersion: 1 }, description));
	}

	function shownNamed(description: INodeTypeDescription, parameters: INodeParameters, name: string): INodeProperties {
		const matches = shown(description, parameters).filter((property) => property.name === name);
		expect(matches).toHaveLength(1);
		return matches[0];
	}

	/** The options of a collection n8n offers under "Add Option", given the values already set in it. */
	function offeredOptions(collection: INodeProperties, values: IDataObject): string[] {
		return (collection.options as INodeProperties[])
			.filter((option) => NodeHelpers.displayParameterPath({ options: values } as INodeParameters, option, 'options', { typeVersion: 1 }, node))
			.map((option) => option.name);
	}

	it.each(['invoice', 'invoiceCorrection'])('%s Get Many: range, type, Return All / Limit and Simplify (on) at the top level', (resource) => {
		const parameters = { resource, operation: 'getMany', returnAll: false };
		expect(shown(node, parameters).map((property) => property.name)).toEqual([
			'resource',
			'operation',
			'dateFrom',
			'dateTo',
			'invoiceType',
			'returnAll',
			'limit',
			'simplify',
			'options',
			'requestOptions',
		]);
		expect(shownNamed(node, parameters, 'simplify').default).toBe(true);
		expect(shownNamed(node, parameters, 'returnAll').default).toBe(false);
		expect(shown(node, { ...parameters, returnAll: true }).map((property) => property.name)).not.toContain('limit');
		expect(shownNamed(node, parameters, 'dateFrom').default).toBe('={{ $now.minus({ days: 7 }).startOf("day").toISO() }}');
		expect(shownNamed(node, parameters, 'dateTo').default).toBe('={{ $now.toISO() }}');
	});

	it('offers "Put Output File in Field" only with Attach Raw XML (Get Many) or Download PDFs (Get Document Links)', () => {
		const getManyOptions = shownNamed(node, { resource: 'invoice', operation: 'getMany' }, 'options');
		expect(offeredOptions(getManyOptions, {})).toEqual(['attachRawXml', 'responseFormat']);
		expect(offeredOptions(getManyOptions, { attachRawXml: false })).toEqual(['attachRawXml', 'responseFormat']);
		expect(offeredOptions(getManyOptions, { attachRawXml: true })).toEqual(['attachRawXml', 'binaryPropertyName', 'responseFormat']);

		const linkOptions = shownNamed(node, { resource: 'invoiceCorrection', operation: 'getDocumentLinks' }, 'options');
		expect(offeredOptions(linkOptions, {})).toEqual(['downloadPdfs']);
		expect(offeredOptions(linkOptions, { downloadPdfs: true })).toEqual(['downloadPdfs', 'binaryPropertyName']);
	});

	it('has one Invoice Type field, with one value for all, in the node and the trigger', () => {
		const typeFields = [
			shownNamed(node, { resource: 'invoice', operation: 'getMany' }, 'invoiceType'),
			shownNamed(node, { resource: 'invoiceCorrection', operation: 'getDocumentLinks' }, 'invoiceType'),
			shownNamed(trigger, { event: 'any' }, 'invoiceType'),
		];
		for (const field of typeFields) {
			expect(field.displayName).toBe('Invoice Type');
			expect(field.default).toBe('all');
			expect(field.options).toEqual(typeFields[0].options);
		}
	});

	it.each(['invoice', 'invoiceCorrection', 'any', 'productChanged'])('trigger on %s: Simplify at the top level, on by default', (event) => {
		expect(shownNamed(trigger, { event }, 'simplify').default).toBe(true);
	});
});

/** A document as the node reads it: through decode.ts against the kind's schema. */
function asRead(document: object, kind: DocumentKind): IDataObject {
	const [read] = decodeText(JSON.stringify([document]), 'application/json', DOCUMENTS[kind].answer) as IDataObject[];
	return read;
}

describe('invoice helpers: reading variant answers', () => {
	it('finds the document id under either spelling', () => {
		expect(documentIdOf(asRead({ invoiceHeader: { orderDetails: { invoiceid: 'a-1' } } }, 'invoice'), 'invoice')).toBe('a-1');
		expect(documentIdOf(asRead({ invoiceHeader: { orderDetails: { invoiceId: 'b-2', invoiceNumber: 'X' } } }, 'invoice'), 'invoice')).toBe('b-2');
		expect(documentIdOf(asRead({ invoiceHeader: { orderDetails: { invoiceNumber: 'NF-1' } } }, 'correction'), 'correction')).toBe('NF-1');
		expect(documentIdOf(asRead({ unexpected: true }, 'invoice'), 'invoice')).toBeUndefined();
	});

	it('simplifies variant spellings, string numbers, string fba and a stringified payment method list', () => {
		const document = {
			invoiceHeader: {
				invoiceType: 'NON_FISCAL',
				invoiceCorrectionReason: 'Reklamacija',
				orderDetails: { invoiceNumber: 'NF-7', orderId: 77, suborderId: '77-1', fba: 'false', paymentMethods: '[PBC, VOUCHER]', invoicedDate: '2025-01-02T03:04:05' },
				fiscalDetails: { referentDocumentNumber: 'NF-6', fiscalInvoiceDate: null },
			},
			productSpecification: { totalDetails: { basePrice: '-120.50', chargedPrice: -120.5 } },
			taxRateSpecification: { taxRateSpecification: [{ vat: '20' }, { vat: 20 }, { vat: 10 }], grandTotal: '-120.5' },
			somethingNew: { kept: 'in the full document' },
		};

		expect(simplifyDocument(asRead(document, 'correction'), 'correction')).toEqual({
			invoiceNumber: 'NF-7',
			referentDocumentNumber: 'NF-6',
			invoiceType: 'NON_FISCAL',
			suborderId: '77-1',
			orderId: '77',
			invoicedDate: '2025-01-02T03:04:05.000Z',
			basePrice: -120.5,
			chargedPrice: -120.5,
			grandTotal: -120.5,
			vatRates: [20, 10],
			paymentMethods: ['PBC', 'VOUCHER'],
			fba: false,
			correctionReason: 'Reklamacija',
		});
	});

	it('flattens link answers keyed by suborder, also with extra fields, single objects and the spec placeholder key', () => {
		expect(
			flattenDocumentLinks({
				'1-1': [{ documentCorrelationId: 'd1', link: 'https://x/1', expiresIn: 600 }, { documentCorrelationId: 'd2', link: 'https://x/2' }],
				'2-1': { documentCorrelationId: 'd3', link: 'https://x/3' },
				'3-1': [],
			}),
		).toEqual([
			{ suborderId: '1-1', documentCorrelationId: 'd1', link: 'https://x/1', expiresIn: 600 },
			{ suborderId: '1-1', documentCorrelationId: 'd2', link: 'https://x/2' },
			{ suborderId: '2-1', documentCorrelationId: 'd3', link: 'https://x/3' },
		]);
		expect(flattenDocumentLinks({ suborderIdNumberValue: [{ documentCorrelationId: 'd4', link: 'https://x/4' }] }, ['9-2'])).toEqual([
			{ suborderId: '9-2', documentCorrelationId: 'd4', link: 'https://x/4' },
		]);
		expect(flattenDocumentLinks(undefined)).toEqual([]);
	});

	it('reads a bare To day as the whole day', () => {
		const ctx = { getNode: () => ({ name: 'Node' }) as INode };
		expect(readDocumentRange(ctx, '01/03/2025', '31/03/2025')).toEqual({
			from: new Date('2025-03-01T00:00:00.000Z'),
			to: new Date('2025-03-31T23:59:59.999Z'),
		});
	});
});

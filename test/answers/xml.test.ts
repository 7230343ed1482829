/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code, run by jest and never loaded by n8n: it may use process and timers (docs/architecture.md, Toolchain). */
/**
 * XML answers of the invoice endpoints: read into the same JSON as JSON answers, archived raw on
 * request, and safe against entity expansion. Through n8n's real engine against the sandbox,
 * plus the reader itself on documents the sandbox does not produce.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { ANSWERS, INVOICE, PRODUCT, STRING, listOf, objectOf } from '../../nodes/MarketplaceMerchant/answers/schemas';
import { decodeText } from '../../nodes/MarketplaceMerchant/answers/read';
import { startSandbox, type Invoice, type InvoiceCorrection, type Sandbox } from '../../sandbox';
import { XML_BOMB } from '../../sandbox/xml';
import { runNode, type RunNodeOptions, sandboxCredential } from '../harness';

const NODE = 'marketplaceMerchant';
/** Seven months: three 3-month windows. */
const FROM = '2024-12-01T00:00:00';
const TO = '2025-06-30T23:59:59';
/** Two months (one window) hold enough documents to compare, and keep the suite fast. */
const COMPARE_FROM = '2025-01-01T00:00:00';
const COMPARE_TO = '2025-02-28T23:59:59';

/** Reads an XML answer as the node does, against the schema of a list of invoices (or another). */
function readXml(xml: string, answer: { body: ReturnType<typeof listOf> } = ANSWERS.invoices): unknown {
	return decodeText(xml, 'application/xml', answer);
}

describe('XML answers', () => {
	let sandbox: Sandbox;
	let options: RunNodeOptions;
	let special: Invoice;

	beforeAll(async () => {
		sandbox = await startSandbox({ rateLimits: false, now: '2025-06-15T10:00:00Z', seed: 11 });
		options = {
			credentials: {
				marketplaceMerchantApi: sandboxCredential(sandbox),
			},
		};
		// What the seeded data lacks: leading zeros in an EAN and an id, markup characters in text.
		const template = sandbox.state.invoices[0].productSpecification.items[0];
		special = sandbox.addInvoice({
			invoiceHeader: {
				invoiceType: 'FISCAL',
				customerDetails: { firstName: 'Ana & "Maja"', lastName: "O'Brien <Jr>" },
				orderDetails: { invoicedDate: '2025-01-15T12:00:00', orderid: '0051234', paymentMethods: ['PBC'] },
			},
			productSpecification: {
				items: [{ ...template, productDetails: { ...template.productDetails, ean: '0012345678905', apId: '0042' } }],
			},
		});
	});
	afterAll(async () => await sandbox.close());
	beforeEach(() => sandbox.clearLog());

	async function run(parameters: INodeParameters) {
		// Every document of the range, in full (the defaults are a Limit of 50 and Simplify on).
		const result = await runNode(NODE, { dateFrom: COMPARE_FROM, dateTo: COMPARE_TO, returnAll: true, simplify: false, ...parameters }, [{}], options);
		expect(result.error).toBeUndefined();
		return result;
	}

	it.each([
		['invoice', 'invoices'],
		['invoiceCorrection', 'invoiceCorrections'],
	] as const)('reads %s XML into exactly the JSON answers (Jackson leaves nulls out; they come back as null)', async (resource, route) => {
		const fromJson = await run({ resource, operation: 'getMany' });
		const fromXml = await run({ resource, operation: 'getMany', options: { responseFormat: 'xml' } });

		const jsonDocuments = fromJson.json('Node');
		const xmlDocuments = fromXml.json('Node');
		expect(jsonDocuments.length).toBeGreaterThan(5);
		expect(xmlDocuments).toEqual(jsonDocuments);
		expect(sandbox.count(route)).toBe(2);
		// The comparison covers one-element lists of every list field.
		const documents = jsonDocuments as unknown as Array<Invoice | InvoiceCorrection>;
		expect(documents.some((document) => document.productSpecification.items.length === 1)).toBe(true);
		expect(documents.some((document) => document.invoiceHeader.orderDetails.paymentMethods.length === 1)).toBe(true);
		expect(documents.some((document) => document.taxRateSpecification.taxRateSpecification.length === 1)).toBe(true);
		expect(fromXml.output('Node').every((item) => item.binary === undefined)).toBe(true);
	});

	it('keeps leading zeros, text and types of the added invoice', async () => {
		const result = await run({ resource: 'invoice', operation: 'getMany', options: { responseFormat: 'xml' } });

		const id = special.invoiceHeader.orderDetails.invoiceId;
		const document = result
			.json('Node')
			.find((candidate) => (candidate.invoiceHeader as { orderDetails: IDataObject }).orderDetails.invoiceId === id) as unknown as Invoice;
		expect(document.productSpecification.items).toEqual(JSON.parse(JSON.stringify(special.productSpecification.items)));
		expect(document.productSpecification.items[0].productDetails).toMatchObject({ ean: '0012345678905', apId: '0042' });
		expect(document.invoiceHeader.orderDetails).toMatchObject({ orderid: '0051234', paymentMethods: ['PBC'], fba: special.invoiceHeader.orderDetails.fba });
		expect(document.invoiceHeader.customerDetails).toMatchObject({ firstName: 'Ana & "Maja"', lastName: "O'Brien <Jr>" });
		expect(typeof document.productSpecification.items[0].quantity).toBe('number');
	});

	it('attaches the raw XML answer of each window as a file', async () => {
		const result = await run({
			resource: 'invoice',
			operation: 'getMany',
			dateFrom: FROM,
			dateTo: TO,
			options: { attachRawXml: true },
		});

		const items = result.output('Node');
		expect(items.length).toBeGreaterThan(5);
		const byFile = new Map<string, { data: string; documents: IDataObject[] }>();
		for (const item of items) {
			const file = item.binary?.data;
			expect(file).toMatchObject({ mimeType: 'application/xml' });
			const seen = byFile.get(file!.fileName!);
			if (seen) {
				expect(file!.data === seen.data).toBe(true);
				continue;
			}
			const xml = Buffer.from(file!.data, 'base64').toString('utf8');
			expect(xml.startsWith('<List><item>')).toBe(true);
			byFile.set(file!.fileName!, { data: file!.data, documents: readXml(xml) as IDataObject[] });
		}
		expect([...byFile.keys()]).toEqual([
			'invoices-2024-12-01-2025-02-28.xml',
			'invoices-2025-03-01-2025-05-31.xml',
			'invoices-2025-06-01-2025-06-30.xml',
		]);
		// Each file holds exactly the documents of its window, which together are the output.
		expect([...byFile.values()].flatMap((file) => file.documents)).toEqual(result.json('Node'));
	});

	it('refuses a billion-laughs answer with a clear error, without expanding it', async () => {
		sandbox.injectFault({ route: 'invoices', body: 'xml-bomb', count: 1 });
		const heapBefore = process.memoryUsage().heapUsed;

		const result = await runNode(
			NODE,
			{
				resource: 'invoice',
				operation: 'getMany',
				dateFrom: '2025-01-01T00:00:00',
				dateTo: '2025-01-31T00:00:00',
				options: { responseFormat: 'xml' },
			},
			[{}],
			options,
		);

		// Expanded, the entity would be 3 GB of "lol"; the answer is refused before anything is read.
		expect(result.error?.message).toBe('The service answered with XML that could not be read');
		expect(result.error?.description).toMatch(/DOCTYPE/);
		expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(64 * 1024 * 1024);
		expect(sandbox.count('invoices')).toBe(1);
	});
});

describe('reading XML against the schema', () => {
	const TAX = objectOf({ taxRateSpecification: INVOICE.fields.taxRateSpecification, paymentMethods: listOf(STRING), items: listOf(PRODUCT) });

	it('reads one-element lists as lists, including a list inside an object of the same name', () => {
		const xml =
			'<List><item><taxRateSpecification><taxRateSpecification><taxRateSpecification><label>Ђ</label><vat>20</vat>' +
			'<vatAmount>-1.5</vatAmount></taxRateSpecification></taxRateSpecification><grandTotal>9</grandTotal></taxRateSpecification>' +
			'<paymentMethods><paymentMethods>COD</paymentMethods></paymentMethods><items></items></item></List>';

		expect(readXml(xml, { body: listOf(TAX) })).toEqual([
			{
				taxRateSpecification: {
					taxRateSpecification: [{ label: 'Ђ', name: null, basePriceWithoutVat: null, vat: 20, vatAmount: -1.5 }],
					grandTotal: 9,
				},
				paymentMethods: ['COD'],
				items: [],
			},
		]);
	});

	it('reads a one-item and an empty list answer as lists', () => {
		const eans = { body: listOf(objectOf({ ean: STRING })) };
		expect(readXml('<List><item><ean>0000000000017</ean></item></List>', eans)).toEqual([{ ean: '0000000000017' }]);
		expect(readXml('<List/>', eans)).toEqual([]);
		expect(readXml('<?xml version="1.0"?>\n<List></List>', eans)).toEqual([]);
	});

	it('types fields by the schema: fba is a boolean in invoices and text in corrections', () => {
		const xml = '<List><item><invoiceHeader><orderDetails><fba>true</fba><warehouseAddress><warehouseId>0042</warehouseId></warehouseAddress></orderDetails></invoiceHeader></item></List>';

		const [invoice] = readXml(xml, ANSWERS.invoices) as Array<{ invoiceHeader: { orderDetails: IDataObject } }>;
		const [correction] = readXml(xml, ANSWERS.invoiceCorrections) as Array<{ invoiceHeader: { orderDetails: IDataObject } }>;
		expect(invoice.invoiceHeader.orderDetails).toMatchObject({ fba: true, warehouseAddress: { warehouseId: 42, street: null, city: null } });
		expect(correction.invoiceHeader.orderDetails).toMatchObject({ fba: 'true', warehouseAddress: { warehouseId: 42 } });
	});

	it('decodes predefined entities and character references', () => {
		const xml = '<List><item><name>&lt;a&gt; &amp;amp; &#39;&#x41;&apos;</name></item></List>';

		expect(readXml(xml, { body: listOf(objectOf({ name: STRING })) })).toEqual([{ name: "<a> &amp; 'A'" }]);
	});

	it('refuses documents that declare a DOCTYPE (entity definitions)', () => {
		expect(() => readXml('<!DOCTYPE List [<!ENTITY x "expanded">]><List><item><name>&x;</name></item></List>')).toThrow(/DOCTYPE/);
		expect(() => readXml(XML_BOMB)).toThrow(/DOCTYPE/);
	});
});

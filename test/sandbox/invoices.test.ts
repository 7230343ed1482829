import { XMLParser } from 'fast-xml-parser';
import { startSandbox, type Invoice, type InvoiceCorrection, type Sandbox } from '../../sandbox';
import { ORDER_API, call, getToken } from './helpers';

const NOW = '2025-06-15T10:00:00Z';

function range(from: string, to: string, extra = ''): string {
	return `dateFrom=${encodeURIComponent(from)}&dateTo=${encodeURIComponent(to)}${extra}`;
}

function expectInvoiceStructure(document: Invoice | InvoiceCorrection): void {
	const header = document.invoiceHeader;
	expect(['FISCAL', 'NON_FISCAL']).toContain(header.invoiceType);
	expect(header.merchantDetails).toEqual({
		name: expect.any(String),
		businessSpaceCode: expect.any(String),
		taxIdentificationNumber: expect.stringMatching(/^\d{9}$/),
		identificationNumber: expect.stringMatching(/^\d{8}$/),
		taxAdministrationId: expect.any(String),
		cashier: expect.any(String),
		contactDetails: { phone: expect.any(String), email: expect.any(String) },
		address: { street: expect.any(String), city: expect.any(String) },
	});
	expect(header.customerDetails).toEqual({
		firstName: expect.any(String),
		lastName: expect.any(String),
		address: { street: expect.any(String), city: expect.any(String), postcode: expect.any(String) },
	});
	expect(header.orderDetails).toMatchObject({
		invoicedDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/),
		orderid: expect.any(String),
		suborderId: expect.any(String),
		paymentMethods: expect.any(Array),
		warehouseAddress: { warehouseId: expect.any(Number), street: expect.any(String), city: expect.any(String) },
		orderDate: expect.any(String),
	});
	const price = {
		unitPrice: expect.any(Number),
		unitPriceWithoutVat: expect.any(Number),
		basePrice: expect.any(Number),
		basePriceWithoutVat: expect.any(Number),
		discountVat: expect.any(Number),
		discountAmount: expect.any(Number),
		vat: expect.any(Number),
		vatAmount: expect.any(Number),
	};
	expect(document.productSpecification.items.length).toBeGreaterThan(0);
	for (const item of document.productSpecification.items) {
		expect(item).toEqual({
			productDetails: { name: expect.any(String), apId: expect.any(String), sku: expect.any(String), ean: expect.any(String), acode: expect.any(String) },
			quantity: expect.any(Number),
			itemPrice: price,
			grandTotalPrice: price,
		});
	}
	const totals = document.productSpecification.totalDetails;
	expect(Object.keys(totals).sort()).toEqual(['basePrice', 'basePriceWithoutVat', 'chargedPrice', 'vatAmount']);
	const tax = document.taxRateSpecification;
	expect(tax.grandTotal).toBe(totals.basePrice);
	const groups = tax.taxRateSpecification;
	expect(groups.length).toBeGreaterThan(0);
	for (const group of groups) {
		expect(group).toEqual({ label: expect.any(String), name: expect.any(String), basePriceWithoutVat: expect.any(Number), vat: expect.any(Number), vatAmount: expect.any(Number) });
	}
	const groupTotal = groups.reduce((sum, group) => sum + group.basePriceWithoutVat + group.vatAmount, 0);
	expect(groupTotal).toBeCloseTo(totals.basePrice, 1);
}

describe('sandbox: warehouses, invoices and corrections', () => {
	let sandbox: Sandbox;
	let token: string;
	const get = (path: string, headers?: Record<string, string>) => call(sandbox, 'GET', path, { token, headers });

	beforeAll(async () => {
		sandbox = await startSandbox({ now: NOW, rateLimits: false, seed: 3 });
		token = await getToken(sandbox);
	});
	afterAll(() => sandbox.close());

	it('lists warehouses with exactly one default address', async () => {
		const { status, json } = await get(`${ORDER_API}/merchant-warehouses`);
		expect(status).toBe(200);
		expect(json.content.length).toBeGreaterThanOrEqual(2);
		expect(json.content.length).toBeLessThanOrEqual(3);
		for (const warehouse of json.content) {
			expect(warehouse).toEqual({ id: expect.any(Number), warehouseName: expect.any(String), defaultAddress: expect.any(Boolean) });
		}
		expect(json.content.filter((warehouse: { defaultAddress: boolean }) => warehouse.defaultAddress)).toHaveLength(1);
	});

	it('lists seeded invoices of a range, sorted, with the full structure', async () => {
		const { status, json } = await get(`${ORDER_API}/invoices?${range('2025-04-01T00:00:00.000Z', '2025-06-15T10:00:00Z')}`);
		expect(status).toBe(200);
		const invoices = json as Invoice[];
		expect(invoices.length).toBeGreaterThan(100);
		invoices.forEach(expectInvoiceStructure);
		const dates = invoices.map((invoice) => invoice.invoiceHeader.orderDetails.invoicedDate);
		expect([...dates].sort()).toEqual(dates);
		expect(dates[0] >= '2025-04-01').toBe(true);
		const fiscal = invoices.find((invoice) => invoice.invoiceHeader.invoiceType === 'FISCAL')!;
		expect(fiscal.invoiceHeader.fiscalDetails).toEqual({
			invoiceCounter: expect.any(String),
			verificationUrl: expect.any(String),
			fiscalInvoiceDate: expect.stringMatching(/Z$/),
			invoiceNumber: expect.any(String),
		});
		expect(typeof fiscal.invoiceHeader.orderDetails.fba).toBe('boolean');
		expect(new Set(invoices.map((invoice) => invoice.invoiceHeader.orderDetails.invoiceId)).size).toBe(invoices.length);

		const nonFiscal = await get(`${ORDER_API}/invoices?${range('2025-04-01T00:00:00Z', '2025-06-15T00:00:00Z', '&type=NON_FISCAL')}`);
		expect(nonFiscal.json.length).toBeGreaterThan(0);
		expect(nonFiscal.json.every((invoice: Invoice) => invoice.invoiceHeader.invoiceType === 'NON_FISCAL')).toBe(true);
		expect((await get(`${ORDER_API}/invoices?${range('2025-04-01T00:00:00Z', '2025-06-15T00:00:00Z', '&type=OTHER')}`)).status).toBe(400);
	});

	it('applies the live range rules', async () => {
		const cases: Array<[string, string]> = [
			['2025-01-01T00:00:00Z', '2025-04-01T00:00:00.001Z'], // longer than 3 months
			['2022-04-30T23:59:59Z', '2022-06-01T00:00:00Z'], // before 2022-05-01
			['2025-06-10T00:00:00Z', '2025-06-01T00:00:00Z'], // reversed
			['2025-06-01', '2025-06-10T00:00:00Z'], // no time
			['2025-06-01T00:00:00', '2025-06-10T00:00:00Z'], // no zone
		];
		for (const [from, to] of cases) {
			for (const path of ['invoices', 'invoice-corrections', 'invoices/urls']) {
				const answer = await get(`${ORDER_API}/${path}?${range(from, to)}`);
				expect({ path, from, to, status: answer.status }).toEqual({ path, from, to, status: 400 });
				expect(answer.json.message).toEqual(expect.any(String));
			}
		}
		expect((await get(`${ORDER_API}/invoices?dateFrom=2025-06-01T00:00:00Z`)).status).toBe(400);
		const threeMonths = await get(`${ORDER_API}/invoices?${range('2025-01-01T00:00:00Z', '2025-04-01T00:00:00+00:00')}`);
		expect(threeMonths.status).toBe(200);
		expect((await get(`${ORDER_API}/invoices?${range('2022-05-01T00:00:00.000000Z', '2022-05-02T00:00:00Z')}`)).status).toBe(200);
	});

	it('includes both bounds, and shows late invoices only from their visibleAt', async () => {
		const atStart = sandbox.addInvoice({ invoiceHeader: { orderDetails: { invoicedDate: '2025-06-14T00:00:00' } } });
		const atEnd = sandbox.addInvoice({ invoiceHeader: { invoiceType: 'NON_FISCAL', orderDetails: { invoicedDate: '2025-06-14T01:00:00' } } });
		const late = sandbox.addInvoice(
			{ invoiceHeader: { orderDetails: { invoicedDate: '2025-06-14T00:30:00' } } },
			{ visibleAt: '2025-06-15T11:00:00Z' },
		);
		expect(atEnd.invoiceHeader.fiscalDetails.invoiceCounter).toBeNull();
		const path = `${ORDER_API}/invoices?${range('2025-06-14T00:00:00Z', '2025-06-14T01:00:00.000Z')}`;
		const ids = (await get(path)).json.map((invoice: Invoice) => invoice.invoiceHeader.orderDetails.invoiceId);
		expect(ids[0]).toBe(atStart.invoiceHeader.orderDetails.invoiceId);
		expect(ids.at(-1)).toBe(atEnd.invoiceHeader.orderDetails.invoiceId);
		expect(ids).not.toContain(late.invoiceHeader.orderDetails.invoiceId);

		sandbox.clock.advance(3_600_000);
		const later = (await get(path)).json.map((invoice: Invoice) => invoice.invoiceHeader.orderDetails.invoiceId);
		expect(later).toContain(late.invoiceHeader.orderDetails.invoiceId);
		expect(later.indexOf(late.invoiceHeader.orderDetails.invoiceId)).toBeLessThan(later.indexOf(atEnd.invoiceHeader.orderDetails.invoiceId));
		sandbox.clock.set(NOW);

		const fresh = sandbox.addInvoice();
		expect(fresh.invoiceHeader.orderDetails.invoicedDate).toBe('2025-06-15T10:00:00');
		expect(sandbox.state.invoices.filter((invoice) => invoice.invoiceHeader.orderDetails.suborderId === fresh.invoiceHeader.orderDetails.suborderId)).toHaveLength(1);
	});

	it('answers XML in the Jackson default shape when asked', async () => {
		const path = `${ORDER_API}/invoices?${range('2025-05-01T00:00:00Z', '2025-06-15T10:00:00Z')}`;
		const json = (await get(path)).json as Invoice[];
		const xml = await get(path, { Accept: 'application/xml' });
		expect(xml.status).toBe(200);
		expect(xml.headers.get('content-type')).toMatch(/application\/xml/);
		expect(xml.text.startsWith('<List><item><invoiceHeader>')).toBe(true);
		expect(xml.text).toContain('<paymentMethods><paymentMethods>');
		expect(xml.text).toContain('<items><items><productDetails>');
		const parsed = new XMLParser({ parseTagValue: false, isArray: (_name, jpath) => jpath === 'List.item' }).parse(xml.text);
		const items = parsed.List.item;
		expect(items).toHaveLength(json.length);
		const first = items[0];
		expect(first.invoiceHeader.orderDetails.invoiceId).toBe(json[0].invoiceHeader.orderDetails.invoiceId);
		expect(first.invoiceHeader.orderDetails.paymentMethods.paymentMethods).toBe(json[0].invoiceHeader.orderDetails.paymentMethods[0]);
		expect(first.taxRateSpecification.grandTotal).toBe(String(json[0].taxRateSpecification.grandTotal));
		const nonFiscalIndex = json.findIndex((invoice) => invoice.invoiceHeader.invoiceType === 'NON_FISCAL');
		expect(items[nonFiscalIndex].invoiceHeader.fiscalDetails).toEqual({ invoiceNumber: json[nonFiscalIndex].invoiceHeader.fiscalDetails.invoiceNumber });
	});

	it('lists corrections with their differences from invoices', async () => {
		const { json } = await get(`${ORDER_API}/invoice-corrections?${range('2025-03-16T00:00:00Z', '2025-06-15T10:00:00Z')}`);
		const corrections = json as InvoiceCorrection[];
		expect(corrections.length).toBeGreaterThan(0);
		for (const correction of corrections) {
			expectInvoiceStructure(correction);
			const header = correction.invoiceHeader;
			expect(header.invoiceCorrectionReason).toEqual(expect.any(String));
			expect(header.fiscalDetails.referentDocumentNumber).toEqual(expect.any(String));
			expect(header.fiscalDetails).not.toHaveProperty('invoiceNumber');
			expect(header.orderDetails.invoiceNumber).toEqual(expect.any(String));
			expect(header.orderDetails).not.toHaveProperty('invoiceId');
			expect(['true', 'false']).toContain(header.orderDetails.fba);
			expect(correction.productSpecification.totalDetails.basePrice).toBeLessThan(0);
		}
		const added = sandbox.addInvoiceCorrection();
		const again = sandbox.addInvoiceCorrection();
		expect(added.invoiceHeader.orderDetails.invoiceNumber).not.toBe(again.invoiceHeader.orderDetails.invoiceNumber);
		const recent = await get(`${ORDER_API}/invoice-corrections?${range('2025-06-15T00:00:00Z', '2025-06-15T23:00:00Z')}`);
		expect(recent.json.map((correction: InvoiceCorrection) => correction.invoiceHeader.orderDetails.invoiceNumber)).toEqual(
			expect.arrayContaining([added.invoiceHeader.orderDetails.invoiceNumber, again.invoiceHeader.orderDetails.invoiceNumber]),
		);
	});

	it('answers /urls keyed by suborder id, with links that download a PDF and expire', async () => {
		const invoices = (await get(`${ORDER_API}/invoices?${range('2025-06-01T00:00:00Z', '2025-06-10T00:00:00Z')}`)).json as Invoice[];
		const wanted = invoices.slice(0, 2).map((invoice) => invoice.invoiceHeader.orderDetails.suborderId);
		const byIds = await get(`${ORDER_API}/invoices/urls?suborderIds=${wanted.join(',')}`);
		expect(byIds.status).toBe(200);
		expect(Object.keys(byIds.json).sort()).toEqual([...wanted].sort());
		const [entry] = byIds.json[wanted[0]];
		expect(entry).toEqual({ documentCorrelationId: invoices[0].invoiceHeader.orderDetails.invoiceId, link: expect.stringContaining(sandbox.url) });

		const byRange = await get(`${ORDER_API}/invoices/urls?${range('2025-06-01T00:00:00Z', '2025-06-10T00:00:00Z')}`);
		expect(Object.keys(byRange.json)).toHaveLength(new Set(invoices.map((invoice) => invoice.invoiceHeader.orderDetails.suborderId)).size);

		const pdf = await fetch(entry.link);
		expect(pdf.status).toBe(200);
		expect(pdf.headers.get('content-type')).toBe('application/pdf');
		const bytes = Buffer.from(await pdf.arrayBuffer()).toString('latin1');
		expect(bytes.startsWith('%PDF-1.4')).toBe(true);
		expect(bytes.trimEnd().endsWith('%%EOF')).toBe(true);
		expect(bytes).toContain(entry.documentCorrelationId);
		const xrefAt = Number(/startxref\n(\d+)/.exec(bytes)?.[1]);
		expect(bytes.slice(xrefAt, xrefAt + 4)).toBe('xref');

		expect((await fetch(entry.link.replace(/signature=\w{4}/, 'signature=0000'))).status).toBe(403);
		sandbox.clock.advance(11 * 60_000);
		const expired = await fetch(entry.link);
		expect(expired.status).toBe(403);
		expect(await expired.json()).toEqual({ message: 'Link expired' });
		sandbox.clock.set(NOW);
		expect(sandbox.count('document')).toBe(3);

		expect((await get(`${ORDER_API}/invoices/urls?suborderIds=nope-1`)).status).toBe(404);
		expect((await get(`${ORDER_API}/invoices/urls`)).status).toBe(400);
		expect((await get(`${ORDER_API}/invoices/urls?dateFrom=2025-06-01T00:00:00Z&suborderIds=${wanted[0]}`)).status).toBe(400);
		expect(sandbox.log.at(-1)).toMatchObject({ route: 'invoiceUrls', itemCount: 1, status: 400 });

		const correction = sandbox.addInvoiceCorrection();
		const correctionLinks = await get(`${ORDER_API}/invoice-corrections/urls?suborderIds=${correction.invoiceHeader.orderDetails.suborderId}`);
		const [correctionEntry] = correctionLinks.json[correction.invoiceHeader.orderDetails.suborderId];
		expect(correctionEntry.documentCorrelationId).toBe(correction.invoiceHeader.orderDetails.invoiceNumber);
		const correctionPdf = await fetch(correctionEntry.link);
		expect(Buffer.from(await correctionPdf.arrayBuffer()).toString('latin1')).toContain('Invoice correction');
	});
});

/**
 * The sandbox switches about how many results an answer holds and whether an accepted import takes
 * effect (bulkResultsDropped, bulkResultsRepeated, bulkResultsReversed, urlsKeyedBySchemaName, urlsSelection, importFailsAsynchronously), set over HTTP as
 * the end-to-end suite sets them.
 */
import { startSandbox, type Sandbox } from '../../sandbox';
import { eanCheckDigit } from '../../sandbox/products';
import { ORDER_API, PAYMENT_API, PRODUCT_API, call, getToken } from './helpers';

let sandbox: Sandbox;
let token: string;

beforeAll(async () => {
	sandbox = await startSandbox({ rateLimits: false, now: '2025-06-15T10:00:00Z', seed: 2, products: 20 });
	token = await getToken(sandbox);
});
afterAll(async () => await sandbox.close());
afterEach(async () => {
	expect((await call(sandbox, 'DELETE', '/__sandbox/variants')).status).toBe(200);
});

async function setVariants(variants: Record<string, unknown>): Promise<void> {
	const answer = await call(sandbox, 'POST', '/__sandbox/variants', { body: variants });
	expect(answer.status).toBe(200);
}

describe('bulkResultsDropped', () => {
	it('leaves results off the end of product/bulk while applying every entry', async () => {
		const [first, second] = sandbox.state.products;
		await setVariants({ bulkResultsDropped: 1 });

		const answer = await call(sandbox, 'PUT', `${PRODUCT_API}/product/bulk`, {
			token,
			body: [
				{ id: first.id, stockLevel: 41 },
				{ id: second.id, stockLevel: 42 },
			],
		});

		expect(answer.status).toBe(200);
		expect(answer.json).toEqual([{ status: 'SUCCESS', errors: [], myProductId: first.id }]);
		expect(sandbox.state.product(second.id)?.stockLevel).toBe(42);
	});

	it('answers an empty list for a number at least the list length, and an empty body for product/{id}', async () => {
		const [product] = sandbox.state.products;
		await setVariants({ bulkResultsDropped: 1e9 });
		const discount = { merchantInventoryId: product.id, discountPrice: 1, dateFrom: '01/08/2025', dateTo: '05/08/2025', discountType: 'SALE' };

		const schedule = await call(sandbox, 'POST', `${PAYMENT_API}/discounts`, { token, body: { discounts: [discount] } });
		const update = await call(sandbox, 'PUT', `${PAYMENT_API}/discounts`, { token, body: { discounts: [{ discountId: 'none', newDateTo: '04/08/2025' }] } });
		const single = await call(sandbox, 'PUT', `${PRODUCT_API}/product/${product.id}`, { token, body: { stockLevel: 3 } });

		expect([schedule.status, schedule.json]).toEqual([200, { scheduleResult: [] }]);
		expect([update.status, update.json]).toEqual([200, { updateResult: [] }]);
		expect([single.status, single.text]).toEqual([200, '']);
		expect(sandbox.state.discounts.filter((stored) => stored.merchantInventoryId === product.id && stored.dateFrom === '01/08/2025')).toHaveLength(1);
		expect(sandbox.state.product(product.id)?.stockLevel).toBe(3);
	});
});

describe('urlsKeyedBySchemaName', () => {
	it('keys both /urls answers by the literal suborderIdNumberValue', async () => {
		const [invoice] = sandbox.state.invoices;
		const [correction] = sandbox.state.corrections;
		await setVariants({ urlsKeyedBySchemaName: true });

		const invoices = await call(sandbox, 'GET', `${ORDER_API}/invoices/urls?suborderIds=${invoice.invoiceHeader.orderDetails.suborderId}`, { token });
		const corrections = await call(
			sandbox,
			'GET',
			`${ORDER_API}/invoice-corrections/urls?suborderIds=${correction.invoiceHeader.orderDetails.suborderId}`,
			{ token },
		);

		expect(invoices.json).toEqual({
			suborderIdNumberValue: [{ documentCorrelationId: invoice.invoiceHeader.orderDetails.invoiceId, link: expect.any(String) }],
		});
		expect(corrections.json).toEqual({
			suborderIdNumberValue: [{ documentCorrelationId: correction.invoiceHeader.orderDetails.invoiceNumber, link: expect.any(String) }],
		});
	});
});

describe('urlsSelection', () => {
	const urls = (query: string) => call(sandbox, 'GET', `${ORDER_API}/invoices/urls?${query}`, { token });

	it("selects by suborder ids or a range ('either', the default); both given, the suborders' documents invoiced in the range", async () => {
		const invoice = sandbox.state.invoices.find((each) => each.invoiceHeader.orderDetails.invoicedDate.startsWith('2025-05'))!;
		const suborderId = invoice.invoiceHeader.orderDetails.suborderId;
		const may = 'dateFrom=2025-05-01T00:00:00Z&dateTo=2025-05-31T23:59:59Z';
		const june = 'dateFrom=2025-06-01T00:00:00Z&dateTo=2025-06-14T23:59:59Z';

		expect((await urls(`suborderIds=${suborderId}`)).status).toBe(200);
		expect((await urls(may)).status).toBe(200);
		expect((await urls(`suborderIds=${suborderId}&${may}`)).json).toEqual({ [suborderId]: [expect.objectContaining({ documentCorrelationId: invoice.invoiceHeader.orderDetails.invoiceId })] });
		expect((await urls(`suborderIds=${suborderId}&${june}`)).status).toBe(404);
	});

	it("requires the dates and the suborder ids, as the interface reference marks them ('all')", async () => {
		const invoice = sandbox.state.invoices.find((each) => each.invoiceHeader.orderDetails.invoicedDate.startsWith('2025-05'))!;
		const suborderId = invoice.invoiceHeader.orderDetails.suborderId;
		await setVariants({ urlsSelection: 'all' });

		const idsOnly = await urls(`suborderIds=${suborderId}`);
		const rangeOnly = await urls('dateFrom=2025-05-01T00:00:00Z&dateTo=2025-05-31T23:59:59Z');
		const both = await urls(`suborderIds=${suborderId}&dateFrom=2025-05-01T00:00:00Z&dateTo=2025-05-31T23:59:59Z`);

		expect([idsOnly.status, idsOnly.text]).toEqual([400, expect.stringContaining("Required request parameter 'dateFrom'")]);
		expect([rangeOnly.status, rangeOnly.text]).toEqual([400, expect.stringContaining("Required request parameter 'suborderIds'")]);
		expect(both.status).toBe(200);
	});
});

describe('importFailsAsynchronously', () => {
	const ean = (body: string) => `${body}${eanCheckDigit(body)}`;
	const row = (code: string) => ({ ean: code, name: 'Čaša', basePrice: 500, vat: 20, description: 'Staklena čaša', coverImage: 'https://img.example/c.jpg' });

	it('answers a progress id for every row, but one without description or cover image never becomes a product', async () => {
		await setVariants({ importFailsAsynchronously: true });
		const complete = ean('400000000001');
		const noDescription = ean('400000000002');
		const noCover = ean('400000000003');

		const answers = [
			await call(sandbox, 'POST', `${PRODUCT_API}/import`, { token, body: row(complete) }),
			await call(sandbox, 'POST', `${PRODUCT_API}/import`, { token, body: { ...row(noDescription), description: '' } }),
			await call(sandbox, 'POST', `${PRODUCT_API}/import`, { token, body: { ...row(noCover), coverImage: undefined } }),
		];

		expect(answers.map((answer) => [answer.status, typeof answer.json.id])).toEqual([
			[200, 'string'],
			[200, 'string'],
			[200, 'string'],
		]);
		expect(sandbox.state.productByEan(complete)).toBeDefined();
		expect(sandbox.state.productByEan(noDescription)).toBeUndefined();
		expect(sandbox.state.productByEan(noCover)).toBeUndefined();
	});
});

describe('importBodyShape', () => {
	const ean = (body: string) => `${body}${eanCheckDigit(body)}`;
	const row = (code: string) => ({ ean: code, name: 'Šolja', basePrice: 400, vat: 20, description: 'Keramička šolja', coverImage: 'https://img.example/s.jpg' });
	const importing = async (body: unknown) => await call(sandbox, 'POST', `${PRODUCT_API}/import`, { token, body });
	const binderError = (type: string, from: string) => ({
		timestamp: expect.any(String),
		status: 400,
		error: 'Bad Request',
		message: expect.stringMatching(new RegExp(`^JSON parse error: Cannot deserialize value of type \`${type}\` from ${from} value`)),
		path: `${PRODUCT_API}/import`,
	});

	it('object (the default): binds one product, and a list gets the JSON binder\'s 400', async () => {
		const list = await importing([row(ean('400000000011'))]);
		expect(list.status).toBe(400);
		expect(list.json).toEqual(binderError('[\\w.]+ImportProductRequest', 'Array'));
		expect(sandbox.state.productByEan(ean('400000000011'))).toBeUndefined();
		expect((await importing(row(ean('400000000012')))).status).toBe(200);
	});

	it('list: one progress id for the whole list, and one object gets the JSON binder\'s 400', async () => {
		await setVariants({ importBodyShape: 'list' });
		const codes = [ean('400000000021'), ean('400000000022'), ean('400000000023')];
		const answer = await importing(codes.map(row));
		expect([answer.status, typeof answer.json.id]).toEqual([200, 'string']);
		for (const code of codes) expect(sandbox.state.productByEan(code)).toBeDefined();

		const one = await importing(row(ean('400000000024')));
		expect(one.status).toBe(400);
		expect(one.json).toEqual(binderError('java\\.util\\.ArrayList<[\\w.]+ImportProductRequest>', 'Object'));
		expect(sandbox.state.productByEan(ean('400000000024'))).toBeUndefined();
	});

	it('list: a row the service refuses refuses the list, naming the row; none is applied', async () => {
		await setVariants({ importBodyShape: 'list' });
		const answer = await importing([row(ean('400000000031')), { ...row(ean('400000000032')), vat: 15 }]);
		expect(answer.status).toBe(400);
		expect(answer.json.message).toBe('[1]: VAT must be one of 0, 10, 20');
		expect(sandbox.state.productByEan(ean('400000000031'))).toBeUndefined();
	});

	it('both: takes a list and one object', async () => {
		await setVariants({ importBodyShape: 'both' });
		expect((await importing([row(ean('400000000041')), row(ean('400000000042'))])).status).toBe(200);
		expect((await importing(row(ean('400000000043')))).status).toBe(200);
		expect(sandbox.state.productByEan(ean('400000000042'))).toBeDefined();
		expect(sandbox.state.productByEan(ean('400000000043'))).toBeDefined();
	});

	it('list with importFailsAsynchronously: every row is answered, the incomplete ones never become products', async () => {
		await setVariants({ importBodyShape: 'list', importFailsAsynchronously: true });
		const answer = await importing([row(ean('400000000051')), { ...row(ean('400000000052')), coverImage: '' }]);
		expect(answer.status).toBe(200);
		expect(sandbox.state.productByEan(ean('400000000051'))).toBeDefined();
		expect(sandbox.state.productByEan(ean('400000000052'))).toBeUndefined();
	});
});

describe('bulkResultsRepeated', () => {
	it('repeats the last result of product/bulk at its end', async () => {
		const [first, second] = sandbox.state.products;
		await setVariants({ bulkResultsDropped: 0, bulkResultsRepeated: 2 });

		const answer = await call(sandbox, 'PUT', `${PRODUCT_API}/product/bulk`, {
			token,
			body: [
				{ id: first.id, stockLevel: 43 },
				{ id: second.id, stockLevel: 44 },
			],
		});

		const secondResult = { status: 'SUCCESS', errors: [], myProductId: second.id };
		expect(answer.status).toBe(200);
		expect(answer.json).toEqual([{ status: 'SUCCESS', errors: [], myProductId: first.id }, secondResult, secondResult, secondResult]);
		expect(sandbox.state.product(second.id)?.stockLevel).toBe(44);
	});
});

describe('bulkResultsReversed', () => {
	it('lists the results of product/bulk and of discount schedule and update in reverse order, each naming its entry', async () => {
		const [first, second] = sandbox.state.products;
		await setVariants({ bulkResultsReversed: true });
		const discount = (product: typeof first, dateFrom: string) => ({ merchantInventoryId: product.id, discountPrice: 1, discountPriceCurrency: 'RSD', dateFrom, dateTo: '05/09/2025', discountType: 'SALE' });

		const bulk = await call(sandbox, 'PUT', `${PRODUCT_API}/product/bulk`, {
			token,
			body: [
				{ id: first.id, stockLevel: 45 },
				{ id: second.id, stockLevel: 46 },
			],
		});
		const schedule = await call(sandbox, 'POST', `${PAYMENT_API}/discounts`, { token, body: { discounts: [discount(first, '01/09/2025'), discount(second, '01/09/2025')] } });
		const update = await call(sandbox, 'PUT', `${PAYMENT_API}/discounts`, { token, body: { discounts: [{ discountId: 'none-1', newDateTo: '04/09/2025' }, { discountId: 'none-2', newDateTo: '04/09/2025' }] } });

		expect(bulk.json).toEqual([
			{ status: 'SUCCESS', errors: [], myProductId: second.id },
			{ status: 'SUCCESS', errors: [], myProductId: first.id },
		]);
		expect([sandbox.state.product(first.id)?.stockLevel, sandbox.state.product(second.id)?.stockLevel]).toEqual([45, 46]);
		const scheduled = (schedule.json as { scheduleResult: Array<{ data?: { merchantInventoryId: number }; error?: { merchantInventoryId: number } }> }).scheduleResult;
		expect(scheduled.map((result) => (result.data ?? result.error)?.merchantInventoryId)).toEqual([second.id, first.id]);
		const updated = (update.json as { updateResult: Array<{ error?: { discountId: string } }> }).updateResult;
		expect(updated.map((result) => result.error?.discountId)).toEqual(['none-2', 'none-1']);
	});
});

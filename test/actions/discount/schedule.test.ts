/** Discount › Schedule: one item per discount, rows or JSON, bulk splitting, seasonal sales, and the values rejected before sending (of every discount operation), through the real engine against the sandbox. */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { NODE_UNDER_TEST_NAME } from '../../harness';
import { DISCOUNT_SANDBOX, YEAR, discountRequests, freshProducts, goodPrice, runner, sale, sandbox, sandboxPerFile, schedule } from '../helpers';

sandboxPerFile(DISCOUNT_SANDBOX);
const run = runner('discount');
/** On Error = Continue: rejected discounts come out as items (under the default the run fails naming them). */
const CONTINUE = { node: { onError: 'continueRegularOutput' as const } };

describe('Discount › Schedule', () => {
	it('outputs one item per discount: scheduled ones with their id, rejected ones with the service message and input', async () => {
		const [first, second] = freshProducts(2);
		const tooExpensive = { ...sale(second), discountPrice: Math.round(second.basePrice * 0.99) };
		const overlapping = { ...sale(first, `05/08/${YEAR}`, `12/08/${YEAR}`), discountPrice: goodPrice(first) - 1 };
		const result = await schedule([sale(first), tooExpensive, overlapping], {}, CONTINUE);

		expect(result.error).toBeUndefined();
		const [scheduled, rejectedPrice, rejectedOverlap] = result.json(NODE_UNDER_TEST_NAME);
		const stored = sandbox.state.discounts.find((discount) => discount.discountId === scheduled.id);
		expect(stored).toMatchObject({
			merchantInventoryId: first.id,
			discountPrice: goodPrice(first),
			currency: 'RSD',
			dateFrom: `01/08/${YEAR}`,
			dateTo: `10/08/${YEAR}`,
			discountType: 'SALE',
			cancelled: false,
		});
		// Simplify (the default): the new discount's id, success, error and the entry sent, in the entries' order.
		expect(scheduled).toEqual({
			id: stored!.discountId,
			productId: first.id,
			success: true,
			input: { ...sale(first), discountPriceCurrency: 'RSD' },
		});
		expect(rejectedPrice).toEqual({
			id: null,
			productId: second.id,
			success: false,
			error: expect.stringMatching(/at least 5% below the regular price/),
			input: { ...tooExpensive, discountPriceCurrency: 'RSD' },
		});
		expect(rejectedOverlap).toMatchObject({ id: null, success: false, input: { merchantInventoryId: first.id } });
		expect(rejectedOverlap.error).toContain(`overlaps discount ${stored!.discountId}`);
		expect(sandbox.state.discounts.filter((discount) => [first.id, second.id].includes(discount.merchantInventoryId))).toHaveLength(1);
		// The second discount for the first product goes in a request of its own, after the first: each result names its entry beyond doubt (issue 38).
		expect(discountRequests().map((entry) => [entry.route, entry.itemCount])).toEqual([
			['discountSchedule', 2],
			['discountSchedule', 1],
		]);
	});

	it('with Simplify off, gives the service\'s own result (success, data, error) with the input, in the entries\' order', async () => {
		const [first, second] = freshProducts(2);
		const tooExpensive = { ...sale(second), discountPrice: second.basePrice };
		const result = await schedule([sale(first), tooExpensive], { simplify: false }, CONTINUE);

		const [scheduled, rejected] = result.json(NODE_UNDER_TEST_NAME);
		expect(scheduled).toMatchObject({ success: true, data: { merchantInventoryId: first.id, discountId: expect.any(String) }, input: { merchantInventoryId: first.id } });
		expect(scheduled).not.toHaveProperty('id');
		expect(rejected).toMatchObject({
			success: false,
			error: { merchantInventoryId: second.id, errorMessage: expect.stringMatching(/at least 5% below the regular price/) },
			input: { merchantInventoryId: second.id },
		});
	});

	it('takes rows entered in the UI, with date picker values sent as dd/MM/yyyy days', async () => {
		const [product, clearance] = freshProducts(2);
		const result = await schedule([], {
			inputMode: 'rows',
			discountsUi: {
				discount: [
					{
						merchantInventoryId: String(product.id),
						discountPrice: goodPrice(product),
						currency: 'RSD',
						dateFrom: `${YEAR}-08-01T00:00:00`,
						dateTo: `${YEAR}-08-31T00:00:00`,
						discountType: 'SALE',
					},
					{ merchantInventoryId: String(clearance.id), discountPrice: goodPrice(clearance), dateFrom: `${YEAR}-09-01T00:00:00`, discountType: 'CLEARANCE_SALE' },
				],
			},
		});

		expect(result.json(NODE_UNDER_TEST_NAME).map((item) => item.success)).toEqual([true, true]);
		const byProduct = (id: number) => sandbox.state.discounts.find((discount) => discount.merchantInventoryId === id);
		expect(byProduct(product.id)).toMatchObject({ dateFrom: `01/08/${YEAR}`, dateTo: `31/08/${YEAR}`, discountType: 'SALE' });
		expect(byProduct(clearance.id)).toMatchObject({ dateFrom: `01/09/${YEAR}`, dateTo: null, discountType: 'CLEARANCE_SALE', endsAtMs: null });
	});

	it('reads JSON text, ids and prices given as strings, ISO dates and lower-case types', async () => {
		const [product] = freshProducts(1);
		const text = JSON.stringify([
			{ merchantInventoryId: String(product.id), discountPrice: String(goodPrice(product)), dateFrom: `${YEAR}-08-01`, dateTo: `${YEAR}-08-05T00:00:00Z`, discountType: 'sale' },
		]);
		const result = await run({ operation: 'schedule', discountsJson: text });

		expect(result.json(NODE_UNDER_TEST_NAME)[0]).toMatchObject({
			success: true,
			input: { merchantInventoryId: product.id, discountPrice: goodPrice(product), dateFrom: `01/08/${YEAR}`, dateTo: `05/08/${YEAR}`, discountType: 'SALE' },
		});
	});

	it.each([
		['without', {}],
		['with', { options: { failOnItemErrors: true } }],
	])('under the default On Error, %s Fail on Item Errors, a rejected entry fails the run with the service message once the others are scheduled', async (_case, parameters) => {
		const [first, second] = freshProducts(2);
		const tooExpensive = { ...sale(second), discountPrice: second.basePrice };
		const result = await schedule([sale(first), tooExpensive], parameters);

		expect(result.status).toBe('error');
		expect(result.error?.message).toMatch(/^1 of 2 entries rejected \(the other 1 went through\): Discounts \(JSON\) › entry 2: .*at least 5% below the regular price/);
		expect(sandbox.state.discounts.filter((discount) => discount.merchantInventoryId === first.id)).toHaveLength(1);
		expect(sandbox.state.discounts.filter((discount) => discount.merchantInventoryId === second.id)).toHaveLength(0);
	});

	it('with Continue on Fail, an item whose entries were rejected becomes an error item and the other items keep their results', async () => {
		const [first, second] = freshProducts(2);
		const result = await run(
			{ operation: 'schedule', options: { failOnItemErrors: true } },
			[{ discounts: [sale(first)] }, { discounts: [{ ...sale(second), discountPrice: second.basePrice }] }],
			{ node: { continueOnFail: true } },
		);

		const output = result.output(NODE_UNDER_TEST_NAME);
		expect(output).toHaveLength(2);
		expect(output[0].json).toMatchObject({ success: true, input: { merchantInventoryId: first.id } });
		expect(output[1].error?.message).toBe('1 of 1 entries were rejected by the service');
		expect(discountRequests()).toHaveLength(2);
	});

	it('sends 1,200 discounts of one item as 500/500/200 and outputs 1,200 results paired with their input', async () => {
		const products = freshProducts(1_200);
		const discounts = products.map((product, index) => sale(product, index % 2 ? `01/08/${YEAR}` : `02/08/${YEAR}`, `20/08/${YEAR}`));
		const result = await schedule(discounts);

		expect(result.error).toBeUndefined();
		expect(discountRequests().map((entry) => [entry.route, entry.status, entry.itemCount])).toEqual([
			['discountSchedule', 200, 500],
			['discountSchedule', 200, 500],
			['discountSchedule', 200, 200],
		]);
		const results = result.json(NODE_UNDER_TEST_NAME);
		expect(results).toHaveLength(1_200);
		results.forEach((item, index) => {
			expect(item.success).toBe(true);
			expect((item.input as IDataObject).merchantInventoryId).toBe(products[index].id);
			expect((item.input as IDataObject).dateFrom).toBe(discounts[index].dateFrom);
		});
		const stored = new Map(sandbox.state.discounts.map((discount) => [discount.discountId, discount]));
		expect(results.every((item) => stored.get(item.id as string)?.merchantInventoryId === (item.input as IDataObject).merchantInventoryId)).toBe(true);
	});
});

describe('Discount › Schedule, seasonal sales', () => {
	it('sends a SEASONAL_SALE starting on the first and last days of its windows, and a lowercase rsd', async () => {
		const [july, december] = freshProducts(2);
		const result = await schedule([
			{ ...sale(july, `15/07/${YEAR}`, `20/08/${YEAR}`), discountType: 'SEASONAL_SALE', discountPriceCurrency: 'rsd' },
			{ ...sale(december, `25/12/${YEAR}`, `10/01/${YEAR + 1}`), discountType: 'SEASONAL_SALE' },
		]);

		expect(result.error).toBeUndefined();
		expect(result.json(NODE_UNDER_TEST_NAME).map((item) => item.success)).toEqual([true, true]);
		expect(sandbox.state.discounts.filter((discount) => discount.discountType === 'SEASONAL_SALE' && [july.id, december.id].includes(discount.merchantInventoryId))).toHaveLength(2);
	});
});

describe('Discount › validation before sending', () => {
	const entry = (overrides: IDataObject): IDataObject => ({
		merchantInventoryId: 1001,
		discountPrice: 100,
		dateFrom: `01/08/${YEAR}`,
		dateTo: `10/08/${YEAR}`,
		discountType: 'SALE',
		...overrides,
	});

	it.each<[string, INodeParameters, unknown[], string]>([
		['an end before the start', { operation: 'schedule' }, [entry({}), entry({ dateFrom: `10/08/${YEAR}`, dateTo: `05/08/${YEAR}` })], `Discounts (JSON) › entry 2 › Date To (dateTo): 05/08/${YEAR} is before the start 10/08/${YEAR}`],
		['a SALE longer than 31 days', { operation: 'schedule' }, [entry({ dateTo: `01/09/${YEAR}` })], `Discounts (JSON) › entry 1 › Date To (dateTo): a SALE lasts at most 31 days; 01/08/${YEAR} to 01/09/${YEAR} is 32 days`],
		['a CLEARANCE_SALE with an end date', { operation: 'schedule' }, [entry({ discountType: 'CLEARANCE_SALE' })], 'Discounts (JSON) › entry 1 › Date To (dateTo): a CLEARANCE_SALE has no end date'],
		['a SALE without an end date', { operation: 'schedule' }, [entry({ dateTo: '' })], 'Discounts (JSON) › entry 1 › Date To (dateTo): is missing'],
		['a missing inventory id', { operation: 'schedule' }, [entry({ merchantInventoryId: undefined })], 'Discounts (JSON) › entry 1 › Product ID (merchantInventoryId): is missing'],
		['a non-numeric inventory id', { operation: 'schedule' }, [entry({}), entry({}), entry({ merchantInventoryId: 'A-17' })], 'Discounts (JSON) › entry 3 › Product ID (merchantInventoryId): "A-17" is not a product ID'],
		['a missing price', { operation: 'schedule' }, [entry({ discountPrice: '' })], 'Discounts (JSON) › entry 1 › Discount Price (discountPrice): is missing'],
		['a zero price', { operation: 'schedule' }, [entry({ discountPrice: 0 })], 'Discounts (JSON) › entry 1 › Discount Price (discountPrice): must be above 0'],
		['a negative price', { operation: 'schedule' }, [entry({ discountPrice: '-5' })], 'Discounts (JSON) › entry 1 › Discount Price (discountPrice): "-5" is not a price'],
		['an unknown type', { operation: 'schedule' }, [entry({ discountType: 'FLASH' })], 'Discounts (JSON) › entry 1 › Discount Type (discountType): "FLASH" is not one of SALE, SEASONAL_SALE, CLEARANCE_SALE'],
		['a date that is not a date', { operation: 'schedule' }, [entry({ dateFrom: 'soon' })], 'Discounts (JSON) › entry 1 › Date From (dateFrom): "soon" is not a date'],
		['an entry that is not an object', { operation: 'schedule' }, [entry({}), 42], 'Discounts (JSON) › entry 2: is not an object'],
		['an empty list', { operation: 'schedule' }, [], 'Discounts (JSON): no discounts to send'],
		['an update without discountId', { operation: 'update' }, [{ newDiscountPrice: 90 }], 'Discounts (JSON) › entry 1 › Discount ID (discountId): is missing'],
		['an update without changes', { operation: 'update' }, [{ discountId: 'd-1' }], 'Discounts (JSON) › entry 1: has nothing to change'],
		['an update with a price that is not a number', { operation: 'update' }, [{ discountId: 'd-1', newDiscountPrice: 'cheap' }], 'Discounts (JSON) › entry 1 › New Discount Price (newDiscountPrice): "cheap" is not a price'],
		// Values as they come out of sheets are rejected, never guessed (more in test/transport/routing.test.ts).
		['a price of 1.299 (one thousand in sr-RS)', { operation: 'schedule' }, [entry({ discountPrice: '1.299' })], 'Discounts (JSON) › entry 1 › Discount Price (discountPrice): "1.299" has more than 2 decimal places'],
		['an ISO day that does not exist', { operation: 'schedule' }, [entry({ dateTo: `${YEAR}-02-30` })], `Discounts (JSON) › entry 1 › Date To (dateTo): "${YEAR}-02-30" is not a date`],
		['a start in the past', { operation: 'schedule' }, [entry({ dateFrom: '01/03/2020', dateTo: '05/03/2020' })], 'Discounts (JSON) › entry 1 › Date From (dateFrom): 01/03/2020 is in the past'],
		['a SEASONAL_SALE starting outside its windows', { operation: 'schedule' }, [entry({ discountType: 'SEASONAL_SALE' })], `Discounts (JSON) › entry 1 › Date From (dateFrom): a SEASONAL_SALE cannot start on 01/08/${YEAR}`],
		['a currency that is no code', { operation: 'schedule' }, [entry({ discountPriceCurrency: 'dinars' })], 'Discounts (JSON) › entry 1 › Currency (discountPriceCurrency): "dinars" is not a currency code'],
		['an update moving the start into the past', { operation: 'update' }, [{ discountId: 'd-1', newDateFrom: '2020-03-01' }], 'Discounts (JSON) › entry 1 › New Date From (newDateFrom): 01/03/2020 is in the past'],
		['an update ending before it starts', { operation: 'update' }, [{ discountId: 'd-1', newDateFrom: `10/08/${YEAR}`, newDateTo: `01/08/${YEAR}` }], `Discounts (JSON) › entry 1 › New Date To (newDateTo): 01/08/${YEAR} is before the start 10/08/${YEAR}`],
	])('rejects %s, naming the field, the entry and the item, and sends nothing', async (_case, parameters, discounts, message) => {
		const result = await run(parameters, [{ discounts }]);

		expect(result.error?.message.slice(0, message.length)).toBe(message);
		expect(result.error?.message).toMatch(/\(item 0\)$/);
		expect(sandbox.log).toHaveLength(0);
	});

	it("rejects a currency other than the account's (learned from its orders, RSD), naming the account's, and sends no discount", async () => {
		const result = await run({ operation: 'schedule' }, [{ discounts: [entry({ discountPriceCurrency: 'EUR' })] }]);

		expect(result.error?.message).toBe("Discounts (JSON) › entry 1 › Currency (discountPriceCurrency): EUR is not the account's currency, RSD (the currency of the account's orders) (item 0)");
		expect(sandbox.log.filter((logged) => logged.route !== 'token').map((logged) => logged.route)).toEqual(['orders']);
	});

	it('rejects an input item without the field the JSON input reads, saying so and what to do', async () => {
		// As a node added from the node creator gets it: Discounts (JSON) left at {{ $json.discounts }}.
		const result = await run({ operation: 'schedule' }, [{ somethingElse: true }]);

		expect(result.error?.message).toBe("Discounts (JSON): the input item has no field 'discounts' (the field reads {{ $json.discounts }}) (item 0)");
		expect(result.error?.description).toMatch(/Aggregate node.*or switch Input Mode to Define Below\. Expected: \{"discounts": \[\{"merchantInventoryId"/);
		expect(sandbox.log).toHaveLength(0);
	});

	it('rejects an input item whose list field is there but empty as an empty list', async () => {
		const result = await run({ operation: 'schedule' }, [{ discounts: null }]);

		expect(result.error?.message).toBe('Discounts (JSON): no discounts to send (item 0)');
		expect(sandbox.log).toHaveLength(0);
	});

	it('checks UI rows the same way', async () => {
		const result = await run({
			operation: 'schedule',
			inputMode: 'rows',
			discountsUi: { discount: [{ merchantInventoryId: '1001', discountPrice: 100, dateFrom: `${YEAR}-08-10T00:00:00`, dateTo: `${YEAR}-08-01T00:00:00`, discountType: 'SALE' }] },
		});

		expect(result.error?.message).toBe(`Discounts › row 1 › Date To: 01/08/${YEAR} is before the start 10/08/${YEAR} (item 0)`);
		expect(sandbox.log).toHaveLength(0);
	});

	it.each<[string, INodeParameters, string]>([
		['Get Many without Date To', { operation: 'getMany', dateFrom: `01/08/${YEAR}`, dateTo: '={{ $json.to }}' }, "Date To: `{{ $json.to }}` gave no value: the input item has no field 'to' (it has no fields) (item 0)"],
		['Get Many with Date To before Date From', { operation: 'getMany', dateFrom: `10/08/${YEAR}`, dateTo: `01/08/${YEAR}` }, `Date To: 01/08/${YEAR} is before the start 10/08/${YEAR} (item 0)`],
		['Cancel without a discount id', { operation: 'cancel', discountId: '  ' }, 'Discount ID: is missing (item 0)'],
	])('rejects %s and sends nothing', async (_case, parameters, message) => {
		const result = await run(parameters);

		expect(result.error?.message).toBe(message);
		expect(sandbox.log).toHaveLength(0);
	});

	it('with Continue on Fail, only the invalid item becomes an error item; the valid one is sent', async () => {
		const [product] = freshProducts(1);
		const result = await run({ operation: 'schedule' }, [{ discounts: [sale(product)] }, { discounts: [entry({ discountPrice: -1 })] }], {
			node: { continueOnFail: true },
		});

		const output = result.output(NODE_UNDER_TEST_NAME);
		expect(output[0].json).toMatchObject({ success: true, input: { merchantInventoryId: product.id } });
		expect(output[1].error?.message).toBe('Discounts (JSON) › entry 1 › Discount Price (discountPrice): must be above 0, got -1 (item 1)');
		expect(discountRequests().map((entry) => entry.itemCount)).toEqual([1]);
	});
});

describe('Discount › Schedule, results of several requests', () => {
	it('pairs each request\'s results with its own discounts when an answer repeats a result (sandbox bulkResultsRepeated)', async () => {
		// Paired by input, not by success: these products may already have discounts in this window.
		const products = sandbox.state.products.slice(0, 501);
		const discounts = products.map((product) => sale(product, `21/08/${YEAR}`, `25/08/${YEAR}`));
		sandbox.setVariants({ bulkResultsRepeated: 1 });
		try {
			const result = await schedule(discounts, {}, CONTINUE);

			expect(result.error).toBeUndefined();
			expect(discountRequests().map((entry) => entry.itemCount)).toEqual([500, 1]);
			const results = result.json(NODE_UNDER_TEST_NAME);
			expect(results).toHaveLength(501);
			results.forEach((item, index) => expect((item.input as IDataObject).merchantInventoryId).toBe(products[index].id));
		} finally {
			sandbox.resetVariants();
		}
	});
});

describe('Discount › Schedule, Options › Number Format', () => {
	it('Serbian reads a discount price written "1.234,00"', async () => {
		const [product] = freshProducts(1);
		const price = goodPrice(product);
		const written = `${String(price).replace(/\B(?=(\d{3})+(?!\d))/g, '.')},00`;

		const result = await schedule([{ ...sale(product), discountPrice: written }], { options: { numberFormat: 'serbian' } });

		expect(result.error).toBeUndefined();
		expect(result.json(NODE_UNDER_TEST_NAME)[0]).toEqual(expect.objectContaining({ success: true }));
		expect(sandbox.state.discounts.find((discount) => discount.merchantInventoryId === product.id)?.discountPrice).toBe(price);
	});
});


/**
 * The account's market through the real engine (issue 37, points 3 and 4): a sandbox account that
 * prices in BAM and takes VAT 0 and 17 (sandbox variant `market`, as the Bosnian merchant's account),
 * and the Serbian default. Discounts go out in the account's currency when the panel's Currency is
 * left at its default (learned from the account's orders in one request, or set on the credential),
 * another currency is refused before sending naming the account's; VAT is the service's to judge.
 */
import type { IDataObject } from 'n8n-workflow';

import { NODE_UNDER_TEST_NAME, runListSearch, runLoadOptions, sandboxCredential, type RunNodeOptions } from '../harness';
import { CREDENTIAL_TYPE, NODE, YEAR, credentials, newEan, dayAhead, freshProducts, goodPrice, locator, runner, sale, saleDays, sandbox, sandboxPerFile, schedule } from './helpers';

// The sandbox keeps the real clock: a discount dated today runs for the node as for the service.
sandboxPerFile({ seed: 5, products: 400 });
const discounts = runner('discount');
const products = runner('product');
const BOSNIA = { currency: 'BAM', vatRates: [0, 17] };
const NEW_NODE: RunNodeOptions = { node: { typeVersion: 4 } };
const CONTINUE: RunNodeOptions = { node: { onError: 'continueRegularOutput' } };
/** The sandbox's credential with the Account Currency set. */
const withAccountCurrency = (currency: string): RunNodeOptions => ({ credentials: { [CREDENTIAL_TYPE]: sandboxCredential(sandbox, { currency }) } });

const stored = (discountId: unknown) => sandbox.state.discounts.find((discount) => discount.discountId === discountId);
const routes = () => sandbox.log.filter((entry) => entry.route !== 'token').map((entry) => entry.route);

afterEach(() => sandbox.resetVariants());

describe('an account that prices in BAM and takes VAT 0 and 17', () => {
	beforeEach(() => sandbox.setVariants({ market: BOSNIA }));

	it('Discount › Schedule with the panel\'s defaults (One Item per Discount, Currency left as it is) is accepted in BAM, learned from the account in one request', async () => {
		const [product] = freshProducts(1);
		const result = await discounts(
			{ operation: 'schedule', itemMerchantInventoryId: locator('id', product.id), itemDiscountPrice: String(goodPrice(product)), itemDateFrom: `${YEAR}-08-01`, itemDateTo: `${YEAR}-08-10` },
			[{}],
			NEW_NODE,
		);

		expect(result.error).toBeUndefined();
		const [scheduled] = result.json(NODE_UNDER_TEST_NAME);
		expect(scheduled).toMatchObject({ success: true, input: { merchantInventoryId: product.id, discountPriceCurrency: 'BAM' } });
		expect(stored(scheduled.id)).toMatchObject({ currency: 'BAM', discountPrice: goodPrice(product) });
		expect(routes()).toEqual(['orders', 'discountSchedule']);
	});

	it('Discount › Update with the panel\'s defaults (a new price only) is accepted in BAM, for a pending and a running discount', async () => {
		const [pending, running] = freshProducts(2);
		// Dated today, a discount runs at once; the pending one within the year ahead Update reads (not 1 August next year, which is further away until August).
		const scheduledResult = await schedule([sale(pending, ...saleDays()), sale(running, dayAhead(0), dayAhead(5))]);
		const [pendingDiscount, runningDiscount] = scheduledResult.json(NODE_UNDER_TEST_NAME);
		expect([pendingDiscount.success, runningDiscount.success]).toEqual([true, true]);
		sandbox.clearLog();

		const result = await discounts(
			{ operation: 'update', itemDiscountId: locator('id', '={{ $json.id }}'), itemNewDiscountPrice: '={{ $json.price }}' },
			[
				{ id: pendingDiscount.id, price: String(goodPrice(pending) - 1) },
				{ id: runningDiscount.id, price: String(goodPrice(running) - 1) },
			],
			NEW_NODE,
		);

		expect(result.error).toBeUndefined();
		const outputs = result.json(NODE_UNDER_TEST_NAME);
		expect(outputs.map((item) => [item.success, (item.input as IDataObject).newDiscountPriceCurrency])).toEqual([
			[true, 'BAM'],
			[true, 'BAM'],
		]);
		expect(stored(pendingDiscount.id)).toMatchObject({ currency: 'BAM', discountPrice: goodPrice(pending) - 1 });
		expect(stored(runningDiscount.id)).toMatchObject({ currency: 'BAM', discountPrice: goodPrice(running) - 1 });
		expect(routes()).toEqual(['discountList', 'orders', 'discountUpdate']);
	});

	it('a currency other than the account\'s is refused before sending, naming the account\'s; "KM" is BAM', async () => {
		const [first, second] = freshProducts(2);
		const result = await schedule([{ ...sale(first), discountPriceCurrency: 'RSD' }, { ...sale(second), discountPriceCurrency: 'KM' }], { invalidEntries: 'skip' }, CONTINUE);

		const [refused, accepted] = result.json(NODE_UNDER_TEST_NAME);
		expect(refused).toMatchObject({ success: false, error: expect.stringContaining("Currency (discountPriceCurrency): RSD is not the account's currency, BAM") });
		expect(accepted).toMatchObject({ success: true, input: { discountPriceCurrency: 'BAM' } });
		expect(sandbox.log.filter((entry) => entry.route === 'discountSchedule').map((entry) => entry.itemCount)).toEqual([1]);
	});

	it('the credential\'s Account Currency (set once) is the account\'s: no request to learn it, another currency refused naming it', async () => {
		const [first, second] = freshProducts(2);
		const result = await schedule([sale(first), { ...sale(second), discountPriceCurrency: 'EUR' }], { invalidEntries: 'skip' }, { ...CONTINUE, ...withAccountCurrency('km') });

		const [accepted, refused] = result.json(NODE_UNDER_TEST_NAME);
		expect(accepted).toMatchObject({ success: true, input: { discountPriceCurrency: 'BAM' } });
		expect(refused.error).toContain("EUR is not the account's currency, BAM (the credential's Account Currency)");
		expect(routes()).toEqual(['discountSchedule']);
	});

	it('an account currency the service does not take (the credential says RSD) is sent, and the service\'s refusal shown per entry', async () => {
		const [product] = freshProducts(1);
		const result = await schedule([sale(product)], {}, { ...CONTINUE, ...withAccountCurrency('RSD') });

		const [rejected] = result.json(NODE_UNDER_TEST_NAME);
		expect(rejected).toMatchObject({ success: false, error: 'Currency RSD is not supported; use BAM', input: { discountPriceCurrency: 'RSD' } });
	});

	it("where the account's currency cannot be learned (its orders not readable) and the credential sets none, RSD goes out and the service's refusal is that discount's error", async () => {
		sandbox.injectFault({ route: 'orders', status: 403, count: 1 });
		const [product] = freshProducts(1);
		const result = await schedule([sale(product)], {}, CONTINUE);

		expect(result.json(NODE_UNDER_TEST_NAME)).toMatchObject([{ success: false, error: 'Currency RSD is not supported; use BAM', input: { discountPriceCurrency: 'RSD' } }]);
		expect(routes()).toEqual(['orders', 'discountSchedule']);
	});

	it("Discount › Get Many's Simplify and the Discount ID list give a listed discount the account's currency (the list does not carry one)", async () => {
		const [product] = freshProducts(1);
		// Within the year ahead the Discount ID list reads, whatever today is.
		const [dateFrom, dateTo] = saleDays();
		const scheduled = await schedule([sale(product, dateFrom, dateTo)]);
		const [{ id }] = scheduled.json(NODE_UNDER_TEST_NAME);
		sandbox.clearLog();

		const listed = await discounts({ operation: 'getMany', dateFrom, dateTo, returnAll: true }, [{}], NEW_NODE);
		expect(listed.json(NODE_UNDER_TEST_NAME).find((item) => item.discountId === id)).toMatchObject({ price: goodPrice(product), currency: 'BAM' });
		// The orders learn the currency; the catalogue reads name the discounts' products (issue 38).
		// (how many catalogue reads depends on the discounts listed: test/actions/discount/getMany.test.ts counts them).
		expect(routes().slice(0, 3)).toEqual(['discountList', 'orders', 'basicProducts']);
		expect(routes().slice(3).every((route) => route === 'products')).toBe(true);

		const { result } = await runListSearch(NODE, 'searchDiscounts', { credentials: credentials(), parameters: { resource: 'discount', operation: 'update' }, filter: String(id) });
		expect(result.results).toEqual([expect.objectContaining({ value: id, name: expect.stringMatching(/ at [\d\u00a0]+\u00a0BAM \(regular [\d\u00a0]+\u00a0BAM\), /) })]);
	});

	it('Discount › Get Many with Output › Selected Fields reads nothing more: neither the orders (the currency) nor the catalogue (the names) of the Simplified form', async () => {
		sandbox.clearLog();
		const listed = await discounts({ operation: 'getMany', dateFrom: `${YEAR}-08-01`, dateTo: `${YEAR}-08-10`, returnAll: true, output: 'selected', fieldsToReturn: 'discountId, discountPriceCurrency' }, [{}], NEW_NODE);
		expect(listed.error).toBeUndefined();
		// The discounts scheduled above, as the service lists them (without a currency).
		expect(listed.json(NODE_UNDER_TEST_NAME).length).toBeGreaterThan(0);
		expect(listed.json(NODE_UNDER_TEST_NAME).every((item) => item.discountPriceCurrency === null)).toBe(true);
		expect(routes()).toEqual(['discountList']);
	});

	it("the panel's Currency list names the account's currency first: learned from its orders, or the credential's", async () => {
		const parameters = { resource: 'discount', operation: 'schedule' };
		const learned = await runLoadOptions(NODE, 'getCurrencies', { credentials: credentials(), parameters });
		expect(learned.result[0]).toEqual({ name: "The Account's Currency (BAM)", value: '', description: "BAM: the currency of the account's orders" });
		expect(learned.result.slice(1).map((option) => option.value)).toEqual(['BAM', 'EUR', 'MKD', 'RSD']);

		const set = await runLoadOptions(NODE, 'getCurrencies', { ...withAccountCurrency('KM'), parameters });
		expect(set.result[0]).toMatchObject({ name: "The Account's Currency (BAM)", description: "BAM: the credential's Account Currency" });
	});

	it('Product › Update and Update Many with VAT 17 are accepted; VAT 20 gets the service\'s refusal naming the account\'s rates', async () => {
		const [first, second, third] = sandbox.state.products.slice(-3);
		const single = await products({ operation: 'update', productId: String(first.id), updateFields: { vat: 17 } });
		expect(single.error).toBeUndefined();
		expect(single.json(NODE_UNDER_TEST_NAME)).toMatchObject([{ id: first.id, success: true, input: { vat: 17 } }]);

		const many = await products(
			{ operation: 'updateMany', inputMode: 'json', productsJson: '={{ $json.products }}' },
			[{ products: [{ id: second.id, vat: '17' }, { id: third.id, vat: 20 }] }],
			CONTINUE,
		);
		const [accepted, refused] = many.json(NODE_UNDER_TEST_NAME);
		expect(accepted).toMatchObject({ id: second.id, success: true, input: { vat: 17 } });
		expect(refused).toMatchObject({ id: third.id, success: false, error: expect.stringContaining('VAT must be one of 0, 17') });
		expect(sandbox.state.product(first.id)?.vat).toBe(17);
		expect(sandbox.state.product(second.id)?.vat).toBe(17);
	});

	it('Product › Import of a new product with VAT 17 is accepted', async () => {
		const ean = newEan('17');
		const result = await products({
			operation: 'import',
			name: 'Tava 28 cm',
			ean,
			basePrice: '89.90',
			vat: '={{ $json.vat }}',
			stockLevel: 5,
			description: 'Tava od livenog gvožđa',
			coverImage: 'https://example.com/cover.jpg',
			category: 'Kuhinja',
			productType: 'Kuhinja',
			additionalFields: { brand: 'Tefal' },
		}, [{ vat: '17' }]);

		expect(result.error).toBeUndefined();
		expect(sandbox.state.productByEan(ean)).toMatchObject({ vat: 17, basePrice: 89.9 });
	});
});

describe('the Serbian default (RSD, VAT 0/10/20) works unchanged', () => {
	it('a discount with the panel\'s defaults goes out in RSD; VAT 10 is accepted and 17 refused by the service', async () => {
		const [product] = freshProducts(1);
		const scheduled = await schedule([sale(product)]);
		expect(scheduled.json(NODE_UNDER_TEST_NAME)).toMatchObject([{ success: true, input: { discountPriceCurrency: 'RSD' } }]);

		const [first, second] = sandbox.state.products.slice(-5, -3);
		const many = await products(
			{ operation: 'updateMany', inputMode: 'json', productsJson: '={{ $json.products }}' },
			[{ products: [{ id: first.id, vat: 10 }, { id: second.id, vat: 17 }] }],
			CONTINUE,
		);
		expect(many.json(NODE_UNDER_TEST_NAME)).toMatchObject([
			{ id: first.id, success: true },
			{ id: second.id, success: false, error: expect.stringContaining('VAT must be one of 0, 10, 20') },
		]);
	});
});

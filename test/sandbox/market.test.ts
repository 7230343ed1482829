/**
 * The sandbox's `market` switch (variants.ts): an account that prices in BAM and takes VAT 0 and
 * 17, as the Bosnian merchant's account does (platform facts, "What a second merchant's production
 * client relies on"). Its discounts take BAM alone, its product updates those rates alone, each
 * refused per entry in the service's words; its orders carry BAM. Serbia (RSD, 0/10/20) by default.
 */
import { startSandbox, type Sandbox } from '../../sandbox';
import { ORDER_API, PAYMENT_API, PRODUCT_API, call, getToken } from './helpers';

const NOW = '2025-06-15T10:00:00Z';

describe('sandbox: the account\'s market', () => {
	let sandbox: Sandbox;
	let token: string;
	const price = (id: number) => sandbox.state.product(id)!.basePrice;
	const sale = (id: number, currency?: string) => ({
		merchantInventoryId: id,
		discountPrice: Math.floor(price(id) * 0.9),
		...(currency === undefined ? {} : { discountPriceCurrency: currency }),
		dateFrom: '20/06/2025',
		dateTo: '25/06/2025',
		discountType: 'SALE',
	});
	const schedule = (discounts: unknown[]) => call(sandbox, 'POST', `${PAYMENT_API}/discounts`, { token, body: { discounts } });
	const bulk = (items: unknown[]) => call(sandbox, 'PUT', `${PRODUCT_API}/product/bulk`, { token, body: items });
	const outcomes = (results: Array<{ success: boolean; error?: { errorMessage: string } }>) => results.map((result) => (result.success ? 'ok' : result.error!.errorMessage));

	beforeAll(async () => {
		sandbox = await startSandbox({ now: NOW, rateLimits: false, seed: 5 });
		token = await getToken(sandbox);
	});
	afterAll(() => sandbox.close());
	afterEach(() => sandbox.resetVariants());

	it('Serbia by default: RSD discounts, VAT 0, 10 and 20, orders in RSD', async () => {
		const { json } = await schedule([sale(100030, 'RSD'), sale(100031, 'BAM'), sale(100032)]);
		expect(outcomes(json.scheduleResult)).toEqual(['ok', 'Currency BAM is not supported; use RSD', 'ok']);
		const updated = await bulk([{ id: 100033, vat: 10 }, { id: 100034, vat: 17 }]);
		expect(updated.json.map((result: { status: string; errors: string[] }) => [result.status, result.errors])).toEqual([
			['SUCCESS', []],
			['FAIL', ['VAT must be one of 0, 10, 20']],
		]);
		const orders = await call(sandbox, 'GET', `${ORDER_API}/orders?size=1`, { token });
		expect(orders.json.content[0].currency).toBe('RSD');
	});

	it('a BAM account with VAT 0 and 17: discounts in BAM alone, VAT 17 taken, 20 refused, orders and products in its market', async () => {
		sandbox.setVariants({ market: { currency: 'BAM', vatRates: [0, 17] } });
		const { json } = await schedule([sale(100040, 'BAM'), sale(100041, 'RSD'), sale(100042)]);
		expect(outcomes(json.scheduleResult)).toEqual(['ok', 'Currency RSD is not supported; use BAM', 'ok']);
		const scheduled = sandbox.state.discounts.find((discount) => discount.merchantInventoryId === 100042);
		expect(scheduled?.currency).toBe('BAM');

		const updated = await bulk([{ id: 100043, vat: 17 }, { id: 100044, vat: 20 }, { id: 100045, vat: 0 }]);
		expect(updated.json.map((result: { status: string; errors: string[] }) => [result.status, result.errors])).toEqual([
			['SUCCESS', []],
			['FAIL', ['VAT must be one of 0, 17']],
			['SUCCESS', []],
		]);
		const products = await call(sandbox, 'GET', `${PRODUCT_API}/products?size=200`, { token });
		expect(new Set(products.json.map((product: { vat: number }) => product.vat))).toEqual(new Set([0, 17]));

		const orders = await call(sandbox, 'GET', `${ORDER_API}/orders?size=1`, { token });
		expect(orders.json.content[0].currency).toBe('BAM');
	});
});

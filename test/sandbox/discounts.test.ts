import { startSandbox, type Sandbox } from '../../sandbox';
import { PAYMENT_API, call, getToken } from './helpers';

const NOW = '2025-06-15T10:00:00Z';

describe('sandbox: discounts and prices', () => {
	let sandbox: Sandbox;
	let token: string;
	const price = (id: number) => sandbox.state.product(id)!.basePrice;
	const schedule = (discounts: unknown[]) => call(sandbox, 'POST', `${PAYMENT_API}/discounts`, { token, body: { discounts } });
	const update = (discounts: unknown[]) => call(sandbox, 'PUT', `${PAYMENT_API}/discounts`, { token, body: { discounts } });
	const get = (path: string) => call(sandbox, 'GET', path, { token });

	beforeAll(async () => {
		sandbox = await startSandbox({ now: NOW, rateLimits: false, seed: 5 });
		token = await getToken(sandbox);
	});
	afterAll(() => sandbox.close());

	it('schedules discounts and reports each broken rule per item', async () => {
		const sale = (id: number, dateFrom: string, dateTo: string | null, factor = 0.9, discountType = 'SALE') => ({
			merchantInventoryId: id,
			discountPrice: Math.floor(price(id) * factor),
			discountPriceCurrency: 'RSD',
			dateFrom,
			dateTo,
			discountType,
		});
		const items = [
			sale(100005, '20/06/2025', '30/06/2025'),
			sale(100006, '30/06/2025', '20/06/2025'),
			sale(100006, '16/06/2025', '17/07/2025'),
			sale(100006, '16/06/2025', '20/06/2025', 0.9, 'SEASONAL_SALE'),
			sale(100006, '01/07/2025', '30/08/2025', 0.9, 'SEASONAL_SALE'),
			sale(100007, '05/07/2025', '20/07/2025', 0.9, 'SEASONAL_SALE'),
			sale(100008, '16/06/2025', '20/06/2025', 0.9, 'CLEARANCE_SALE'),
			sale(100008, '16/06/2025', null, 0.9, 'CLEARANCE_SALE'),
			sale(100009, '16/06/2025', '20/06/2025', 0.97),
			sale(100005, '25/06/2025', '28/06/2025'),
			{ ...sale(100010, '16/06/2025', '20/06/2025'), merchantInventoryId: 999 },
			sale(100010, '2025-06-20', '20/06/2025'),
			sale(100010, '10/06/2025', '20/06/2025'),
			{ ...sale(100010, '16/06/2025', '20/06/2025'), discountType: 'FLASH' },
		];
		const { status, json } = await schedule(items);
		expect(status).toBe(200);
		const results = json.scheduleResult;
		expect(results).toHaveLength(items.length);
		const outcome = results.map((result: { success: boolean; error?: { errorMessage: string } }) =>
			result.success ? 'ok' : result.error!.errorMessage,
		);
		expect(outcome).toEqual([
			'ok',
			expect.stringMatching(/Start date cannot be after end date/),
			expect.stringMatching(/SALE discount can last at most 31 days/),
			expect.stringMatching(/between 1 and 15 July or between 25 December and 10 January/),
			expect.stringMatching(/at most 60 days/),
			'ok',
			expect.stringMatching(/cannot have an end date/),
			'ok',
			expect.stringMatching(/at least 5% below/),
			expect.stringMatching(/overlaps/),
			expect.stringMatching(/999 does not exist/),
			expect.stringMatching(/dd\/MM\/yyyy/),
			expect.stringMatching(/past/),
			expect.stringMatching(/discountType/),
		]);
		expect(results[0]).toEqual({ success: true, data: { merchantInventoryId: 100005, discountId: expect.any(String) } });
		expect(results[10]).toEqual({ success: false, error: { merchantInventoryId: 999, errorMessage: expect.any(String) } });
		expect(sandbox.log.at(-1)).toMatchObject({ route: 'discountSchedule', itemCount: items.length });

		const listed = await get(`${PAYMENT_API}/discounts?dateFrom=19/06/2025&dateTo=21/06/2025`);
		expect(listed.json).toContainEqual({
			discountId: results[0].data.discountId,
			merchantInventoryId: 100005,
			discountPrice: items[0].discountPrice,
			dateFrom: '2025-06-20T00:01:00',
			dateTo: '2025-06-30T23:59:00',
		});
		expect(listed.json.some((discount: { merchantInventoryId: number }) => discount.merchantInventoryId === 100008)).toBe(true);
		expect((await get(`${PAYMENT_API}/discounts?dateFrom=2025-06-19&dateTo=21/06/2025`)).status).toBe(400);
		expect((await get(`${PAYMENT_API}/discounts?dateFrom=22/06/2025&dateTo=21/06/2025`)).status).toBe(400);
	});

	it('starts a discount dated today at once, and prices reflect active discounts', async () => {
		const discountPrice = Math.floor(price(100011) * 0.8);
		const { json } = await schedule([
			{ merchantInventoryId: 100011, discountPrice, dateFrom: '15/06/2025', dateTo: '16/06/2025', discountType: 'SALE' },
		]);
		const discountId = json.scheduleResult[0].data.discountId;
		const today = await get(`${PAYMENT_API}/prices?dateFrom=15/06/2025&merchantInventoryIds=100011,100012,999999`);
		expect(today.json).toEqual([
			{ merchantInventoryId: 100011, basePrice: price(100011), sellablePrice: discountPrice, discountId },
			{ merchantInventoryId: 100012, basePrice: price(100012), sellablePrice: price(100012), discountId: null },
		]);
		const later = await get(`${PAYMENT_API}/prices?dateFrom=17/06/2025&merchantInventoryIds=100011`);
		expect(later.json[0]).toMatchObject({ sellablePrice: price(100011), discountId: null });
		expect(sandbox.log.at(-1)).toMatchObject({ route: 'prices', itemCount: 1 });

		const listed = await get(`${PAYMENT_API}/discounts?dateFrom=15/06/2025&dateTo=15/06/2025`);
		const started = listed.json.find((discount: { discountId: string }) => discount.discountId === discountId);
		expect(started.dateFrom).toMatch(/^2025-06-15T10:00:\d\d$/);

		const tooMany = Array.from({ length: 101 }, (_, index) => 100_001 + index).join(',');
		expect((await get(`${PAYMENT_API}/prices?dateFrom=15/06/2025&merchantInventoryIds=${tooMany}`)).status).toBe(400);
		// Ids without a price: an empty list in the spec's shape, 404 "No prices found…" as the live service answers.
		expect((await get(`${PAYMENT_API}/prices?dateFrom=15/06/2025&merchantInventoryIds=1,2`)).json).toEqual([]);
		sandbox.setVariants({ pricesNotFoundWhenNoMatch: true });
		const notFound = await get(`${PAYMENT_API}/prices?dateFrom=15/06/2025&merchantInventoryIds=1,2`);
		expect(notFound).toMatchObject({ status: 404, json: { message: expect.stringMatching(/^No prices found/) } });
		expect((await get(`${PAYMENT_API}/prices?dateFrom=15/06/2025&merchantInventoryIds=1,100011`)).status).toBe(200);
		sandbox.resetVariants();
		expect((await get(`${PAYMENT_API}/prices?dateFrom=14/06/2025&merchantInventoryIds=100011`)).status).toBe(400);
		expect((await get(`${PAYMENT_API}/prices?merchantInventoryIds=100011`)).status).toBe(400);
	});

	it('updates future discounts freely, running ones only to a lower price, ended ones never', async () => {
		const nowMs = Date.parse(NOW);
		const seeded = sandbox.state.discounts;
		const running = seeded.find((discount) => discount.startsAtMs < nowMs && discount.endsAtMs! > nowMs)!;
		const ended = seeded.find((discount) => discount.endsAtMs! < nowMs)!;
		const upcoming = seeded.find((discount) => discount.startsAtMs > nowMs)!;
		const { json } = await update([
			{ discountId: running.discountId, newDiscountPrice: String(running.discountPrice + 10) },
			{ discountId: running.discountId, newDateTo: '30/06/2025' },
			{ discountId: running.discountId, newDiscountPrice: String(running.discountPrice - 10) },
			{ discountId: ended.discountId, newDiscountPrice: '1' },
			{ discountId: upcoming.discountId, newDateFrom: '08/07/2025', newDateTo: '12/07/2025' },
			{ discountId: 'no-such-discount', newDiscountPrice: '1' },
		]);
		expect(json.updateResult).toEqual([
			{ success: false, error: { discountId: running.discountId, errorMessage: 'A running discount can only get a lower price' } },
			{ success: false, error: { discountId: running.discountId, errorMessage: expect.stringMatching(/cannot be changed/) } },
			{ success: true, data: { discountId: running.discountId } },
			{ success: false, error: { discountId: ended.discountId, errorMessage: 'Ended discounts cannot be updated' } },
			{ success: true, data: { discountId: upcoming.discountId } },
			{ success: false, error: { discountId: 'no-such-discount', errorMessage: expect.stringMatching(/does not exist/) } },
		]);
		const prices = await get(`${PAYMENT_API}/prices?dateFrom=15/06/2025&merchantInventoryIds=${running.merchantInventoryId}`);
		expect(prices.json[0]).toMatchObject({ sellablePrice: running.discountPrice - 10, discountId: running.discountId });
		const moved = await get(`${PAYMENT_API}/discounts?dateFrom=08/07/2025&dateTo=08/07/2025`);
		expect(moved.json).toContainEqual(expect.objectContaining({ discountId: upcoming.discountId, dateFrom: '2025-07-08T00:01:00', dateTo: '2025-07-12T23:59:00' }));
	});

	it("with discountUpdateRules 'documented', refuses an update without what the current pages require; by default, takes the changes alone", async () => {
		const nowMs = sandbox.clock.now().getTime();
		const current = sandbox.state.discounts.filter((discount) => !discount.cancelled);
		const running = current.filter((discount) => discount.startsAtMs < nowMs && discount.endsAtMs! > nowMs).at(-1)!;
		const upcoming = current.filter((discount) => discount.startsAtMs > nowMs && discount.discountType === 'SALE').at(-1)!;
		const lower = { discountId: running.discountId, newDiscountPrice: String(running.discountPrice - 1), newDiscountPriceCurrency: 'RSD' };
		const full = {
			discountId: upcoming.discountId,
			merchantInventoryId: upcoming.merchantInventoryId,
			newDateFrom: upcoming.dateFrom,
			newDateTo: upcoming.dateTo,
			newDiscountPrice: String(upcoming.discountPrice - 1),
			newDiscountPriceCurrency: 'RSD',
			newDiscountType: 'SALE',
		};
		sandbox.setVariants({ discountUpdateRules: 'documented' });
		try {
			const { json } = await update([
				lower,
				{ ...lower, merchantInventoryId: running.merchantInventoryId, newDateTo: running.dateTo },
				{ ...lower, merchantInventoryId: upcoming.merchantInventoryId },
				{ discountId: upcoming.discountId, newDiscountPrice: full.newDiscountPrice },
				{ ...full, newDateTo: null },
				{ ...lower, merchantInventoryId: running.merchantInventoryId, newDateFrom: null, newDateTo: null, newDiscountType: null },
				full,
			]);
			expect(json.updateResult.map((result: { success: boolean; error?: { errorMessage: string } }) => (result.success ? 'ok' : result.error!.errorMessage))).toEqual([
				'merchantInventoryId is mandatory when updating an active discount',
				'newDateTo must be null when updating an active discount',
				`merchantInventoryId ${upcoming.merchantInventoryId} is not the product of discount ${running.discountId}`,
				'merchantInventoryId is mandatory when updating a pending discount',
				'newDateTo is mandatory when updating a pending discount',
				'ok',
				'ok',
			]);
		} finally {
			sandbox.resetVariants();
		}
		const partial = await update([{ discountId: running.discountId, newDiscountPrice: String(running.discountPrice - 2) }]);
		expect(partial.json.updateResult).toEqual([{ success: true, data: { discountId: running.discountId } }]);
	});

	it('cancels discounts', async () => {
		const running = sandbox.state.discounts.find(
			(discount) => discount.startsAtMs < Date.parse(NOW) && discount.endsAtMs! > Date.parse(NOW),
		)!;
		const path = `${PAYMENT_API}/discounts/${running.discountId}/cancellations`;
		const cancelled = await call(sandbox, 'PUT', path, { token });
		expect(cancelled.status).toBe(200);
		expect(cancelled.json).toEqual({ message: expect.any(String) });
		const prices = await get(`${PAYMENT_API}/prices?dateFrom=15/06/2025&merchantInventoryIds=${running.merchantInventoryId}`);
		expect(prices.json[0].discountId).toBeNull();
		expect((await call(sandbox, 'PUT', path, { token })).status).toBe(400);
		const unknown = await call(sandbox, 'PUT', `${PAYMENT_API}/discounts/unknown-id/cancellations`, { token });
		expect(unknown.status).toBe(404);
		expect(unknown.json).toEqual({ message: expect.any(String) });
	});

	it('accepts XML bodies and refuses more than 500 discounts', async () => {
		const discountPrice = Math.floor(price(100020) * 0.5);
		const xml =
			'<DiscountRequest><discounts><discounts><merchantInventoryId>100020</merchantInventoryId>' +
			`<discountPrice>${discountPrice}</discountPrice><discountPriceCurrency>RSD</discountPriceCurrency>` +
			'<dateFrom>01/08/2025</dateFrom><dateTo>05/08/2025</dateTo><discountType>SALE</discountType>' +
			'</discounts></discounts></DiscountRequest>';
		const answer = await call(sandbox, 'POST', `${PAYMENT_API}/discounts`, { token, body: xml, headers: { 'Content-Type': 'application/xml' } });
		expect(answer.json.scheduleResult).toEqual([{ success: true, data: { merchantInventoryId: 100020, discountId: expect.any(String) } }]);

		const many = Array.from({ length: 501 }, () => ({ merchantInventoryId: 100021, discountPrice: 1, dateFrom: '01/08/2025', dateTo: '02/08/2025', discountType: 'SALE' }));
		expect((await schedule(many)).status).toBe(400);
		expect((await update([])).status).toBe(400);
		expect((await call(sandbox, 'POST', `${PAYMENT_API}/discounts`, { token, body: '{"discounts": [' })).status).toBe(400);
	});
});

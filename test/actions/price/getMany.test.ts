/** Price › Get Many through the real engine against the sandbox. */
import type { IDataObject } from 'n8n-workflow';

import { startSandbox } from '../../../sandbox';
import { NODE_UNDER_TEST_NAME, runNode, sandboxCredential } from '../../harness';
import { CREDENTIAL_TYPE, NODE, YEAR, credentials, sandbox, sandboxPerFile, sandboxPerTest } from '../helpers';

const TODAY = `${YEAR}-06-15`;
sandboxPerFile({ now: `${TODAY}T10:00:00Z`, seed: 3 });

async function getPrices(parameters: IDataObject, inputItems: unknown[] = [{}]) {
	return await runNode(NODE, { resource: 'price', operation: 'getMany', ...parameters }, inputItems, {
		credentials: credentials(),
	});
}

/** The price the sandbox's state implies for a product right now (today's base price, running discount). */
function expectedPriceNow(id: number): IDataObject {
	const product = sandbox.state.product(id)!;
	const now = sandbox.clock.now().getTime();
	const discount = sandbox.state.discounts.find(
		(candidate) =>
			candidate.merchantInventoryId === id &&
			!candidate.cancelled &&
			candidate.startsAtMs <= now &&
			(candidate.endsAtMs === null || now <= candidate.endsAtMs),
	);
	return {
		merchantInventoryId: id,
		basePrice: product.basePrice,
		sellablePrice: discount ? discount.discountPrice : product.basePrice,
		discountId: discount ? discount.discountId : null,
	};
}

function idsOf(count: number, offset = 0): number[] {
	return sandbox.state.products.slice(offset, offset + count).map((product) => product.id);
}

describe('Price › Get Many', () => {
	it('sends 250 ids as 100/100/50 and outputs one item per price, as in the sandbox state', async () => {
		const ids = idsOf(250);
		const result = await getPrices({ merchantInventoryIds: '={{ $json.ids }}', date: TODAY }, [{ ids }]);

		expect(result.error).toBeUndefined();
		const prices = result.json(NODE_UNDER_TEST_NAME);
		expect(prices).toHaveLength(250);
		expect(prices).toEqual(ids.map(expectedPriceNow));
		// At least one seeded discount is running today, so the comparison covers discounted prices too.
		expect(prices.some((price) => price.discountId !== null)).toBe(true);

		const requests = sandbox.log.filter((entry) => entry.route === 'prices');
		expect(requests.map((entry) => entry.itemCount)).toEqual([100, 100, 50]);
		expect(requests.every((entry) => entry.status === 200 && entry.query.dateFrom === `15/06/${YEAR}`)).toBe(true);
		expect(requests.flatMap((entry) => entry.query.merchantInventoryIds.split(',')).map(Number)).toEqual(ids);
	});

	it('accepts ids as an array of strings', async () => {
		const ids = idsOf(3, 10);
		const result = await getPrices({ merchantInventoryIds: '={{ $json.ids }}', date: TODAY }, [{ ids: ids.map(String) }]);

		expect(result.json(NODE_UNDER_TEST_NAME)).toEqual(ids.map(expectedPriceNow));
		expect(sandbox.count('prices')).toBe(1);
	});

	it('accepts ids as text separated by commas and new lines', async () => {
		const ids = idsOf(4, 20);
		const text = `${ids[0]}, ${ids[1]},${ids[2]}\n${ids[3]}`;
		const result = await getPrices({ merchantInventoryIds: text, date: TODAY });

		expect(result.json(NODE_UNDER_TEST_NAME)).toEqual(ids.map(expectedPriceNow));
		expect(sandbox.log.find((entry) => entry.route === 'prices')?.query.merchantInventoryIds).toBe(ids.join(','));
	});

	it('asks for today (the workflow\'s time zone, here UTC) when no date is given', async () => {
		const [id] = idsOf(1, 30);
		await getPrices({ merchantInventoryIds: String(id) });

		const iso = new Date().toISOString();
		const today = `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;
		expect(sandbox.log.find((entry) => entry.route === 'prices')?.query.dateFrom).toBe(today);
	});

	it('shows a discount scheduled for a day as sellablePrice and discountId on that day only', async () => {
		const discounted = new Set(sandbox.state.discounts.map((discount) => discount.merchantInventoryId));
		const product = sandbox.state.products.find((candidate) => !discounted.has(candidate.id))!;
		const discountPrice = Math.floor(product.basePrice * 0.8);
		const scheduled = await runNode(
			NODE,
			{ resource: 'discount', operation: 'schedule' },
			[
				{
					discounts: [
						{ merchantInventoryId: product.id, discountPrice, dateFrom: `01/07/${YEAR}`, dateTo: `10/07/${YEAR}`, discountType: 'SALE' },
					],
				},
			],
			{ credentials: credentials() },
		);
		const [schedule] = scheduled.json(NODE_UNDER_TEST_NAME);
		expect(schedule.success).toBe(true);

		const onTheDay = await getPrices({ merchantInventoryIds: String(product.id), date: `${YEAR}-07-05T00:00:00` });
		expect(onTheDay.json(NODE_UNDER_TEST_NAME)).toEqual([
			{ merchantInventoryId: product.id, basePrice: product.newBasePrice, sellablePrice: discountPrice, discountId: schedule.id },
		]);

		const dayBefore = await getPrices({ merchantInventoryIds: String(product.id), date: `30/06/${YEAR}` });
		expect(dayBefore.json(NODE_UNDER_TEST_NAME)).toEqual([
			{ merchantInventoryId: product.id, basePrice: product.newBasePrice, sellablePrice: product.newBasePrice, discountId: null },
		]);
		expect(sandbox.log.filter((entry) => entry.route === 'prices').map((entry) => entry.query.dateFrom)).toEqual([
			`05/07/${YEAR}`,
			`30/06/${YEAR}`,
		]);
	});

	it.each([
		['a non-numeric id', '1001, abc', 'Product IDs › entry 2: "abc" is not a product ID'],
		['a fractional id', '1001, 12.5', 'Product IDs › entry 2: "12.5" is not a product ID'],
		['no ids', ' , ', 'Product IDs: no ids given'],
	])('rejects %s before sending anything', async (_case, ids, message) => {
		const result = await getPrices({ merchantInventoryIds: ids, date: TODAY });

		expect(result.error?.message).toContain(message);
		expect(result.error?.message).toContain('(item 0)');
		expect(sandbox.log).toHaveLength(0);
	});

	it.each([
		['yesterday', () => new Date(Date.now() - 86_400_000)],
		['a year ago', () => `${YEAR - 2}-06-15`],
	])('refuses a past day (%s) before sending: the service takes today or later', async (_case, dateOf) => {
		const date = dateOf();
		const day = (date instanceof Date ? date.toISOString() : date).slice(0, 10);

		const result = await getPrices({ merchantInventoryIds: '100001', date });

		expect(result.error?.message).toBe(`Date: ${day} is in the past (item 0)`);
		expect(result.error?.description).toMatch(/^Prices are for today \(\d{4}-\d{2}-\d{2} in the workflow's time zone, UTC\) or a later day$/);
		expect(sandbox.log).toHaveLength(0);
	});

	it('takes today, given as a date', async () => {
		// A sandbox on today's clock: this file's sandbox lives a year ahead.
		const today = new Date().toISOString().slice(0, 10);
		const ofToday = await startSandbox({ rateLimits: false, seed: 3 });
		try {
			const result = await runNode(NODE, { resource: 'price', operation: 'getMany', merchantInventoryIds: String(ofToday.state.products[0].id), date: today }, [{}], {
				credentials: { [CREDENTIAL_TYPE]: sandboxCredential(ofToday) },
			});

			expect(result.error).toBeUndefined();
			expect(ofToday.log.filter((entry) => entry.route === 'prices').map((entry) => entry.query.dateFrom)).toEqual([today.split('-').reverse().join('/')]);
		} finally {
			await ofToday.close();
		}
	});

	it('names the field an expression of a Products row read when it gave nothing', async () => {
		const result = await getPrices(
			{ products: { product: [{ id: { __rl: true, mode: 'id', value: '={{ $json.id }}' } }] }, date: TODAY },
			[{ ID: 100001, name: 'Pan' }],
		);

		expect(result.error?.message).toBe("Products › row 1 › Product ID: `{{ $json.id }}` gave no value: the input item has no field 'id' (it has: ID, name) (item 0)");
		expect(sandbox.log).toHaveLength(0);
	});

	it('with Continue on Fail, a bad item becomes an error item and the others are still answered', async () => {
		const [id] = idsOf(1, 40);
		const result = await runNode(
			NODE,
			{ resource: 'price', operation: 'getMany', merchantInventoryIds: '={{ $json.ids }}', date: TODAY },
			[{ ids: [id] }, { ids: ['x1'] }],
			{ credentials: credentials(), node: { continueOnFail: true } },
		);

		const output = result.output(NODE_UNDER_TEST_NAME);
		expect(output).toHaveLength(2);
		expect(output[0].json).toEqual(expectedPriceNow(id));
		expect(output[1].error?.message).toContain('Product IDs › entry 1: "x1" is not a product ID (a whole number) (item 1)');
		expect(sandbox.count('prices')).toBe(1);
	});

	describe("on the environment's service host (credential › Service Host URL)", () => {
		// A sandbox per test: where prices answered is kept per process and credential (its Base URL).
		const fresh = sandboxPerTest(() => ({ now: `${TODAY}T10:00:00Z`, seed: 3 }));
		const PRICES_PATH = 'payment/api/v1/merchant-integration/prices';
		const advice = "enter the environment's service host in the credential's Service Host URL";

		async function pricesOf(ids: number[], credentialValues: IDataObject = {}) {
			return await runNode(NODE, { resource: 'price', operation: 'getMany', merchantInventoryIds: '={{ $json.ids }}', date: TODAY }, ids.map((id) => ({ ids: [id] })), {
				credentials: { [CREDENTIAL_TYPE]: sandboxCredential(sandbox, credentialValues) },
			});
		}

		const pricesAsked = () => sandbox.log.filter((entry) => entry.route === 'prices').map(({ status, host }) => `${status} ${host ?? 'main'}`);

		it('asks the Base URL first and, where it answers "No static resource", the service host: learned by one request for the process', async () => {
			await fresh();
			sandbox.setVariants({ warehousesAndPricesOn: 'service' });
			const ids = idsOf(3);
			const credential = { serviceUrl: sandbox.serviceUrl };

			// Three items at once: one of them learns, the others wait for it; then 250 ids (three requests) in a later run.
			const first = await pricesOf(ids, credential);
			const second = await runNode(NODE, { resource: 'price', operation: 'getMany', merchantInventoryIds: '={{ $json.ids }}', date: TODAY }, [{ ids: idsOf(250) }], {
				credentials: { [CREDENTIAL_TYPE]: sandboxCredential(sandbox, credential) },
			});

			expect(first.error).toBeUndefined();
			expect(first.json(NODE_UNDER_TEST_NAME)).toEqual(ids.map(expectedPriceNow));
			expect(second.json(NODE_UNDER_TEST_NAME)).toEqual(idsOf(250).map(expectedPriceNow));
			expect(pricesAsked()).toEqual(['500 main', ...Array.from({ length: 6 }, () => '200 service')]);
		});

		it('asks only the Base URL where it serves prices, with or without a service host', async () => {
			await fresh();
			sandbox.setVariants({ warehousesAndPricesOn: 'both' });
			const ids = idsOf(2);

			const withHost = await pricesOf(ids, { serviceUrl: sandbox.serviceUrl });
			sandbox.setVariants({ warehousesAndPricesOn: 'main' });
			const withHostAgain = await pricesOf(ids, { serviceUrl: sandbox.serviceUrl });
			const without = await pricesOf(ids);

			for (const result of [withHost, withHostAgain, without]) expect(result.json(NODE_UNDER_TEST_NAME)).toEqual(ids.map(expectedPriceNow));
			expect(pricesAsked()).toEqual(Array.from({ length: 6 }, () => '200 main'));
		});

		it('without a service host, a "No static resource" answer (500, or Spring\'s 404) is an error that says what to enter, never "no prices"', async () => {
			await fresh();
			sandbox.setVariants({ warehousesAndPricesOn: 'service' });
			const serverError = await pricesOf(idsOf(1));
			sandbox.resetVariants();
			sandbox.injectFault({ route: 'prices', status: 404, message: `No static resource ${PRICES_PATH}.`, count: 1 });
			const notFound = await pricesOf(idsOf(1));

			expect(serverError.error?.message).toBe(`The Base URL does not serve prices (HTTP 500): ${advice}`);
			expect(notFound.error?.message).toBe(`The Base URL does not serve prices (HTTP 404): ${advice}`);
			expect(notFound.error?.description).toMatch(/host name with a "svc" label/);
			expect(JSON.stringify([serverError.run, notFound.run])).not.toContain(sandbox.client.clientSecret);
			expect(pricesAsked()).toEqual(['500 main', '404 main']);
		});

		it('goes to the service host after Spring\'s 404 too, and says when the service host does not serve prices', async () => {
			await fresh();
			sandbox.setVariants({ warehousesAndPricesOn: 'both' });
			sandbox.injectFault({ route: 'prices', status: 404, message: `No static resource ${PRICES_PATH}.`, count: 1 });
			const [id] = idsOf(1);
			const credential = { serviceUrl: sandbox.serviceUrl };
			const learned = await pricesOf([id], credential);
			// Where prices answered is kept: the next run goes to the service host, which no longer serves them.
			sandbox.setVariants({ warehousesAndPricesOn: 'main' });
			const moved = await pricesOf([id], credential);

			expect(learned.json(NODE_UNDER_TEST_NAME)).toEqual([expectedPriceNow(id)]);
			expect(moved.error?.message).toBe("The Service Host URL does not serve prices (HTTP 500): check the credential's Service Host URL");
			expect(pricesAsked()).toEqual(['404 main', '200 service', '500 service']);
		});
	});
});

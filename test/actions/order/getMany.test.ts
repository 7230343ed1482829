/**
 * Order › Get Many through the real engine against the sandbox: the groups, Return All and Limit
 * over Spring pages (stopped on `last`, none past the end), the created range, Simplify, and the
 * documentation's variants (payment key, specifications key, the three sets of group names).
 */
import type { IDataObject } from 'n8n-workflow';

import { forgetGroupNaming } from '../../../nodes/MarketplaceMerchant/shared/orders/orders';
import type { OrderRecord } from '../../../sandbox/order-types';
import { NOW, outputRunner, pages, sandbox, sandboxPerFile, sandboxPerTest, sent } from '../helpers';

const run = outputRunner('order');

/** Whether the sandbox's order waits for confirmation: every suborder still CREATED. */
function forConfirmation(order: OrderRecord): boolean {
	return sandbox.state.shipments.filter((shipment) => shipment.orderId === order.id).every((shipment) => shipment.status === 'CREATED');
}

const idsOf = (json: IDataObject[]) => json.map((order) => order.orderId ?? order.id);
const sorted = (ids: unknown[]) => [...ids].map(String).sort();

beforeEach(() => forgetGroupNaming());

describe('Order › Get Many on 250 new orders', () => {
	const start = sandboxPerTest((limits: boolean = false) => ({ now: NOW, seed: 31, orders: 0, rateLimits: limits && { scale: 1 } }));

	it('reads 250 orders For Confirmation with Return All in 3 requests of 100 (page 0 says how many; none past the last)', async () => {
		await start();
		sandbox.addOrders(250);
		sandbox.clearLog();
		const { result, json } = await run({ operation: 'getMany', returnAll: true });

		expect(result.error).toBeUndefined();
		expect(idsOf(json)).toEqual(sandbox.state.orders.map((order) => order.id));
		expect(pages('orders')).toEqual([
			{ page: '0', size: '100' },
			{ page: '1', size: '100' },
			{ page: '2', size: '100' },
		]);
		expect(sent('orders').every((entry) => entry.query.statusGroup === 'SG_FOR_CONFIRMATION' && entry.status === 200)).toBe(true);
	});

	it('at the live limits (300 a minute, 5 a second) still 3 requests for 250 orders, none answered 429', async () => {
		await start(true);
		sandbox.addOrders(250);
		sandbox.clearLog();
		const { result, json } = await run({ operation: 'getMany', returnAll: true });
		expect(result.error).toBeUndefined();
		expect(json).toHaveLength(250);
		expect(sent('orders').map((entry) => entry.status)).toEqual([200, 200, 200]);
	});

	it('reads a Limit in as few requests as it needs, evenly sized: 150 in 2 of 75, 30 in 1 of 30', async () => {
		await start();
		sandbox.addOrders(250);
		sandbox.clearLog();
		const limited = await run({ operation: 'getMany', returnAll: false, limit: 150 });
		expect(idsOf(limited.json)).toEqual(sandbox.state.orders.slice(0, 150).map((order) => order.id));
		expect(pages('orders')).toEqual([
			{ page: '0', size: '75' },
			{ page: '1', size: '75' },
		]);

		sandbox.clearLog();
		const few = await run({ operation: 'getMany', returnAll: false, limit: 30 });
		expect(few.json).toHaveLength(30);
		expect(pages('orders')).toEqual([{ page: '0', size: '30' }]);
	});
});

describe('Order › Get Many on the seeded orders', () => {
	sandboxPerFile({ now: NOW, seed: 31, orders: 40 });
	afterEach(() => sandbox.resetVariants());

	it('returns the groups as the service files them: For Confirmation, Processed and All, newest first', async () => {
		const all = sandbox.state.orders;
		const waiting = all.filter(forConfirmation);
		expect(waiting.length).toBeGreaterThan(0);
		expect(waiting.length).toBeLessThan(all.length);

		const forConfirmationRun = await run({ operation: 'getMany', returnAll: true, statusGroup: 'forConfirmation' });
		expect(idsOf(forConfirmationRun.json)).toEqual(waiting.map((order) => order.id));
		const processed = await run({ operation: 'getMany', returnAll: true, statusGroup: 'processed' });
		expect(idsOf(processed.json)).toEqual(all.filter((order) => !forConfirmation(order)).map((order) => order.id));
		const everything = await run({ operation: 'getMany', returnAll: true, statusGroup: 'all' });
		expect(idsOf(everything.json)).toEqual(all.map((order) => order.id));
		expect(sent('orders').map((entry) => entry.query.statusGroup)).toEqual(['SG_FOR_CONFIRMATION', 'SG_PROCESSED', undefined]);
	});

	it('sends Created From and Created To as zoned instants and returns the orders created between', async () => {
		const all = sandbox.state.orders;
		const from = all[Math.floor(all.length * 0.7)].createdDate;
		const to = all[Math.floor(all.length * 0.2)].createdDate;
		const { json } = await run({ operation: 'getMany', returnAll: true, statusGroup: 'all', filters: { createdFrom: from, createdTo: to } });

		const expected = all.filter((order) => order.createdDate >= from && order.createdDate <= to);
		expect(idsOf(json)).toEqual(expected.map((order) => order.id));
		expect(sent('orders')[0].query).toMatchObject({ dateFrom: new Date(from).toISOString(), dateTo: new Date(to).toISOString() });
	});

	it('reads a day alone as Created To up to the end of that day', async () => {
		const day = sandbox.state.orders[0].createdDate.slice(0, 10);
		const { json } = await run({ operation: 'getMany', returnAll: true, statusGroup: 'all', filters: { createdFrom: day, createdTo: day } });
		expect(sent('orders')[0].query).toMatchObject({ dateFrom: `${day}T00:00:00.000Z`, dateTo: `${day}T23:59:59.999Z` });
		expect(idsOf(json)).toEqual(sandbox.state.orders.filter((order) => order.createdDate.startsWith(day)).map((order) => order.id));
	});

	it('refuses Created To before Created From, naming the field, before sending anything', async () => {
		const { result } = await run({
			operation: 'getMany',
			statusGroup: 'all',
			filters: { createdFrom: '2025-06-10T00:00:00Z', createdTo: '2025-06-01T00:00:00Z' },
		});
		// The documents' wording, one check of a range's order (issue 41).
		expect(result.error?.message).toMatch(/^Filters › Created To: must not be before Filters › Created From \(2025-06-01T00:00:00.000Z is before 2025-06-10T00:00:00.000Z\)/);
		expect(sent('orders')).toHaveLength(0);
	});

	it('reads Status Group with the one choice reader: trimmed, in any letter case; empty is missing; another value named (issue 41)', async () => {
		const upper = await run({ operation: 'getMany', returnAll: true, statusGroup: '={{ " PROCESSED " }}', includeMarketplaceFulfilled: false });
		expect(upper.result.error).toBeUndefined();
		expect(sent('orders').map((entry) => entry.query.statusGroup)).toEqual(['SG_PROCESSED']);
		const empty = await run({ operation: 'getMany', statusGroup: '={{ "" }}' });
		expect(empty.result.error?.message).toMatch(/^Status Group: is missing/);
		const other = await run({ operation: 'getMany', statusGroup: '={{ "pending" }}' });
		expect(other.result.error?.message).toMatch(/^Status Group: "pending" is not one of forConfirmation, processed, all/);
		expect(sent('orders')).toHaveLength(1);
	});

	it('reads Include Marketplace-Fulfilled Orders as every boolean: the text "false" leaves them out, "maybe" is refused (issue 41)', async () => {
		const off = await run({ operation: 'getMany', returnAll: true, statusGroup: 'processed', includeMarketplaceFulfilled: '={{ "false" }}' });
		expect(off.result.error).toBeUndefined();
		expect(sent('shipments')).toHaveLength(0);
		const unclear = await run({ operation: 'getMany', returnAll: true, statusGroup: 'processed', includeMarketplaceFulfilled: '={{ "maybe" }}' });
		expect(unclear.result.error?.message).toMatch(/^Include Marketplace-Fulfilled Orders: "maybe" is not true or false/);
	});

	it('simplifies each order: id, created, totals with and without VAT, shipping, commission, payment methods, buyer with tax ID and city, delivery address, lines by Product ID', async () => {
		const { json } = await run({ operation: 'getMany', returnAll: true, statusGroup: 'all' });
		const withCompany = sandbox.state.orders.find((order) => order.billingAddress?.buyerType === 'TIN');
		const withoutAddress = sandbox.state.orders.find((order) => order.billingAddress === null);
		const byId = new Map(json.map((order) => [order.orderId, order]));

		const order = sandbox.state.orders[0];
		const simplified = byId.get(order.id) as IDataObject;
		expect(Object.keys(simplified)).toEqual([
			'orderId', 'createdDate', 'fulfilledBy', 'fromShipments', 'totalPrice', 'totalPriceWithoutVat', 'itemsTotal', 'itemsTotalWithoutVat', 'shippingCost', 'shippingCostWithoutVat', 'commission',
			'currency', 'paymentMethods', 'paymentMethodNames', 'buyer', 'deliveryAddress', 'numberOfItems', 'lines',
		]);
		expect(simplified).toMatchObject({ orderId: order.id, createdDate: order.createdDate, fulfilledBy: 'merchant', fromShipments: false, currency: 'RSD', paymentMethods: order.paymentMethods, numberOfItems: order.lines.length });
		// What the service's full order says, summed over its lines.
		const full = (await run({ operation: 'get', orderId: order.id, simplify: false })).json[0];
		const items = full.items as IDataObject[];
		const sum = (key: string) => Math.round(items.reduce((total, item) => total + Number(item[key]), 0) * 100) / 100;
		expect(simplified).toMatchObject({
			totalPrice: full.totalPrice,
			totalPriceWithoutVat: sum('chargedPriceWithoutVat'),
			itemsTotalWithoutVat: sum('grandTotalWithoutVat'),
			shippingCost: sum('shippingCost'),
			shippingCostWithoutVat: sum('shippingCostWithoutVat'),
			commission: sum('takeRateTotal'),
		});
		expect(simplified.totalPriceWithoutVat as number).toBeLessThan(simplified.totalPrice as number);
		const [line] = simplified.lines as IDataObject[];
		expect(line).toEqual({
			productId: order.lines[0].merchantInventoryId,
			merchantInventoryId: order.lines[0].merchantInventoryId,
			platformProductId: order.lines[0].productId,
			ean: order.lines[0].productEan,
			sku: order.lines[0].productSku,
			name: order.lines[0].productName,
			quantity: order.lines[0].quantity,
			confirmedQuantity: line.confirmedQuantity,
			packedQuantity: line.packedQuantity,
			unitPrice: order.lines[0].basePrice,
			unitPriceWithoutVat: items[0].basePriceWithoutVat,
			vat: order.lines[0].vat,
			total: expect.any(Number),
			totalWithoutVat: items[0].grandTotalWithoutVat,
			shippingCost: order.lines[0].shippingCost,
			commission: items[0].takeRateTotal,
			warehouseAddressId: expect.any(Number),
		});
		expect(withCompany).toBeDefined();
		const address = (withCompany as OrderRecord).billingAddress as NonNullable<OrderRecord['billingAddress']>;
		const company = byId.get((withCompany as OrderRecord).id) as IDataObject;
		expect(company.buyer).toEqual({ name: `${address.firstName} ${address.lastName}`, company: address.buyerName, taxId: address.buyerId, city: address.city });
		expect(company.deliveryAddress).toEqual({
			type: address.type,
			street: address.streetName,
			number: address.streetNumber,
			apartment: address.apartmentNumber,
			postcode: address.postcode,
			city: address.city,
			additionalInfo: address.additionalInfo,
		});
		if (withoutAddress) expect(byId.get(withoutAddress.id)).toMatchObject({ buyer: null, deliveryAddress: null });
	});

	it('without Simplify returns the full order, unknown fields as sent (billing address, commission, translations)', async () => {
		const { json } = await run({ operation: 'getMany', returnAll: false, limit: 1, statusGroup: 'all', simplify: false });
		const [order] = json;
		expect(order).toHaveProperty('billingAddress');
		expect(order).toHaveProperty('sumOfItemOrderedQuantities');
		expect(order.paymentMethods).toEqual(sandbox.state.orders[0].paymentMethods);
		const [item] = order.items as IDataObject[];
		expect(item).toHaveProperty('takeRate');
		expect(item).toHaveProperty('translations');
		expect(typeof item.specifications).toBe('string');
		// The merchant inventory id (a string in the pages' example) is a number, as everywhere in the package.
		expect(item.id).toBe(sandbox.state.orders[0].lines[0].merchantInventoryId);
	});

	it('reads the payment methods under the field table\'s `paymentMethod` and the specifications under `specificationsTranslations`', async () => {
		sandbox.setVariants({ orderPaymentKey: 'paymentMethod', orderSpecificationsKey: 'specificationsTranslations' });
		const simplified = await run({ operation: 'getMany', returnAll: true, statusGroup: 'all' });
		expect(simplified.json.map((order) => order.paymentMethods)).toEqual(sandbox.state.orders.map((order) => order.paymentMethods));

		const full = await run({ operation: 'getMany', returnAll: false, limit: 1, statusGroup: 'all', simplify: false });
		const [order] = full.json;
		expect(order.paymentMethod).toEqual(sandbox.state.orders[0].paymentMethods);
		expect(order).not.toHaveProperty('paymentMethods');
		const [item] = order.items as IDataObject[];
		expect(typeof item.specificationsTranslations).toBe('string');
		expect(item).not.toHaveProperty('specifications');
	});

	describe('group names (statusGroupNames)', () => {
		it("learns the status-groups endpoint's names with one extra request per process: For Confirmation is SG_ON_HOLD", async () => {
			sandbox.setVariants({ statusGroupNames: 'status-groups' });
			const expected = sandbox.state.orders.filter(forConfirmation).map((order) => order.id);
			const first = await run({ operation: 'getMany', returnAll: true });
			expect(first.result.error).toBeUndefined();
			expect(idsOf(first.json)).toEqual(expected);
			expect(sent('orders').map(({ query, status }) => [query.statusGroup, status])).toEqual([
				['SG_FOR_CONFIRMATION', 400],
				['SG_ON_HOLD', 200],
			]);

			sandbox.clearLog();
			const again = await run({ operation: 'getMany', returnAll: true });
			expect(idsOf(again.json)).toEqual(expected);
			expect(sent('orders').map(({ query, status }) => [query.statusGroup, status])).toEqual([['SG_ON_HOLD', 200]]);
		});

		it('learns again, with one extra request, when the service takes its own names after all', async () => {
			sandbox.setVariants({ statusGroupNames: 'status-groups' });
			await run({ operation: 'getMany', returnAll: true });
			sandbox.setVariants({ statusGroupNames: 'endpoint' });
			sandbox.clearLog();
			const changed = await run({ operation: 'getMany', returnAll: true });
			expect(idsOf(changed.json)).toEqual(sandbox.state.orders.filter(forConfirmation).map((order) => order.id));
			expect(sent('orders').map(({ query, status }) => [query.statusGroup, status])).toEqual([
				['SG_ON_HOLD', 400],
				['SG_FOR_CONFIRMATION', 200],
			]);
			sandbox.clearLog();
			await run({ operation: 'getMany', returnAll: true });
			expect(sent('orders').map(({ query, status }) => [query.statusGroup, status])).toEqual([['SG_FOR_CONFIRMATION', 200]]);
		});

		it('learns once for several input items at once: one 400 in all', async () => {
			sandbox.setVariants({ statusGroupNames: 'status-groups' });
			const { result, json } = await run({ operation: 'getMany', returnAll: true }, [{}, {}, {}]);
			expect(result.error).toBeUndefined();
			expect(json).toHaveLength(3 * sandbox.state.orders.filter(forConfirmation).length);
			expect(sent('orders').filter((entry) => entry.status === 400)).toHaveLength(1);
		});

		it('reads Processed as the three other groups, each order once, newest first', async () => {
			sandbox.setVariants({ statusGroupNames: 'status-groups' });
			const { json } = await run({ operation: 'getMany', returnAll: true, statusGroup: 'processed' });
			const expected = sandbox.state.orders.filter((order) => !forConfirmation(order));
			expect(sorted(idsOf(json))).toEqual(sorted(expected.map((order) => order.id)));
			const times = json.map((order) => Date.parse(order.createdDate as string));
			expect(times).toEqual([...times].sort((a, b) => b - a));
			expect(sent('orders').map(({ query }) => query.statusGroup)).toEqual(['SG_PROCESSED', 'SG_PROCESSING', 'SG_ON_DELIVERY', 'SG_COMPLETED']);
		});

		it("a Limit over the three groups keeps the newest: the same orders as the endpoint's own Processed", async () => {
			const own = await run({ operation: 'getMany', returnAll: false, limit: 7, statusGroup: 'processed' });
			forgetGroupNaming();
			sandbox.setVariants({ statusGroupNames: 'status-groups' });
			const learned = await run({ operation: 'getMany', returnAll: false, limit: 7, statusGroup: 'processed' });
			expect(sorted(idsOf(learned.json))).toEqual(sorted(idsOf(own.json)));
		});

		it('sends no extra request where the service takes every name', async () => {
			sandbox.setVariants({ statusGroupNames: 'any' });
			await run({ operation: 'getMany', returnAll: true });
			expect(sent('orders').map(({ query, status }) => [query.statusGroup, status])).toEqual([['SG_FOR_CONFIRMATION', 200]]);
		});

		it('keeps the first refusal as the error when the other names are refused too, and tries no more', async () => {
			sandbox.injectFault({ route: 'orders', status: 400, message: 'Something else is wrong', count: 2 });
			const { result } = await run({ operation: 'getMany', returnAll: true });
			expect(result.error?.message).toMatch(/Something else is wrong|Bad request/i);
			expect(sent('orders').map(({ query }) => query.statusGroup)).toEqual(['SG_FOR_CONFIRMATION', 'SG_ON_HOLD']);

			sandbox.clearLog();
			sandbox.injectFault({ route: 'orders', status: 400, message: 'Something else is wrong', count: 1 });
			await run({ operation: 'getMany', returnAll: true });
			expect(sent('orders').map(({ query }) => query.statusGroup)).toEqual(['SG_FOR_CONFIRMATION']);
		});
	});
});

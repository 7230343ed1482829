import { startSandbox, type Sandbox } from '../../sandbox';
import { ORDER_API, PRODUCT_API, call, getToken } from './helpers';

const NOW = '2025-06-15T10:00:00Z';
const ORDERS = `${ORDER_API}/orders`;

/** Every page of a group, 100 at a time, stopping on `last` as a production client does. */
async function allPages(sandbox: Sandbox, token: string, query: string): Promise<{ pages: number; ids: string[] }> {
	const ids: string[] = [];
	for (let page = 0; ; page++) {
		const answer = await call(sandbox, 'GET', `${ORDERS}?${query}&size=100&page=${page}`, { token });
		expect(answer.status).toBe(200);
		ids.push(...answer.json.content.map((order: { id: string }) => order.id));
		if (answer.json.last) return { pages: page + 1, ids };
	}
}

describe('sandbox: orders', () => {
	let sandbox: Sandbox;
	let token: string;

	beforeEach(async () => {
		sandbox = await startSandbox({ now: NOW, rateLimits: false, orders: 0 });
		token = await getToken(sandbox);
	});
	afterEach(async () => {
		await sandbox.close();
	});

	it('lists the 52 status names and the status groups', async () => {
		const statuses = await call(sandbox, 'GET', `${ORDER_API}/outbound-orders/statuses`, { token });
		expect(statuses.status).toBe(200);
		expect(statuses.json).toHaveLength(52);
		expect(statuses.json).toEqual(expect.arrayContaining(['CREATED', 'READY_FOR_COLLECTION', 'COMPLETED_LOCKER']));
		const groups = await call(sandbox, 'GET', `${ORDER_API}/outbound-orders/status-groups`, { token });
		expect(groups.json.map((group: { group: string }) => group.group)).toEqual(['SG_ON_HOLD', 'SG_PROCESSING', 'SG_ON_DELIVERY', 'SG_COMPLETED']);
		expect(groups.json[1].subGroups[0]).toEqual({ subGroup: 'SSG_PARTIALLY_CONFIRMED', statuses: ['PARTIALLY_CONFIRMED', 'PENDING'] });
		expect(sandbox.count('orderStatuses')).toBe(1);
		expect(sandbox.count('orderStatusGroups')).toBe(1);
	});

	it('pages 250 orders For Confirmation newest first, 100 at a time, as Spring pages', async () => {
		sandbox.clock.set('2025-06-15T08:00:00Z');
		const older = sandbox.addOrders(50);
		sandbox.clock.set(NOW);
		const newer = sandbox.addOrders(200);
		const { pages, ids } = await allPages(sandbox, token, 'statusGroup=SG_FOR_CONFIRMATION');
		expect(pages).toBe(3);
		expect(ids).toHaveLength(250);
		expect(new Set(ids).size).toBe(250);
		expect(ids.slice(0, 200).sort()).toEqual(newer.map((order) => order.id).sort());
		expect(ids.slice(200).sort()).toEqual(older.map((order) => order.id).sort());

		const first = await call(sandbox, 'GET', `${ORDERS}?statusGroup=SG_FOR_CONFIRMATION`, { token });
		expect(first.json).toMatchObject({ size: 10, number: 0, first: true, last: false, totalElements: 250, totalPages: 25, numberOfElements: 10, empty: false });
		expect(first.json.pageable).toMatchObject({ pageNumber: 0, pageSize: 10, offset: 0, paged: true });
		const past = await call(sandbox, 'GET', `${ORDERS}?page=3&size=100`, { token });
		expect(past.json).toMatchObject({ content: [], last: true, empty: true, numberOfElements: 0 });
		expect((await call(sandbox, 'GET', `${ORDERS}?size=101`, { token })).status).toBe(400);
		expect(sandbox.count('orders')).toBe(6);
	});

	it('filters by order id and creation instant, and reads lines from the catalogue', async () => {
		const [order] = sandbox.addOrders(1, { lines: [{ merchantInventoryId: 100_010, quantity: 2 }], paymentMethods: ['PBC', 'VOUCHER'] });
		sandbox.addOrders(3, { createdDate: '2025-06-01T00:00:00Z' });
		const byId = await call(sandbox, 'GET', `${ORDERS}?orderId=${order.id}`, { token });
		expect(byId.json.content).toHaveLength(1);
		const answered = byId.json.content[0];
		const product = sandbox.state.product(100_010);
		expect(answered).toMatchObject({ id: order.id, currency: 'RSD', paymentMethods: ['PBC', 'VOUCHER'], numberOfItems: 1, sumOfItemOrderedQuantities: 2 });
		expect(answered.id).toMatch(/^[A-Z]{5}-[A-Z0-9]{5}$/);
		expect(answered.items[0]).toMatchObject({
			id: '100010',
			quantity: 2,
			confirmedQuantity: null,
			packedQuantity: null,
			productEan: product?.ean,
			productSku: product?.sku,
			productName: product?.name,
			specifications: expect.any(String),
		});
		const window = await call(sandbox, 'GET', `${ORDERS}?dateFrom=2025-05-31T00:00:00Z&dateTo=2025-06-02T00:00:00Z`, { token });
		expect(window.json.totalElements).toBe(3);
		expect((await call(sandbox, 'GET', `${ORDERS}?dateFrom=2025-05-31`, { token })).status).toBe(400);
	});

	it('confirms per warehouse, splitting suborders, and refuses over-confirmation and repeats', async () => {
		const [order] = sandbox.addOrders(1, { lines: [{ merchantInventoryId: 100_001, quantity: 3 }, { merchantInventoryId: 100_002, quantity: 1 }] });
		const [first, second] = sandbox.state.warehouses;
		const confirm = (body: unknown) => call(sandbox, 'PUT', `${ORDERS}/${order.id}/confirm`, { token, body });
		const line = (id: number, parts: Array<[number, number]>) => ({
			merchantInventoryId: id,
			confirmedQuantities: parts.map(([warehouseAddressId, quantity]) => ({ warehouseAddressId, quantity })),
		});

		const over = await confirm([line(100_001, [[first.id, 2], [second.id, 2]]), line(100_002, [[first.id, 1]])]);
		expect(over.status).toBe(400);
		expect(over.json.message).toMatch(/exceeds the ordered quantity 3/);
		expect((await confirm([line(100_001, [[first.id, 3]])])).status).toBe(400);
		expect((await confirm([line(100_001, [[999, 3]]), line(100_002, [[first.id, 1]])])).status).toBe(400);
		expect((await confirm([line(100_001, [[first.id, 3]]), line(100_099, [[first.id, 1]])])).status).toBe(400);
		expect((await call(sandbox, 'PUT', `${ORDERS}/NOPE0-00000/confirm`, { token, body: [line(100_001, [[first.id, 1]])] })).status).toBe(404);
		expect((await confirm([])).status).toBe(400);
		expect(sandbox.state.shipments.map((shipment) => shipment.status)).toEqual(['CREATED']);

		const done = await confirm([line(100_001, [[first.id, 2], [second.id, 1]]), line(100_002, [[second.id, 1]])]);
		expect(done.status).toBe(201);
		expect(done.text).toBe('');
		const shipments = sandbox.state.shipments;
		expect(shipments.map((shipment) => [shipment.suborderId.slice(-5), shipment.status])).toEqual(
			expect.arrayContaining([
				['-DS-1', 'CONFIRMED'],
				['-DS-2', 'CONFIRMED'],
			]),
		);
		const again = await confirm([line(100_001, [[first.id, 3]]), line(100_002, [[first.id, 1]])]);
		expect(again.status).toBe(400);
		expect(again.json.message).toMatch(/not waiting for confirmation/);
		expect(sandbox.log.filter((entry) => entry.route === 'orderConfirm').map((entry) => entry.itemCount)).toEqual([2, 1, 2, 2, 1, 0, 2, 2]);

		const processed = await call(sandbox, 'GET', `${ORDERS}?statusGroup=SG_PROCESSED`, { token });
		expect(processed.json.content[0].items[0]).toMatchObject({ confirmedQuantity: 3, shippingEligibleQuantity: 3 });
		expect((await call(sandbox, 'GET', `${ORDERS}?statusGroup=SG_FOR_CONFIRMATION`, { token })).json.totalElements).toBe(0);
	});

	it('applies a confirmation and then answers 503 (applyThen): the resend is refused as already confirmed', async () => {
		const [order] = sandbox.addOrders(1, { lines: [{ merchantInventoryId: 100_004, quantity: 1 }] });
		const body = [{ merchantInventoryId: 100_004, confirmedQuantities: [{ warehouseAddressId: sandbox.state.warehouses[0].id, quantity: 1 }] }];
		sandbox.injectFault({ route: 'orderConfirm', count: 1, applyThen: true });
		expect((await call(sandbox, 'PUT', `${ORDERS}/${order.id}/confirm`, { token, body })).status).toBe(503);
		expect(sandbox.log.at(-1)).toMatchObject({ route: 'orderConfirm', status: 503, appliedStatus: 201 });
		expect(sandbox.state.shipment(`${order.id}-DS-1`)?.status).toBe('CONFIRMED');
		expect((await call(sandbox, 'PUT', `${ORDERS}/${order.id}/confirm`, { token, body })).status).toBe(400);
	});

	it('marks a partial confirmation, and a confirmation of nothing cancels the order', async () => {
		const [partial, refused] = sandbox.addOrders(2, { lines: [{ merchantInventoryId: 100_003, quantity: 2 }] });
		const warehouseAddressId = sandbox.state.warehouses[0].id;
		const body = (quantity: number) => [{ merchantInventoryId: 100_003, confirmedQuantities: [{ warehouseAddressId, quantity }] }];
		expect((await call(sandbox, 'PUT', `${ORDERS}/${partial.id}/confirm`, { token, body: body(1) })).status).toBe(201);
		expect((await call(sandbox, 'PUT', `${ORDERS}/${refused.id}/confirm`, { token, body: body(0) })).status).toBe(201);
		expect(sandbox.state.shipment(`${partial.id}-DS-1`)?.status).toBe('PARTIALLY_CONFIRMED');
		expect(sandbox.state.shipment(`${refused.id}-DS-1`)?.status).toBe('CANCELLED_BY_MERCHANT');
	});

	it('seeds orders deterministically at every stage, consistent with the catalogue and warehouses', async () => {
		const seeded = await startSandbox({ now: NOW, rateLimits: false, seed: 7 });
		const again = await startSandbox({ now: NOW, rateLimits: false, seed: 7 });
		try {
			expect(seeded.state.orders.map((order) => order.id)).toEqual(again.state.orders.map((order) => order.id));
			expect(seeded.state.orders).toHaveLength(20);
			const statuses = new Set(seeded.state.shipments.map((shipment) => shipment.status));
			for (const status of ['CREATED', 'CONFIRMED', 'READY_FOR_COLLECTION', 'ON_DELIVERY', 'DELIVERED', 'CANCELLED_BY_CUSTOMER']) {
				expect(statuses).toContain(status);
			}
			const warehouseIds = new Set(seeded.state.warehouses.map((warehouse) => warehouse.id));
			for (const shipment of seeded.state.shipments) expect(warehouseIds).toContain(shipment.warehouseId);
			for (const order of seeded.state.orders) {
				for (const line of order.lines) expect(seeded.state.product(line.merchantInventoryId)?.ean).toBe(line.productEan);
				expect(Date.parse(order.createdDate)).toBeLessThan(Date.parse(NOW));
			}
		} finally {
			await Promise.all([seeded.close(), again.close()]);
		}
	});

	it('switches the documented variants: payment key, specifications key, group names', async () => {
		sandbox.addOrders(2);
		const read = async () => (await call(sandbox, 'GET', `${ORDERS}?size=1`, { token })).json.content[0];
		expect(Object.keys(await read())).toContain('paymentMethods');
		sandbox.setVariants({ orderPaymentKey: 'paymentMethod', orderSpecificationsKey: 'specificationsTranslations' });
		const varied = await read();
		expect(varied.paymentMethod).toEqual(expect.any(Array));
		expect(varied).not.toHaveProperty('paymentMethods');
		expect(varied.items[0].specificationsTranslations).toEqual(expect.any(String));
		expect(varied.items[0]).not.toHaveProperty('specifications');

		const group = async (name: string) => (await call(sandbox, 'GET', `${ORDERS}?statusGroup=${name}`, { token })).status;
		expect([await group('SG_FOR_CONFIRMATION'), await group('SG_ON_HOLD')]).toEqual([200, 400]);
		sandbox.setVariants({ statusGroupNames: 'status-groups' });
		expect([await group('SG_FOR_CONFIRMATION'), await group('SG_ON_HOLD')]).toEqual([400, 200]);
		expect((await call(sandbox, 'GET', `${ORDERS}?statusGroup=SG_ON_HOLD`, { token })).json.totalElements).toBe(2);
		sandbox.setVariants({ statusGroupNames: 'any' });
		expect([await group('SG_FOR_CONFIRMATION'), await group('SG_ON_HOLD')]).toEqual([200, 200]);
	});

	it('adds orders and reads state over the HTTP controls', async () => {
		const added = await call(sandbox, 'POST', '/__sandbox/orders', { body: { count: 3, lines: [{ merchantInventoryId: 100_005, quantity: 2 }] } });
		expect(added.status).toBe(200);
		expect(added.json).toHaveLength(3);
		const orders = await call(sandbox, 'GET', '/__sandbox/state/orders');
		expect(orders.json.map((order: { id: string }) => order.id).sort()).toEqual(added.json.map((order: { id: string }) => order.id).sort());
		const shipments = await call(sandbox, 'GET', '/__sandbox/state/shipments');
		expect(shipments.json.every((shipment: { status: string }) => shipment.status === 'CREATED')).toBe(true);
		expect((await call(sandbox, 'POST', '/__sandbox/orders', { body: { lines: [{ merchantInventoryId: 1 }] } })).status).toBe(400);
	});
});

describe('sandbox: order rate limits', () => {
	it('counts the order flow in the order group and publish in the product group', async () => {
		const sandbox = await startSandbox({ now: NOW, rateLimits: { scale: 1 }, orders: 1 });
		try {
			const token = await getToken(sandbox);
			const answers = [];
			for (let i = 0; i < 6; i++) answers.push((await call(sandbox, 'GET', `${ORDERS}`, { token })).status);
			expect(answers.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
			// The sixth in a second: 5 a second in the order group, shared with the other order routes.
			expect(answers[5]).toBe(429);
			expect((await call(sandbox, 'GET', `${ORDER_API}/outbound-orders/statuses`, { token })).status).toBe(429);
			// Other groups are not affected: labels count apart, products too.
			expect((await call(sandbox, 'GET', '/lmd/api/v2/merchant-integration/consignment/labels?reference=X', { token })).status).toBe(404);
			for (let i = 0; i < 5; i++) expect((await call(sandbox, 'POST', `${PRODUCT_API}/product/publish`, { token, body: [100_001] })).status).toBe(200);
			expect((await call(sandbox, 'GET', `${PRODUCT_API}/product-type`, { token })).status).toBe(429);
		} finally {
			await sandbox.close();
		}
	});
});

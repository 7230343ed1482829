/**
 * Orders the marketplace fulfils itself (FBA) through the real engine against the sandbox: the
 * orders endpoint answers them with an empty list (as the merchants' ERP client met it), so Order
 * › Get and Get Many find them through their shipments (`…-FBA-1`), and say so.
 */
import type { IDataObject } from 'n8n-workflow';

import { forgetGroupNaming } from '../../../nodes/MarketplaceMerchant/shared/orders/orders';
import { NOW, outputRunner, sandbox, sandboxPerTest, sent } from '../helpers';

const run = outputRunner('order');

beforeEach(() => forgetGroupNaming());

describe('Orders fulfilled by the marketplace (FBA)', () => {
	const start = sandboxPerTest(() => ({ now: NOW, seed: 39, orders: 0 }));

	async function withOrders() {
		await start();
		const [own] = sandbox.addOrders(1, { createdDate: '2025-06-14T08:00:00Z' });
		const [fba] = sandbox.addOrders(1, { fulfilledByMarketplace: true, createdDate: '2025-06-14T09:00:00Z' });
		sandbox.clearLog();
		return { own, fba };
	}

	it('the sandbox lists an FBA order under shipments only (…-FBA-1), as the live service does', async () => {
		const { fba } = await withOrders();
		expect(sandbox.state.shipments.filter((shipment) => shipment.orderId === fba.id).map((shipment) => shipment.suborderId)).toEqual([`${fba.id}-FBA-1`]);
		const plain = await run({ operation: 'getMany', statusGroup: 'all', returnAll: true, includeMarketplaceFulfilled: false });
		expect(plain.json.map((order) => order.orderId)).not.toContain(fba.id);
	});

	it('Order › Get finds an FBA order through its shipment: ID, purchase time, lines by Product ID, its suborder', async () => {
		const { fba } = await withOrders();
		const { result, json } = await run({ operation: 'get', orderId: fba.id });
		expect(result.error).toBeUndefined();
		expect(json).toHaveLength(1);
		const [order] = json;
		expect(order).toMatchObject({ orderId: fba.id, createdDate: fba.createdDate, fulfilledBy: 'marketplace', fromShipments: true, buyer: null, deliveryAddress: null });
		expect((order.lines as IDataObject[]).map((line) => [line.productId, line.quantity, line.confirmedQuantity])).toEqual(
			fba.lines.map((line) => [line.merchantInventoryId, line.quantity, line.quantity]),
		);
		expect(sent('orders').map(({ query }) => query.orderId)).toEqual([fba.id]);
		expect(sent('shipments').map(({ query }) => query.search)).toEqual([fba.id]);

		const full = await run({ operation: 'get', orderId: fba.id, simplify: false });
		expect(full.json[0]).toMatchObject({ id: fba.id, fulfilledBy: 'marketplace', fromShipments: true, suborders: [{ suborderId: `${fba.id}-FBA-1`, status: 'CONFIRMED' }] });
	});

	it('an order neither list knows is an error that says the shipments were searched too', async () => {
		await withOrders();
		const { result } = await run({ operation: 'get', orderId: 'NOPE-00000' });
		expect(result.error?.message).toMatch(/No order with ID NOPE-00000/);
		expect(result.error?.description).toMatch(/fulfils itself were looked for among the shipments/);
	});

	it('Order › Get Many (Processed or All) lists FBA orders beside the own ones, newest first; For Confirmation does not (the marketplace confirms them)', async () => {
		const { own, fba } = await withOrders();
		const all = await run({ operation: 'getMany', statusGroup: 'all', returnAll: true });
		expect(all.result.error).toBeUndefined();
		expect(all.json.map((order) => [order.orderId, order.fulfilledBy])).toEqual([
			[fba.id, 'marketplace'],
			[own.id, 'merchant'],
		]);
		expect(sent('shipments').map(({ query }) => [query.statusGroup, query.suborderTypes])).toEqual([
			['SG_FOR_PACKAGING', 'FBA'],
			['SG_SHIPMENT_ON_DELIVERY', 'FBA'],
			['SG_COMPLETED', 'FBA'],
		]);
		sandbox.clearLog();
		const toConfirm = await run({ operation: 'getMany', returnAll: true });
		expect(toConfirm.json.map((order) => order.orderId)).toEqual([own.id]);
		expect(sent('shipments')).toHaveLength(0);
		const before = await run({ operation: 'getMany', statusGroup: 'processed', returnAll: true, filters: { createdTo: '2025-06-14T08:30:00Z' } });
		expect(before.json.map((order) => order.orderId)).toEqual([]);
	});
});

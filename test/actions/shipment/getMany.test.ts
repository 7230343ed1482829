/**
 * Shipment › Get Many through the real engine against the sandbox: the three groups, by order or
 * suborder id, every filter, Return All over pages, Simplify, and the documentation's variants
 * (the three sets of group names, PENDING's subgroup, the border status's name).
 */
import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { operation } from '../../../nodes/MarketplaceMerchant/actions/shipment/getMany.operation';

import { forgetGroupNaming } from '../../../nodes/MarketplaceMerchant/shared/orders/orders';
import { groupOf } from '../../../sandbox/order-statuses';
import type { ShipmentRecord } from '../../../sandbox/order-types';
import { NOW, outputRunner, pages, sandbox, sandboxPerFile, sandboxPerTest, sent } from '../helpers';

const run = outputRunner('shipment');

/** The statuses of the shipments endpoint's groups (the pages expand them into subgroups). */
const GROUP_STATUSES = {
	forPackaging: ['PARTIALLY_CONFIRMED', 'PENDING', 'CONFIRMED', 'PACKING_INITIATED'],
	onDelivery: [
		'PARTIALLY_PACKED', 'PARTIALLY_PACKED_IN_TRANSIT', 'PARTIALLY_PACKED_ON_THE_BORDER', 'PACKED', 'PACKED_IN_TRANSIT', 'PACKED_ON_THE_BORDER',
		'READY_FOR_COLLECTION', 'COLLECTED', 'ON_DELIVERY', 'ATTEMPTED_DELIVERY', 'REDIRECTED_DELIVERY', 'DELAYED_DELIVERY', 'COLLECTED_PUDO',
		'ON_DELIVERY_PUDO', 'DELIVERED_PUDO', 'DELIVERED_BY_CARRIER_PUDO', 'COLLECTED_LOCKER', 'ON_DELIVERY_LOCKER', 'DELIVERED_LOCKER',
	],
};

const inStatuses = (statuses: string[]) => sandbox.state.shipments.filter((shipment) => statuses.includes(shipment.status));
const completed = () => sandbox.state.shipments.filter((shipment) => groupOf(shipment.status).group === 'SG_COMPLETED');
const idsOf = (json: IDataObject[]) => json.map((shipment) => shipment.suborderId);
const suborders = (shipments: ShipmentRecord[]) => shipments.map((shipment) => shipment.suborderId);
const sorted = (ids: unknown[]) => [...ids].map(String).sort();

beforeEach(() => forgetGroupNaming());

describe('Shipment › Get Many on the seeded orders', () => {
	sandboxPerFile({ now: NOW, seed: 36, orders: 60 });
	afterEach(() => {
		sandbox.resetVariants();
		sandbox.clearFaults();
	});

	it('returns the shipments For Packaging (the default), On Delivery and Completed, newest purchase first', async () => {
		const forPackaging = await run({ operation: 'getMany', returnAll: true });
		expect(forPackaging.result.error).toBeUndefined();
		expect(forPackaging.json.length).toBeGreaterThan(0);
		expect(idsOf(forPackaging.json)).toEqual(suborders(inStatuses(GROUP_STATUSES.forPackaging)));
		const onDelivery = await run({ operation: 'getMany', returnAll: true, statusGroup: 'onDelivery' });
		expect(onDelivery.json.length).toBeGreaterThan(0);
		expect(idsOf(onDelivery.json)).toEqual(suborders(inStatuses(GROUP_STATUSES.onDelivery)));
		const done = await run({ operation: 'getMany', returnAll: true, statusGroup: 'completed' });
		expect(sorted(idsOf(done.json))).toEqual(sorted(suborders(completed())));
		expect(sent('shipments').map(({ query }) => query.statusGroup)).toEqual(['SG_FOR_PACKAGING', 'SG_SHIPMENT_ON_DELIVERY', 'SG_COMPLETED']);
	});

	it('finds the shipments of an order by its id, and one shipment by its suborder id, without a group', async () => {
		const split = sandbox.state.shipments.find((shipment) => shipment.suborderId.endsWith('-DS-2')) ?? sandbox.state.shipments[0];
		const ofOrder = sandbox.state.shipments.filter((shipment) => shipment.orderId === split.orderId);
		const byOrder = await run({ operation: 'getMany', find: 'byOrder', search: split.orderId, returnAll: true });
		expect(sorted(idsOf(byOrder.json))).toEqual(sorted(suborders(ofOrder)));
		const bySuborder = await run({ operation: 'getMany', find: 'byOrder', search: split.suborderId, returnAll: true });
		expect(idsOf(bySuborder.json)).toEqual([split.suborderId]);
		expect(sent('shipments').map(({ query }) => [query.search, query.statusGroup])).toEqual([
			[split.orderId, undefined],
			[split.suborderId, undefined],
		]);
	});

	it('sends every filter as the endpoint takes it (lists comma-separated, times ISO 8601) and returns what matches', async () => {
		const [sample] = inStatuses(GROUP_STATUSES.onDelivery).filter((shipment) => shipment.carrierName !== null);
		const order = sandbox.state.order(sample.orderId);
		const { json } = await run({
			operation: 'getMany',
			statusGroup: 'onDelivery',
			returnAll: true,
			filters: {
				statuses: [sample.status, 'DELIVERED'],
				warehouseIds: [String(sample.warehouseId)],
				paymentMethods: order?.paymentMethods,
				carriers: `${sample.carrierName}, Nobody Express`,
				confirmedFrom: sample.confirmedDate,
				confirmedTo: sample.confirmedDate,
			},
		});
		expect(idsOf(json)).toContain(sample.suborderId);
		for (const shipment of json) expect(shipment).toMatchObject({ status: sample.status, warehouseId: sample.warehouseId, carrierName: sample.carrierName });
		const [{ query }] = sent('shipments');
		expect(query).toMatchObject({
			statusGroup: 'SG_SHIPMENT_ON_DELIVERY',
			statuses: `${sample.status},DELIVERED`,
			warehouseIds: String(sample.warehouseId),
			paymentMethods: order?.paymentMethods.join(','),
			carriers: `${sample.carrierName},Nobody Express`,
			confirmedFrom: new Date(sample.confirmedDate as string).toISOString(),
			confirmedTo: new Date(sample.confirmedDate as string).toISOString(),
		});
	});

	it('"Pay by Card" filters PBC (pay by card), as the documentation names the codes; a typed name reads as its code', async () => {
		const filters = (operation.fields.find((field) => field.name === 'filters')?.options ?? []) as INodeProperties[];
		const methods = filters.find((field) => field.name === 'paymentMethods')?.options as INodePropertyOptions[];
		expect(methods.map(({ name, value }) => [name, value])).toEqual([
			['Cash on Delivery (COD)', 'COD'],
			['Pay by Card (PBC)', 'PBC'],
			['Pay on Site (POS)', 'POS'],
			['Voucher', 'VOUCHER'],
		]);
		const card = methods.find(({ name }) => /card/i.test(name))?.value;
		const paidBy = (json: IDataObject[], method: string) => json.every((shipment) => sandbox.state.order(shipment.orderId as string)?.paymentMethods.includes(method as never));
		const chosen = await run({ operation: 'getMany', statusGroup: 'completed', returnAll: true, filters: { paymentMethods: [card] } });
		expect(chosen.json.length).toBeGreaterThan(0);
		expect(paidBy(chosen.json, 'PBC')).toBe(true);
		const typed = await run({ operation: 'getMany', statusGroup: 'completed', returnAll: true, filters: { paymentMethods: 'Pay by card, pay on site' } });
		expect(sent('shipments').map(({ query }) => query.paymentMethods)).toEqual(['PBC', 'PBC,POS']);
		expect(typed.json.length).toBeGreaterThanOrEqual(chosen.json.length);
	});

	it('reads Default Address in Warehouses as the warehouse marked default now (one read of the warehouses)', async () => {
		const fallback = sandbox.state.warehouses.find((warehouse) => warehouse.defaultAddress);
		const { json } = await run({ operation: 'getMany', returnAll: true, filters: { warehouseIds: [''] } });
		expect(sent('warehouses')).toHaveLength(1);
		expect(sent('shipments')[0].query.warehouseIds).toBe(String(fallback?.id));
		expect(idsOf(json)).toEqual(suborders(inStatuses(GROUP_STATUSES.forPackaging).filter((shipment) => shipment.warehouseId === fallback?.id)));
	});

	it('refuses a filter value it cannot read, naming the field and entry, before sending anything', async () => {
		const badWarehouse = await run({ operation: 'getMany', filters: { warehouseIds: '12, main' } });
		expect(badWarehouse.result.error?.message).toMatch(/Filters › Warehouses/);
		const badPayment = await run({ operation: 'getMany', filters: { paymentMethods: 'COD, CASH' } });
		expect(badPayment.result.error?.message).toMatch(/Filters › Payment Methods/);
		const badRange = await run({ operation: 'getMany', filters: { confirmedFrom: '2025-06-10', confirmedTo: '2025-06-01' } });
		expect(badRange.result.error?.message).toMatch(/Filters › Confirmed To/);
		const noSearch = await run({ operation: 'getMany', find: 'byOrder', search: '  ' });
		expect(noSearch.result.error?.message).toMatch(/Order or Suborder ID/);
		expect(sent('shipments')).toHaveLength(0);
	});

	it('reads a warehouse as Order › Confirm does: an ID from 1, Default Address only after every entry is read (issue 41: one warehouse reader)', async () => {
		const zero = await run({ operation: 'getMany', filters: { warehouseIds: '={{ ["", "0"] }}' } });
		expect(zero.result.error?.message).toMatch(/^Filters › Warehouses › entry 2: must be at least 1, got "0"/);
		const { result } = await run({ operation: 'getMany', returnAll: true, filters: { warehouseIds: '={{ [" "] }}' } });
		expect(result.error).toBeUndefined();
		expect(sent('warehouses')).toHaveLength(1);
		const fallback = sandbox.state.warehouses.find((warehouse) => warehouse.defaultAddress);
		expect(sent('shipments').map((entry) => entry.query.warehouseIds)).toEqual([String(fallback?.id)]);
	});

	it('simplifies each shipment: ids, status and subgroup, warehouse, carrier, totals, and its lines', async () => {
		const { json } = await run({ operation: 'getMany', returnAll: false, limit: 1, statusGroup: 'onDelivery' });
		const [shipment] = json;
		const record = sandbox.state.shipment(shipment.suborderId as string) as ShipmentRecord;
		expect(Object.keys(shipment)).toEqual([
			'suborderId', 'orderId', 'status', 'statusSubgroup', 'createdDate', 'warehouseId', 'warehouseName', 'carrierName', 'totalPrice',
			'confirmedQuantity', 'packedQuantity', 'lines',
		]);
		expect(shipment).toMatchObject({ orderId: record.orderId, status: record.status, warehouseId: record.warehouseId, carrierName: record.carrierName });
		expect((shipment.lines as IDataObject[]).map((line) => [line.merchantInventoryId, line.orderedQuantity, line.packedQuantity])).toEqual(
			record.lines.map((line) => [line.merchantInventoryId, line.orderedQuantity, line.packedQuantity]),
		);

		const full = await run({ operation: 'getMany', returnAll: false, limit: 1, statusGroup: 'onDelivery', simplify: false });
		expect(full.json[0]).toHaveProperty('type');
		expect((full.json[0].items as IDataObject[])[0]).toHaveProperty('productSpecifications');
	});

	describe('variants', () => {
		it("with the status-groups endpoint's names: For Packaging is SG_PROCESSING's packable statuses, learned with one extra request", async () => {
			sandbox.setVariants({ statusGroupNames: 'status-groups' });
			const expected = suborders(inStatuses(GROUP_STATUSES.forPackaging));
			const first = await run({ operation: 'getMany', returnAll: true });
			expect(idsOf(first.json)).toEqual(expected);
			expect(sent('shipments').map(({ query, status }) => [query.statusGroup, query.statuses, status])).toEqual([
				['SG_FOR_PACKAGING', undefined, 400],
				['SG_PROCESSING', 'PARTIALLY_CONFIRMED,PENDING,CONFIRMED,PACKING_INITIATED', 200],
			]);

			sandbox.clearLog();
			const onDelivery = await run({ operation: 'getMany', returnAll: true, statusGroup: 'onDelivery' });
			expect(sorted(idsOf(onDelivery.json))).toEqual(sorted(suborders(inStatuses(GROUP_STATUSES.onDelivery))));
			expect(sent('shipments').map(({ query, status }) => [query.statusGroup, status])).toEqual([
				['SG_PROCESSING', 200],
				['SG_ON_DELIVERY', 200],
			]);
		});

		it("with the status-groups endpoint's names, a Statuses filter keeps only the group's part that can match (none: no request)", async () => {
			sandbox.setVariants({ statusGroupNames: 'status-groups' });
			await run({ operation: 'getMany', returnAll: true, filters: { statuses: ['CONFIRMED', 'DELIVERED'] } });
			expect(sent('shipments').map(({ query }) => [query.statusGroup, query.statuses])).toEqual([
				['SG_FOR_PACKAGING', 'CONFIRMED,DELIVERED'],
				['SG_PROCESSING', 'CONFIRMED'],
			]);
			sandbox.clearLog();
			const none = await run({ operation: 'getMany', returnAll: true, filters: { statuses: ['DELIVERED'] } });
			expect(none.json).toEqual([]);
			expect(sent('shipments')).toHaveLength(0);
		});

		it('lists a PENDING shipment For Packaging whichever subgroup the service files it under (SSG_PARTIALLY_CONFIRMED or SSG_PENDING)', async () => {
			const [target] = inStatuses(['CONFIRMED']);
			sandbox.advanceShipment(target.suborderId, 'PENDING');
			for (const pendingSubgroup of ['SSG_PARTIALLY_CONFIRMED', 'SSG_PENDING'] as const) {
				sandbox.setVariants({ pendingSubgroup });
				const { json } = await run({ operation: 'getMany', returnAll: true });
				expect(json.find((shipment) => shipment.suborderId === target.suborderId)).toMatchObject({ status: 'PENDING', statusSubgroup: pendingSubgroup });
			}
		});

		it('lists goods at customs On Delivery under either border name, and the Statuses filter finds them', async () => {
			const [target] = inStatuses(['READY_FOR_COLLECTION', 'PACKED']);
			sandbox.advanceShipment(target.suborderId, 'PACKED_ON_THE_BORDER');
			for (const borderStatusName of ['PACKED_ON_THE_BORDER', 'ON_THE_BORDER'] as const) {
				sandbox.setVariants({ borderStatusName });
				const listed = await run({ operation: 'getMany', returnAll: true, statusGroup: 'onDelivery' });
				expect(listed.json.find((shipment) => shipment.suborderId === target.suborderId)).toMatchObject({ status: borderStatusName });
				const filtered = await run({ operation: 'getMany', returnAll: true, statusGroup: 'onDelivery', filters: { statuses: ['PACKED_ON_THE_BORDER'] } });
				expect(idsOf(filtered.json)).toEqual([target.suborderId]);
			}
		});
	});
});

describe('Shipment › Get Many over many pages', () => {
	const start = sandboxPerTest(() => ({ now: NOW, seed: 37, orders: 0 }));

	it('reads 230 shipments For Packaging with Return All in 3 requests of 100', async () => {
		await start();
		for (const order of sandbox.addOrders(230)) sandbox.advanceShipment(`${order.id}-DS-1`);
		sandbox.clearLog();
		const { json } = await run({ operation: 'getMany', returnAll: true });
		expect(json).toHaveLength(230);
		expect(pages('shipments')).toEqual([
			{ page: '0', size: '100' },
			{ page: '1', size: '100' },
			{ page: '2', size: '100' },
		]);
	});
});

describe('Shipment › Get Many by purchase time and suborder type', () => {
	const start = sandboxPerTest(() => ({ now: NOW, seed: 40, orders: 0 }));

	it('Created From keeps the cancellations never confirmed (which Confirmed From leaves out) and stops paging once past it', async () => {
		await start();
		const older = sandbox.addOrders(150, { createdDate: '2025-06-12T10:00:00Z' });
		const newer = sandbox.addOrders(150, { createdDate: '2025-06-13T10:00:00Z' });
		for (const order of [...older, ...newer]) sandbox.advanceShipment(`${order.id}-DS-1`);
		// One order cancelled by the customer before it was confirmed.
		const [cancelled] = sandbox.addOrders(1, { createdDate: '2025-06-13T11:00:00Z' });
		sandbox.advanceShipment(`${cancelled.id}-DS-1`, 'CANCELLED_BY_CUSTOMER');
		sandbox.clearLog();

		const packing = await run({ operation: 'getMany', statusGroup: 'forPackaging', returnAll: true, filters: { createdFrom: '2025-06-13' } });
		expect(packing.result.error).toBeUndefined();
		expect(sorted(idsOf(packing.json))).toEqual(sorted(newer.map((order) => `${order.id}-DS-1`)));
		// Page 0 (100 newer), page 1 (50 newer, 50 older: past the start), no page 2.
		expect(pages('shipments')).toEqual([
			{ page: '0', size: '100' },
			{ page: '1', size: '100' },
		]);

		const done = await run({ operation: 'getMany', statusGroup: 'completed', returnAll: true, filters: { createdFrom: '2025-06-13', createdTo: '2025-06-13' } });
		expect(idsOf(done.json)).toEqual([`${cancelled.id}-DS-1`]);
		const confirmed = await run({ operation: 'getMany', statusGroup: 'completed', returnAll: true, filters: { confirmedFrom: '2025-06-13', confirmedTo: '2025-06-13' } });
		expect(confirmed.json).toHaveLength(0);
	});

	it('Suborder Types sends the types chosen; FBA finds the marketplace\'s own suborders', async () => {
		await start();
		sandbox.addOrders(2);
		const [fba] = sandbox.addOrders(1, { fulfilledByMarketplace: true });
		sandbox.clearLog();
		const { json } = await run({ operation: 'getMany', statusGroup: 'forPackaging', returnAll: true, filters: { suborderTypes: ['FBA'] } });
		expect(idsOf(json)).toEqual([`${fba.id}-FBA-1`]);
		expect(sent('shipments')[0].query.suborderTypes).toBe('FBA');
		const bad = await run({ operation: 'getMany', filters: { suborderTypes: 'DS, XX' } });
		expect(bad.result.error?.message).toMatch(/Filters › Suborder Types/);
	});
});

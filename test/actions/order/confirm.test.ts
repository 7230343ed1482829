/**
 * Order › Confirm through the real engine against the sandbox: all lines as ordered from the default
 * address, items as lines (split over warehouses, several orders in one run: one PUT per order),
 * quantities checked against the order before anything is sent, and a confirmation whose answer was
 * lost: read back, resent only where the order proves it was not applied.
 */
import { NOW, outputRunner, sandbox, sandboxPerFile, sent } from '../helpers';

sandboxPerFile({ now: NOW, seed: 31 });

const run = outputRunner('order');

const defaultWarehouse = () => sandbox.state.warehouses.find((warehouse) => warehouse.defaultAddress) ?? sandbox.state.warehouses[0];
const otherWarehouse = () => sandbox.state.warehouses.find((warehouse) => !warehouse.defaultAddress) ?? sandbox.state.warehouses[1];
const statusesOf = (orderId: string) => sandbox.state.shipments.filter((shipment) => shipment.orderId === orderId).map((shipment) => shipment.status);

/** A new order For Confirmation with these lines (product id → quantity ordered, and the warehouse it was ordered from); the request log starts after. */
function newOrder(lines: Array<[number, number, number?]>): string {
	const [order] = sandbox.addOrders(1, { lines: lines.map(([merchantInventoryId, quantity, warehouseAddressId]) => ({ merchantInventoryId, quantity, ...(warehouseAddressId ? { warehouseAddressId } : {}) })) });
	sandbox.clearLog();
	return order.id;
}

const asLines = { operation: 'confirm', confirmWhat: 'itemsAsLines', orderId: '={{ $json.orderId }}', merchantInventoryId: '={{ $json.id }}', quantity: '={{ $json.quantity }}', warehouseId: '={{ $json.warehouse ?? "" }}' };

describe('Order › Confirm', () => {
	it('confirms every line as ordered, from the warehouse it was ordered from: the order and its shipments read once, one PUT, the suborder after', async () => {
		const orderId = newOrder([[100_001, 2], [100_002, 1]]);

		const { result, json } = await run({ operation: 'confirm', orderId });

		expect(result.error).toBeUndefined();
		const warehouseId = defaultWarehouse().id;
		expect(json).toEqual([
			{
				orderId,
				confirmed: true,
				warehouseId,
				warehouseIds: [warehouseId],
				lines: [
					expect.objectContaining({ merchantInventoryId: 100_001, quantity: 2, warehouseId, warehouseAsOrdered: true }),
					expect.objectContaining({ merchantInventoryId: 100_002, quantity: 1, warehouseId, warehouseAsOrdered: true }),
				],
				suborderIds: [`${orderId}-DS-1`],
				suborderId: `${orderId}-DS-1`,
			},
		]);
		expect(sandbox.log.filter((entry) => entry.route !== 'token').map((entry) => entry.route)).toEqual(['orders', 'shipments', 'orderConfirm', 'shipments']);
		expect(statusesOf(orderId)).toEqual(['CONFIRMED']);
		expect(sandbox.state.shipment(`${orderId}-DS-1`)).toMatchObject({ warehouseId });
	});

	describe('an order with lines from two warehouses', () => {
		const twoWarehouses = () => newOrder([[100_001, 2, defaultWarehouse().id], [100_002, 1, otherWarehouse().id]]);

		it.each(['merchantInventoryId', 'lineId'] as const)("As Ordered confirms each line from its own warehouse (the order item's id: %s)", async (orderItemId) => {
			sandbox.setVariants({ orderItemId });
			try {
				const orderId = twoWarehouses();

				const { result, json } = await run({ operation: 'confirm', orderId: '={{ $json.orderId }}' }, [{ orderId }]);

				expect(result.error).toBeUndefined();
				const [home, other] = [defaultWarehouse().id, otherWarehouse().id];
				expect(json[0]).toMatchObject({
					orderId,
					confirmed: true,
					warehouseIds: [home, other],
					lines: [
						{ merchantInventoryId: 100_001, quantity: 2, warehouseId: home, warehouseAsOrdered: true },
						{ merchantInventoryId: 100_002, quantity: 1, warehouseId: other, warehouseAsOrdered: true },
					],
					suborderIds: [`${orderId}-DS-1`, `${orderId}-DS-2`],
				});
				expect(json[0].warehouseId).toBeUndefined();
				expect(json[0].suborderId).toBeUndefined();
				expect(sandbox.state.shipments.filter((shipment) => shipment.orderId === orderId).map((shipment) => [shipment.warehouseId, shipment.lines.map((line) => line.merchantInventoryId), shipment.status])).toEqual([
					[home, [100_001], 'CONFIRMED'],
					[other, [100_002], 'CONFIRMED'],
				]);
			} finally {
				sandbox.resetVariants();
			}
		});

		it('a chosen warehouse stays possible: every line from it', async () => {
			const orderId = twoWarehouses();
			const other = otherWarehouse().id;

			const { result, json } = await run({ operation: 'confirm', orderId, warehouseId: String(other) });

			expect(result.error).toBeUndefined();
			expect(json[0]).toMatchObject({ warehouseId: other, warehouseIds: [other], suborderId: `${orderId}-DS-1` });
			expect(json[0].lines).toEqual([expect.objectContaining({ warehouseId: other }), expect.objectContaining({ warehouseId: other })]);
			expect((json[0].lines as Array<Record<string, unknown>>)[0].warehouseAsOrdered).toBeUndefined();
			expect(sandbox.state.shipments.filter((shipment) => shipment.orderId === orderId).map((shipment) => shipment.warehouseId)).toEqual([other]);
		});

		it('Default Address, chosen: every line from the default address', async () => {
			const orderId = twoWarehouses();

			const { result, json } = await run({ operation: 'confirm', orderId, warehouseId: '' });

			expect(result.error).toBeUndefined();
			expect(json[0]).toMatchObject({ warehouseId: defaultWarehouse().id });
			expect(sent('warehouses')).toHaveLength(1);
		});

		it('each item a line, As Ordered: each line from its own warehouse', async () => {
			sandbox.setVariants({ orderItemId: 'lineId' });
			try {
				const orderId = twoWarehouses();

				const { result, json } = await run({ ...asLines, warehouseId: 'asOrdered' }, [
					{ orderId, id: 100_001, quantity: 2 },
					{ orderId, id: 100_002, quantity: 1 },
				]);

				expect(result.error).toBeUndefined();
				expect(json.map((item) => [item.merchantInventoryId, item.warehouseId])).toEqual([
					[100_001, defaultWarehouse().id],
					[100_002, otherWarehouse().id],
				]);
				expect(json[0].suborderIds).toEqual([`${orderId}-DS-1`, `${orderId}-DS-2`]);
			} finally {
				sandbox.resetVariants();
			}
		});
	});

	it('items as lines: a line split over two warehouses, two orders in one run, one PUT per order and one output per item', async () => {
		const first = newOrder([[100_001, 3], [100_002, 1]]);
		const second = newOrder([[100_003, 2]]);
		const other = otherWarehouse().id;
		const items = [
			{ orderId: first, id: 100_001, quantity: 2 },
			{ orderId: second, id: 100_003, quantity: 1 },
			{ orderId: first, id: 100_001, quantity: 1, warehouse: other },
			{ orderId: first, id: 100_002, quantity: 0 },
		];

		const { result, json } = await run(asLines, items);

		expect(result.error).toBeUndefined();
		expect(sent('orderConfirm').map((entry) => [entry.path.split('/').at(-2), entry.itemCount, entry.status])).toEqual([
			[first, 2, 201],
			[second, 1, 201],
		]);
		expect(sent('warehouses')).toHaveLength(1);
		expect(json.map((item) => [item.orderId, item.merchantInventoryId, item.quantity, item.warehouseId, item.confirmed])).toEqual([
			[first, 100_001, 2, defaultWarehouse().id, true],
			[second, 100_003, 1, defaultWarehouse().id, true],
			[first, 100_001, 1, other, true],
			[first, 100_002, 0, defaultWarehouse().id, true],
		]);
		expect(result.output('Node').map((item) => item.pairedItem)).toEqual(items.map((_, item) => ({ item })));
		expect(statusesOf(first).sort()).toEqual(['PARTIALLY_CONFIRMED', 'PARTIALLY_CONFIRMED']);
		expect(statusesOf(second)).toEqual(['PARTIALLY_CONFIRMED']);
	});

	it('reads an order answered with other key spellings and numbers as text (a warehouse list too)', async () => {
		const orderId = newOrder([[100_001, 2], [100_002, 1]]);
		sandbox.setVariants({ keySpellings: true, numbersAsStrings: true });
		try {
			const { result, json } = await run(asLines, [
				{ orderId, id: '100001', quantity: '2' },
				{ orderId, id: 100_002, quantity: 1 },
			]);

			expect(result.error).toBeUndefined();
			expect(json.map((item) => [item.merchantInventoryId, item.quantity, item.warehouseId])).toEqual([
				[100_001, 2, defaultWarehouse().id],
				[100_002, 1, defaultWarehouse().id],
			]);
			expect(statusesOf(orderId)).toEqual(['CONFIRMED']);
		} finally {
			sandbox.resetVariants();
		}
	});

	it("confirms from the default address the warehouses flag as the documentation's table spells it (defaultAddres)", async () => {
		const orderId = newOrder([[100_001, 2], [100_002, 1]]);
		sandbox.setVariants({ warehouseDefaultKey: 'defaultAddres' });
		try {
			const { result, json } = await run({ operation: 'confirm', orderId });

			expect(result.error).toBeUndefined();
			expect(json).toEqual([expect.objectContaining({ orderId, confirmed: true, warehouseId: defaultWarehouse().id })]);
			expect(statusesOf(orderId)).toEqual(['CONFIRMED']);
		} finally {
			sandbox.resetVariants();
		}
	});

	describe('quantities checked against the order before anything is sent', () => {
		it.each([
			['a quantity over what was ordered', [{ id: 100_001, quantity: 3 }, { id: 100_002, quantity: 1 }], 'Quantity: 3 is more than the 2 ordered of line 100001'],
			['a line not in the order', [{ id: 100_001, quantity: 2 }, { id: 100_099, quantity: 1 }], 'Merchant Inventory ID: 100099 is not a line of order'],
			['a line no item confirms', [{ id: 100_001, quantity: 2 }], ': no input item confirms line 100002'],
			['a line named twice for one warehouse', [{ id: 100_001, quantity: 1 }, { id: 100_001, quantity: 1 }, { id: 100_002, quantity: 1 }], 'is confirmed by item 0 already'],
		])('%s: the run stops, nothing is sent', async (_, lines, message) => {
			const orderId = newOrder([[100_001, 2], [100_002, 1]]);

			const { result } = await run(asLines, lines.map((line) => ({ orderId, ...line })));

			expect(result.error?.message).toContain(message);
			expect(sent('orderConfirm')).toEqual([]);
			expect(statusesOf(orderId)).toEqual(['CREATED']);
		});

		it('an order confirmed already is refused with what it shows, not sent', async () => {
			const orderId = newOrder([[100_001, 2]]);
			await run({ operation: 'confirm', orderId });
			sandbox.clearLog();

			const { result } = await run({ operation: 'confirm', orderId });

			expect(result.error?.message).toBe(`Order ${orderId} is not waiting for confirmation: it is confirmed already`);
			expect(result.error?.description).toContain('100001');
			expect(sent('orderConfirm')).toEqual([]);
		});

		it('with On Error = Continue, the other orders are confirmed and the bad order\'s items carry its error', async () => {
			const good = newOrder([[100_001, 1]]);
			const bad = newOrder([[100_002, 1]]);

			const { result } = await run(
				asLines,
				[
					{ orderId: bad, id: 100_002, quantity: 5 },
					{ orderId: good, id: 100_001, quantity: 1 },
					{ orderId: 'NOPE0-00000', id: 100_001, quantity: 1 },
				],
				{ node: { continueOnFail: true } },
			);

			const items = result.output('Node');
			expect(items.map((item) => item.error?.message ?? item.json.confirmed)).toEqual([
				expect.stringMatching(/^Quantity: 5 is more than the 1 ordered of line 100002 \(.+\) \(item 0\)$/),
				true,
				'Order NOPE0-00000 was not found',
			]);
			expect(sent('orderConfirm').map((entry) => entry.path.split('/').at(-2))).toEqual([good]);
		});
	});

	describe('an answer lost after sending: never resent blindly', () => {
		const confirmAll = (orderId: string) => run({ operation: 'confirm', orderId });
		const confirmStatuses = () => sent('orderConfirm').map((entry) => [entry.status, entry.appliedStatus ?? null]);

		it('applied, then answered 503: the order read back shows it, reported as applied, sent once', async () => {
			const orderId = newOrder([[100_001, 1]]);
			sandbox.injectFault({ route: 'orderConfirm', count: 1, applyThen: true });

			const { result, json } = await confirmAll(orderId);

			expect(result.error).toBeUndefined();
			expect(json[0]).toMatchObject({ orderId, confirmed: true });
			expect(json[0].note).toBe('the service answered HTTP 503, but the order read back shows this confirmation: it was applied (not sent again)');
			expect(confirmStatuses()).toEqual([[503, 201]]);
			expect(statusesOf(orderId)).toEqual(['CONFIRMED']);
		});

		it('applied, then the connection cut: reported as applied, sent once', async () => {
			const orderId = newOrder([[100_001, 1]]);
			sandbox.injectFault({ route: 'orderConfirm', count: 1, applyThen: true, body: 'reset' });

			const { result, json } = await confirmAll(orderId);

			expect(result.error).toBeUndefined();
			expect(json[0].note).toMatch(/^the connection was cut before the answer came, but the order read back shows this confirmation/);
			expect(sent('orderConfirm')).toHaveLength(1);
			expect(statusesOf(orderId)).toEqual(['CONFIRMED']);
		});

		it('refused with 503 by the service before acting: the order shows no confirmation, so it is sent once more', async () => {
			const orderId = newOrder([[100_001, 1]]);
			sandbox.injectFault({ route: 'orderConfirm', count: 1, status: 503 });

			const { result, json } = await confirmAll(orderId);

			expect(result.error).toBeUndefined();
			expect(json[0].note).toBe('the service answered HTTP 503 and the order read back showed no confirmation, so it was sent once more and accepted');
			expect(sent('orderConfirm').map((entry) => entry.status)).toEqual([503, 201]);
			expect(statusesOf(orderId)).toEqual(['CONFIRMED']);
		});

		it('the connection cut before an answer, the order showing nothing yet: not sent again, the outcome unknown', async () => {
			const orderId = newOrder([[100_001, 1]]);
			sandbox.injectFault({ route: 'orderConfirm', count: 1, body: 'reset' });

			const { result } = await confirmAll(orderId);

			expect(result.error?.message).toBe(`The outcome of the confirmation of order ${orderId} is unknown: the connection was cut before the answer came`);
			expect(result.error?.description).toContain(`Check order ${orderId}`);
			expect(sent('orderConfirm')).toHaveLength(1);
			expect(statusesOf(orderId)).toEqual(['CREATED']);
		});

		it('with On Error = Stop, a refused order fails the run once the others are sent, naming those confirmed', async () => {
			const refused = newOrder([[100_001, 1]]);
			const confirmed = newOrder([[100_002, 1]]);

			const { result } = await run({ operation: 'confirm', orderId: '={{ $json.orderId }}', warehouseId: '={{ $json.warehouse ?? "" }}' }, [
				{ orderId: refused, warehouse: 999_999 },
				{ orderId: confirmed },
			]);

			expect(result.error?.description).toMatch(new RegExp(`Unknown warehouseAddressId 999999.*Confirmed in this run all the same: ${confirmed}\\.$`));
			expect(statusesOf(confirmed)).toEqual(['CONFIRMED']);
			expect(statusesOf(refused)).toEqual(['CREATED']);
		});

		it('a refusal (400) is the service\'s answer, not retried, in the merchant\'s words: the order, its shipments\' status, nothing applied', async () => {
			const orderId = newOrder([[100_001, 1]]);

			const { result } = await run({ operation: 'confirm', orderId, warehouseId: 999_999 });

			expect(result.error?.message).toBe(`Order ${orderId} was not confirmed, the service refused it (HTTP 400): its shipments: ${orderId}-DS-1 is CREATED`);
			expect(result.error?.description).toContain('Unknown warehouseAddressId 999999. Nothing was applied.');
			expect(sent('orderConfirm').map((entry) => entry.status)).toEqual([400]);
		});
	});
});

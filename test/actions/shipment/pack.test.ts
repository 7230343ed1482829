/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code, run by jest and never loaded by n8n: it may use process and timers (docs/architecture.md, Toolchain). */
/**
 * Shipment › Pack through the real engine against the sandbox: everything confirmed or given
 * quantities, checked against the shipment before sending, and a pack whose answer was lost (the
 * sandbox applies it, then answers 503 or cuts the connection): read back once, reported as
 * applied, never packed twice.
 */
import { NOW, outputRunner, sandbox, sandboxPerFile, sent } from '../helpers';

sandboxPerFile({ now: NOW, seed: 31 });

const run = outputRunner('shipment');

/** A new order confirmed in full from the default address; its shipment's suborder id. The request log starts after. */
function confirmedShipment(lines: Array<[number, number]> = [[100_001, 2], [100_002, 1]]): string {
	const [order] = sandbox.addOrders(1, { lines: lines.map(([merchantInventoryId, quantity]) => ({ merchantInventoryId, quantity })) });
	const suborderId = `${order.id}-DS-1`;
	sandbox.advanceShipment(suborderId);
	sandbox.clearLog();
	return suborderId;
}

const historyOf = (suborderId: string) => sandbox.state.shipment(suborderId)?.history.map((step) => step.status);
const packsOf = () => sent('shipmentPack').map((entry) => [entry.status, entry.appliedStatus ?? null]);

describe('Shipment › Pack', () => {
	it('packs everything confirmed: one read of the shipment, one pack', async () => {
		const suborderId = confirmedShipment();

		const { result, json } = await run({ operation: 'pack', suborderId, numberOfBoxes: 2 });

		expect(result.error).toBeUndefined();
		expect(json).toEqual([
			{
				suborderId,
				orderId: suborderId.replace(/-DS-1$/, ''),
				packed: true,
				numberOfBoxes: 2,
				products: [expect.objectContaining({ merchantInventoryId: 100_001, quantity: 2 }), expect.objectContaining({ merchantInventoryId: 100_002, quantity: 1 })],
				packedAllConfirmed: true,
			},
		]);
		expect(sandbox.log.filter((entry) => entry.route !== 'token').map((entry) => entry.route)).toEqual(['shipments', 'shipmentPack']);
		expect(sandbox.state.shipment(suborderId)).toMatchObject({ numberOfBoxes: 2 });
		expect(historyOf(suborderId)).toContain('PACKED');
	});

	it('packs the quantities given: lines left out are not packed (partially packed)', async () => {
		const suborderId = confirmedShipment();

		const { result, json } = await run({ operation: 'pack', suborderId, packWhat: 'quantities', quantities: { line: [{ merchantInventoryId: '100001', quantity: '1' }] } });

		expect(result.error).toBeUndefined();
		expect(json[0]).toMatchObject({ packedAllConfirmed: false, products: [expect.objectContaining({ merchantInventoryId: 100_001, quantity: 1 })] });
		expect(historyOf(suborderId)).toContain('PARTIALLY_PACKED');
		expect(sandbox.state.shipment(suborderId)?.lines.map((line) => line.packedQuantity)).toEqual([1, 0]);
	});

	it('items naming the same suborder (Confirm\'s one output per line) pack it once, each getting the outcome', async () => {
		const suborderId = confirmedShipment();
		const items = [{ suborderId }, { suborderId }, { suborderId }];

		const { result, json } = await run({ operation: 'pack', suborderId: '={{ $json.suborderId }}' }, items);

		expect(result.error).toBeUndefined();
		expect(sent('shipmentPack')).toHaveLength(1);
		expect(json).toHaveLength(3);
		expect(json.every((item) => item.suborderId === suborderId && item.packed === true)).toBe(true);
		expect(result.output('Node').map((item) => item.pairedItem)).toEqual(items.map((_, item) => ({ item })));
	});

	it('other boxes for a suborder an earlier item of the run packs: an error for that item, nothing sent for it', async () => {
		const suborderId = confirmedShipment();

		const { result } = await run({ operation: 'pack', suborderId, numberOfBoxes: '={{ $json.boxes }}' }, [{ boxes: 1 }, { boxes: 2 }], { node: { continueOnFail: true } });

		const [packed, refused] = result.output('Node');
		expect(packed.json).toMatchObject({ suborderId, numberOfBoxes: 1 });
		expect(refused.error?.message).toBe(`Shipment ${suborderId} is packed by item 0 of this run, with other boxes or quantities`);
		expect(sent('shipmentPack')).toHaveLength(1);
	});

	it('reads a shipment answered with other key spellings and numbers as text', async () => {
		const suborderId = confirmedShipment();
		sandbox.setVariants({ keySpellings: true, numbersAsStrings: true });
		try {
			const { result, json } = await run({ operation: 'pack', suborderId, packWhat: 'quantities', quantities: { line: [{ merchantInventoryId: 100_001, quantity: 2 }] } });

			expect(result.error).toBeUndefined();
			expect(json[0]).toMatchObject({ packedAllConfirmed: false, products: [expect.objectContaining({ merchantInventoryId: 100_001, quantity: 2 })] });
			expect(sandbox.state.shipment(suborderId)?.lines.map((line) => line.packedQuantity)).toEqual([2, 0]);
		} finally {
			sandbox.resetVariants();
		}
	});

	describe('checked against the shipment before anything is sent', () => {
		it.each([
			['a quantity above the confirmed one', [{ merchantInventoryId: '100001', quantity: '3' }], 'Quantities › line 1 › Quantity: 3 is more than the 2 confirmed of line 100001'],
			['a line not in the shipment', [{ merchantInventoryId: '100099', quantity: '1' }], 'Quantities › line 1 › Merchant Inventory ID: 100099 is not a line of shipment'],
			['nothing', [{ merchantInventoryId: '100001', quantity: '0' }], 'Quantities: packs nothing: every quantity is 0'],
		])('%s', async (_, line, message) => {
			const suborderId = confirmedShipment();

			const { result } = await run({ operation: 'pack', suborderId, packWhat: 'quantities', quantities: { line } });

			expect(result.error?.message).toContain(message);
			expect(sent('shipmentPack')).toEqual([]);
		});

		it('a shipment packed already is not packed again', async () => {
			const suborderId = confirmedShipment();
			await run({ operation: 'pack', suborderId });
			sandbox.clearLog();

			const { result } = await run({ operation: 'pack', suborderId });

			expect(result.error?.message).toBe(`Shipment ${suborderId} cannot be packed: its status is READY_FOR_COLLECTION`);
			expect(result.error?.description).toMatch(/^It is packed already: nothing was sent/);
			expect(sent('shipmentPack')).toEqual([]);
		});

		it('an order not confirmed yet says to confirm it first', async () => {
			const [order] = sandbox.addOrders(1);
			sandbox.clearLog();

			const { result } = await run({ operation: 'pack', suborderId: `${order.id}-DS-1` });

			expect(result.error?.message).toBe(`Shipment ${order.id}-DS-1 cannot be packed: its status is CREATED`);
			expect(result.error?.description).toContain('Order › Confirm');
			expect(sent('shipmentPack')).toEqual([]);
		});

		it('an unknown suborder is named, with On Error = Continue as the item\'s error', async () => {
			const { result } = await run({ operation: 'pack', suborderId: 'NOPE0-00000-DS-1' }, [{}], { node: { continueOnFail: true } });

			expect(result.output('Node')[0].error?.message).toBe('No shipment or order NOPE0-00000-DS-1 was found');
			expect(sent('shipmentPack')).toEqual([]);
		});
	});

	describe("an order's ID (Order › Confirm's orderId, dragged): each of its shipments that can be packed", () => {
		const warehouses = () => [sandbox.state.warehouses.find((warehouse) => warehouse.defaultAddress) ?? sandbox.state.warehouses[0], sandbox.state.warehouses.find((warehouse) => !warehouse.defaultAddress) ?? sandbox.state.warehouses[1]];

		/** An order with lines from two warehouses, confirmed as ordered: two shipments. */
		function splitOrder(): string {
			const [home, other] = warehouses();
			const [order] = sandbox.addOrders(1, { lines: [{ merchantInventoryId: 100_001, quantity: 2, warehouseAddressId: home.id }, { merchantInventoryId: 100_002, quantity: 1, warehouseAddressId: other.id }] });
			sandbox.advanceShipment(`${order.id}-DS-1`);
			sandbox.clearLog();
			return order.id;
		}

		it('packs both shipments of an order confirmed from two warehouses: one output item per shipment, each with its suborderId', async () => {
			const orderId = splitOrder();

			const { result, json } = await run({ operation: 'pack', suborderId: '={{ $json.orderId }}' }, [{ orderId, confirmed: true }]);

			expect(result.error).toBeUndefined();
			expect(json.map((item) => [item.suborderId, item.orderId, item.packed])).toEqual([
				[`${orderId}-DS-1`, orderId, true],
				[`${orderId}-DS-2`, orderId, true],
			]);
			expect(result.output('Node').map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 0 }]);
			expect(sent('shipmentPack').map((entry) => entry.path.split('/').at(-2))).toEqual([`${orderId}-DS-1`, `${orderId}-DS-2`]);
		});

		it('an order none of whose shipments can be packed: an error listing their statuses, nothing sent', async () => {
			const orderId = splitOrder();
			await run({ operation: 'pack', suborderId: orderId });
			sandbox.clearLog();

			const { result } = await run({ operation: 'pack', suborderId: orderId });

			expect(result.error?.message).toBe(`Order ${orderId} has no shipment that can be packed`);
			expect(result.error?.description).toContain(`${orderId}-DS-1 is READY_FOR_COLLECTION, ${orderId}-DS-2 is READY_FOR_COLLECTION`);
			expect(sent('shipmentPack')).toEqual([]);
		});
	});

	describe('a refused pack in the merchant\'s words', () => {
		it("the service's Serbian refusal: the suborder, the meaning in English beside the service's text, the status read back, nothing applied", async () => {
			const suborderId = confirmedShipment();
			sandbox.injectFault({ route: 'shipmentPack', count: 1, status: 400, message: 'Pošiljka nije u odgovarajućem statusu' });

			const { result } = await run({ operation: 'pack', suborderId });

			expect(result.error?.message).toBe(`Shipment ${suborderId} was not packed: the shipment is not in the right status: it is CONFIRMED`);
			expect(result.error?.description).toMatch(/^The service refused it \(HTTP 400\) and said: Pošiljka nije u odgovarajućem statusu \(the shipment is not in the right status\)\. Nothing was applied\. /);
			expect(result.error?.message).not.toContain('Bad request');
			expect(packsOf()).toEqual([[400, null]]);
		});

		it('a refusal in words the table does not know: the service\'s text as it is, the HTTP status, nothing applied', async () => {
			const suborderId = confirmedShipment();
			sandbox.injectFault({ route: 'shipmentPack', count: 1, status: 400, message: 'Something else went wrong' });

			const { result } = await run({ operation: 'pack', suborderId });

			expect(result.error?.message).toBe(`Shipment ${suborderId} was not packed, the service refused it (HTTP 400): it is CONFIRMED`);
			expect(result.error?.description).toContain('and said: Something else went wrong. Nothing was applied.');
		});
	});

	describe('an answer lost after sending: never packed twice', () => {
		it('applied, then answered 503: one read of the shipment reports it applied, one pack sent', async () => {
			const suborderId = confirmedShipment();
			sandbox.injectFault({ route: 'shipmentPack', count: 1, applyThen: true });

			const { result, json } = await run({ operation: 'pack', suborderId });

			expect(result.error).toBeUndefined();
			expect(json[0]).toMatchObject({ suborderId, packed: true, status: 'READY_FOR_COLLECTION' });
			expect(json[0].note).toBe('the service answered HTTP 503, but the shipment read back shows this packing (READY_FOR_COLLECTION): it was applied (not sent again)');
			expect(packsOf()).toEqual([[503, 204]]);
			expect(sandbox.log.filter((entry) => entry.route !== 'token').map((entry) => entry.route)).toEqual(['shipments', 'shipmentPack', 'shipments']);
			expect(historyOf(suborderId)?.filter((status) => status === 'PACKED')).toHaveLength(1);
		});

		it('applied, then the connection cut: reported applied, one pack sent', async () => {
			const suborderId = confirmedShipment();
			sandbox.injectFault({ route: 'shipmentPack', count: 1, applyThen: true, body: 'reset' });

			const { result, json } = await run({ operation: 'pack', suborderId });

			expect(result.error).toBeUndefined();
			expect(json[0].note).toMatch(/^the connection was cut before the answer came, but the shipment read back shows this packing/);
			expect(sent('shipmentPack')).toHaveLength(1);
		});

		it('applied, then no answer within the timeout: reported applied, one pack sent', async () => {
			const suborderId = confirmedShipment();
			sandbox.injectFault({ route: 'shipmentPack', count: 1, applyThen: true, delayMs: 2_500 });

			const { result, json } = await run({ operation: 'pack', suborderId, requestOptions: { timeoutSeconds: 1 } });

			expect(result.error).toBeUndefined();
			expect(json[0].note).toMatch(/^no answer came in time, but the shipment read back shows this packing/);
			// The pack is logged when its late answer goes out.
			await new Promise((resolve) => setTimeout(resolve, 2_000));
			expect(sent('shipmentPack')).toHaveLength(1);
			expect(historyOf(suborderId)?.filter((status) => status === 'PACKED')).toHaveLength(1);
		});

		it('answered 503 without acting: the outcome is unknown, named with what to check, and not sent again', async () => {
			const suborderId = confirmedShipment();
			sandbox.injectFault({ route: 'shipmentPack', count: 1, status: 503 });

			const { result } = await run({ operation: 'pack', suborderId });

			expect(result.error?.message).toBe(`The outcome of the pack of shipment ${suborderId} is unknown: the service answered HTTP 503`);
			expect(result.error?.description).toContain('The shipment read back is CONFIRMED, with nothing packed yet.');
			expect(result.error?.description).toContain(`Check shipment ${suborderId}`);
			expect(packsOf()).toEqual([[503, null]]);
			expect(sandbox.state.shipment(suborderId)?.status).toBe('CONFIRMED');
		});
	});
});

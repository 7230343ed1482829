/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code, run by jest and never loaded by n8n: it may use Node modules (docs/architecture.md, Toolchain). */
import { crc32 } from 'node:zlib';
import { startSandbox, type OrderRecord, type Sandbox } from '../../sandbox';
import { ORDER_API, call, getToken } from './helpers';

const NOW = '2025-06-15T10:00:00Z';
const SHIPMENTS = `${ORDER_API}/outbound-orders/shipments`;
const LABEL_V1 = '/lmd/api/v1/merchant-integration/consignment/labels';
const LABEL_V2 = '/lmd/api/v2/merchant-integration/consignment/labels';

describe('sandbox: shipments, packing and labels', () => {
	let sandbox: Sandbox;
	let token: string;
	let order: OrderRecord;
	let suborderId: string;

	const pack = (id: string, body: unknown) => call(sandbox, 'POST', `${ORDER_API}/outbound-orders/${id}/pack`, { token, body });
	const fullPack = () => ({ numberOfBoxes: 2, products: order.lines.map((line) => ({ id: line.merchantInventoryId, quantity: line.quantity })) });

	beforeEach(async () => {
		sandbox = await startSandbox({ now: NOW, rateLimits: false, orders: 0 });
		token = await getToken(sandbox);
		[order] = sandbox.addOrders(1, { lines: [{ merchantInventoryId: 100_001, quantity: 2 }, { merchantInventoryId: 100_002, quantity: 1 }] });
		suborderId = `${order.id}-DS-1`;
	});
	afterEach(async () => {
		await sandbox.close();
	});

	it('needs search or statusGroup, finds by order or suborder id, pages at most 100', async () => {
		expect((await call(sandbox, 'GET', SHIPMENTS, { token })).status).toBe(400);
		const byOrder = await call(sandbox, 'GET', `${SHIPMENTS}?search=${order.id}`, { token });
		expect(byOrder.json.content.map((shipment: { suborderId: string }) => shipment.suborderId)).toEqual([suborderId]);
		expect(byOrder.json.content[0]).toMatchObject({ orderId: order.id, status: 'CREATED', statusSubgroup: 'SSG_CREATED', confirmedQuantity: null, type: 'Standard' });
		sandbox.advanceShipment(suborderId);
		const bySuborder = await call(sandbox, 'GET', `${SHIPMENTS}?search=${suborderId}&size=500`, { token });
		expect(bySuborder.json).toMatchObject({ size: 100, totalElements: 1 });
		expect(bySuborder.json.content[0]).toMatchObject({ status: 'CONFIRMED', statusSubgroup: 'SSG_CONFIRMED', confirmedQuantity: 3, packedQuantity: null, carrierName: null });
		expect(bySuborder.json.content[0].items[0]).toMatchObject({ merchantInventoryId: 100_001, orderedQuantity: 2, confirmedQuantity: 2, productSpecifications: expect.any(String) });
	});

	it('filters by the shipments groups, statuses (an empty intersection is an empty page) and the other filters', async () => {
		sandbox.advanceShipment(suborderId);
		const count = async (query: string) => (await call(sandbox, 'GET', `${SHIPMENTS}?${query}`, { token })).json.totalElements;
		expect(await count('statusGroup=SG_FOR_PACKAGING')).toBe(1);
		expect(await count('statusGroup=SG_FOR_PACKAGING&statuses=DELIVERED')).toBe(0);
		expect(await count('statusGroup=SG_FOR_PACKAGING&statuses=CONFIRMED,PENDING')).toBe(1);
		expect(await count(`statusGroup=SG_FOR_PACKAGING&warehouseIds=${sandbox.state.shipment(suborderId)?.warehouseId}`)).toBe(1);
		expect(await count('statusGroup=SG_FOR_PACKAGING&warehouseIds=1')).toBe(0);
		expect(await count(`statusGroup=SG_FOR_PACKAGING&paymentMethods=${order.paymentMethods[0]}`)).toBe(1);
		expect(await count('statusGroup=SG_FOR_PACKAGING&suborderTypes=DS')).toBe(1);
		expect(await count('statusGroup=SG_FOR_PACKAGING&confirmedFrom=2025-06-15T09:00:00Z&confirmedTo=2025-06-15T11:00:00Z')).toBe(1);
		expect(await count('statusGroup=SG_FOR_PACKAGING&confirmedFrom=2025-06-16T00:00:00Z')).toBe(0);
		expect((await call(sandbox, 'GET', `${SHIPMENTS}?statusGroup=SG_FOR_CONFIRMATION`, { token })).status).toBe(400);
		expect((await call(sandbox, 'GET', `${SHIPMENTS}?search=x&statuses=NOPE`, { token })).status).toBe(400);

		expect((await pack(suborderId, fullPack())).status).toBe(204);
		expect(await count('statusGroup=SG_FOR_PACKAGING')).toBe(0);
		expect(await count('statusGroup=SG_SHIPMENT_ON_DELIVERY&statuses=READY_FOR_COLLECTION')).toBe(1);
		const carrier = sandbox.state.shipment(suborderId)?.carrierName as string;
		expect(await count(`statusGroup=SG_SHIPMENT_ON_DELIVERY&carriers=${encodeURIComponent(carrier)}`)).toBe(1);
		sandbox.advanceShipment(suborderId, 'DELIVERED');
		expect(await count('statusGroup=SG_COMPLETED')).toBe(1);
	});

	it('walks the status machine: confirm, pack, carrier allocation, label, delivery', async () => {
		sandbox.setVariants({ carrierAllocationMs: 60_000 });
		// A label asked before it exists: 404 by default (the pages are silent).
		const early = await call(sandbox, 'GET', `${LABEL_V2}?reference=${suborderId}`, { token });
		expect(early.status).toBe(404);
		expect(early.json.message).toMatch(/not available yet/);
		expect((await pack(suborderId, fullPack())).status).toBe(400);

		sandbox.advanceShipment(suborderId);
		expect((await pack(suborderId, { numberOfBoxes: 1, products: [{ id: 100_001, quantity: 3 }] })).status).toBe(400);
		expect((await pack(suborderId, { numberOfBoxes: 0, products: [{ id: 100_001, quantity: 1 }] })).status).toBe(400);
		const packed = await pack(suborderId, fullPack());
		expect(packed.status).toBe(204);
		expect(packed.text).toBe('');
		expect(sandbox.state.shipment(suborderId)).toMatchObject({ status: 'PACKED', numberOfBoxes: 2, carrierName: expect.any(String) });
		const repeated = await pack(suborderId, fullPack());
		expect(repeated.status).toBe(400);
		expect(repeated.json.message).toMatch(/cannot be packed in status PACKED/);
		expect((await call(sandbox, 'GET', `${LABEL_V2}?reference=${suborderId}`, { token })).status).toBe(404);

		sandbox.clock.advance(60_000);
		expect(sandbox.state.shipment(suborderId)?.status).toBe('READY_FOR_COLLECTION');
		const pdf = await call(sandbox, 'GET', `${LABEL_V2}?reference=${suborderId}`, { token });
		expect(pdf.status).toBe(200);
		const file = await fetch(pdf.json.link);
		expect(file.headers.get('content-type')).toBe('application/pdf');
		expect(Buffer.from(await file.arrayBuffer()).subarray(0, 5).toString()).toBe('%PDF-');
		const zpl = await call(sandbox, 'GET', `${LABEL_V2}?reference=${suborderId}&format=ZPL`, { token });
		const zplText = await (await fetch(zpl.json.link)).text();
		expect(zplText).toMatch(/^\^XA/);
		expect(zplText).toContain(suborderId);
		expect((await call(sandbox, 'GET', `${LABEL_V2}?reference=${suborderId}&format=PNG`, { token })).status).toBe(400);

		// v1: a ZIP holding the PDF, stored uncompressed.
		const zip = await call(sandbox, 'GET', `${LABEL_V1}?reference=${suborderId}`, { token });
		expect(zip.json.link).toMatch(/\.zip\?/);
		const archive = Buffer.from(await (await fetch(zip.json.link)).arrayBuffer());
		expect(archive.readUInt32LE(0)).toBe(0x04034b50);
		const nameLength = archive.readUInt16LE(26);
		expect(archive.subarray(30, 30 + nameLength).toString()).toBe(`${suborderId}.pdf`);
		const size = archive.readUInt32LE(18);
		const pdfInZip = archive.subarray(30 + nameLength, 30 + nameLength + size);
		expect(pdfInZip.subarray(0, 5).toString()).toBe('%PDF-');
		expect(archive.readUInt32LE(14)).toBe(crc32(pdfInZip));

		// Links expire after 10 minutes, as document links do.
		sandbox.clock.advance(11 * 60_000);
		expect((await fetch(pdf.json.link)).status).toBe(403);

		for (const status of ['COLLECTED', 'ON_DELIVERY', 'DELIVERED']) expect(sandbox.advanceShipment(suborderId).status).toBe(status);
		expect(sandbox.state.shipment(suborderId)?.history.map((entry) => entry.status)).toEqual([
			'CREATED', 'CONFIRMED', 'PACKED', 'READY_FOR_COLLECTION', 'COLLECTED', 'ON_DELIVERY', 'DELIVERED',
		]);
		expect(() => sandbox.advanceShipment(suborderId)).toThrow(/no next step/);
		expect(sandbox.count('labelV2')).toBe(5);
		expect(sandbox.count('labelV1')).toBe(1);
		expect(sandbox.count('labelFile')).toBe(4);
		expect(sandbox.count('shipmentPack')).toBe(5);
	});

	it('packs less than confirmed as PARTIALLY_PACKED, and answers the order with packed quantities', async () => {
		sandbox.advanceShipment(suborderId);
		expect((await pack(suborderId, { numberOfBoxes: 1, products: [{ id: 100_001, quantity: 1 }] })).status).toBe(204);
		const shipment = sandbox.state.shipment(suborderId);
		expect(shipment?.history.map((entry) => entry.status)).toEqual(['CREATED', 'CONFIRMED', 'PARTIALLY_PACKED', 'READY_FOR_COLLECTION']);
		const answered = await call(sandbox, 'GET', `${ORDER_API}/orders?orderId=${order.id}`, { token });
		expect(answered.json.content[0].items.map((item: { packedQuantity: number }) => item.packedQuantity)).toEqual([1, 0]);
	});

	it('switches the label variants: reference parameter and the answer before the label exists', async () => {
		sandbox.setVariants({ labelReferenceParam: 'referenceId' });
		const missing = await call(sandbox, 'GET', `${LABEL_V2}?reference=${suborderId}`, { token });
		expect(missing.status).toBe(400);
		expect(missing.json.message).toMatch(/'referenceId'/);
		expect((await call(sandbox, 'GET', `${LABEL_V2}?referenceId=${suborderId}`, { token })).status).toBe(404);
		sandbox.setVariants({ labelReferenceParam: 'both', labelNotReady: 'bad-request' });
		expect((await call(sandbox, 'GET', `${LABEL_V2}?reference=${suborderId}`, { token })).status).toBe(400);
		sandbox.setVariants({ labelNotReady: 'null-link' });
		const nullLink = await call(sandbox, 'GET', `${LABEL_V1}?referenceId=${suborderId}`, { token });
		expect([nullLink.status, nullLink.json]).toEqual([200, { link: null }]);
		expect((await call(sandbox, 'GET', `${LABEL_V2}?reference=NOPE-DS-1`, { token })).status).toBe(404);
	});

	it('switches the status variants: border status name and PENDING subgroup', async () => {
		sandbox.advanceShipment(suborderId);
		sandbox.advanceShipment(suborderId, 'PENDING');
		const read = async () => (await call(sandbox, 'GET', `${SHIPMENTS}?search=${suborderId}`, { token })).json.content[0];
		expect(await read()).toMatchObject({ status: 'PENDING', statusSubgroup: 'SSG_PARTIALLY_CONFIRMED' });
		sandbox.setVariants({ pendingSubgroup: 'SSG_PENDING' });
		expect(await read()).toMatchObject({ status: 'PENDING', statusSubgroup: 'SSG_PENDING' });
		expect((await call(sandbox, 'GET', `${SHIPMENTS}?statusGroup=SG_FOR_PACKAGING`, { token })).json.totalElements).toBe(1);

		sandbox.advanceShipment(suborderId, 'PACKED_ON_THE_BORDER');
		expect(await read()).toMatchObject({ status: 'PACKED_ON_THE_BORDER', statusSubgroup: 'SSG_PACKED' });
		sandbox.setVariants({ borderStatusName: 'ON_THE_BORDER' });
		expect(await read()).toMatchObject({ status: 'ON_THE_BORDER', statusSubgroup: 'SSG_PACKED' });
		for (const name of ['ON_THE_BORDER', 'PACKED_ON_THE_BORDER']) {
			expect((await call(sandbox, 'GET', `${SHIPMENTS}?search=${order.id}&statuses=${name}`, { token })).json.totalElements).toBe(1);
		}
		sandbox.setVariants({ statusGroupNames: 'status-groups' });
		expect((await call(sandbox, 'GET', `${SHIPMENTS}?statusGroup=SG_PROCESSING`, { token })).json.totalElements).toBe(1);
		expect((await call(sandbox, 'GET', `${SHIPMENTS}?statusGroup=SG_FOR_PACKAGING`, { token })).status).toBe(400);
	});

	it('applies a pack and then answers 503 (applyThen), and logs that it was applied', async () => {
		sandbox.advanceShipment(suborderId);
		sandbox.injectFault({ route: 'shipmentPack', count: 1, applyThen: true });
		const cut = await pack(suborderId, fullPack());
		expect(cut.status).toBe(503);
		expect(sandbox.state.shipment(suborderId)?.status).toBe('READY_FOR_COLLECTION');
		expect(sandbox.log.filter((entry) => entry.route === 'shipmentPack')).toEqual([expect.objectContaining({ status: 503, appliedStatus: 204 })]);
		// The resend a client might make is refused: the pack went through the first time.
		expect((await pack(suborderId, fullPack())).status).toBe(400);

		// Over HTTP, and with a cut connection instead of a 503.
		const [other] = sandbox.addOrders(1, { lines: [{ merchantInventoryId: 100_003 }] });
		sandbox.advanceShipment(`${other.id}-DS-1`);
		expect((await call(sandbox, 'POST', '/__sandbox/faults', { body: { route: 'shipmentPack', count: 1, applyThen: true, body: 'reset' } })).status).toBe(200);
		await expect(pack(`${other.id}-DS-1`, { numberOfBoxes: 1, products: [{ id: 100_003, quantity: 1 }] })).rejects.toThrow();
		expect(sandbox.state.shipment(`${other.id}-DS-1`)?.status).toBe('READY_FOR_COLLECTION');
		expect(sandbox.log.at(-1)).toMatchObject({ route: 'shipmentPack', appliedStatus: 204 });
	});

	it('advances a shipment over the HTTP control', async () => {
		const confirmed = await call(sandbox, 'POST', `/__sandbox/shipments/${suborderId}/advance`);
		expect(confirmed.json).toMatchObject({ suborderId, status: 'CONFIRMED' });
		const cancelled = await call(sandbox, 'POST', `/__sandbox/shipments/${suborderId}/advance`, { body: { to: 'CANCELLED_BY_CUSTOMER' } });
		expect(cancelled.json.status).toBe('CANCELLED_BY_CUSTOMER');
		expect((await call(sandbox, 'POST', `/__sandbox/shipments/${suborderId}/advance`, { body: { to: 'NOPE' } })).status).toBe(400);
		expect((await call(sandbox, 'POST', '/__sandbox/shipments/NOPE-DS-1/advance')).status).toBe(404);
	});
});

/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code, run by jest and never loaded by n8n: it may use timers (docs/architecture.md, Toolchain). */
/**
 * Shipment › Get Label through the real engine against the sandbox: PDF, ZPL and the v1 ZIP
 * downloaded at once into binary data named after the suborder; whichever reference parameter the
 * service reads; a label not ready yet (every variant of the answer) as an error naming the
 * shipment's status, after one read of the shipment.
 */
import { NOW, outputRunner, sandbox, sandboxPerFile, sent } from '../helpers';

sandboxPerFile({ now: NOW, seed: 31 });

afterEach(() => sandbox.resetVariants());

const run = outputRunner('shipment');

/** A new order's shipment taken `steps` along the usual path (1: confirmed, 2: packed, and with no allocation time ready for collection). */
function shipmentAfter(steps: number): string {
	const [order] = sandbox.addOrders(1, { lines: [{ merchantInventoryId: 100_001, quantity: 1 }] });
	const suborderId = `${order.id}-DS-1`;
	for (let step = 0; step < steps; step++) sandbox.advanceShipment(suborderId);
	sandbox.clearLog();
	return suborderId;
}

const fileOf = (item: { binary?: Record<string, { data: string }> }, property = 'data') => Buffer.from(item.binary?.[property]?.data ?? '', 'base64');

describe('Shipment › Get Label', () => {
	it('downloads the PDF at once into binary data named after the suborder', async () => {
		const suborderId = shipmentAfter(2);

		const { result, items } = await run({ operation: 'getLabel', suborderId });

		expect(result.error).toBeUndefined();
		expect(items[0].json).toEqual({ suborderId, labelFormat: 'pdf', fileName: `${suborderId}.pdf` });
		expect(items[0].binary?.data).toMatchObject({ fileName: `${suborderId}.pdf`, mimeType: 'application/pdf' });
		expect(fileOf(items[0]).subarray(0, 4).toString('latin1')).toBe('%PDF');
		expect(sandbox.log.filter((entry) => entry.route !== 'token').map((entry) => entry.route)).toEqual(['labelV2', 'labelFile']);
		expect(sent('labelV2')[0].query).toMatchObject({ reference: suborderId, format: 'PDF' });
	});

	it.each([
		['zpl', 'labelV2', 'application/zpl', (file: Buffer) => file.toString('latin1').startsWith('^XA')],
		['zip', 'labelV1', 'application/zip', (file: Buffer) => file.subarray(0, 2).toString('latin1') === 'PK'],
	])('%s: from its endpoint, into the binary field asked for', async (labelFormat, route, mimeType, looksRight) => {
		const suborderId = shipmentAfter(2);

		const { result, items } = await run({ operation: 'getLabel', suborderId, labelFormat, binaryPropertyName: 'label' });

		expect(result.error).toBeUndefined();
		expect(items[0].binary?.label).toMatchObject({ fileName: `${suborderId}.${labelFormat}`, mimeType });
		expect(looksRight(fileOf(items[0], 'label'))).toBe(true);
		expect(sent(route as 'labelV1' | 'labelV2')).toHaveLength(1);
	});

	it('a Label Format no choice names is refused before anything is sent, never read as PDF (issue 41: one choice reader)', async () => {
		const suborderId = shipmentAfter(2);

		const { result } = await run({ operation: 'getLabel', suborderId, labelFormat: '={{ "png" }}' });

		expect(result.error?.message).toMatch(/^Label Format: "png" is not one of pdf, zpl, zip/);
		expect([...sent('labelV1'), ...sent('labelV2'), ...sent('labelFile')]).toEqual([]);
	});

	it('items naming the same suborder fetch its label once, each getting the file', async () => {
		const suborderId = shipmentAfter(2);

		const { result, items } = await run({ operation: 'getLabel', suborderId: '={{ $json.suborderId }}' }, [{ suborderId }, { suborderId }]);

		expect(result.error).toBeUndefined();
		expect(items.map((item) => item.binary?.data?.fileName)).toEqual([`${suborderId}.pdf`, `${suborderId}.pdf`]);
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(sent('labelV2')).toHaveLength(1);
		expect(sent('labelFile')).toHaveLength(1);
	});

	it.each(['referenceId', 'both'] as const)('works with a service that reads the reference as %s, in one request', async (labelReferenceParam) => {
		sandbox.setVariants({ labelReferenceParam });
		const suborderId = shipmentAfter(2);

		const { result, items } = await run({ operation: 'getLabel', suborderId });

		expect(result.error).toBeUndefined();
		expect(items[0].json.fileName).toBe(`${suborderId}.pdf`);
		expect(sent('labelV2')).toHaveLength(1);
	});

	describe('a label not ready yet is an error naming the shipment\'s status', () => {
		it.each(['not-found', 'bad-request', 'null-link'] as const)('packed, carrier not allocated yet (the service answers %s)', async (labelNotReady) => {
			sandbox.setVariants({ labelNotReady, carrierAllocationMs: 3_600_000 });
			const suborderId = shipmentAfter(2);

			const { result } = await run({ operation: 'getLabel', suborderId });

			expect(result.error?.message).toBe(`The label of shipment ${suborderId} is not ready yet: the shipment is PACKED`);
			expect(result.error?.description).toMatch(/^A label exists once the carrier is allocated \(READY_FOR_COLLECTION\)\. The carrier is being allocated/);
			expect(sandbox.log.filter((entry) => entry.route !== 'token').map((entry) => entry.route)).toEqual(['labelV2', 'shipments']);
		});

		it('confirmed, not packed: says to pack it first', async () => {
			const suborderId = shipmentAfter(1);

			const { result } = await run({ operation: 'getLabel', suborderId });

			expect(result.error?.message).toBe(`The label of shipment ${suborderId} is not ready yet: the shipment is CONFIRMED`);
			expect(result.error?.description).toContain('pack it first (Shipment › Pack)');
		});

		it('its order not confirmed yet: says to confirm it first, as Pack does (issue 41: one reading of a shipment\'s status)', async () => {
			const suborderId = shipmentAfter(0);

			const { result } = await run({ operation: 'getLabel', suborderId });

			expect(result.error?.message).toBe(`The label of shipment ${suborderId} is not ready yet: the shipment is CREATED`);
			expect(result.error?.description).toContain('Its order is not confirmed yet: confirm it first (Order › Confirm).');
		});

		it('an unknown suborder is named, with On Error = Continue as the item\'s error', async () => {
			const { result } = await run({ operation: 'getLabel', suborderId: 'NOPE0-00000-DS-1' }, [{}], { node: { continueOnFail: true } });

			expect(result.output('Node')[0].error?.message).toBe('Shipment NOPE0-00000-DS-1 was not found');
			expect(sent('labelFile')).toEqual([]);
		});
	});

	describe('Wait for Label: the carrier allocated later', () => {
		it.each(['not-found', 'null-link'] as const)('waits while the carrier is being allocated and returns the label (the service answers %s before)', async (labelNotReady) => {
			sandbox.setVariants({ labelNotReady, carrierAllocationMs: 1_500 });
			const suborderId = shipmentAfter(2);

			const { result, items } = await run({ operation: 'getLabel', suborderId, waitMinutes: 1 });

			expect(result.error).toBeUndefined();
			expect(items[0].json).toEqual({ suborderId, labelFormat: 'pdf', fileName: `${suborderId}.pdf` });
			expect(fileOf(items[0]).subarray(0, 4).toString('latin1')).toBe('%PDF');
			const routes = sandbox.log.filter((entry) => entry.route !== 'token').map((entry) => entry.route);
			// Asked, not ready (the shipment read says PACKED), asked again until the label came, then downloaded once.
			expect(routes.slice(0, 2)).toEqual(['labelV2', 'shipments']);
			expect(routes.slice(-2)).toEqual(['labelV2', 'labelFile']);
			expect(routes.filter((route) => route === 'labelFile')).toHaveLength(1);
		});

		it('past the time set: the error names the status and the wait', async () => {
			sandbox.setVariants({ carrierAllocationMs: 3_600_000 });
			const suborderId = shipmentAfter(2);

			const { result } = await run({ operation: 'getLabel', suborderId, waitMinutes: 0.05 });

			expect(result.error?.message).toMatch(new RegExp(`^The label of shipment ${suborderId} is not ready yet after waiting \\d+ s: the shipment is PACKED$`));
			expect(result.error?.description).toContain('set a longer Wait for Label (Minutes)');
			expect(sent('labelV2').length).toBeGreaterThan(1);
			expect(sent('labelFile')).toEqual([]);
		});

		it('stopping the execution stops the wait: no label asked for after it', async () => {
			sandbox.setVariants({ carrierAllocationMs: 3_600_000 });
			const suborderId = shipmentAfter(2);
			// Stopped once the node asked and read the shipment (it is then waiting): without the stop, it would wait 10 minutes.
			const waiting = new Promise<void>((resolve) => {
				const check = setInterval(() => {
					if (sent('shipments').length > 0) {
						clearInterval(check);
						resolve();
					}
				}, 20);
			});

			const { result } = await run({ operation: 'getLabel', suborderId, waitMinutes: 10 }, [{}], { cancelWhen: waiting });

			expect(result.error?.message ?? '').not.toMatch(/not ready yet/);
			expect(sent('labelV2')).toHaveLength(1);
			expect(sent('labelFile')).toEqual([]);
		});

		it('a shipment not packed is not waited for: the error at once', async () => {
			const suborderId = shipmentAfter(1);

			const { result } = await run({ operation: 'getLabel', suborderId, waitMinutes: 10 });

			expect(result.error?.message).toBe(`The label of shipment ${suborderId} is not ready yet: the shipment is CONFIRMED`);
			expect(sent('labelV2')).toHaveLength(1);
		});

		it('more than 10 minutes is refused before anything is sent', async () => {
			const suborderId = shipmentAfter(2);

			const { result } = await run({ operation: 'getLabel', suborderId, waitMinutes: 11 });

			expect(result.error?.message).toMatch(/^Wait for Label \(Minutes\): /);
			expect(sent('labelV2')).toEqual([]);
		});
	});
});

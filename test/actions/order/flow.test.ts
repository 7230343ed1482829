/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, run by jest and never loaded by n8n: it reads the shipped example from disk, Node modules (docs/architecture.md, Toolchain). */
/**
 * The seller's day by drags, through the real engine against the sandbox: the shipped example's own
 * Confirm → Pack → Get Label nodes (examples/order-flow.json, each field a drag of the previous
 * node's output), fed the orders New Order to Confirm emits, with a carrier allocated a moment after
 * packing and no Wait node: every line confirmed from the warehouse it was ordered from, every
 * shipment packed once and its label fetched once.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { IConnections } from 'n8n-workflow';

import { INPUT_NODE_NAME, runWorkflow, type NodeInput } from '../../harness';
import { NOW, credentials, sandbox, sandboxPerFile, sent } from '../helpers';

sandboxPerFile({ now: NOW, seed: 31 });

afterEach(() => sandbox.resetVariants());

type Example = { nodes: Array<NodeInput & { credentials?: unknown }>; connections: IConnections };

const example = JSON.parse(readFileSync(path.join(__dirname, '..', '..', '..', 'examples', 'order-flow.json'), 'utf8')) as Example;
const OURS = ['Confirm', 'Pack', 'Get Label PDF'];

/** The example's nodes after its trigger, fed `orders` as the trigger emits them (their `orderId`). */
async function runExample(orders: string[]) {
	const nodes = example.nodes.filter((node) => OURS.includes(node.name)).map((node) => ({ ...node, credentials: undefined }));
	const connections: IConnections = { [INPUT_NODE_NAME]: { main: [[{ node: 'Confirm', type: 'main', index: 0 }]] } };
	for (const name of ['Confirm', 'Pack']) connections[name] = example.connections[name];
	return await runWorkflow(
		{ nodes: [{ name: INPUT_NODE_NAME, type: 'test.items', parameters: { items: JSON.stringify(orders.map((orderId) => ({ orderId }))) } }, ...nodes], connections },
		{ credentials: credentials() },
	);
}

describe('the order flow of examples/order-flow.json, by drags alone', () => {
	it('its nodes of this package hold no expression but drags of the previous output', () => {
		const ours = example.nodes.filter((node) => node.type.startsWith('n8n-nodes-marketplace-merchant.'));
		expect(ours.map((node) => node.name)).toEqual(['New Order to Confirm', ...OURS]);
		const typed = ours.flatMap((node) => Object.entries(node.parameters ?? {}).filter(([, value]) => typeof value === 'string' && value.startsWith('=') && !/^=\{\{ \$json\.\w+ \}\}$/.test(value)));
		expect(typed).toEqual([]);
	});

	it('two new orders, one with lines from two warehouses, a carrier allocated after packing: each line from its own warehouse, each shipment packed once and its label fetched once', async () => {
		const [home, other] = [sandbox.state.warehouses.find((warehouse) => warehouse.defaultAddress) ?? sandbox.state.warehouses[0], sandbox.state.warehouses.find((warehouse) => !warehouse.defaultAddress) ?? sandbox.state.warehouses[1]];
		const [plain] = sandbox.addOrders(1, { lines: [{ merchantInventoryId: 100_003, quantity: 1 }] });
		const [split] = sandbox.addOrders(1, { lines: [{ merchantInventoryId: 100_001, quantity: 2, warehouseAddressId: home.id }, { merchantInventoryId: 100_002, quantity: 1, warehouseAddressId: other.id }] });
		sandbox.setVariants({ carrierAllocationMs: 1_500 });
		sandbox.clearLog();

		const result = await runExample([plain.id, split.id]);

		expect(result.error).toBeUndefined();
		const suborders = [`${plain.id}-DS-1`, `${split.id}-DS-1`, `${split.id}-DS-2`];
		expect(result.json('Confirm').map((item) => item.suborderIds)).toEqual([[suborders[0]], [suborders[1], suborders[2]]]);
		expect(result.json('Pack').map((item) => item.suborderId)).toEqual(suborders);
		expect(result.json('Get Label PDF').map((item) => item.fileName)).toEqual(suborders.map((id) => `${id}.pdf`));
		expect(suborders.map((id) => [sandbox.state.shipment(id)?.warehouseId, sandbox.state.shipment(id)?.status])).toEqual([
			[home.id, 'READY_FOR_COLLECTION'],
			[home.id, 'READY_FOR_COLLECTION'],
			[other.id, 'READY_FOR_COLLECTION'],
		]);
		expect(sent('shipmentPack').map((entry) => [entry.path.split('/').at(-2), entry.status])).toEqual(suborders.map((id) => [id, 204]));
		expect(sent('labelFile').map((entry) => path.basename(entry.path))).toEqual(suborders.map((id) => `${id}.pdf`));
	});
});

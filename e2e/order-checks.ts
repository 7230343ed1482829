/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- end-to-end suite code, run by tsx against a real n8n and never loaded by n8n: it may use process and timers, Node modules (docs/architecture.md, Toolchain). */
/**
 * Issue 31 in a real n8n: the seller's day against a sandbox of its own (bench/remote-sandbox.ts,
 * in its own process as the live service is; orders fed over its controls), with its own
 * credential. Used by e2e/suite.ts (one process) and e2e/queue/suite.ts (main + workers):
 * - Order › Get Many, For Confirmation, Return All over 250 orders: 3 requests (`n8n execute`);
 * - a pack the service applied and then answered 503 is not packed twice, neither by Shipment ›
 *   Pack nor by n8n's HTTP Request node with this package's credential (`n8n execute`);
 * - the flow of examples/order-flow.json (New Order to Confirm → Confirm → Pack → Get Label → a
 *   file, each field dragged from the previous node's output), started by its trigger in a running
 *   n8n with a 2-minute carrier allocation and no Wait node: two new orders, one with lines from
 *   two warehouses, each line confirmed from its own warehouse, every shipment packed once and its
 *   label PDF saved to a folder once;
 * - New Order to Confirm emits 30 orders arriving over 3 polls exactly once, with n8n restarted
 *   between the second and the third.
 */
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';

import type { OrderRecord, ShipmentRecord } from '../sandbox';
import { RemoteSandbox, type BenchClient } from '../bench/remote-sandbox';
import { check, nodeOutput, sleep, waitFor, type Json } from './checks';
import { executeWorkflow, importCredentials, importWorkflows, type CliExecutionResult, type CliOptions, type N8nInstallation } from './n8n';
import type { N8nPublicApi, PublicApiExecution } from './n8n-api';
import { finishedExecutions, pollNow } from './trigger-checks';

export const ORDER_CREDENTIAL = { id: 'e2eOrderCred0001', name: 'Marketplace Orders Sandbox', type: 'marketplaceMerchantApi' };
export const ORDER_WORKFLOWS = {
	read: 'e2eOrderRead0001',
	pack: 'e2eOrderPack0001',
	flow: 'e2eOrderFlow0001',
	trigger: 'e2eOrderTrig0001',
};
/** More than two pages of 100: Return All is 3 requests. */
const READ_ORDERS = 250;
const TRIGGER_ORDERS_PER_POLL = 10;
const ORDERS_DIR = path.join(__dirname, 'orders');
const EXAMPLE = path.join(__dirname, '..', 'examples', 'order-flow.json');
/** Where examples/order-flow.json saves its labels; replaced by the check's folder. */
const EXAMPLE_LABELS_DIR = '/tmp/marketplace-labels';

type Workflow = Json & { id: string; name: string; nodes: Array<Json & { name: string; type: string; credentials?: Json; disabled?: boolean }> };

export interface OrderContext {
	sandbox: RemoteSandbox;
	/** The client the credential uses (the account the checks read and write). */
	client: BenchClient;
	/** The folder the flow saves labels to; n8n must be allowed to write there (N8N_RESTRICT_FILE_ACCESS_TO). */
	labelsDir: string;
}

/** The sandbox of these checks: no seeded orders (the checks count them), live limits. */
export async function startOrderSandbox(labelsDir: string): Promise<OrderContext> {
	const sandbox = await RemoteSandbox.start({ seed: 31, products: 200, orders: 0, clients: 2 });
	return { sandbox, client: sandbox.freshClient(), labelsDir };
}

/** examples/order-flow.json as the checks run it: their credential, their labels folder, its own id. */
async function flowWorkflow(context: OrderContext): Promise<Workflow> {
	const example = JSON.parse((await readFile(EXAMPLE, 'utf8')).split(EXAMPLE_LABELS_DIR).join(context.labelsDir)) as Workflow;
	for (const node of example.nodes) {
		if (node.credentials) node.credentials = { marketplaceMerchantApi: { id: ORDER_CREDENTIAL.id, name: ORDER_CREDENTIAL.name } };
	}
	return { ...example, id: ORDER_WORKFLOWS.flow, name: 'E2E orders: the example order flow' };
}

async function readOrderWorkflow(file: string, placeholders: Record<string, string> = {}): Promise<Workflow> {
	let text = await readFile(path.join(ORDERS_DIR, file), 'utf8');
	for (const [placeholder, value] of Object.entries({ __SANDBOX_URL__: '', ...placeholders })) text = text.split(placeholder).join(value);
	return JSON.parse(text) as Workflow;
}

/** Every workflow of these checks; the pack workflow's suborders are filled in by `preparePack` before. */
export async function orderWorkflows(context: OrderContext, pack: PackPlan): Promise<Workflow[]> {
	return [
		await readOrderWorkflow('order-read.json'),
		await readOrderWorkflow('order-pack.json', {
			__SANDBOX_URL__: context.sandbox.url,
			__NODE_SUBORDER__: pack.node.suborderId,
			__HTTP_SUBORDER__: pack.http.suborderId,
			__HTTP_BODY__: JSON.stringify(JSON.stringify(pack.httpBody)).slice(1, -1),
		}),
		await readOrderWorkflow('order-trigger.json'),
		await flowWorkflow(context),
	];
}

/** Imports the credential (pointing at the checks' sandbox) and the workflows. */
export async function importOrderChecks(installation: N8nInstallation, userFolder: string, context: OrderContext, pack: PackPlan, options?: CliOptions): Promise<void> {
	await importCredentials(installation, userFolder, [{ ...ORDER_CREDENTIAL, data: { ...context.sandbox.credentials(context.client) } }], options);
	await importWorkflows(installation, userFolder, await orderWorkflows(context, pack), options);
}

// ---------------------------------------------------------------------------------------------

async function apiToken(context: OrderContext): Promise<string> {
	const response = await fetch(`${context.sandbox.url}/iam/api/v1/auth/token`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ grantType: 'CLIENT_CREDENTIALS', ...context.client, scope: 'public_api/full_access' }),
	});
	const answer = (await response.json()) as Json;
	return String(answer.access_token ?? answer.accessToken);
}

/** Confirms an order as ordered from the default warehouse through the API itself (not the node). */
async function confirmDirectly(context: OrderContext, order: OrderRecord): Promise<void> {
	const warehouses = await context.sandbox.state<{ id: number; defaultAddress: boolean }>('warehouses');
	const warehouseAddressId = (warehouses.find((warehouse) => warehouse.defaultAddress) ?? warehouses[0]).id;
	const body = order.lines.map((line) => ({ merchantInventoryId: line.merchantInventoryId, confirmedQuantities: [{ warehouseAddressId, quantity: line.quantity }] }));
	const response = await fetch(`${context.sandbox.url}/order/api/v1/merchant-integration/orders/${order.id}/confirm`, {
		method: 'PUT',
		headers: { authorization: `Bearer ${await apiToken(context)}`, 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	await response.arrayBuffer();
	assert.equal(response.status, 201, `confirming ${order.id}`);
}

export interface PackPlan {
	node: { suborderId: string };
	http: { suborderId: string };
	httpBody: { numberOfBoxes: number; products: Array<{ id: number; quantity: number }> };
}

/** Two orders confirmed, one shipment each: one for Shipment › Pack, one for the HTTP Request node. */
export async function preparePack(context: OrderContext): Promise<PackPlan> {
	const [forNode, forHttp] = await context.sandbox.addOrders(2);
	await confirmDirectly(context, forNode);
	await confirmDirectly(context, forHttp);
	return {
		node: { suborderId: `${forNode.id}-DS-1` },
		http: { suborderId: `${forHttp.id}-DS-1` },
		httpBody: { numberOfBoxes: 1, products: forHttp.lines.map((line) => ({ id: line.merchantInventoryId, quantity: line.quantity })) },
	};
}

function succeeded(execution: CliExecutionResult | PublicApiExecution): void {
	const error = execution.data?.resultData.error;
	assert.equal(execution.status, 'success', `execution ${execution.status}: ${error?.message ?? ''} ${error?.description ?? ''}`);
}

// ---------------------------------------------------------------------------------------------
// Through `n8n execute`

export async function checkOrdersReturnAll(installation: N8nInstallation, userFolder: string, context: OrderContext, options?: CliOptions): Promise<void> {
	await check(`orders: Order › Get Many For Confirmation with Return All over ${READ_ORDERS} orders is 3 requests, every order once, simplified`, async () => {
		const { sandbox } = context;
		const added = await sandbox.addOrders(READ_ORDERS);
		await sandbox.clearLog();
		const execution = await executeWorkflow(installation, userFolder, ORDER_WORKFLOWS.read, options);
		succeeded(execution);
		const orders = nodeOutput(execution, 'Orders');
		const waiting = (await sandbox.state<OrderRecord & { status?: string }>('orders')).filter((order) => order.confirmations === null);
		assert.ok(waiting.length >= READ_ORDERS, `the sandbox has ${waiting.length} orders For Confirmation`);
		assert.deepEqual(new Set(orders.map((order) => order.orderId)), new Set(waiting.map((order) => order.id)));
		assert.equal(new Set(orders.map((order) => order.orderId)).size, orders.length, 'an order came twice');
		assert.ok(added.every((order) => orders.some((item) => item.orderId === order.id)), 'an added order is missing');
		assert.ok(orders.every((order) => Array.isArray(order.paymentMethods) && Array.isArray(order.lines)), 'not simplified');
		// The first page says how many there are; the other two go out together, so they may arrive in either order.
		const pages = (await sandbox.log('orders')).map((entry) => [entry.status, entry.query.page, entry.query.size]).sort((a, b) => Number(a[1]) - Number(b[1]));
		assert.deepEqual(pages, [
			[200, '0', '100'],
			[200, '1', '100'],
			[200, '2', '100'],
		]);
		return `${orders.length} orders, requests ${pages.map(([, page]) => `page ${String(page)}`).join(', ')}`;
	});
}

export async function checkPackNotTwice(installation: N8nInstallation, userFolder: string, context: OrderContext, plan: PackPlan, options?: CliOptions): Promise<void> {
	await check('orders: a pack applied, then answered 503, is not packed twice: Shipment › Pack reports it packed, HTTP Request with the credential does not resend it', async () => {
		const { sandbox } = context;
		await sandbox.clearLog();
		// Both packs of the run: each is applied, then answered 503.
		await sandbox.injectFault({ route: 'shipmentPack', count: 2, applyThen: true });
		let execution: CliExecutionResult;
		try {
			execution = await executeWorkflow(installation, userFolder, ORDER_WORKFLOWS.pack, options);
		} finally {
			await sandbox.clearFaults();
		}
		const packs = (await sandbox.log('shipmentPack')).filter((entry) => entry.status !== 429).map((entry) => [entry.path.split('/').slice(-2)[0], entry.status, entry.appliedStatus]);
		assert.deepEqual(packs, [
			[plan.node.suborderId, 503, 204],
			[plan.http.suborderId, 503, 204],
		]);
		const shipments = await sandbox.state<ShipmentRecord>('shipments');
		for (const suborderId of [plan.node.suborderId, plan.http.suborderId]) {
			const shipment = shipments.find((candidate) => candidate.suborderId === suborderId);
			assert.ok(shipment && shipment.history.filter((step) => step.status === 'PACKED').length === 1, `${suborderId}: ${JSON.stringify(shipment?.history)}`);
		}
		const [packed] = nodeOutput(execution, 'Pack');
		assert.ok(packed, 'Shipment › Pack gave no item');
		const said = JSON.stringify(packed);
		assert.ok(!('error' in packed), `Shipment › Pack reported an error: ${said.slice(0, 300)}`);
		assert.match(said, /PACKED|READY_FOR_COLLECTION/, `Shipment › Pack does not say the shipment is packed: ${said.slice(0, 300)}`);
		const [http] = nodeOutput(execution, 'Pack by HTTP Request');
		assert.ok(http && 'error' in http, `HTTP Request did not report the 503: ${JSON.stringify(http).slice(0, 300)}`);
		return `one pack each; Pack: ${said.slice(0, 120)}`;
	});
}

// ---------------------------------------------------------------------------------------------
// Against a running n8n

/**
 * The carrier allocation of the flow check: 2 minutes of the sandbox's clock, which runs at the
 * speed of real time (the sandbox's variant `carrierAllocationMs`), so the check takes about 2.5
 * minutes: Get Label asks again 2 s, 4 s, 8 s, 16 s, then every 30 s (Wait for Label: 10 minutes in
 * the example).
 */
const CARRIER_ALLOCATION_MS = 120_000;

/** The fields of the example's nodes after its trigger: each a drag of the previous node's output (`{{ $json.x }}`), nothing typed. */
function assertDraggedOnly(workflow: Workflow): void {
	const ours = workflow.nodes.filter((node) => node.type.startsWith('n8n-nodes-marketplace-merchant.'));
	assert.ok(ours.length <= 4, `${ours.length} nodes of this package`);
	for (const node of ours) {
		for (const [name, value] of Object.entries((node.parameters ?? {}) as Json)) {
			if (typeof value === 'string' && value.startsWith('=')) assert.match(value, /^=\{\{ \$json\.\w+ \}\}$/, `${node.name} › ${name} is typed, not dragged: ${value}`);
		}
	}
}

export async function checkOrderFlow(api: N8nPublicApi, context: OrderContext): Promise<void> {
	await check('orders: the example flow in a running n8n, by drags alone, a 2-minute carrier allocation and no Wait node: two new orders (one from two warehouses) → Confirm → Pack → Get Label, each shipment packed once and its PDF saved once', async () => {
		const { sandbox } = context;
		const workflowId = ORDER_WORKFLOWS.flow;
		assertDraggedOnly(await flowWorkflow(context));
		const reads = async () => (await sandbox.log('orders')).length;
		const before = await reads();
		await api.activateWorkflow(workflowId);
		await waitFor('the first poll', async () => (await reads()) > before);
		await sleep(1_000);
		assert.equal((await api.listExecutions({ workflowId })).length, 0, 'the first poll started the flow for orders waiting before');

		const warehouses = await sandbox.state<{ id: number; defaultAddress: boolean }>('warehouses');
		const home = (warehouses.find((warehouse) => warehouse.defaultAddress) ?? warehouses[0]).id;
		const other = (warehouses.find((warehouse) => warehouse.id !== home) ?? warehouses[0]).id;
		await sandbox.setVariants({ carrierAllocationMs: CARRIER_ALLOCATION_MS });
		let execution: PublicApiExecution;
		let orders: OrderRecord[];
		try {
			await sandbox.clearLog();
			const [plain] = await sandbox.addOrders(1);
			const [split] = await sandbox.addOrders(1, {
				lines: [
					{ merchantInventoryId: 100_001, quantity: 2, warehouseAddressId: home },
					{ merchantInventoryId: 100_002, quantity: 1, warehouseAddressId: other },
				],
			});
			orders = [plain, split];
			await pollNow(api, workflowId);
			[execution] = await api.waitForExecutions(workflowId, 1, { timeoutMs: CARRIER_ALLOCATION_MS + 180_000 });
		} finally {
			await api.deactivateWorkflow(workflowId);
			await sandbox.resetVariants();
		}
		succeeded(execution);
		const shipments = (await sandbox.state<ShipmentRecord>('shipments')).filter((shipment) => orders.some((order) => order.id === shipment.orderId));
		const suborderIds = shipments.map((shipment) => shipment.suborderId).sort();
		assert.deepEqual(suborderIds, [`${orders[0].id}-DS-1`, `${orders[1].id}-DS-1`, `${orders[1].id}-DS-2`].sort(), 'the shipments made');
		for (const shipment of shipments) {
			const order = orders.find((candidate) => candidate.id === shipment.orderId) as OrderRecord;
			assert.equal(shipment.status, 'READY_FOR_COLLECTION', `shipment ${shipment.suborderId}: ${JSON.stringify(shipment.history)}`);
			assert.equal(shipment.history.filter((step) => step.status === 'PACKED').length, 1, `${shipment.suborderId} packed more than once`);
			for (const line of shipment.lines) {
				const ordered = order.lines.find((candidate) => candidate.merchantInventoryId === line.merchantInventoryId);
				assert.ok(ordered, `${shipment.suborderId}: line ${line.merchantInventoryId} not ordered`);
				assert.deepEqual([line.confirmedQuantity, line.packedQuantity], [ordered.quantity, ordered.quantity], `${shipment.suborderId}: line ${line.merchantInventoryId}`);
				if (ordered.orderedFrom !== null) assert.equal(shipment.warehouseId, ordered.orderedFrom, `${shipment.suborderId}: line ${line.merchantInventoryId} not from the warehouse it was ordered from`);
			}
		}
		const packs = (await sandbox.log('shipmentPack')).filter((entry) => entry.status !== 429).map((entry) => [entry.path.split('/').slice(-2)[0], entry.status]);
		assert.deepEqual([...packs].sort(), suborderIds.map((id) => [id, 204]), 'one pack per shipment');
		const downloads = (await sandbox.log('labelFile')).map((entry) => path.basename(entry.path));
		assert.deepEqual([...downloads].sort(), suborderIds.map((id) => `${id}.pdf`), 'one label download per shipment');
		const files = await readdir(context.labelsDir);
		for (const suborderId of suborderIds) {
			assert.ok(files.includes(`${suborderId}.pdf`), `labels folder: ${files.join(', ')}`);
			const pdf = await readFile(path.join(context.labelsDir, `${suborderId}.pdf`));
			assert.equal(pdf.subarray(0, 4).toString('latin1'), '%PDF');
		}
		const labelRequests = (await sandbox.log('labelV2')).length;
		return `orders ${orders.map((order) => order.id).join(', ')}: ${suborderIds.join(', ')} labelled after ${labelRequests} label request(s), no Wait node`;
	});
}

/**
 * 30 orders arriving over 3 polls, 10 each, with n8n restarted (`restart`: the suite's own, it
 * answers the new instance's API) between the second and the third: each order emitted once.
 */
export async function checkOrderTriggerAcrossRestart(api: N8nPublicApi, context: OrderContext, restart: () => Promise<N8nPublicApi>): Promise<N8nPublicApi> {
	let current = api;
	await check(`orders: New Order to Confirm emits ${3 * TRIGGER_ORDERS_PER_POLL} orders arriving over 3 polls exactly once, n8n restarted before the third`, async () => {
		const { sandbox } = context;
		const workflowId = ORDER_WORKFLOWS.trigger;
		const reads = async () => (await sandbox.log('orders')).length;
		const added: string[] = [];
		const before = await reads();
		await current.activateWorkflow(workflowId);
		await waitFor('the first poll', async () => (await reads()) > before);
		await sleep(1_000);
		assert.equal((await current.listExecutions({ workflowId })).length, 0, 'the first poll emitted orders waiting before');

		for (let poll = 1; poll <= 3; poll++) {
			if (poll === 3) {
				current = await restart();
				// n8n activates the workflow again on start; let that poll finish before the orders arrive.
				const afterStart = await reads();
				await waitFor('the poll after the restart', async () => (await reads()) > afterStart, 10_000).catch(() => undefined);
				await sleep(1_000);
			}
			added.push(...(await sandbox.addOrders(TRIGGER_ORDERS_PER_POLL)).map((order) => order.id));
			await pollNow(current, workflowId);
			await current.waitForExecutions(workflowId, poll, { timeoutMs: 30_000 });
		}
		// One more poll with nothing new fires nothing.
		const idleBefore = await reads();
		await pollNow(current, workflowId);
		await waitFor('the idle poll', async () => (await reads()) > idleBefore);
		await sleep(1_500);
		await current.deactivateWorkflow(workflowId);

		const executions = [...(await finishedExecutions(current, workflowId))].sort((a, b) => Number(a.id) - Number(b.id));
		const emitted = executions.map((execution) => nodeOutput(execution, 'New Order to Confirm').map((item) => String(item.orderId)));
		assert.ok(executions.every((execution) => execution.status === 'success'), executions.map((execution) => execution.status).join(', '));
		assert.equal(emitted.flat().length, added.length, `emitted ${emitted.map((ids) => ids.length).join(' + ')} for ${added.length} orders`);
		assert.deepEqual([...emitted.flat()].sort(), [...added].sort(), 'each order exactly once');
		assert.equal(executions.length, 3, `executions: ${emitted.map((ids) => ids.length).join(', ')}`);
		return `${executions.length} executions of ${emitted.map((ids) => ids.length).join(', ')} orders`;
	});
	return current;
}

/**
 * Issue 31's rows on the order flow:
 * - Order › Get Many, Return All over 10,000 orders For Confirmation at the live limits (the order
 *   group: 300 a minute, 5 a second): time ÷ the earliest the limits let the last page through,
 *   and the requests made (100 a page: 100, none past the last page);
 * - the two order events of the trigger: requests of a poll with nothing new, and the static data
 *   after 10,000 orders (caught up over 10 days, as the invoice row; and all within one look-back
 *   window) and with their 10,000 shipments in progress. Limits off: these rows count, they do not time.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { RATE_LIMIT_GROUPS } from '../../sandbox/rate-limit';
import type { OrderRecord } from '../../sandbox';
import { runPoll, type PollRunResult } from '../../test/harness';
import { MERCHANT_TRIGGER, credentialsFor, runMerchant, type TokenRecordingCredentialsHelper } from '../merchant-node';
import { requestToken } from '../plain-fetch';
import { RemoteSandbox, type BenchClient } from '../remote-sandbox';
import type { Row } from '../report';
import { formatCount, formatMs, formatRatio, listOf, median } from '../stats';
import { earliestLastRequestMs } from './rate-limit';

const ORDERS = 10_000;
const PAGE_SIZE = 100;
/**
 * The per-second window binds here (100 pages at 5 a second), and the node counts each request from
 * its answer, the latest it can have reached the service (transport/gate.ts), with each window 0.1 %
 * + 2 ms longer for the clocks: each full window costs a round trip more, before the first page goes
 * alone (it says how many pages there are) and the token request.
 */
const RETURN_ALL_TARGET = 1.15;
/** transport/gate.ts's window margin, for the details: the gate's own minimum. */
const GATE_MARGIN = { share: 0.001, ms: 2 };
/** What New Order to Confirm may keep after 10,000 orders (as the invoice events: it must not grow with the orders seen). */
const STATE_TARGET_BYTES = 16_384;
/** Orders added per control request (each answer carries the records). */
const ADD_BATCH = 1_000;
/** Confirmations sent at once when the bench confirms orders itself (limits off). */
const CONFIRM_CONCURRENCY = 20;

const stateBytes = (staticData: IDataObject) => Buffer.byteLength(JSON.stringify(staticData));
/** What Shipment Status Changed reads each poll (nodes/MarketplaceMerchantTrigger/shipments.ts): For Packaging and On Delivery. */
const WATCHED_GROUPS = 2;

/** Adds `count` orders For Confirmation, created now. */
export async function addOrders(sandbox: RemoteSandbox, count: number): Promise<OrderRecord[]> {
	const added: OrderRecord[] = [];
	for (let done = 0; done < count; done += ADD_BATCH) added.push(...(await sandbox.addOrders(Math.min(ADD_BATCH, count - done))));
	return added;
}

/**
 * Confirms orders as ordered from the default warehouse straight through the API (the bench's
 * own client, not the node): shipments to watch for the trigger rows.
 */
async function confirmOrders(sandbox: RemoteSandbox, client: BenchClient, orders: OrderRecord[]): Promise<void> {
	const token = await requestToken(sandbox.url, client);
	const warehouses = await sandbox.state<{ id: number; defaultAddress: boolean }>('warehouses');
	const warehouseAddressId = (warehouses.find((warehouse) => warehouse.defaultAddress) ?? warehouses[0]).id;
	let next = 0;
	const worker = async () => {
		while (next < orders.length) {
			const order = orders[next++];
			const body = order.lines.map((line) => ({ merchantInventoryId: line.merchantInventoryId, confirmedQuantities: [{ warehouseAddressId, quantity: line.quantity }] }));
			const response = await fetch(`${sandbox.url}/order/api/v1/merchant-integration/orders/${order.id}/confirm`, {
				method: 'PUT',
				headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
				body: JSON.stringify(body),
			});
			await response.arrayBuffer();
			if (response.status !== 201) throw new Error(`confirming ${order.id}: HTTP ${response.status}`);
		}
	};
	await Promise.all(Array.from({ length: CONFIRM_CONCURRENCY }, worker));
}

export async function measureOrdersReturnAll(runs: number): Promise<Row[]> {
	const sandbox = await RemoteSandbox.start({ orders: 0, rateLimits: { scale: 1 }, clients: runs });
	try {
		await addOrders(sandbox, ORDERS);
		const pages = Math.ceil(ORDERS / PAGE_SIZE);
		const minimumMs = earliestLastRequestMs(pages, RATE_LIMIT_GROUPS.orders);
		const gateMinimumMs = earliestLastRequestMs(
			pages,
			RATE_LIMIT_GROUPS.orders.map(({ limit, lengthMs }) => ({ limit, lengthMs: lengthMs * (1 + GATE_MARGIN.share) + GATE_MARGIN.ms })),
		);
		const ratios: number[] = [];
		const times: number[] = [];
		const requests: number[] = [];
		for (let run = 0; run < runs; run++) {
			// A fresh account each run: fresh windows on the service and in the node's gate.
			const credentialsHelper = credentialsFor(sandbox, sandbox.freshClient());
			await sandbox.clearLog();
			const { result, ms } = await runMerchant(credentialsHelper, { resource: 'order', operation: 'getMany', statusGroup: 'forConfirmation', returnAll: true }, [{}], {
				typeVersion: 3,
			});
			const items = result.output('Node').length;
			if (result.error || items !== ORDERS) throw new Error(`Return All gave ${items} orders (${result.error?.message ?? 'no error'})`);
			const log = await sandbox.log('orders');
			const rejected = log.filter((entry) => entry.status === 429).length;
			if (rejected > 0) throw new Error(`${rejected} page requests answered 429`);
			ratios.push(ms / minimumMs);
			times.push(ms);
			requests.push(log.length);
		}
		const ratio = median(ratios);
		return [
			{
				measure: `Order Get Many, Return All over ${formatCount(ORDERS)} orders For Confirmation at the live limits: time ÷ the limits' minimum`,
				figure: formatRatio(ratio),
				target: `≤ ${RETURN_ALL_TARGET}`,
				met: ratio <= RETURN_ALL_TARGET,
				runs: String(runs),
				details: `${listOf(times, formatMs)} against ${formatMs(minimumMs)} (${pages} pages of ${PAGE_SIZE}, 5 a second: the last page cannot be accepted earlier); ratios ${listOf(ratios, formatRatio)}; with the gate's window margin (0.1 % + 2 ms for the clocks; each full window also waits for an answer) the node's own minimum is ${formatMs(gateMinimumMs)}; the token request and the first page alone (it tells how many pages there are) are in the time`,
			},
			{
				measure: `Order Get Many, Return All over ${formatCount(ORDERS)} orders: requests made`,
				figure: listOf([...new Set(requests)], String),
				target: `${pages} (100 a page, none past the last)`,
				met: Math.max(...requests) <= pages,
				runs: String(runs),
				details: `GET orders requests per run ${listOf(requests, String)}; the first page's totalElements tells how many pages there are`,
			},
		];
	} finally {
		await sandbox.close();
	}
}

async function poll(credentialsHelper: TokenRecordingCredentialsHelper, parameters: INodeParameters, staticData: IDataObject): Promise<PollRunResult> {
	const result = await runPoll(MERCHANT_TRIGGER, parameters, { credentialsHelper, staticData });
	if (result.error) throw new Error(`${String(parameters.event)} poll failed: ${result.error.message}`);
	return result;
}

interface TriggerRun {
	idleOrders: number;
	idleShipments: number;
	emittedCatchUp: number;
	bytesCatchUp: number;
	bytesCatchUpNext: number;
	emittedChanges: number;
	shipmentsBytes: number;
	shipmentsBytesNext: number;
	emittedAtOnce: number;
	bytesAtOnce: number;
}

const DAYS = 10;
const DAY_MS = 86_400_000;
/** Orders per distinct creation time when they are spread over the days. */
const SPREAD_BATCH = 20;

/** 10,000 orders created evenly over the last 10 days (one control request per 20, each 20 sharing a creation time). */
async function addOrdersOverDays(sandbox: RemoteSandbox, endMs: number): Promise<OrderRecord[]> {
	const batches = ORDERS / SPREAD_BATCH;
	const added: OrderRecord[] = [];
	for (let batch = 0; batch < batches; batch++) {
		const createdDate = new Date(endMs - DAYS * DAY_MS + Math.floor(((batch + 1) * DAYS * DAY_MS) / batches));
		added.push(...(await sandbox.addOrders(SPREAD_BATCH, { createdDate })));
	}
	return added;
}

async function triggerRun(): Promise<TriggerRun> {
	// A sandbox per run: the orders of one run must not be in the next run's lists.
	const sandbox = await RemoteSandbox.start({ orders: 0, rateLimits: false, clients: 2 });
	try {
		const credentialsHelper = credentialsFor(sandbox, sandbox.freshClient());
		const newOrders = { event: 'newOrderToConfirm' };
		const statusChanges = { event: 'shipmentStatusChanged' };
		const orderState = (await poll(credentialsHelper, newOrders, {})).staticData;
		const shipmentState = (await poll(credentialsHelper, statusChanges, {})).staticData;

		await sandbox.clearLog();
		const idleOrders = await poll(credentialsHelper, newOrders, orderState);
		const idleShipments = await poll(credentialsHelper, statusChanges, shipmentState);
		if (idleOrders.emitted !== null || idleShipments.emitted !== null) throw new Error('an idle poll emitted');
		const idle = { orders: (await sandbox.log('orders')).length, shipments: (await sandbox.log('shipments')).length };

		// As the invoice row: 10,000 orders over the last 10 days, caught up by a trigger started from then.
		const endMs = Date.now() - 60_000;
		const orders = await addOrdersOverDays(sandbox, endMs);
		const catchUp = { ...newOrders, options: { startFrom: new Date(endMs - DAYS * DAY_MS - 60_000).toISOString() } };
		const caughtUp = await poll(credentialsHelper, catchUp, {});
		const emittedCatchUp = caughtUp.emitted?.[0]?.length ?? 0;
		if (emittedCatchUp !== ORDERS) throw new Error(`New Order to Confirm emitted ${emittedCatchUp} of ${ORDERS} orders`);
		const caughtUpNext = await poll(credentialsHelper, catchUp, caughtUp.staticData);
		if (caughtUpNext.emitted !== null) throw new Error('New Order to Confirm emitted again with nothing new');

		// Their 10,000 shipments (confirmed by the bench's own client) seen by Shipment Status Changed.
		await confirmOrders(sandbox, sandbox.freshClient(), orders);
		const changes = await poll(credentialsHelper, statusChanges, idleShipments.staticData);
		const emittedChanges = changes.emitted?.[0]?.length ?? 0;
		const next = await poll(credentialsHelper, statusChanges, changes.staticData);
		if (next.emitted !== null) throw new Error('Shipment Status Changed emitted again with nothing changed');

		// The worst case: 10,000 orders arriving within one look-back window, all remembered until it passes.
		await addOrders(sandbox, ORDERS);
		const atOnce = await poll(credentialsHelper, newOrders, idleOrders.staticData);
		return {
			idleOrders: idle.orders,
			idleShipments: idle.shipments,
			emittedCatchUp,
			bytesCatchUp: stateBytes(caughtUp.staticData),
			bytesCatchUpNext: stateBytes(caughtUpNext.staticData),
			emittedChanges,
			shipmentsBytes: stateBytes(changes.staticData),
			shipmentsBytesNext: stateBytes(next.staticData),
			emittedAtOnce: atOnce.emitted?.[0]?.length ?? 0,
			bytesAtOnce: stateBytes(atOnce.staticData),
		};
	} finally {
		await sandbox.close();
	}
}

export async function measureOrderTriggerCosts(runs: number): Promise<Row[]> {
	const results: TriggerRun[] = [];
	for (let run = 0; run < runs; run++) results.push(await triggerRun());
	const of = (key: keyof TriggerRun) => results.map((result) => result[key]);
	const worstOrders = results.map((result) => Math.max(result.bytesCatchUp, result.bytesCatchUpNext));
	const worstShipments = results.map((result) => Math.max(result.shipmentsBytes, result.shipmentsBytesNext));
	return [
		{
			measure: 'Trigger New Order to Confirm: requests per poll with nothing new',
			figure: String(median(of('idleOrders'))),
			target: '1',
			met: Math.max(...of('idleOrders')) <= 1,
			runs: String(runs),
			details: `after activation: GET orders ${listOf(of('idleOrders'), String)} (the first page of the orders For Confirmation created in the look-back window)`,
		},
		{
			measure: 'Trigger Shipment Status Changed: requests per poll with nothing new',
			figure: String(median(of('idleShipments'))),
			target: `1 per watched group (${WATCHED_GROUPS})`,
			met: Math.max(...of('idleShipments')) <= WATCHED_GROUPS,
			runs: String(runs),
			details: `after activation: GET shipments ${listOf(of('idleShipments'), String)}: For Packaging and On Delivery, one page each while each holds up to 100 shipments (plus one request per shipment that left them since the last poll)`,
		},
		{
			measure: `Trigger New Order to Confirm: static data bytes after ${formatCount(ORDERS)} orders seen`,
			figure: formatCount(median(worstOrders)),
			target: `≤ ${formatCount(STATE_TARGET_BYTES)}`,
			met: Math.max(...worstOrders) <= STATE_TARGET_BYTES,
			runs: String(runs),
			details:
				`as the invoice row: Start From ${DAYS} days back, ${formatCount(ORDERS)} orders created over those days, emitted ${listOf(of('emittedCatchUp'), formatCount)}; bytes after that poll ${listOf(of('bytesCatchUp'), formatCount)}, after the next ${listOf(of('bytesCatchUpNext'), formatCount)} ` +
				`(ids kept only while the look-back window, 60 minutes, can return them). Worst case, ${formatCount(ORDERS)} orders arriving within one look-back window: ${listOf(of('bytesAtOnce'), formatCount)} bytes until it passes (emitted ${listOf(of('emittedAtOnce'), formatCount)})`,
		},
		{
			measure: `Trigger Shipment Status Changed: static data bytes with ${formatCount(ORDERS)} shipments in progress`,
			figure: formatCount(median(worstShipments)),
			target: 'reported: the last status of each shipment in progress (a completed one leaves)',
			met: true,
			runs: String(runs),
			details: `the ${formatCount(ORDERS)} orders confirmed (one shipment each, For Packaging): changes emitted ${listOf(of('emittedChanges'), formatCount)} (previousStatus null); bytes after that poll ${listOf(of('shipmentsBytes'), formatCount)}, after the next ${listOf(of('shipmentsBytesNext'), formatCount)}, ${(median(worstShipments) / ORDERS).toFixed(1)} bytes a shipment`,
		},
	];
}

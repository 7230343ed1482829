/* eslint-disable @n8n/community-nodes/no-restricted-imports -- end-to-end suite code, run by tsx against a real n8n and never loaded by n8n: it may use Node modules (docs/architecture.md, Toolchain). */
/**
 * The environment's second host in a real n8n (platform facts: warehouses, and on staging prices,
 * are served from the service host): the sandbox's service host (`/__sandbox/info` → serviceUrl)
 * under the variant `warehousesAndPricesOn: 'service'`, set over the control API as for any
 * process outside the sandbox's. The credential Test is checked in credential-checks.ts.
 */
import assert from 'node:assert/strict';

import type { Sandbox } from '../sandbox';
import { check, nodeOutput } from './checks';
import { executeWorkflow, type N8nInstallation } from './n8n';

export const SERVICE_HOST_WORKFLOW_ID = 'e2eServiceHost01';
/** A second credential, with the Service Host URL filled in (service-host.json uses it). */
export const SERVICE_HOST_CREDENTIAL = { id: 'e2eMarketSvc0001', name: 'Marketplace Sandbox (service host)' };

/** `/__sandbox/…` over HTTP. */
export async function sandboxControl<T>(sandbox: Pick<Sandbox, 'url'>, method: string, action: string, body?: unknown): Promise<T> {
	const response = await fetch(`${sandbox.url}/__sandbox/${action}`, {
		method,
		headers: body === undefined ? {} : { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
		signal: AbortSignal.timeout(10_000),
	});
	const text = await response.text();
	if (!response.ok) throw new Error(`sandbox ${method} /__sandbox/${action}: HTTP ${response.status} ${text.slice(0, 200)}`);
	return (text ? JSON.parse(text) : undefined) as T;
}

/** Runs `body` with warehouses and prices served by the service host only, then resets the variants. */
export async function onServiceHostOnly<T>(sandbox: Pick<Sandbox, 'url'>, body: () => Promise<T>): Promise<T> {
	await sandboxControl(sandbox, 'POST', 'variants', { warehousesAndPricesOn: 'service' });
	try {
		return await body();
	} finally {
		await sandboxControl(sandbox, 'DELETE', 'variants');
	}
}

type LogEntry = { route: string; status: number; host?: string; query: Record<string, string> };

const dayMonthYear = (date: Date) => date.toISOString().slice(0, 10).split('-').reverse().join('/');

export async function checkServiceHostWorkflow(installation: N8nInstallation, userFolder: string, sandbox: Sandbox): Promise<void> {
	await check("Warehouse > Get Many and Price > Get Many with warehouses and prices on the environment's service host", async () => {
		await sandboxControl(sandbox, 'DELETE', 'log');
		const execution = await onServiceHostOnly(sandbox, async () => await executeWorkflow(installation, userFolder, SERVICE_HOST_WORKFLOW_ID));
		const error = execution.data.resultData.error;
		assert.equal(execution.status, 'success', `execution ${execution.status}: ${error?.message ?? ''} ${error?.description ?? ''}`);
		const warehouses = nodeOutput(execution, 'Warehouses');
		assert.deepEqual(warehouses.map((warehouse) => warehouse.id), sandbox.state.warehouses.map((warehouse) => warehouse.id));
		const prices = nodeOutput(execution, 'Prices');
		assert.equal(prices.length, 3);

		const log = await sandboxControl<LogEntry[]>(sandbox, 'GET', 'log');
		const asked = (route: string) => log.filter((entry) => entry.route === route).map((entry) => `${entry.status} ${entry.host ?? 'main'}`);
		// Warehouses straight to the service host; prices at the Base URL first ("No static resource"), then there.
		assert.deepEqual(asked('warehouses'), ['200 service']);
		// Date is empty: the instance's today (n8n's default zone, New York), which the sandbox (days in
		// UTC) refuses as past from 00:00 to 05:00 UTC; then the node asks once more for the next day
		// and its items say that day (`dateFrom`).
		const workflowToday = log.find((entry) => entry.route === 'prices')?.query.dateFrom;
		const serviceToday = dayMonthYear(sandbox.clock.now());
		const aDayBehind = workflowToday !== serviceToday;
		assert.deepEqual(asked('prices'), aDayBehind ? ['500 main', '400 service', '200 service'] : ['500 main', '200 service']);
		assert.deepEqual(
			prices.map((price) => price.dateFrom),
			prices.map(() => (aDayBehind ? serviceToday : undefined)),
		);
		assert.ok(log.filter((entry) => entry.route === 'token').every((entry) => entry.host === undefined), 'a token request went to the service host');
		return `warehouses ${asked('warehouses').join(', ')}; prices ${asked('prices').join(', ')}`;
	});
}

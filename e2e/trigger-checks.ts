/* eslint-disable @n8n/community-nodes/no-restricted-imports -- end-to-end suite code, run by tsx against a real n8n and never loaded by n8n: it may use Node modules (docs/architecture.md, Toolchain). */
/**
 * The polling trigger through a running n8n (one process or queue mode): activation seeds without
 * emitting, each new invoice fires exactly once (simplified: the default) over several polls, a
 * poll with nothing new fires nothing. Used by e2e/suite.ts and e2e/queue/suite.ts.
 */
import assert from 'node:assert/strict';

import { check, emittedInvoiceIds, nodeOutput, sleep, waitFor } from './checks';
import type { N8nPublicApi, PublicApiExecution } from './n8n-api';

/** The sandbox as the trigger checks use it (in process or over HTTP). */
export interface TriggerSandbox {
	/** adds an invoice visible at once; answers its invoice id */
	addInvoice(): Promise<string>;
	/** invoice list requests answered 200 so far */
	invoiceRequests(): Promise<number>;
}

export async function finishedExecutions(api: N8nPublicApi, workflowId: string): Promise<PublicApiExecution[]> {
	return (await api.listExecutions({ workflowId, includeData: true })).filter(
		(execution) => !['new', 'running', 'waiting'].includes(execution.status),
	);
}

/** Deactivate + activate: n8n polls a polling trigger at once on activation. */
export async function pollNow(api: N8nPublicApi, workflowId: string): Promise<void> {
	await api.deactivateWorkflow(workflowId);
	await api.activateWorkflow(workflowId);
}

/**
 * Runs the trigger checks on `workflowId` (an inactive workflow whose trigger node is named
 * `New Invoice`); answers the trigger's executions when every check passed, oldest first.
 */
export async function checkTrigger(api: N8nPublicApi, workflowId: string, sandbox: TriggerSandbox): Promise<PublicApiExecution[] | undefined> {
	const added: string[] = [];

	const activated = await check('trigger: activation polls once and emits nothing older than the activation', async () => {
		const pollsBefore = await sandbox.invoiceRequests();
		const workflow = await api.activateWorkflow(workflowId);
		assert.equal(workflow.active, true);
		// The poll may still run when the API answers; a poll started while it runs is skipped.
		await waitFor('the first poll', async () => (await sandbox.invoiceRequests()) > pollsBefore);
		await sleep(1_000);
		assert.equal((await api.listExecutions({ workflowId })).length, 0, 'the first poll emitted existing invoices');
	});
	if (!activated) return undefined;

	const firstFired = await check('trigger: two new invoices fire one execution with both', async () => {
		added.push(await sandbox.addInvoice(), await sandbox.addInvoice());
		await pollNow(api, workflowId);
		const executions = await api.waitForExecutions(workflowId, 1, { timeoutMs: 20_000 });
		assert.ok(executions.every((execution) => execution.status === 'success' && execution.mode === 'trigger'));
		assert.deepEqual(emittedInvoiceIds(executions).flat().sort(), [...added].sort());
		// The workflow leaves Simplify out: on by default, each invoice comes as its flat summary.
		for (const item of nodeOutput(executions[0], 'New Invoice')) {
			assert.ok(!('invoiceHeader' in item) && typeof item.invoiceId === 'string' && item.event === 'invoice', `not simplified: ${JSON.stringify(item).slice(0, 200)}`);
		}
		return `execution with ${added.join(', ')}, simplified`;
	});
	if (!firstFired) return undefined;

	let executions: PublicApiExecution[] = [];
	const onceEach = await check('trigger: a later invoice fires once more, earlier ones are not repeated', async () => {
		added.push(await sandbox.addInvoice());
		await pollNow(api, workflowId);
		await api.waitForExecutions(workflowId, 2, { timeoutMs: 20_000 });
		// One more poll with nothing new must not fire again.
		const pollsBefore = await sandbox.invoiceRequests();
		await pollNow(api, workflowId);
		await waitFor('the last poll', async () => (await sandbox.invoiceRequests()) > pollsBefore);
		await sleep(1_500);
		executions = await finishedExecutions(api, workflowId);
		const emitted = emittedInvoiceIds(executions);
		assert.equal(executions.length, 2, `executions: ${JSON.stringify(emitted)}`);
		assert.deepEqual(emitted.flat().sort(), [...added].sort(), 'each new invoice exactly once');
		assert.deepEqual(emitted[1], [added[2]]);
		await api.deactivateWorkflow(workflowId);
		return `${executions.length} executions over 4 polls, ${emitted.flat().length} invoices`;
	});
	return onceEach ? [...executions].sort((a, b) => Number(a.id) - Number(b.id)) : undefined;
}

/* eslint-disable @n8n/community-nodes/no-restricted-imports -- end-to-end suite code, run by tsx against a real n8n and never loaded by n8n: it may use Node modules (docs/architecture.md, Toolchain). */
/**
 * Issue 38's "a Schedule-started Sync with one held price fires the error workflow after writing
 * the stock", in a running n8n: e2e/workflows/held-price-schedule.json (Schedule Trigger every 2
 * seconds → Set: one row, a product's stock + 3 and its price + 150 % → Sync Stock and Prices,
 * node version 4, default options and On Error) names e2e/workflows/held-price-errors.json (Error
 * Trigger → No Operation) as its error workflow. n8n 2.x runs only a published error workflow, so
 * the check activates it there too (n8n 1.x runs it unpublished and refuses to activate it); both are
 * inactive again when it ends.
 */
import assert from 'node:assert/strict';

import type { ProductRecord, Sandbox } from '../sandbox';
import { check, nodeOutput, waitFor } from './checks';
import type { N8nPublicApi, PublicApiExecution } from './n8n-api';

export const HELD_PRICE_WORKFLOWS = { main: 'e2eHeldPrice0001', errors: 'e2eHeldPriceErr1' };
/** The row's product is the first settled one from here on: no other e2e workflow touches these. */
const FIRST_CANDIDATE = 100_400;
/** Runs the Schedule Trigger starts before the check deactivates it, and their error workflow runs, finish within this. */
const SETTLE_MS = 30_000;

export interface HeldPricePlan {
	id: number;
	ean: string;
	basePrice: number;
	/** The row's stock (the product's + 3) and price (+ 150 %: the price guard holds it back). */
	stock: number;
	price: number;
}

/** The product of the row, chosen when the suite imports the workflows. */
export function planHeldPrice(sandbox: Sandbox): HeldPricePlan {
	const product = sandbox.state.products.find(
		(candidate: ProductRecord) => candidate.id >= FIRST_CANDIDATE && candidate.newBasePrice === candidate.basePrice && candidate.stockLevel > 0,
	);
	assert.ok(product, `no product from ${FIRST_CANDIDATE} on with a settled price and stock`);
	return { id: product.id, ean: product.ean, basePrice: product.basePrice, stock: product.stockLevel + 3, price: Math.round(product.basePrice * 2.5) };
}

export function heldPricePlaceholders(plan: HeldPricePlan): Record<string, string> {
	return { __HELD_EAN__: plan.ean, __HELD_STOCK__: String(plan.stock), __HELD_PRICE__: String(plan.price) };
}

function unfinished(execution: PublicApiExecution): boolean {
	return ['new', 'running', 'waiting'].includes(execution.status);
}

/**
 * `publishErrorWorkflow`: n8n 2.x runs only a published error workflow, and n8n 1.x refuses to
 * activate one whose only trigger is the Error Trigger ("has no node to start the workflow"), while
 * running it unpublished: so the check activates it on 2.x only.
 */
export async function checkHeldPriceErrorWorkflow(api: N8nPublicApi, sandbox: Sandbox, plan: HeldPricePlan, publishErrorWorkflow: boolean): Promise<void> {
	const { main, errors } = HELD_PRICE_WORKFLOWS;
	await check('issue 38: a Schedule-started Sync with one held price (+150 %) ends as an error after writing the stock, and its error workflow runs', async () => {
		const before = sandbox.state.product(plan.id);
		assert.ok(
			before && before.basePrice === plan.basePrice && before.newBasePrice === plan.basePrice,
			`product ${plan.id}'s price changed since the import: ${JSON.stringify(before && { basePrice: before.basePrice, newBasePrice: before.newBasePrice })}`,
		);
		let runs: PublicApiExecution[] = [];
		let handled: PublicApiExecution[] = [];
		if (publishErrorWorkflow) await api.activateWorkflow(errors);
		try {
			await api.activateWorkflow(main);
			try {
				await api.waitForExecutions(main, 1, { timeoutMs: 60_000 });
			} finally {
				await api.deactivateWorkflow(main);
			}
			// A run the schedule started before the deactivation finishes too, each with its error workflow run.
			await waitFor(
				'every run and its error workflow run to finish',
				async () => {
					runs = await api.listExecutions({ workflowId: main });
					handled = await api.listExecutions({ workflowId: errors });
					return !runs.some(unfinished) && !handled.some(unfinished) && handled.length >= runs.length;
				},
				SETTLE_MS,
			);
			runs = await api.listExecutions({ workflowId: main, includeData: true });
			handled = await api.listExecutions({ workflowId: errors, includeData: true });
		} finally {
			if (publishErrorWorkflow) await api.deactivateWorkflow(errors);
		}

		const heldLine = new RegExp(
			`^1 of 1 entries written in part: row 1 \\(EAN ${plan.ean}\\): New price .* above the current .*the price was held back and the stock change sent`,
		);
		for (const run of runs) {
			assert.equal(run.mode, 'trigger', `execution ${run.id}`);
			assert.equal(run.status, 'error', `execution ${run.id} ended ${run.status}`);
			assert.match(run.data?.resultData.error?.message ?? '', heldLine, `execution ${run.id}`);
		}
		// One error workflow run per failed run, each handed that run's id and error.
		assert.equal(handled.length, runs.length, `${runs.length} runs, ${handled.length} error workflow runs`);
		const reported = handled.map((execution) => {
			assert.equal(execution.status, 'success', `error workflow execution ${execution.id} ended ${execution.status}`);
			const [trigger] = nodeOutput(execution, 'Error Trigger') as Array<{ execution: { id: string; error: { message: string } }; workflow: { id: string } }>;
			assert.ok(trigger, `error workflow execution ${execution.id} has no Error Trigger output`);
			assert.equal(trigger.workflow.id, main);
			const run = runs.find((candidate) => String(candidate.id) === String(trigger.execution.id));
			assert.ok(run, `the error workflow reported execution ${trigger.execution.id}, not one of ${runs.map((candidate) => candidate.id).join(', ')}`);
			assert.equal(trigger.execution.error.message, run.data?.resultData.error?.message);
			return String(trigger.execution.id);
		});
		assert.deepEqual([...reported].sort(), runs.map((run) => String(run.id)).sort(), 'each run reported once');

		// The stock was written, the price held back (neither the current nor the next day's changed).
		const after = sandbox.state.product(plan.id);
		assert.deepEqual(
			after && { stockLevel: after.stockLevel, basePrice: after.basePrice, newBasePrice: after.newBasePrice },
			{ stockLevel: plan.stock, basePrice: plan.basePrice, newBasePrice: plan.basePrice },
		);
		return `${runs.length} run(s) ended in error, ${handled.length} error workflow run(s); product ${plan.id}: stock ${before.stockLevel} → ${plan.stock}, price ${plan.basePrice} kept (row: ${plan.price})`;
	});
}

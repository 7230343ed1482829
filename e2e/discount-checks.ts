/* eslint-disable @n8n/community-nodes/no-restricted-imports -- end-to-end suite code, run by tsx against a real n8n and never loaded by n8n: it may use Node modules (docs/architecture.md, Toolchain). */
/**
 * Discount › Update in a real n8n against a sandbox that enforces the current documentation's
 * update rules (variant `discountUpdateRules: 'documented'`): e2e/workflows/discount-update.json
 * schedules a discount running from today and one starting in a month, then updates both. Update
 * reads each discount's changes from a Merge by position of the Code node's rows with Schedule's
 * results, not from `$('Discounts').item`: in this workflow n8n 1.123 gave that as null.
 * Discount › Cancel after a Get Many of 9 (issue 29): e2e/workflows/discount-cancel.json cancels
 * one discount picked from the list (a fixed value) on each of the 9 items.
 */
import assert from 'node:assert/strict';

import type { Sandbox } from '../sandbox';
import { check, nodeOutput, type Json } from './checks';
import { executeWorkflow, type CliExecutionResult, type N8nInstallation } from './n8n';

const WORKFLOW_ID = 'e2eDiscountUpd01';
/** The products the workflow discounts (no other workflow touches them). */
const RUNNING_PRODUCT = 100070;
const PENDING_PRODUCT = 100071;

export async function checkDiscountUpdate(installation: N8nInstallation, userFolder: string, sandbox: Sandbox): Promise<void> {
	sandbox.clearLog();
	// In process: the sandbox runs in this process, n8n in another.
	sandbox.setVariants({ discountUpdateRules: 'documented' });
	let execution: CliExecutionResult | undefined;
	const ran = await check('execute: Discount Update workflow runs (sandbox with the documented update rules)', async () => {
		try {
			execution = await executeWorkflow(installation, userFolder, WORKFLOW_ID);
		} finally {
			sandbox.resetVariants();
		}
		const error = execution.data.resultData.error;
		assert.equal(execution.status, 'success', `execution ${execution.status}: ${error?.message ?? ''} ${error?.description ?? ''}`);
	});
	if (!ran || !execution) return;
	const run = execution;

	await check('Discount > Update under the documented rules: a running discount gets its product and new price only, an upcoming one every field; one read, one write', async () => {
		const scheduled = nodeOutput(run, 'Schedule Discounts');
		assert.deepEqual(scheduled.map((item) => [item.productId, item.success]), [[RUNNING_PRODUCT, true], [PENDING_PRODUCT, true]], JSON.stringify(scheduled));
		const [running, pending] = scheduled.map((item) => sandbox.state.discounts.find((discount) => discount.discountId === item.id));
		assert.ok(running && pending, 'a scheduled discount is not in the sandbox');
		assert.ok(running.startsAtMs <= Date.now() && pending.startsAtMs > Date.now(), 'not one running and one upcoming discount');
		const pendingInput = (scheduled[1].input ?? {}) as Json;

		const updates = nodeOutput(run, 'Update Discounts');
		assert.deepEqual(updates.map((item) => [item.id, item.success, item.error]), [
			[running.discountId, true, undefined],
			[pending.discountId, true, undefined],
		]);
		assert.deepEqual(updates[0].input, {
			discountId: running.discountId,
			merchantInventoryId: RUNNING_PRODUCT,
			newDateFrom: null,
			newDateTo: null,
			newDiscountPrice: '9',
			newDiscountPriceCurrency: 'RSD',
			newDiscountType: null,
		});
		assert.deepEqual(updates[1].input, {
			discountId: pending.discountId,
			merchantInventoryId: PENDING_PRODUCT,
			newDateFrom: pendingInput.dateFrom,
			newDateTo: pending.dateTo,
			newDiscountPrice: '9',
			newDiscountPriceCurrency: 'RSD',
			newDiscountType: 'SALE',
		});
		assert.equal(running.discountPrice, 9);
		assert.equal(pending.discountPrice, 9);
		assert.notEqual(pending.dateTo, pendingInput.dateTo, 'the upcoming discount kept its end');
		const requests = sandbox.log.filter((entry) => entry.route === 'discountList' || entry.route === 'discountUpdate').map((entry) => [entry.route, entry.itemCount ?? null]);
		assert.deepEqual(requests, [['discountList', null], ['discountUpdate', 2]]);
		return `running ${running.discountId} at 9, upcoming ${pending.discountId} at 9 until ${String(pending.dateTo)}`;
	});
}

/** Products the cancel workflow's discounts are scheduled on, before it is imported: no other workflow uses them. */
const CANCEL_PRODUCTS = [100091, 100092, 100093, 100094, 100095, 100096, 100097, 100098, 100099];
const DAY_MS = 86_400_000;
const ddMMyyyy = (ms: number) => new Date(ms).toISOString().slice(0, 10).split('-').reverse().join('/');

type SandboxApi = <T>(sandbox: Sandbox, method: string, apiPath: string, body?: unknown) => Promise<T>;

/**
 * Nine discounts starting tomorrow, so that Get Many's default range (today to 30 days ahead)
 * lists at least 9; the first one's ID is the Discount ID the workflow was saved with, as picked
 * from the list.
 */
export async function cancelPlaceholders(sandbox: Sandbox, sandboxApi: SandboxApi): Promise<Record<string, string>> {
	const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
	const discounts = CANCEL_PRODUCTS.map((merchantInventoryId) => ({
		merchantInventoryId,
		discountPrice: 1,
		discountPriceCurrency: 'RSD',
		dateFrom: ddMMyyyy(today + DAY_MS),
		dateTo: ddMMyyyy(today + 5 * DAY_MS),
		discountType: 'SALE',
	}));
	const answer = await sandboxApi<{ scheduleResult: Array<{ success: boolean; data?: { discountId: string } }> }>(
		sandbox,
		'POST',
		'/payment/api/v1/merchant-integration/discounts',
		{ discounts },
	);
	const first = answer.scheduleResult[0];
	assert.ok(first?.success && first.data, `the cancel workflow's discounts were not scheduled: ${JSON.stringify(answer).slice(0, 300)}`);
	return { __CANCEL_DISCOUNT_ID__: first.data.discountId, __CANCEL_PRODUCT_ID__: String(CANCEL_PRODUCTS[0]) };
}

export async function checkDiscountCancel(installation: N8nInstallation, userFolder: string, sandbox: Sandbox, discountId: string): Promise<void> {
	sandbox.clearLog();
	await check('issue 29: Discount > Get Many (9) then Cancel of one discount picked from the list: 1 cancellation, 9 green items, the execution a success', async () => {
		const execution = await executeWorkflow(installation, userFolder, 'e2eDiscountCnl01');
		const error = execution.data.resultData.error;
		assert.equal(execution.status, 'success', `execution ${execution.status}: ${error?.message ?? ''} ${error?.description ?? ''}`);
		const listed = nodeOutput(execution, 'Get Discounts');
		assert.equal(listed.length, 9, `Get Many gave ${listed.length} discounts`);
		for (const discount of listed) {
			assert.equal(typeof discount.price, 'number', `not simplified: ${JSON.stringify(discount)}`);
			assert.ok(['running', 'upcoming'].includes(String(discount.state)), `state ${String(discount.state)}`);
		}
		const cancelled = nodeOutput(execution, 'Cancel Discount');
		assert.deepEqual(cancelled.map((item) => [item.discountId, item.cancelled]), listed.map(() => [discountId, true]));
		const requests = sandbox.log.filter((entry) => entry.route === 'discountCancel').map((entry) => entry.status);
		assert.deepEqual(requests, [200], 'cancellation requests');
		assert.equal(sandbox.state.discounts.find((discount) => discount.discountId === discountId)?.cancelled, true);
		return `discount ${discountId} cancelled by 1 request for 9 items`;
	});
}

/**
 * Discount › Update in a real n8n against a sandbox that enforces the current documentation's
 * update rules (variant `discountUpdateRules: 'documented'`): e2e/workflows/discount-update.json
 * schedules a discount running from today and one starting in a month, then updates both. Update
 * reads each discount's changes from a Merge by position of the Code node's rows with Schedule's
 * results, not from `$('Discounts').item`: in this workflow n8n 1.123 gave that as null.
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

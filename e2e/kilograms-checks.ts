/* eslint-disable @n8n/community-nodes/no-restricted-imports -- end-to-end suite code, run by tsx against a real n8n and never loaded by n8n: it may use Node modules (docs/architecture.md, Toolchain). */
/**
 * Issue 28's weights and negative stock in a real n8n (e2e/workflows/kilograms.json), against a
 * sandbox that behaves as the live service is said to: it stores a weight as kilograms whatever
 * unit is sent (`weightStoredAsKg`) and a negative stock as 0 (`negativeStockStoredAsZero`). Product
 * Update with Package Weight 500 G must leave 0.5 kg there, not 500 kg; a stock of -3 goes out as 0.
 */
import assert from 'node:assert/strict';

import type { Sandbox } from '../sandbox';
import { check, nodeOutput, type Json } from './checks';
import { executeWorkflow, type CliExecutionResult, type N8nInstallation } from './n8n';

export const KILOGRAMS_WORKFLOW_ID = 'e2eKilograms0001';
/** Products no other e2e workflow touches. */
const WEIGHED = 100050;
const OVERSOLD = 100051;

export async function checkKilograms(installation: N8nInstallation, userFolder: string, sandbox: Sandbox): Promise<void> {
	sandbox.clearLog();
	sandbox.setVariants({ weightStoredAsKg: true, negativeStockStoredAsZero: true });
	let execution: CliExecutionResult | undefined;
	try {
		const ran = await check('execute: kilograms workflow runs (Product Update with 500 G, then with stock -3)', async () => {
			execution = await executeWorkflow(installation, userFolder, KILOGRAMS_WORKFLOW_ID);
			assert.equal(execution.status, 'success', `execution ${execution.status}: ${execution.data.resultData.error?.message ?? ''}`);
		});
		if (!ran || !execution) return;
	} finally {
		sandbox.setVariants({ weightStoredAsKg: false, negativeStockStoredAsZero: false });
	}
	const run = execution;

	await check('Product > Update with Package Weight 500 G against a service that stores kilograms: it holds 0.5 kg', async () => {
		const [result] = nodeOutput(run, 'Weight In Grams');
		assert.deepEqual(result.input, { id: WEIGHED, packageWeightValue: 0.5, packageWeightUnit: 'KG' });
		assert.deepEqual(result.notes, ['Package Weight 500 G sent as 0.5 KG, as the service stores kilograms']);
		const sent = sandbox.log.filter((entry) => entry.route === 'productUpdate' && entry.path.endsWith(`/${WEIGHED}`));
		assert.equal(sent.length, 1, `updates of ${WEIGHED}: ${sent.length}`);
		const stored = sandbox.state.product(WEIGHED);
		assert.equal(stored?.packageWeightValue, 0.5);
		assert.equal(stored?.packageWeightUnit, 'KG');
		return `stored ${String(stored?.packageWeightValue)} ${String(stored?.packageWeightUnit)}; note "${String((result.notes as string[])[0])}"`;
	});

	await check('Product > Update with Stock Level -3: sent as 0 with a note, the run goes on', async () => {
		const [result] = nodeOutput(run, 'Oversold Stock') as Json[];
		assert.equal(result.success, true, `error: ${String(result.error)}`);
		assert.deepEqual(result.input, { id: OVERSOLD, stockLevel: 0 });
		assert.deepEqual(result.notes, ['Stock Level -3 sent as 0, as the service stores it']);
		assert.equal(sandbox.state.product(OVERSOLD)?.stockLevel, 0);
		return 'stock 0 stored';
	});
}

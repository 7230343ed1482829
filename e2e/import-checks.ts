/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- end-to-end suite code, run by tsx against a real n8n and never loaded by n8n: it may use process and timers, Node modules (docs/architecture.md, Toolchain). */
/**
 * Product › Import in bulk (node version 3) in real n8n, against a sandbox that takes only lists,
 * both shapes, or only one object per request (`importBodyShape`, set over HTTP as for n8n in
 * another process): e2e/workflows/import-*.json, one product per input item (a Set node's rows, split).
 * Each `n8n execute` is a new process, so each run learns the shape afresh.
 */
import assert from 'node:assert/strict';

import type { Sandbox } from '../sandbox';
import { newProductRows } from '../sandbox/sheets';
import { check, nodeOutput, type Json } from './checks';
import { executeWorkflow, type CliExecutionResult, type N8nInstallation } from './n8n';

export const IMPORT_WORKFLOWS = { list: 'e2eImportList001', both: 'e2eImportBoth001', objects: 'e2eImportObject1' };

/**
 * Products of the object-only run: at the live 60 requests a minute, one request per product is
 * 17 minutes for 1,000 in a separate n8n process (the node paces itself); 100 show the fallback in
 * about a minute and a half. `E2E_IMPORT_OBJECTS=1000` runs the full count.
 */
export const IMPORT_OBJECT_COUNT = Number(process.env.E2E_IMPORT_OBJECTS ?? 100);

/** The rows, as text to put inside a JSON string of the workflow file (the Sheet node's expression). */
const rowsPlaceholder = (rows: Json[]) => JSON.stringify(JSON.stringify(rows)).slice(1, -1);

/** What the import workflows' placeholders stand for. */
export function importPlaceholders(): Record<string, string> {
	return {
		__IMPORT_ROWS_LIST__: rowsPlaceholder(newProductRows('411', 1_000)),
		__IMPORT_ROWS_BOTH__: rowsPlaceholder(newProductRows('412', 1_000)),
		__IMPORT_ROWS_OBJECTS__: rowsPlaceholder(newProductRows('413', IMPORT_OBJECT_COUNT)),
	};
}

type Variants = (variants: Json, body: () => Promise<string>) => Promise<string>;

function assertImported(execution: CliExecutionResult, sandbox: Sandbox, count: number, sentAs: string): Json[] {
	const error = execution.data.resultData.error;
	assert.equal(execution.status, 'success', `execution ${execution.status}: ${error?.message ?? ''} ${error?.description ?? ''}`);
	const items = nodeOutput(execution, 'Import');
	assert.equal(items.length, count, 'one output item per product');
	const wrong = items.filter((item) => item.success !== true || item.sentAs !== sentAs || typeof item.id !== 'string' || item.newProduct !== true);
	assert.deepEqual(wrong.slice(0, 3), [], 'every item: success, a progress id, sentAs, a new EAN');
	for (const index of [0, count - 1]) {
		const ean = String(items[index].ean);
		assert.equal(sandbox.state.productByEan(ean)?.name, `Proizvod ${index}`, `product ${index} (EAN ${ean}) imported`);
	}
	return items;
}

const importRequests = (sandbox: Sandbox) => sandbox.log.filter((entry) => entry.route === 'import');

export async function checkImportShapes(installation: N8nInstallation, userFolder: string, sandbox: Sandbox, underVariants: Variants): Promise<void> {
	for (const [shape, workflowId] of [
		['list', IMPORT_WORKFLOWS.list],
		['both', IMPORT_WORKFLOWS.both],
	] as const) {
		sandbox.clearLog();
		await check(`Product > Import (v3) of 1,000 products from 1,000 items, sandbox takes ${shape === 'list' ? 'only lists' : 'a list or one object'}: 1 import request`, async () =>
			underVariants({ importBodyShape: shape }, async () => {
				const execution = await executeWorkflow(installation, userFolder, workflowId);
				const items = assertImported(execution, sandbox, 1_000, 'list');
				const answered = (route: string) => sandbox.log.filter((entry) => entry.route === route && entry.status !== 429);
				assert.deepEqual(
					answered('import').map((entry) => [entry.status, entry.itemCount]),
					[[200, 1_000]],
				);
				assert.equal(answered('eanExists').length, 1, 'one EAN check');
				assert.equal(new Set(items.map((item) => item.id)).size, 1, 'one progress id');
				const retried = importRequests(sandbox).length - answered('import').length;
				return `1 import request${retried > 0 ? ` (after ${retried} answered 429)` : ''}, 1 EAN check, ${items.length} items`;
			}),
		);
	}

	sandbox.clearLog();
	await check(`Product > Import (v3) of ${IMPORT_OBJECT_COUNT} products from as many items, sandbox takes only one object: one refused list, then one request each`, async () =>
		underVariants({ importBodyShape: 'object' }, async () => {
			const startedAt = Date.now();
			// One request a product at the live 60 a minute: at least a second each, plus up to a minute
			// the earlier checks of this account may still hold in the service's window, plus n8n's start.
			const timeoutMs = (IMPORT_OBJECT_COUNT + 1) * 1_000 + 2 * 60_000;
			const execution = await executeWorkflow(installation, userFolder, IMPORT_WORKFLOWS.objects, { timeoutMs });
			assertImported(execution, sandbox, IMPORT_OBJECT_COUNT, 'one object per request');
			// A new n8n process paces from scratch: the earlier checks' requests of this account in the
			// last minute may earn it a 429, which it waits out and retries.
			const all = importRequests(sandbox);
			const requests = all.filter((entry) => entry.status !== 429);
			assert.deepEqual(requests[0] && [requests[0].status, requests[0].itemCount], [400, IMPORT_OBJECT_COUNT], 'the list first, refused');
			assert.deepEqual(
				requests.slice(1).map((entry) => [entry.status, entry.itemCount]),
				Array.from({ length: IMPORT_OBJECT_COUNT }, () => [200, 1]),
			);
			return `${requests.length} import requests (and ${all.length - requests.length} answered 429, retried) in ${Math.round((Date.now() - startedAt) / 1000)} s`;
		}),
	);
}

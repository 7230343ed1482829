/**
 * Issue 18 at the size merchants run it ("rows in, one batch out"): a CSV of 1,000 rows read with
 * n8n's own file nodes (Read/Write Files from Disk → Extract from File) feeds Sync Stock and Prices
 * of node version 2, one entry per item, against a catalogue of 50,000 products at the live limits.
 * The sandbox's request log shows one batch: the catalogue read once (Get Many Basic, 2,500 a page)
 * and one write of 1,000 entries; every output item is paired with its row. A row with the price
 * "1,299": Stop the Run sends nothing and names the row; Skip and Report sends the other 999 and
 * reports the row, with the execution hint stored in the run data (read again through the
 * editor's REST API by editor-checks.ts, `checkStoredExecutionHint`).
 *
 * Its own sandbox (reading 50,000 products takes ~4 s a run at the live limit of 5 pages a
 * second; the other checks' sandbox keeps 450) and its own credential. The queue suite runs the same workflow on a
 * worker (e2e/queue/suite.ts).
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { Product, RequestLogEntry } from '../sandbox';
import { startSandbox } from '../sandbox';
import { check, type Json } from './checks';
import { executeWorkflow, importCredentials, importWorkflows, type CliExecutionResult, type N8nInstallation } from './n8n';

export const ROWS_CREDENTIAL = { id: 'e2eRowsCred00001', name: 'Marketplace Rows Sandbox', type: 'marketplaceMerchantApi' };
export const ROWS_CATALOGUE = 50_000;
export const ROWS_IN_CSV = 1_000;
/** Get Many Basic's page size: 50,000 products are pages 0-19 and the empty page 20. */
const CATALOGUE_PAGE = 2_500;
/** Pages the engine may send past the last one (the catalogue group's in-flight allowance of 5, minus one). */
const PAGES_AHEAD = 4;
/** The row given a decimal-comma price, counted from 1 as the error names it. */
export const BAD_ROW = 3;
/** The hint of the Skip and Report run: one rejected row. */
export const ROWS_HINT = new RegExp(`^1 of ${ROWS_IN_CSV} entries rejected`);

/**
 * The variants: Invalid Entries and the node's On Error. Skip and Report under On Error = Continue
 * keeps the rejected row in the main output (`skip`); under the default the run fails once the
 * others are written (`loud`); under Continue (using error output) the row leaves there (`errorOutput`).
 */
export const ROWS_WORKFLOWS = {
	clean: { id: 'e2eRowsSyncCsv01', file: 'stock.csv', invalidEntries: 'stop', onError: 'stopWorkflow' },
	stop: { id: 'e2eRowsSyncStop1', file: 'stock-comma.csv', invalidEntries: 'stop', onError: 'stopWorkflow' },
	skip: { id: 'e2eRowsSyncSkip1', file: 'stock-comma.csv', invalidEntries: 'skip', onError: 'continueRegularOutput' },
	loud: { id: 'e2eRowsSyncLoud1', file: 'stock-comma.csv', invalidEntries: 'skip', onError: 'stopWorkflow' },
	errorOutput: { id: 'e2eRowsSyncErrO1', file: 'stock-comma.csv', invalidEntries: 'skip', onError: 'continueErrorOutput' },
} as const;
export type RowsVariant = keyof typeof ROWS_WORKFLOWS;

export type RowsWorkflow = Json & { id: string; nodes: Array<Json & { name: string; type: string }> };

/** The CSV sync workflow of e2e/rows/csv-sync.json for a variant, reading its file from `filesDir`. */
export async function rowsWorkflow(variant: RowsVariant, filesDir: string): Promise<RowsWorkflow> {
	const { id, file, invalidEntries, onError } = ROWS_WORKFLOWS[variant];
	const placeholders: Record<string, string> = {
		__WORKFLOW_ID__: id,
		__WORKFLOW_NAME__: `E2E rows: 1,000-row CSV → Sync (${variant})`,
		__CSV_FILE__: path.join(filesDir, file),
		__INVALID_ENTRIES__: invalidEntries,
		__ON_ERROR__: onError,
	};
	let text = await readFile(path.join(__dirname, 'rows', 'csv-sync.json'), 'utf8');
	for (const [placeholder, value] of Object.entries(placeholders)) text = text.split(placeholder).join(value);
	return JSON.parse(text) as RowsWorkflow;
}

/**
 * An ERP-style export of the first 1,000 products with the file's own column names: new stock for
 * every row (so every row is a change), the current price; `commaRow` writes row 3's price "1,299".
 */
export function rowsCsv(products: Product[], commaRow: boolean): string {
	const lines = ['EAN,Stock,Base Price'];
	products.slice(0, ROWS_IN_CSV).forEach((product, index) => {
		const price = commaRow && index === BAD_ROW - 1 ? '"1,299"' : String(product.newBasePrice ?? product.basePrice);
		lines.push(`${product.ean},${product.stockLevel + 3},${price}`);
	});
	return `${lines.join('\n')}\n`;
}

export interface RowsOutputItem {
	json: Json;
	pairedItem?: { item: number };
}

/** The Sync node's output items and its execution hints, from an execution's run data (CLI or API). */
export function syncRun(execution: { data?: { resultData: { runData: Record<string, unknown[]> } } }): { items: RowsOutputItem[]; hints: Array<{ message: string; type?: string; location?: string }> } {
	const run = execution.data?.resultData.runData.Sync?.[0] as { data?: { main?: RowsOutputItem[][] }; hints?: Array<{ message: string }> } | undefined;
	return { items: run?.data?.main?.[0] ?? [], hints: run?.hints ?? [] };
}

/** What the request log says about one sync run: the catalogue pages read and the write requests' sizes. */
export function assertOneBatch(log: RequestLogEntry[], writeSize: number | undefined): string {
	const pages = log
		.filter((entry) => entry.route === 'basicProducts' && entry.status === 200)
		.map((entry) => Number(entry.query.page))
		.sort((a, b) => a - b);
	// A write the service refused with 429 wrote nothing and was sent again: several runs in a row
	// (each `n8n execute` its own process, pacing itself afresh) can exceed the live minute limit.
	const writes = log.filter((entry) => entry.route === 'productBulk' && entry.status !== 429).map((entry) => entry.itemCount);
	const lastPage = ROWS_CATALOGUE / CATALOGUE_PAGE;
	if (writeSize === undefined) {
		assert.deepEqual([pages, writes], [[], []], 'requests sent although the run was stopped');
		return 'nothing sent';
	}
	assert.deepEqual(pages.slice(0, lastPage + 1), [...Array(lastPage + 1).keys()], `catalogue pages: ${pages.join(', ')}`);
	assert.ok(pages.length <= lastPage + 1 + PAGES_AHEAD, `catalogue pages sent: ${pages.join(', ')}`);
	assert.equal(new Set(pages).size, pages.length, `a catalogue page was read twice: ${pages.join(', ')}`);
	assert.deepEqual(writes, [writeSize], 'productBulk requests (entries each)');
	return `${pages.length} catalogue pages (0-${pages[pages.length - 1]}), one productBulk of ${writeSize}`;
}

/** Output items paired with their rows in order, one per row. */
export function assertPaired(items: RowsOutputItem[]): void {
	assert.equal(items.length, ROWS_IN_CSV, 'output items');
	const unpaired = items.findIndex((item, index) => item.pairedItem?.item !== index);
	assert.equal(unpaired, -1, `item ${unpaired} is paired with ${JSON.stringify(items[unpaired]?.pairedItem)}`);
}

function succeeded(execution: CliExecutionResult): void {
	const error = execution.data.resultData.error;
	assert.equal(execution.status, 'success', `execution ${execution.status}: ${error?.message ?? ''} ${error?.description ?? ''}`);
}

export async function checkRowsAtScale(installation: N8nInstallation, userFolder: string): Promise<void> {
	let sandboxStartedIn = Date.now();
	const sandbox = await startSandbox({ port: 0, seed: 18, products: ROWS_CATALOGUE });
	sandboxStartedIn = Date.now() - sandboxStartedIn;
	const filesDir = await mkdtemp(path.join(tmpdir(), 'marketplace-rows-'));
	const env = { N8N_RESTRICT_FILE_ACCESS_TO: filesDir };
	const products = () => sandbox.state.products.slice(0, ROWS_IN_CSV);
	try {
		const imported = await check(`rows: a ${ROWS_CATALOGUE.toLocaleString('en')}-product sandbox (live limits), its credential and the CSV workflows import`, async () => {
			await importCredentials(installation, userFolder, [{ ...ROWS_CREDENTIAL, data: { baseUrl: sandbox.url, ...sandbox.client, apiKey: '' } }]);
			await importWorkflows(installation, userFolder, await Promise.all((Object.keys(ROWS_WORKFLOWS) as RowsVariant[]).map((variant) => rowsWorkflow(variant, filesDir))));
			return `sandbox up in ${sandboxStartedIn} ms`;
		});
		if (!imported) return;

		await check(`rows: a ${ROWS_IN_CSV}-row CSV read with n8n's file nodes → Sync (v2, one entry per row): the catalogue read once, one write of ${ROWS_IN_CSV}, ${ROWS_IN_CSV} items paired with their rows`, async () => {
			const expected = products().map((product) => [product.id, product.stockLevel + 3]);
			await writeFile(path.join(filesDir, ROWS_WORKFLOWS.clean.file), rowsCsv(products(), false));
			sandbox.clearLog();
			const execution = await executeWorkflow(installation, userFolder, ROWS_WORKFLOWS.clean.id, { env });
			succeeded(execution);
			const { items, hints } = syncRun(execution);
			assertPaired(items);
			const notUpdated = items.filter((item) => item.json.status !== 'updated');
			assert.deepEqual(notUpdated.slice(0, 3).map((item) => item.json), [], `${notUpdated.length} rows not updated`);
			assert.deepEqual(hints, [], 'hints although nothing was rejected');
			assert.deepEqual(
				products().map((product) => [product.id, product.stockLevel]),
				expected,
				'stock in the sandbox',
			);
			return assertOneBatch(sandbox.log, ROWS_IN_CSV);
		});

		await check(`rows: row ${BAD_ROW} priced "1,299" with Stop the Run: nothing sent (no catalogue read, no write), the error names row ${BAD_ROW} › Base Price`, async () => {
			await writeFile(path.join(filesDir, ROWS_WORKFLOWS.stop.file), rowsCsv(products(), true));
			sandbox.clearLog();
			const execution = await executeWorkflow(installation, userFolder, ROWS_WORKFLOWS.stop.id, { env });
			assert.equal(execution.status, 'error', 'the run was not stopped');
			const ean = products()[BAD_ROW - 1].ean;
			const message = execution.data.resultData.error?.message ?? '';
			assert.ok(message.startsWith(`row ${BAD_ROW} (EAN ${ean}) › Base Price: "1,299"`), `error: ${message}`);
			assertOneBatch(sandbox.log, undefined);
			return message;
		});

		await check(`rows: the same CSV with Skip and Report and On Error = Continue: ${ROWS_IN_CSV - 1} written in one request, row ${BAD_ROW} comes out with success false, the hint "1 of ${ROWS_IN_CSV} entries rejected" in the run data`, async () => {
			sandbox.clearLog();
			const execution = await executeWorkflow(installation, userFolder, ROWS_WORKFLOWS.skip.id, { env });
			succeeded(execution);
			const { items, hints } = syncRun(execution);
			assertPaired(items);
			const failed = items.flatMap((item, index) => (item.json.success === false ? [index] : []));
			assert.deepEqual(failed, [BAD_ROW - 1], 'rows with success false');
			assert.match(String(items[BAD_ROW - 1].json.error), new RegExp(`^row ${BAD_ROW} \\(EAN \\d+\\) › Base Price: "1,299"`));
			assert.deepEqual(
				hints.map(({ message, type, location }) => [message.split(':')[0], type, location]),
				[[`1 of ${ROWS_IN_CSV} entries rejected`, 'warning', 'outputPane']],
			);
			return assertOneBatch(sandbox.log, ROWS_IN_CSV - 1);
		});

		await check(`rows: Skip and Report under the default On Error: ${ROWS_IN_CSV - 1} written in one request, then the execution fails naming row ${BAD_ROW} (so the error workflow fires)`, async () => {
			// New stock for every row again: the run before wrote this file's values.
			await writeFile(path.join(filesDir, ROWS_WORKFLOWS.loud.file), rowsCsv(products(), true));
			const expected = products().map((product, index) => [product.id, index === BAD_ROW - 1 ? product.stockLevel : product.stockLevel + 3]);
			sandbox.clearLog();
			const execution = await executeWorkflow(installation, userFolder, ROWS_WORKFLOWS.loud.id, { env });
			assert.equal(execution.status, 'error', 'a run with a rejected row ended as success');
			const ean = products()[BAD_ROW - 1].ean;
			const message = execution.data.resultData.error?.message ?? '';
			assert.ok(message.startsWith(`1 of ${ROWS_IN_CSV} entries rejected (the other ${ROWS_IN_CSV - 1} went through): row ${BAD_ROW} (EAN ${ean}) › Base Price: "1,299"`), `error: ${message}`);
			assert.deepEqual(products().map((product) => [product.id, product.stockLevel]), expected, 'stock in the sandbox');
			assertOneBatch(sandbox.log, ROWS_IN_CSV - 1);
			return message;
		});

		await check(`rows: Skip and Report with On Error = Continue (using error output): ${ROWS_IN_CSV - 1} rows on the main output, row ${BAD_ROW} on the error output with its row, reason and CSV columns`, async () => {
			await writeFile(path.join(filesDir, ROWS_WORKFLOWS.errorOutput.file), rowsCsv(products(), true));
			sandbox.clearLog();
			const execution = await executeWorkflow(installation, userFolder, ROWS_WORKFLOWS.errorOutput.id, { env });
			succeeded(execution);
			const run = execution.data.resultData.runData.Sync?.[0] as { data?: { main?: RowsOutputItem[][] } } | undefined;
			const [main = [], errors = []] = run?.data?.main ?? [];
			assert.equal(main.length, ROWS_IN_CSV - 1, 'items on the main output');
			assert.ok(main.every((item) => item.json.success === true), 'a rejected row on the main output');
			assert.deepEqual(errors.map((item) => item.pairedItem?.item), [BAD_ROW - 1], 'items on the error output');
			const [rejected] = errors;
			assert.match(String(rejected.json.message), new RegExp(`^row ${BAD_ROW} \\(EAN \\d+\\) › Base Price: "1,299"`));
			assert.equal(rejected.json['Base Price'], '1,299', 'the CSV row\'s own columns');
			assert.equal((rejected.json.error as Json).status, 'invalid');
			return assertOneBatch(sandbox.log, ROWS_IN_CSV - 1);
		});
	} finally {
		await sandbox.close();
		await rm(filesDir, { recursive: true, force: true });
	}
}

/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- end-to-end suite code, run by tsx against a real n8n and never loaded by n8n: it may use process and timers, Node modules (docs/architecture.md, Toolchain). */
/**
 * Issue 18 at the size merchants run it ("rows in, one batch out"): a CSV of 1,000 rows read with
 * n8n's own file nodes (Read/Write Files from Disk → Extract from File) feeds Sync Stock and Prices
 * of node version 2, one entry per item, against a catalogue of 50,000 products at the live limits.
 * The sandbox's request log shows one batch: the catalogue read once (Get Many Basic, 2,500 a page)
 * and one write of 1,000 entries; every output item is paired with its row. A row with the price
 * "1,299": Stop the Run sends nothing and names the row; Skip and Report sends all 1,000 (that
 * row's stock only, issue 29) and reports the row's price, with the execution hint stored in the
 * run data (read again through the editor's REST API by editor-checks.ts,
 * `checkStoredExecutionHint`). Issue 29: a 30-row export in the Serbian format with Number Format
 * Serbian, all written; the same with one unreadable price, its stock written.
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
	clean: { id: 'e2eRowsSyncCsv01', file: 'stock.csv', invalidEntries: 'stop', numberFormat: 'plain', onError: 'stopWorkflow' },
	stop: { id: 'e2eRowsSyncStop1', file: 'stock-comma.csv', invalidEntries: 'stop', numberFormat: 'plain', onError: 'stopWorkflow' },
	skip: { id: 'e2eRowsSyncSkip1', file: 'stock-comma.csv', invalidEntries: 'skip', numberFormat: 'plain', onError: 'continueRegularOutput' },
	loud: { id: 'e2eRowsSyncLoud1', file: 'stock-comma.csv', invalidEntries: 'skip', numberFormat: 'plain', onError: 'stopWorkflow' },
	errorOutput: { id: 'e2eRowsSyncErrO1', file: 'stock-comma.csv', invalidEntries: 'skip', numberFormat: 'plain', onError: 'continueErrorOutput' },
	// Issue 29: the merchant's export in the Serbian format (2.729,00), as the shipped example reads it (Skip and Report).
	serbian: { id: 'e2eRowsSyncSrb01', file: 'stock-serbian.csv', invalidEntries: 'skip', numberFormat: 'serbian', onError: 'stopWorkflow' },
} as const;
/** Rows of the Serbian export (issue 29), and the row given the price "1,299" (1.299 in that format: three decimals). */
export const SERBIAN_ROWS = 30;
export const UNREADABLE_ROW = 7;
export type RowsVariant = keyof typeof ROWS_WORKFLOWS;

export type RowsWorkflow = Json & { id: string; nodes: Array<Json & { name: string; type: string }> };

/** The CSV sync workflow of e2e/rows/csv-sync.json for a variant, reading its file from `filesDir`. */
export async function rowsWorkflow(variant: RowsVariant, filesDir: string): Promise<RowsWorkflow> {
	const { id, file, invalidEntries, numberFormat, onError } = ROWS_WORKFLOWS[variant];
	const placeholders: Record<string, string> = {
		__WORKFLOW_ID__: id,
		__WORKFLOW_NAME__: `E2E rows: 1,000-row CSV → Sync (${variant})`,
		__CSV_FILE__: path.join(filesDir, file),
		__INVALID_ENTRIES__: invalidEntries,
		__NUMBER_FORMAT__: numberFormat,
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

/** A price as sr-RS writes it: 2729 as "2.729,00". */
function serbianPrice(price: number): string {
	const [whole, decimals] = price.toFixed(2).split('.');
	return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, '.')},${decimals}`;
}

/**
 * The merchant's export of issue 29: 30 rows in the Serbian format, each a new stock (+5) and a
 * price 10 RSD up written as "2.729,00" (quoted: it holds a comma); `unreadable` writes row 7's
 * price "1,299".
 */
export function serbianCsv(products: Product[], unreadable: boolean): string {
	const lines = ['EAN,Stock,Base Price'];
	products.slice(0, SERBIAN_ROWS).forEach((product, index) => {
		const price = unreadable && index === UNREADABLE_ROW - 1 ? '1,299' : serbianPrice((product.newBasePrice ?? product.basePrice) + 10);
		lines.push(`${product.ean},${product.stockLevel + 5},"${price}"`);
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

		await check(`rows: the same CSV with Skip and Report and On Error = Continue: ${ROWS_IN_CSV} written in one request (row ${BAD_ROW} its stock only), row ${BAD_ROW} comes out with success false, the hint "1 of ${ROWS_IN_CSV} entries rejected" in the run data`, async () => {
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
			// Issue 29: a price that cannot be read holds back only itself; the row's stock goes out.
			assert.equal(items[BAD_ROW - 1].json.status, 'price_unreadable');
			return assertOneBatch(sandbox.log, ROWS_IN_CSV);
		});

		const serbianFile = path.join(filesDir, ROWS_WORKFLOWS.serbian.file);
		await check(`rows: the ${SERBIAN_ROWS}-row Serbian CSV ("2.729,00") with Number Format Serbian: all ${SERBIAN_ROWS} written in one request`, async () => {
			const rows = products().slice(0, SERBIAN_ROWS);
			const expected = rows.map((product) => [product.id, product.stockLevel + 5, (product.newBasePrice ?? product.basePrice) + 10]);
			await writeFile(serbianFile, serbianCsv(rows, false));
			sandbox.clearLog();
			const execution = await executeWorkflow(installation, userFolder, ROWS_WORKFLOWS.serbian.id, { env });
			succeeded(execution);
			const { items } = syncRun(execution);
			assert.equal(items.length, SERBIAN_ROWS, 'output items');
			const notUpdated = items.filter((item) => item.json.status !== 'updated');
			assert.deepEqual(notUpdated.slice(0, 3).map((item) => item.json), [], `${notUpdated.length} rows not updated`);
			const stored = products().slice(0, SERBIAN_ROWS).map((product) => [product.id, product.stockLevel, product.newBasePrice]);
			assert.deepEqual(stored, expected, 'stock and price in the sandbox');
			return assertOneBatch(sandbox.log, SERBIAN_ROWS);
		});

		await check(`rows: the same CSV with row ${UNREADABLE_ROW} priced "1,299" (1.299: not a price): its stock written, its price reported and not sent, the other ${SERBIAN_ROWS - 1} written`, async () => {
			const rows = products().slice(0, SERBIAN_ROWS);
			const row = rows[UNREADABLE_ROW - 1];
			const before = { stock: row.stockLevel, price: row.newBasePrice };
			await writeFile(serbianFile, serbianCsv(rows, true));
			sandbox.clearLog();
			const execution = await executeWorkflow(installation, userFolder, ROWS_WORKFLOWS.serbian.id, { env });
			const stored = sandbox.state.product(row.id);
			assert.deepEqual([stored?.stockLevel, stored?.newBasePrice], [before.stock + 5, before.price], `row ${UNREADABLE_ROW}: stock written, price kept`);
			const sent = assertOneBatch(sandbox.log, SERBIAN_ROWS);
			// Under issue 29's "rejections are loud" the execution may end as an error naming the row; otherwise the row's item reports it.
			const { items } = syncRun(execution);
			if (items.length === 0) {
				const error = execution.data.resultData.error;
				assert.match(`${error?.message ?? ''} ${error?.description ?? ''}`, new RegExp(`row ${UNREADABLE_ROW}|1 of ${SERBIAN_ROWS}|rejected`), `execution ${execution.status} without the row's item`);
				return `${sent}; execution ${execution.status}: ${error?.message ?? ''}`;
			}
			const reported = items[UNREADABLE_ROW - 1].json;
			assert.equal(reported.status, 'price_unreadable', JSON.stringify(reported));
			assert.equal(reported.success, false);
			assert.deepEqual(reported.notRead, { basePrice: '1,299' });
			assert.match(String(reported.error), new RegExp(`^row ${UNREADABLE_ROW} \\(EAN ${row.ean}\\) › Base Price: "1,299" has more than 2 decimal places.*; the price was not sent and the stock change was$`));
			assert.deepEqual(items.filter((item) => item.json.status !== 'updated').length, 1, 'rows not updated');
			return `${sent}; row ${UNREADABLE_ROW}: ${String(reported.error)}`;
		});

		await check(`rows: Skip and Report under the default On Error: ${ROWS_IN_CSV} written in one request (row ${BAD_ROW} its stock only), then the execution fails naming row ${BAD_ROW} (so the error workflow fires)`, async () => {
			// New stock for every row again: the run before wrote this file's values. Row 3's unreadable price holds back only itself (issue 29).
			await writeFile(path.join(filesDir, ROWS_WORKFLOWS.loud.file), rowsCsv(products(), true));
			const expected = products().map((product) => [product.id, product.stockLevel + 3]);
			sandbox.clearLog();
			const execution = await executeWorkflow(installation, userFolder, ROWS_WORKFLOWS.loud.id, { env });
			assert.equal(execution.status, 'error', 'a run with a rejected row ended as success');
			const ean = products()[BAD_ROW - 1].ean;
			const message = execution.data.resultData.error?.message ?? '';
			assert.ok(message.startsWith(`1 of ${ROWS_IN_CSV} entries rejected (the other ${ROWS_IN_CSV - 1} went through): row ${BAD_ROW} (EAN ${ean}) › Base Price: "1,299"`), `error: ${message}`);
			assert.deepEqual(products().map((product) => [product.id, product.stockLevel]), expected, 'stock in the sandbox');
			assertOneBatch(sandbox.log, ROWS_IN_CSV);
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
			assert.equal((rejected.json.error as Json).status, 'price_unreadable');
			return assertOneBatch(sandbox.log, ROWS_IN_CSV);
		});
	} finally {
		await sandbox.close();
		await rm(filesDir, { recursive: true, force: true });
	}
}

/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- end-to-end suite code, run by tsx against a real n8n and never loaded by n8n: it may use process and timers, Node modules (docs/architecture.md, Toolchain). */
/**
 * The example workflows of examples/ (what `npm run dev` imports) load and run in real n8n, against
 * a sandbox of their own (they write to products the other checks read): the credential they name
 * ("Marketplace Sandbox", id devMarketplace01) points at it, and the CSV example reads the export
 * `npm run dev` would write, from a folder n8n is allowed to read.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { startSandbox } from '../sandbox';
import { DEV_CREDENTIAL, FILES_DIR, sampleStockCsv } from '../scripts/n8n-dev';
import { check, type Json } from './checks';
import { executeWorkflow, importCredentials, importWorkflows, type CliExecutionResult, type N8nInstallation } from './n8n';

const EXAMPLES_DIR = path.join(__dirname, '..', 'examples');

function outputOf(execution: CliExecutionResult, nodeName: string, output = 0): Array<{ json: Json; pairedItem?: { item: number } }> {
	const runs = execution.data.resultData.runData[nodeName] ?? [];
	return runs.flatMap((run) => (run.data?.main?.[output] ?? []) as Array<{ json: Json; pairedItem?: { item: number } }>);
}

/** The example as imported here: its Send Email node disabled (no SMTP server to send to), so the run shows what it would have mailed. */
function withoutMail(example: Json & { id: string }): Json & { id: string } {
	const nodes = (example.nodes as Array<Json & { type: string }>).map((node) => (node.type === 'n8n-nodes-base.emailSend' ? { ...node, disabled: true } : node));
	return { ...example, nodes };
}

function succeeded(execution: CliExecutionResult): void {
	const error = execution.data.resultData.error;
	assert.equal(execution.status, 'success', `execution ${execution.status}: ${error?.message ?? ''} ${error?.description ?? ''}`);
}

export async function checkExamples(installation: N8nInstallation, userFolder: string): Promise<void> {
	const sandbox = await startSandbox({ port: 0, seed: 7, products: 200 });
	const filesDir = await mkdtemp(path.join(tmpdir(), 'marketplace-files-'));
	const env = { N8N_RESTRICT_FILE_ACCESS_TO: filesDir };
	try {
		await writeFile(path.join(filesDir, 'stock.csv'), sampleStockCsv(sandbox));
		const read = async (file: string) => JSON.parse((await readFile(path.join(EXAMPLES_DIR, file), 'utf8')).split(FILES_DIR).join(filesDir)) as Json & { id: string };
		const examples = {
			rows: await read('stock-sync.json'),
			csv: withoutMail(await read('stock-price-sync.json')),
			sale: await read('discount-scheduling.json'),
		};
		const imported = await check('examples: the credential the examples name and the examples import', async () => {
			await importCredentials(installation, userFolder, [{ ...DEV_CREDENTIAL, data: { baseUrl: sandbox.url, ...sandbox.client, apiKey: '' } }]);
			await importWorkflows(installation, userFolder, Object.values(examples));
			return Object.values(examples).map((example) => example.name).join('; ');
		});
		if (!imported) return;

		await check('example "stock from your rows": four rows, one bulk request, four items paired with their rows', async () => {
			sandbox.clearLog();
			const execution = await executeWorkflow(installation, userFolder, examples.rows.id, { env });
			succeeded(execution);
			const items = outputOf(execution, 'Update Stock');
			assert.deepEqual(items.map(({ json }) => json.success), [true, true, true, true]);
			assert.deepEqual(items.map(({ pairedItem }) => pairedItem?.item), [0, 1, 2, 3]);
			assert.deepEqual(sandbox.log.filter((entry) => entry.route === 'productBulk').map((entry) => entry.itemCount), [4]);
			assert.equal(sandbox.state.product(100003)?.stockLevel, 40);
		});

		await check('example "sync from a CSV": read with n8n\'s file nodes, one catalogue read and one write; the decimal-comma row leaves through the error output to the mail, the guarded price reaches "Prices to Check"', async () => {
			sandbox.clearLog();
			const execution = await executeWorkflow(installation, userFolder, examples.csv.id, { env });
			succeeded(execution);
			const items = outputOf(execution, 'Sync');
			assert.equal(items.length, 11);
			assert.deepEqual(items.map(({ pairedItem }) => pairedItem?.item), [0, 1, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
			assert.equal(items[3].json.status, 'guarded');
			const rejected = outputOf(execution, 'Sync', 1);
			assert.deepEqual(rejected.map(({ pairedItem }) => pairedItem?.item), [2]);
			// Issue 29: the row's stock goes out, its unreadable price is reported, and the row is rejected.
			assert.match(String(rejected[0].json.message), /^row 3 \(EAN \d+\) › Base Price: "1,299" is not a price/);
			assert.equal((rejected[0].json.error as Json).status, 'price_unreadable');
			assert.deepEqual(sandbox.log.filter((entry) => entry.route === 'basicProducts').length > 0, true);
			assert.deepEqual(sandbox.log.filter((entry) => entry.route === 'productBulk').map((entry) => entry.itemCount), [12]);
			assert.deepEqual(outputOf(execution, 'Prices to Check').map(({ json }) => json.status), ['guarded']);
			const mailed = outputOf(execution, 'All Rejected Rows');
			assert.deepEqual(mailed.map(({ json }) => (json.message as string[]).length), [1], 'the one item the mail is made of lists the rejected row');
			assert.ok(execution.data.resultData.runData['Mail the Rejected Rows'], 'the mail node was reached');
			const hints = (execution.data.resultData.runData.Sync?.[0] as { hints?: Array<{ message: string }> } | undefined)?.hints ?? [];
			assert.deepEqual(
				hints.map(({ message }) => message.split(':')[0]),
				['1 price held back by the price guard, the stock sent', '1 of 12 entries rejected'],
			);
			return String(rejected[0].json.message);
		});

		await check('example "a week\'s sale": Get Many\'s products become discounts without renaming, dates from today', async () => {
			sandbox.clearLog();
			const execution = await executeWorkflow(installation, userFolder, examples.sale.id, { env });
			succeeded(execution);
			const items = outputOf(execution, 'Schedule Discounts');
			const products = outputOf(execution, 'Get Products').map(({ json }) => json.id);
			assert.equal(products.length, 3);
			assert.deepEqual(items.map(({ json }) => [json.success, json.productId]), products.map((id) => [true, id]));
			assert.deepEqual(sandbox.log.filter((entry) => entry.route === 'discountSchedule').map((entry) => entry.itemCount), [3]);
		});
	} finally {
		await sandbox.close();
		await rm(filesDir, { recursive: true, force: true });
	}
}

/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console -- a development script, run by tsx and never loaded by n8n: it may use process and timers, Node modules, console output (docs/architecture.md, Toolchain). */
/**
 * Regenerates the README's screenshots of the nodes in n8n's editor, docs/screenshots/*.png:
 *
 *   npm run screenshot        (scripts/screenshot.sh: installs Debian's chromium when missing)
 *
 * - node-creator.png     the node creator searched for "Marketplace", the package's entry open on its actions
 * - resource-locator.png Product > Update, its Product ID list open on the sandbox's products
 * - update-many.png      the Product > Update Many panel with its notice
 * - output-table.png     Product > Get Many run, its output as a table
 *
 * Starts what `npm run dev` starts, creates a throwaway workflow with the nodes to show (deleted
 * again at the end), and drives a headless chromium over the DevTools protocol (Node's own
 * WebSocket, no browser library): signs in from the page, opens the editor, clicks and types
 * with real input events, and captures the page. Elements are found by n8n's `data-test-id`
 * attributes and by the labels the panel shows. Every wait is bounded; a shot that fails is
 * reported (with a picture of the page at that moment in the temp folder) and the others still run.
 *
 * Environment: CHROMIUM (default `chromium` on PATH), SCREENSHOT_DIR (default docs/screenshots),
 * SCREENSHOT_ONLY (comma-separated shot names, default all), and those of `npm run dev`
 * (N8N_DEV_PACKAGE_DIR: the package to show, default this repo).
 */
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { find, openBrowser, signIn, sleep, waitUntil, type Browser, type DevToolsPage } from '../e2e/browser';
import { E2E_OWNER } from '../e2e/n8n';
import { N8nOwnerSession } from '../e2e/n8n-api';
import { startDevEnvironment } from './n8n-dev';

const OUTPUT_DIR = path.resolve(process.env.SCREENSHOT_DIR ?? path.join(__dirname, '..', 'docs', 'screenshots'));
const VIEWPORT = { width: 1200, height: 700 };

const NODE_TYPE = 'n8n-nodes-marketplace-merchant.marketplaceMerchant';
/** The credential `npm run dev` imports (scripts/n8n-dev.ts). */
const CREDENTIALS = { marketplaceMerchantApi: { id: 'devMarketplace01', name: 'Marketplace Sandbox' } };

/** The workflow the shots open; node ids are the editor's URL of each node's panel. */
const NODES = {
	getMany: { id: 'b7d6c1e0-5a1f-4c7e-9d3b-0c1a2f3e4d01', name: 'Get Products' },
	update: { id: 'b7d6c1e0-5a1f-4c7e-9d3b-0c1a2f3e4d02', name: 'Update Product' },
	updateMany: { id: 'b7d6c1e0-5a1f-4c7e-9d3b-0c1a2f3e4d03', name: 'Update Stock' },
};
const WORKFLOW = {
	name: 'Screenshots (temporary, made by npm run screenshot)',
	nodes: [
		{ id: 'b7d6c1e0-5a1f-4c7e-9d3b-0c1a2f3e4d00', name: 'Run', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
		{
			...NODES.getMany,
			type: NODE_TYPE,
			typeVersion: 1,
			position: [240, 0],
			parameters: { resource: 'product', operation: 'getMany', returnAll: false, limit: 8, simplify: true },
			credentials: CREDENTIALS,
		},
		{
			...NODES.update,
			type: NODE_TYPE,
			typeVersion: 1,
			position: [500, -120],
			parameters: { resource: 'product', operation: 'update' },
			credentials: CREDENTIALS,
		},
		{
			...NODES.updateMany,
			type: NODE_TYPE,
			typeVersion: 1,
			position: [500, 120],
			parameters: { resource: 'product', operation: 'updateMany' },
			credentials: CREDENTIALS,
		},
	],
	connections: {
		Run: { main: [[{ node: NODES.getMany.name, type: 'main', index: 0 }]] },
		[NODES.getMany.name]: {
			main: [
				[
					{ node: NODES.update.name, type: 'main', index: 0 },
					{ node: NODES.updateMany.name, type: 'main', index: 0 },
				],
			],
		},
	},
	settings: { executionOrder: 'v1' },
};

/**
 * The panel's parameter labelled `label` (its `parameter-item`). Found by the label the panel shows,
 * so that it does not depend on the parameter's internal name or type.
 */
function parameterItem(label: string): string {
	return `(() => {
		const labels = [...document.querySelectorAll('[data-test-id="node-parameters"] [data-test-id="parameter-item"] label')].filter(
			// The label also holds the Fixed/Expression switch: compare its title text alone.
			(element) => (element.querySelector('.n8n-text') ?? element).textContent.replace(/\\*/g, '').trim() === ${JSON.stringify(label)} && element.getClientRects().length > 0,
		);
		return labels[0]?.closest('[data-test-id="parameter-item"]') ?? null;
	})()`;
}

/** The input of a parameter item: a resource locator's input when the parameter is one, else its text input. */
function inputOf(item: string): string {
	return `(${item})?.querySelector('[data-test-id="rlc-input"] input, [data-test-id="rlc-input"], [data-test-id="parameter-input-field"] input, [data-test-id="parameter-input-field"]') ?? null`;
}

interface ShotContext {
	page: DevToolsPage;
	baseUrl: string;
	workflowId: string;
}

/** Opens the workflow on the canvas, or one node's panel (the editor's URL for it). */
async function openWorkflow({ page, baseUrl, workflowId }: ShotContext, nodeId?: string): Promise<void> {
	await page.navigate(`${baseUrl}/workflow/${workflowId}${nodeId ? `/${nodeId}` : ''}`);
	await waitUntil(
		'the workflow on the canvas',
		async () => (await page.evaluate<number>(`document.querySelectorAll('[data-test-id="canvas-node"]').length`)) >= WORKFLOW.nodes.length || undefined,
		60_000,
	);
	if (nodeId) await page.locate('the node panel', find.testId('node-parameters'), 30_000);
}

/** The node creator, searched for "Marketplace": both nodes of the package. */
async function nodeCreator(context: ShotContext): Promise<void> {
	const { page } = context;
	await openWorkflow(context);
	await page.click('the node creator button', find.testId('node-creator-plus-button'), { timeoutMs: 30_000 });
	// The search bar takes the focus itself; a click while the panel slides in may land outside it and close it.
	await page.locate('the node creator search', find.testId('node-creator-search-bar'));
	await sleep(1_000);
	await page.evaluate(`${find.testId('node-creator-search-bar')}.focus()`);
	await page.type('Marketplace');
	// n8n lists node and trigger as one entry; opening it lists every action and trigger.
	await page.click('"Marketplace Merchant" in the results', find.byText('[data-test-id="node-creator-item-name"]', 'Marketplace Merchant'));
	await waitUntil(
		'the actions of Marketplace Merchant',
		async () => (await page.evaluate<number>(`document.querySelectorAll('[data-test-id="node-creator"] [data-test-id="node-creator-item-name"]').length`)) > 5 || undefined,
		20_000,
	);
	await sleep(1_000);
}

/** Product > Update: the Product ID list open, listing the sandbox's products. */
async function resourceLocator(context: ShotContext): Promise<void> {
	const { page } = context;
	await openWorkflow(context, NODES.update.id);
	const productId = parameterItem('Product ID');
	const modeSelector = `(${productId})?.querySelector('[data-test-id="rlc-mode-selector"]') ?? null`;
	const mode = await page.evaluate<string | null>(`(${modeSelector})?.querySelector('input')?.value ?? null`);
	if (mode === null) {
		console.warn('resource-locator: Product ID is a plain field in this build (no resource locator): the shot shows the field');
	} else if (mode.toLowerCase() !== 'from list') {
		// n8n names the list mode "From list" whatever the node calls it.
		await page.click('the Product ID mode', `(${modeSelector})?.querySelector('input') ?? null`);
		await page.click(
			'the mode From list',
			`[...document.querySelectorAll('.el-select-dropdown__item')].find((option) => option.textContent.trim().toLowerCase() === 'from list' && option.getClientRects().length > 0) ?? null`,
		);
	}
	await page.click('the Product ID field', inputOf(productId));
	if (mode !== null) {
		await waitUntil(
			'the list of products',
			async () => (await page.evaluate<number>(`document.querySelectorAll('[data-test-id="rlc-item"]').length`)) > 0 || undefined,
			20_000,
		);
	}
	await sleep(1_000);
}

/** Product > Update Many: the panel with its notice. */
async function updateMany(context: ShotContext): Promise<void> {
	await openWorkflow(context, NODES.updateMany.id);
	await sleep(1_000);
	await context.page.evaluate(
		`document.querySelector('[data-test-id="node-parameters"] .notice, [data-test-id="node-parameters"] [class*="notice"]')?.scrollIntoView({ block: 'nearest' })`,
	);
	await sleep(500);
}

/** Product > Get Many, run from its panel: the output as a table. */
async function outputTable(context: ShotContext): Promise<void> {
	const { page } = context;
	await openWorkflow(context, NODES.getMany.id);
	await page.click('the execute step button', find.testId('node-execute-button'));
	// `output-panel` in n8n 2.x, `ndv-output-panel` before.
	const outputPanel = `document.querySelector('[data-test-id="output-panel"], [data-test-id="ndv-output-panel"]')`;
	const tableRows = async () => await page.evaluate<number>(`(${outputPanel})?.querySelectorAll('table tr').length ?? 0`);
	await page.locate('the output panel', outputPanel);
	await waitUntil('the run to finish', async () => (await page.evaluate<boolean>(`!${find.testId('ndv-executing')}`)) || undefined, 60_000);
	// The panel may open on Schema, and a click made while the run's output is still being drawn
	// can be lost: ask for the table again until it shows rows.
	await waitUntil(
		'rows in the output table',
		async () => {
			if ((await tableRows()) > 1) return true;
			await page.click('the Table view', find.testId('radio-button-table', outputPanel)).catch(() => undefined);
			await sleep(1_000);
			return (await tableRows()) > 1 || undefined;
		},
		30_000,
	);
	await widenOutput(page);
	await sleep(1_000);
}

/** Drags the parameters panel towards the input side, so that the output table gets more room. */
async function widenOutput(page: DevToolsPage): Promise<void> {
	const handle = await page.locate('the panel drag handle', find.testId('panel-drag-button')).catch(() => undefined);
	if (!handle) return;
	const left = VIEWPORT.width * 0.2;
	await page.send('Input.dispatchMouseEvent', { type: 'mouseMoved', ...handle });
	await page.send('Input.dispatchMouseEvent', { type: 'mousePressed', ...handle, button: 'left', buttons: 1, clickCount: 1 });
	for (let step = 1; step <= 10; step++) {
		const x = handle.x - ((handle.x - left) * step) / 10;
		await page.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x, y: handle.y, button: 'left', buttons: 1 });
		await sleep(50);
	}
	await page.send('Input.dispatchMouseEvent', { type: 'mouseReleased', x: left, y: handle.y, button: 'left', buttons: 0, clickCount: 1 });
}

const SHOTS: Record<string, (context: ShotContext) => Promise<void>> = {
	'node-creator': nodeCreator,
	'resource-locator': resourceLocator,
	'update-many': updateMany,
	'output-table': outputTable,
};

/** Takes each shot; returns the names of those that failed. */
async function takeShots(context: ShotContext, names: string[]): Promise<string[]> {
	const { page } = context;
	const failed: string[] = [];
	await mkdir(OUTPUT_DIR, { recursive: true });
	for (const name of names) {
		const file = path.join(OUTPUT_DIR, `${name}.png`);
		try {
			await SHOTS[name](context);
			// n8n's toasts ("Node executed successfully") would cover part of the picture.
			await page.evaluate(`document.querySelectorAll('.el-notification').forEach((toast) => toast.remove())`);
			await writeFile(file, await page.capture());
			console.log(`saved ${path.relative(process.cwd(), file)} (${Math.round((await stat(file)).size / 1024)} KB)`);
		} catch (error) {
			failed.push(name);
			const debugFile = path.join(tmpdir(), `screenshot-failed-${name}`);
			await writeFile(`${debugFile}.png`, await page.capture()).catch(() => undefined);
			await writeFile(`${debugFile}.html`, await page.evaluate<string>('document.body.outerHTML')).catch(() => undefined);
			console.error(`${name} failed: ${error instanceof Error ? error.message : String(error)} (the page then: ${debugFile}.png and .html)`);
		}
	}
	return failed;
}

async function main(): Promise<void> {
	const names = process.env.SCREENSHOT_ONLY ? process.env.SCREENSHOT_ONLY.split(',').map((name) => name.trim()) : Object.keys(SHOTS);
	const unknown = names.filter((name) => !(name in SHOTS));
	if (unknown.length > 0) throw new Error(`unknown shot(s) ${unknown.join(', ')}; known: ${Object.keys(SHOTS).join(', ')}`);

	const environment = await startDevEnvironment();
	if (!environment) return;
	const baseUrl = environment.server.baseUrl;
	let browser: Browser | undefined;
	let session: N8nOwnerSession | undefined;
	let workflowId: string | undefined;
	try {
		session = await N8nOwnerSession.login(baseUrl, E2E_OWNER);
		workflowId = (await session.request<{ id: string }>('POST', '/workflows', WORKFLOW)).id;
		browser = await openBrowser(VIEWPORT);
		await signIn(browser.page, baseUrl, E2E_OWNER);
		const failed = await takeShots({ page: browser.page, baseUrl, workflowId }, names);
		if (failed.length > 0) throw new Error(`${failed.length} of ${names.length} shots failed: ${failed.join(', ')}`);
	} finally {
		await browser?.close();
		if (session && workflowId) {
			// n8n deletes only archived workflows.
			await session
				.request('POST', `/workflows/${workflowId}/archive`)
				.then(() => session!.request('DELETE', `/workflows/${workflowId}`))
				.catch((error: unknown) => console.warn(`could not delete the temporary workflow ${workflowId}: ${String(error)}`));
		}
		await environment.stop();
	}
}

main().catch((error: unknown) => {
	console.error(error instanceof Error ? error.message : error);
	process.exitCode = 1;
});

/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error, @n8n/community-nodes/no-hardcoded-secrets, no-console -- end-to-end suite code, run by tsx against a real n8n and never loaded by n8n: it may use process and timers, Node modules, plain errors, fixed test keys of the sandbox, console output (docs/architecture.md, Toolchain). */
/**
 * End-to-end suite: this package, packed and installed the way users install it, inside a real
 * n8n 2.x, against the sandbox API over HTTP.
 *
 *   npm run test:e2e          (npm exec -- tsx e2e/suite.ts)
 *
 * Builds and packs the project (or takes E2E_TARBALL, a ready `npm pack` tarball, e.g. a broken
 * one to see the suite fail), installs it into a throwaway user folder, imports a credential and
 * the workflows of e2e/workflows/, runs them with `n8n execute` and compares their output with the
 * sandbox's state; then starts n8n to check the listed node types, their icons and the polling
 * trigger (exactly once over several polls). Prints one line per check and `N passed, M failed`.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { startSandbox, type Invoice, type Sandbox } from '../sandbox';
import { checkExamples } from './example-checks';
import { check, invoiceIdOf, nodeOutput, reportChecks, sleep, waitFor, type Json } from './checks';
import { STREAMING_WORKFLOW_ID, checkAiAgent, checkAiAgentStreaming } from './ai-agent-checks';
import { checkAskYourShop } from './ask-your-shop-checks';
import { checkEditorDescriptions, checkStoredExecutionHint } from './editor-checks';
import { checkRowsAtScale, ROWS_HINT, ROWS_WORKFLOWS } from './rows-checks';
import { installCommunityPackage, packPackage } from './community-package';
import {
	createUserFolder,
	executeWorkflow,
	importCredentials,
	importWorkflows,
	installN8n,
	removeUserFolder,
	startN8n,
	type CliExecutionResult,
	type N8nInstallation,
	type RunningN8n,
} from './n8n';
import { N8nOwnerSession, N8nPublicApi } from './n8n-api';
import { checkCredentialTest } from './credential-checks';
import { cancelPlaceholders, checkDiscountCancel, checkDiscountUpdate } from './discount-checks';
import { checkCalendarBelgrade } from './calendar-checks';
import { SERVICE_HOST_CREDENTIAL, checkServiceHostWorkflow } from './host-checks';
import { checkHttpRequestWrites, httpRequestPlaceholders } from './http-request-checks';
import { checkHeldPriceErrorWorkflow, heldPricePlaceholders, HELD_PRICE_WORKFLOWS, planHeldPrice, type HeldPricePlan } from './held-price-checks';
import { checkEanBatchWorkflow, checkLocatorLists, checkLocatorWorkflow } from './locator-checks';
import type { ScriptedModelServer } from './model-server';
import { checkNodeCreatorSearch } from './node-creator-checks';
import { checkTrigger, finishedExecutions, pollNow } from './trigger-checks';
import { checkWriteResults } from './write-checks';
import { checkKilograms } from './kilograms-checks';
import { checkImportShapes, importPlaceholders } from './import-checks';
import { checkInvoicePdfsOfMonth } from './documents-checks';
import {
	checkOrderFlow,
	checkOrdersReturnAll,
	checkOrderTriggerAcrossRestart,
	checkPackNotTwice,
	importOrderChecks,
	ORDER_WORKFLOWS,
	preparePack,
	startOrderSandbox,
	type OrderContext,
	type PackPlan,
} from './order-checks';

const REPO_DIR = path.resolve(__dirname, '..');
const WORKFLOWS_DIR = path.join(__dirname, 'workflows');
const PACKAGE_NAME = 'n8n-nodes-marketplace-merchant';
const NODE_TYPE = `${PACKAGE_NAME}.marketplaceMerchant`;
const TRIGGER_TYPE = `${PACKAGE_NAME}.marketplaceMerchantTrigger`;
const CREDENTIAL_TYPE = 'marketplaceMerchantApi';
/** The id and name the workflows in e2e/workflows/ refer to. */
const CREDENTIAL = { id: 'e2eMarketCred001', name: 'Marketplace Sandbox' };
/** More than two pages of 200 for Product > Get Many > Return All. */
const SANDBOX_PRODUCTS = 450;
const DAY_MS = 86_400_000;

const WORKFLOW_IDS = {
	read: 'e2eReadOps000001',
	write: 'e2eWriteOps00001',
	tokenExpiry: 'e2eTokenExpiry01',
	trigger: 'e2eInvoiceTrig01',
	issue10: 'e2eResultRows001',
	issue10More: 'e2eMoreRows00001',
	sync: 'e2eSyncStock0001',
	productTrigger: 'e2eProductTrig01',
};

/** Issue 10's example of an EAN whose key the service may answer without its leading zero. */
const EAN_WITH_LEADING_ZERO = '0256973361260';
/** Products the issue 10 workflow changes (no other workflow touches them). */
const ISSUE10_PRODUCTS = { repeated: 100030, discounted: [100031, 100032], commaPrice: 100033 };

/** Whole output items (json and binary) of one node. */
function nodeItems(execution: CliExecutionResult, nodeName: string): Array<{ json: Json; binary?: Record<string, Json> }> {
	const runs = execution.data.resultData.runData[nodeName] ?? [];
	return runs.flatMap((run) => (run.data?.main?.[0] ?? []) as Array<{ json: Json; binary?: Record<string, Json> }>);
}

function assertSucceeded(execution: CliExecutionResult): void {
	const error = execution.data.resultData.error;
	assert.equal(execution.status, 'success', `execution ${execution.status}: ${error?.message ?? ''} ${error?.description ?? ''}`);
}

/** A workflow file, with placeholders (`__SANDBOX_URL__` …) replaced by values known once the sandbox runs. */
async function readWorkflow(file: string, placeholders: Record<string, string> = {}): Promise<Json & { id: string }> {
	let text = await readFile(path.join(WORKFLOWS_DIR, file), 'utf8');
	for (const [placeholder, value] of Object.entries(placeholders)) text = text.split(placeholder).join(value);
	return JSON.parse(text) as Json & { id: string };
}

/** `/__sandbox/…` over HTTP, as n8n-side tooling would use it. */
async function sandboxControl<T>(sandbox: Sandbox, method: string, controlPath: string, body?: unknown): Promise<T> {
	const response = await fetch(`${sandbox.url}/__sandbox/${controlPath}`, {
		method,
		headers: body === undefined ? {} : { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
		signal: AbortSignal.timeout(10_000),
	});
	const text = await response.text();
	if (!response.ok) throw new Error(`sandbox ${method} /__sandbox/${controlPath}: HTTP ${response.status} ${text.slice(0, 200)}`);
	return (text ? JSON.parse(text) : undefined) as T;
}

/** A call to the sandbox's API itself, with a token of its client: to see what it answers under a variant. */
async function sandboxApi<T>(sandbox: Sandbox, method: string, apiPath: string, body?: unknown): Promise<T> {
	const call = async (callPath: string, headers: Record<string, string>, callBody: unknown) => {
		const response = await fetch(`${sandbox.url}${callPath}`, {
			method: callPath === apiPath ? method : 'POST',
			headers: { 'content-type': 'application/json', ...headers },
			body: callBody === undefined ? undefined : JSON.stringify(callBody),
			signal: AbortSignal.timeout(10_000),
		});
		const text = await response.text();
		if (!response.ok) throw new Error(`sandbox ${callPath}: HTTP ${response.status} ${text.slice(0, 200)}`);
		return text ? (JSON.parse(text) as unknown) : undefined;
	};
	const token = (await call(
		'/iam/api/v1/auth/token',
		{},
		{ grantType: 'CLIENT_CREDENTIALS', ...sandbox.client, scope: 'public_api/full_access' },
	)) as Json;
	// Under the keySpellings variant the token answer's keys are respelled too (`access_token `).
	const accessToken = Object.entries(token).find(([key]) => key.trim().toLowerCase() === 'access_token')?.[1];
	return (await call(apiPath, { authorization: `Bearer ${String(accessToken)}` }, body)) as T;
}

/** Runs `body` with sandbox variants on (over HTTP, as for n8n in another process), then resets them all. */
async function underVariants<T>(sandbox: Sandbox, variants: Json, body: () => Promise<T>): Promise<T> {
	await sandboxControl(sandbox, 'POST', 'variants', variants);
	try {
		return await body();
	} finally {
		await sandboxControl(sandbox, 'DELETE', 'variants');
	}
}
function invoicedMs(document: Invoice): number {
	return Date.parse(`${document.invoiceHeader.orderDetails.invoicedDate}Z`);
}

function utcDayStart(ms: number): number {
	const date = new Date(ms);
	return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
}

// ---------------------------------------------------------------------------------------------
// Checks through `n8n execute`

async function checkReadOperations(installation: N8nInstallation, userFolder: string, sandbox: Sandbox): Promise<void> {
	sandbox.clearLog();
	const startedAt = Date.now();
	let execution: CliExecutionResult | undefined;
	const ran = await check('execute: read workflow runs (Warehouse, Product, Invoice, Invoice Correction, Price, PDFs)', async () => {
		execution = await executeWorkflow(installation, userFolder, WORKFLOW_IDS.read);
		assertSucceeded(execution);
	});
	if (!ran || !execution) return;
	const run = execution;
	const finishedAt = Date.now();

	await check('Warehouse > Get Many lists every warehouse', async () => {
		const warehouses = nodeOutput(run, 'Warehouses');
		assert.deepEqual(
			warehouses.map((warehouse) => warehouse.id),
			sandbox.state.warehouses.map((warehouse) => warehouse.id),
		);
		return `${warehouses.length} warehouses`;
	});

	await check('Product > Get Many with Return All reads every page', async () => {
		const products = nodeOutput(run, 'Products');
		assert.deepEqual(
			products.map((product) => product.id),
			sandbox.state.products.map((product) => product.id),
		);
		// Pages go out ahead of the answers, so they may arrive in any order, and up to 4 past the
		// short last page (2) may be sent; the output above is in page order all the same.
		const pages = sandbox.log
			.filter((entry) => entry.route === 'products' && entry.status === 200)
			.map((entry) => Number(entry.query.page))
			.sort((a, b) => a - b);
		assert.deepEqual(pages.slice(0, 3), [0, 1, 2]);
		assert.ok(pages.length <= 3 + 4, `pages sent: ${pages.join(', ')}`);
		assert.equal(new Set(pages).size, pages.length, `a page was sent twice: ${pages.join(', ')}`);
		return `${products.length} products over pages ${pages.join(', ')}`;
	});

	await check('Invoice > Get Many returns the invoices of the last 20 days', async () => {
		const from = utcDayStart(startedAt) - 20 * DAY_MS;
		const expected = sandbox.state.invoices.filter((invoice) => invoicedMs(invoice) >= from && invoicedMs(invoice) <= finishedAt);
		const invoices = nodeOutput(run, 'Invoices');
		assert.ok(expected.length > 0, 'the sandbox has no invoices in that period');
		assert.deepEqual(invoices.map(invoiceIdOf), expected.map(invoiceIdOf));
		// The workflow leaves Simplify out: on by default.
		assert.ok(invoices.every((invoice) => !('invoiceHeader' in invoice) && typeof invoice.suborderId === 'string'), 'not simplified');
		return `${invoices.length} invoices, simplified`;
	});

	await check('Invoice > Get Many with every default: the last 7 days, Limit 50, simplified', async () => {
		const windowRequests = sandbox.log.filter((entry) => {
			const from = Date.parse(String(entry.query.dateFrom));
			return entry.route === 'invoices' && from > startedAt - 8 * DAY_MS && from <= finishedAt - 7 * DAY_MS;
		});
		assert.equal(windowRequests.length, 1, `requests from 7 days back: ${JSON.stringify(windowRequests.map((entry) => entry.query))}`);
		const from = Date.parse(String(windowRequests[0].query.dateFrom));
		const to = Date.parse(String(windowRequests[0].query.dateTo));
		assert.ok(to >= startedAt && to <= finishedAt, `Date To ${String(windowRequests[0].query.dateTo)} is not the time of the run`);
		const expected = sandbox.state.invoices.filter((invoice) => invoicedMs(invoice) >= from && invoicedMs(invoice) <= to).slice(0, 50);
		const invoices = nodeOutput(run, 'Invoices With Defaults');
		assert.ok(expected.length > 0, 'the sandbox has no invoices in the last 7 days');
		assert.deepEqual(invoices.map(invoiceIdOf), expected.map(invoiceIdOf));
		assert.ok(invoices.every((invoice) => !('invoiceHeader' in invoice)), 'not simplified');
		return `${invoices.length} invoices from ${String(windowRequests[0].query.dateFrom)}`;
	});

	await check('Invoice Correction > Get Many returns the corrections of the last 2 months', async () => {
		const corrections = nodeOutput(run, 'Invoice Corrections');
		const fromDate = new Date(startedAt);
		fromDate.setUTCMonth(fromDate.getUTCMonth() - 2);
		const from = utcDayStart(fromDate.getTime());
		const expected = sandbox.state.corrections.filter((correction) => {
			const at = Date.parse(`${correction.invoiceHeader.orderDetails.invoicedDate}Z`);
			return at >= from && at <= finishedAt;
		});
		assert.ok(expected.length > 0, 'the sandbox has no corrections in that period');
		assert.deepEqual(
			corrections.map((correction) => correction.invoiceNumber),
			expected.map((correction) => correction.invoiceHeader.orderDetails.invoiceNumber),
		);
		return `${corrections.length} corrections`;
	});

	await check('Price > Get Many gives the price of each asked product', async () => {
		const prices = nodeOutput(run, 'Prices');
		assert.deepEqual(
			prices.map((price) => Number(price.merchantInventoryId)),
			[100001, 100002, 100003],
		);
		for (const price of prices) {
			const product = sandbox.state.product(Number(price.merchantInventoryId));
			assert.ok(product, `product ${String(price.merchantInventoryId)} unknown`);
			assert.equal(price.basePrice, product.basePrice);
		}
		return `${prices.length} prices`;
	});

	await check('Invoice > Get Document Links with Download PDFs gives PDF binary data', async () => {
		const items = nodeItems(run, 'Invoice PDFs');
		const expectedIds = nodeOutput(run, 'Invoices').slice(0, 2).map(invoiceIdOf);
		assert.deepEqual(
			items.map((item) => item.json.documentCorrelationId),
			expectedIds,
		);
		for (const [index, item] of items.entries()) {
			const file = item.binary?.pdf;
			assert.ok(file, `item ${index} has no binary property "pdf"`);
			assert.equal(file.mimeType, 'application/pdf');
			assert.equal(file.fileName, `${expectedIds[index]}.pdf`);
			const content = await binaryContent(userFolder, file);
			assert.equal(content.subarray(0, 4).toString('latin1'), '%PDF', 'the file is not a PDF');
			assert.ok(content.toString('latin1').includes(expectedIds[index]), 'the PDF does not name its invoice');
		}
		assert.equal(sandbox.count('document'), 2, 'document downloads');
		return `${items.length} PDFs`;
	});
}

/**
 * The bytes of a binary property in CLI output: inline base64, or (n8n's filesystem mode, the
 * default) a file under the user folder's storage folder, found by the id's last segment.
 */
async function binaryContent(userFolder: string, file: Json): Promise<Buffer> {
	const id = String(file.id ?? '');
	if (!id) return Buffer.from(String(file.data ?? ''), 'base64');
	const name = path.basename(id.slice(id.indexOf(':') + 1));
	// `storage` since n8n 2.x, `binaryData` in folders created by older versions.
	for (const folder of ['storage', 'binaryData']) {
		const root = path.join(userFolder, '.n8n', folder);
		const entries = await readdir(root, { recursive: true }).catch(() => [] as string[]);
		const found = entries.find((entry) => path.basename(entry) === name);
		if (found) return await readFile(path.join(root, found));
	}
	throw new Error(`binary data ${id} not found in the user folder`);
}

async function checkWriteOperations(installation: N8nInstallation, userFolder: string, sandbox: Sandbox): Promise<void> {
	sandbox.clearLog();
	let execution: CliExecutionResult | undefined;
	const ran = await check('execute: write workflow runs (Code > Product Update Many > Discount Schedule)', async () => {
		execution = await executeWorkflow(installation, userFolder, WORKFLOW_IDS.write);
		assertSucceeded(execution);
	});
	if (!ran || !execution) return;
	const run = execution;

	await checkWriteResults(run, {
		stockLevel: async (productId) => sandbox.state.product(productId)?.stockLevel,
		bulkItemCounts: async () => sandbox.log.filter((entry) => entry.route === 'productBulk').map((entry) => entry.itemCount),
		discounts: async () => sandbox.state.discounts,
	});
}

/**
 * Values issue10-rows.json needs: the sandbox URL (its nodes switch variants over HTTP between the
 * merchant nodes), a recent suborder, and a product whose EAN starts with 0 (added here).
 */
async function issue10Placeholders(sandbox: Sandbox): Promise<Record<string, string>> {
	const now = Date.now();
	const recent = sandbox.state.invoices.filter((candidate) => invoicedMs(candidate) >= now - 30 * DAY_MS && invoicedMs(candidate) <= now);
	assert.ok(recent.length >= 3, 'the sandbox has fewer than 3 invoices in the last 30 days');
	const suborderOf = (invoice: Invoice) => invoice.invoiceHeader.orderDetails.suborderId;
	await sandboxApi(sandbox, 'POST', '/product/api/v1/merchant-integration/import', {
		ean: EAN_WITH_LEADING_ZERO,
		name: 'E2E proizvod sa vodećom nulom',
		description: 'EAN with a leading zero',
		coverImage: 'https://images.example/e2e.jpg',
		basePrice: 1000,
		vat: 20,
	});
	return {
		__SANDBOX_URL__: sandbox.url,
		__SUBORDER_ID__: suborderOf(recent[0]),
		__TWO_SUBORDER_IDS__: `${suborderOf(recent[1])},${suborderOf(recent[2])}`,
		__EAN_WITH_LEADING_ZERO__: EAN_WITH_LEADING_ZERO,
	};
}

/**
 * Rows of issue 10's table in a real n8n. The last three are fixed on other branches (parser,
 * reader); each first checks that the sandbox really answers in the variant's shape.
 */
async function checkIssue10Rows(installation: N8nInstallation, userFolder: string, sandbox: Sandbox): Promise<void> {
	sandbox.clearLog();
	const commaProductBefore = sandbox.state.product(ISSUE10_PRODUCTS.commaPrice);
	let execution: CliExecutionResult | undefined;
	const ran = await check('execute: issue 10 rows workflow runs (sandbox variants switched over HTTP between its nodes)', async () => {
		try {
			execution = await executeWorkflow(installation, userFolder, WORKFLOW_IDS.issue10);
			assertSucceeded(execution);
		} finally {
			await sandboxControl(sandbox, 'DELETE', 'variants');
		}
	});
	if (!ran || !execution) return;
	const run = execution;

	await check('issue 10: Product > Update Many with one id twice (stock 31, 32): each result echoes its own input', async () => {
		const updates = nodeOutput(run, 'Update Repeated Id');
		const id = ISSUE10_PRODUCTS.repeated;
		assert.deepEqual(
			updates.map((update) => [update.id, update.success, (update.input as Json).stockLevel]),
			[
				[id, true, 31],
				[id, true, 32],
			],
		);
		assert.equal(sandbox.state.product(id)?.stockLevel, 32);
		return 'inputs 31 and 32';
	});

	await check('issue 10: Discount > Schedule answered with an empty scheduleResult: one failed item per entry', async () => {
		const scheduled = nodeOutput(run, 'Schedule Without Results');
		assert.deepEqual(
			scheduled.map((item) => [(item.input as Json).merchantInventoryId, item.success]),
			ISSUE10_PRODUCTS.discounted.map((id) => [id, false]),
		);
		for (const item of scheduled) assert.match(String(item.error), /returned no result for this entry/);
		const requests = sandbox.log.filter((entry) => entry.route === 'discountSchedule').map((entry) => [entry.status, entry.itemCount]);
		assert.deepEqual(requests, [[200, 2]]);
		return `${scheduled.length} items with success false`;
	});

	await check('issue 10: Invoice > Get Document Links keyed by suborderIdNumberValue: the one requested suborder, or null for several; never the schema name', async () => {
		const asked = sandbox.log.filter((entry) => entry.route === 'invoiceUrls' && entry.status === 200).map((entry) => entry.query.suborderIds);
		assert.equal(asked.length, 2, `answered /urls requests: ${JSON.stringify(asked)}`);
		const invoiceIdOfSuborder = (suborderId: string) =>
			sandbox.state.invoices.find((invoice) => invoice.invoiceHeader.orderDetails.suborderId === suborderId)?.invoiceHeader.orderDetails.invoiceId;
		const [one, several] = [asked[0], asked[1].split(',')];
		const linkPairs = (nodeName: string) => nodeOutput(run, nodeName).map((link) => [link.suborderId, link.documentCorrelationId]);
		assert.deepEqual(linkPairs('Links By Schema Name'), [[one, invoiceIdOfSuborder(one)]]);
		assert.deepEqual(
			linkPairs('Links Of Two By Schema Name'),
			several.map((suborderId) => [null, invoiceIdOfSuborder(suborderId)]),
		);
		return `suborder ${one}; ${several.join(', ')} → null`;
	});

	await check('issue 10 (parser branch): Product > Update with Base Price "1,299" fails naming the field and sends nothing', async () => {
		const runs = run.data.resultData.runData['Price With Comma'] ?? [];
		const items = runs.flatMap((nodeRun) => nodeRun.data?.main?.[0] ?? []);
		const shown = JSON.stringify(items);
		assert.equal(items.length, 1, `items: ${shown.slice(0, 300)}`);
		assert.match(shown, /Base Price/, `no error naming Base Price: ${shown.slice(0, 300)}`);
		assert.match(shown, /1,299/, 'the error does not show the value as given');
		assert.equal(sandbox.log.filter((entry) => entry.route === 'productUpdate').length, 0, 'the update was sent');
		assert.deepEqual(sandbox.state.product(ISSUE10_PRODUCTS.commaPrice), commaProductBefore, 'the product changed');
		return 'rejected before sending';
	});

	await check('issue 10 (reader branch): Warehouse > Get Many with keys spelled as live ("defaultAddress "): the default warehouse is kept', async () => {
		const raw = await underVariants(sandbox, { keySpellings: true }, async () =>
			sandboxApi<{ content: Json[] }>(sandbox, 'GET', '/order/api/v1/merchant-integration/merchant-warehouses'),
		);
		const spelled = Object.keys(raw.content[0] ?? {}).filter((key) => key !== 'defaultAddress' && key.trim().toLowerCase() === 'defaultaddress');
		assert.ok(spelled.length > 0, `the sandbox does not spell the key otherwise under keySpellings: ${JSON.stringify(raw.content[0])}`);
		const warehouses = nodeOutput(run, 'Warehouses Spelled');
		assert.deepEqual(
			warehouses.map((warehouse) => [warehouse.id, warehouse.defaultAddress]),
			sandbox.state.warehouses.map((warehouse) => [warehouse.id, warehouse.defaultAddress]),
		);
		return `sandbox key ${JSON.stringify(spelled[0])}`;
	});

	await check('issue 10 (reader branch): Product > Check EANs answered without the leading zero: exists true', async () => {
		const raw = await underVariants(sandbox, { eanKeysWithoutLeadingZeros: true }, async () =>
			sandboxApi<unknown>(sandbox, 'POST', '/product/api/v1/merchant-integration/ean/exists', [EAN_WITH_LEADING_ZERO]),
		);
		const rawText = JSON.stringify(raw);
		assert.ok(
			rawText.includes(`"${EAN_WITH_LEADING_ZERO.replace(/^0+/, '')}"`) && !rawText.includes(`"${EAN_WITH_LEADING_ZERO}"`),
			`the sandbox keeps the leading zero under eanKeysWithoutLeadingZeros: ${rawText}`,
		);
		assert.deepEqual(
			nodeOutput(run, 'EAN Without Zero').map((item) => [item.ean, item.exists]),
			[[EAN_WITH_LEADING_ZERO, true]],
		);
		return `sandbox answered ${rawText}`;
	});
}

/** The one output item of a node run with On Error = Continue, as text: the error it carries. */
function rejectionOf(execution: CliExecutionResult, nodeName: string): string {
	const items = nodeItems(execution, nodeName);
	const shown = JSON.stringify(items);
	assert.equal(items.length, 1, `${nodeName} items: ${shown.slice(0, 300)}`);
	assert.ok(items[0].json.error, `${nodeName} did not fail: ${shown.slice(0, 300)}`);
	return shown;
}

/**
 * A sandbox call made right after a workflow's requests: repeated (at most 3 times, a second
 * apart) while the sandbox's rate limit of 5 requests per second refuses it with 429.
 */
async function withinRateLimit<T>(call: () => Promise<T>): Promise<T> {
	for (let attempt = 1; ; attempt++) {
		try {
			return await call();
		} catch (error) {
			if (attempt >= 3 || !/HTTP 429/.test(String(error))) throw error;
			await sleep(1_100);
		}
	}
}

/** The error message a node's first output item carries, shortened for a check's line. */
function errorOf(execution: CliExecutionResult, nodeName: string): string {
	return String(nodeItems(execution, nodeName)[0]?.json.error ?? '').slice(0, 120);
}

/** Requests the sandbox logged for a route (the log is cleared before the workflow runs). */
function requestsTo(sandbox: Sandbox, route: string): number {
	return sandbox.log.filter((entry) => entry.route === route).length;
}

/**
 * The other rows of issue 10's table (issue10-more-rows.json): values rejected before anything is
 * sent, and answers in the live service's other shapes, compared with the plain answer from the
 * same run. Every merchant node has On Error = Continue, so a failing row fails its own check
 * (an error item) and does not stop the rows after it.
 */
async function checkIssue10MoreRows(installation: N8nInstallation, userFolder: string, sandbox: Sandbox): Promise<void> {
	sandbox.clearLog();
	let execution: CliExecutionResult | undefined;
	const ran = await check('execute: issue 10 more rows workflow runs', async () => {
		try {
			execution = await executeWorkflow(installation, userFolder, WORKFLOW_IDS.issue10More);
			assertSucceeded(execution);
		} finally {
			await sandboxControl(sandbox, 'DELETE', 'variants');
		}
	});
	if (!ran || !execution) return;
	const run = execution;

	await check('issue 10: Product > Update with Stock Level "1,000" or Product ID "1e3" fails naming the field and sends nothing', async () => {
		const stock = rejectionOf(run, 'Stock With Comma');
		assert.match(stock, /Stock Level/, `no error naming Stock Level: ${stock.slice(0, 300)}`);
		assert.match(stock, /1,000/, 'the error does not show the value as given');
		const id = rejectionOf(run, 'Id With Exponent');
		assert.match(id, /Product ID/, `no error naming Product ID: ${id.slice(0, 300)}`);
		assert.match(id, /1e3/, 'the error does not show the value as given');
		assert.equal(requestsTo(sandbox, 'productUpdate'), 0, 'an update was sent');
		assert.equal(sandbox.state.product(1000), undefined, 'the sandbox has a product 1000');
		return `0 update requests; ${errorOf(run, 'Stock With Comma')}`;
	});

	await check('issue 10: Discount > Schedule with discountPrice "1,299" or dateFrom 31/02 of next year fails naming the field and sends nothing', async () => {
		const price = rejectionOf(run, 'Discount Price With Comma');
		assert.match(price, /Discounts \(JSON\) › entry 1 › Discount Price \(discountPrice\)/, `no error naming the entry's Discount Price: ${price.slice(0, 300)}`);
		assert.match(price, /1,299/, 'the error does not show the value as given');
		const date = rejectionOf(run, 'Discount On 31 February');
		assert.match(date, /Discounts \(JSON\) › entry 1 › Date From \(dateFrom\)/, `no error naming the entry's Date From: ${date.slice(0, 300)}`);
		assert.match(date, /31\/02\/\d{4}/, 'the error does not show the value as given');
		assert.equal(requestsTo(sandbox, 'discountSchedule'), 0, 'a discount was sent');
		return `0 schedule requests; ${errorOf(run, 'Discount On 31 February')}`;
	});

	await check('issue 10: Product > Get Many with Modified After 31/02/2026 fails and asks for nothing', async () => {
		const shown = rejectionOf(run, 'Modified After 31 February');
		assert.match(shown, /Modified After/, `no error naming Modified After: ${shown.slice(0, 300)}`);
		assert.match(shown, /31\/02\/2026/, 'the error does not show the value as given');
		assert.equal(requestsTo(sandbox, 'products'), 0, 'products were asked for');
		return `0 product requests; ${errorOf(run, 'Modified After 31 February')}`;
	});

	await check('issue 10: Product > Import with an empty description or cover image fails naming the field; no import sent', async () => {
		const description = rejectionOf(run, 'Import Without Description');
		assert.match(description, /Description/, `no error naming Description: ${description.slice(0, 300)}`);
		const cover = rejectionOf(run, 'Import Without Cover Image');
		assert.match(cover, /Cover Image/, `no error naming Cover Image: ${cover.slice(0, 300)}`);
		assert.equal(requestsTo(sandbox, 'import'), 0, 'an import was sent');
		return `0 import requests; ${errorOf(run, 'Import Without Cover Image')}`;
	});

	await check('issue 10 (reader): Invoice Correction > Get Many, Simplify, paymentMethods as a string "[COD, VOUCHER]": the same lists', async () => {
		const [asked] = sandbox.log.filter((entry) => entry.route === 'invoiceCorrections' && entry.status === 200).map((entry) => entry.query);
		const raw = await underVariants(sandbox, { stringifiedLists: true }, async () =>
			withinRateLimit(async () =>
				sandboxApi<unknown>(sandbox, 'GET', `/order/api/v1/merchant-integration/invoice-corrections?${new URLSearchParams(asked).toString()}`),
			),
		);
		assert.match(JSON.stringify(raw), /"paymentMethods":"\[/, 'the sandbox does not stringify paymentMethods under stringifiedLists');
		const plain = nodeOutput(run, 'Corrections Simplified').map((correction) => correction.paymentMethods);
		const fromStrings = nodeOutput(run, 'Corrections Simplified From Strings').map((correction) => correction.paymentMethods);
		assert.ok(plain.length > 0, 'no corrections');
		assert.ok(plain.some((methods) => Array.isArray(methods) && methods.length > 0), `no payment methods: ${JSON.stringify(plain)}`);
		for (const methods of fromStrings) assert.ok(Array.isArray(methods), `not a list: ${JSON.stringify(methods)}`);
		assert.deepEqual(fromStrings, plain);
		return `${plain.length} corrections, e.g. ${JSON.stringify(plain.find((methods) => Array.isArray(methods) && methods.length > 0))}`;
	});

	await check('issue 10 (reader): Invoice > Get Many as XML with <item> lists, unwrapped lists, nulls as empty elements: items equal the JSON answer', async () => {
		const json = nodeOutput(run, 'Invoices As JSON');
		assert.ok(json.length > 0, 'no invoices');
		assert.deepEqual(nodeOutput(run, 'Invoices As XML Items'), json, 'XML with <item> lists differs from JSON');
		assert.deepEqual(nodeOutput(run, 'Invoices As XML Unwrapped'), json, 'XML with unwrapped lists differs from JSON');
		const xmlAnswers = sandbox.log.filter((entry) => entry.route === 'invoices' && entry.status === 200).length;
		assert.ok(xmlAnswers >= 3, `invoice answers: ${xmlAnswers}`);
		return `${json.length} invoices, equal in all three`;
	});

	await check('issue 10: Price > Get Many with 150 ids, the first 100 without a price (404): the other 50 prices come out', async () => {
		const requests = sandbox.log.filter((entry) => entry.route === 'prices').map((entry) => [entry.status, entry.itemCount]);
		assert.deepEqual(requests.slice().sort(), [[200, 50], [404, 100]], `price requests: ${JSON.stringify(requests)}`);
		const items = nodeItems(run, 'Prices Of 150 Ids');
		assert.ok(items.every((item) => !item.json.error), `an item failed: ${JSON.stringify(items).slice(0, 300)}`);
		const expected = Array.from({ length: 50 }, (_, index) => 100001 + index);
		assert.deepEqual(
			items.map((item) => item.json.merchantInventoryId),
			expected,
		);
		return '50 prices from the second request';
	});

	await check('issue 10: Product > Check EANs with invalid check digits: checked, one item per EAN, no error', async () => {
		assert.deepEqual(
			nodeOutput(run, 'Invalid Check Digits').map((item) => [item.ean, item.exists]),
			[
				['5901234123458', false],
				['4006381333932', false],
			],
		);
		assert.deepEqual(
			sandbox.log.filter((entry) => entry.route === 'eanExists').map((entry) => [entry.status, entry.itemCount]),
			// Each EAN-13 goes out with its GTIN-14 form (issue 38: the forms of one code are one EAN), in one request.
			[[200, 4]],
		);
		return 'sent and answered';
	});
}

async function checkSync(installation: N8nInstallation, userFolder: string, sandbox: Sandbox): Promise<void> {
	sandbox.clearLog();
	const stockBefore = sandbox.state.product(100001)?.stockLevel;
	await check('Product > Sync Stock and Prices: the dry run sends nothing, the real run only the one change', async () => {
		const execution = await executeWorkflow(installation, userFolder, WORKFLOW_IDS.sync);
		assertSucceeded(execution);
		const planned = nodeOutput(execution, 'Dry Run');
		assert.deepEqual(
			planned.map((item) => [item.id, item.status]),
			[
				[100001, 'planned'],
				[100003, 'guarded'],
				[100004, 'unchanged'],
				[null, 'not_found'],
			],
		);
		const [summary] = nodeOutput(execution, 'Sync');
		assert.deepEqual(summary.counts, { updated: 1, unchanged: 1, guarded: 1, price_unreadable: 0, not_found: 1, ambiguous: 0, failed: 0, planned: 0, invalid: 0 });
		assert.equal(sandbox.state.product(100001)?.stockLevel, 12);
		assert.equal(sandbox.state.product(100003)?.newBasePrice, 278119);
		assert.deepEqual(
			sandbox.log.filter((entry) => entry.route === 'productBulk').map((entry) => entry.itemCount),
			[1],
		);
		return `stock of 100001 ${String(stockBefore)} → 12; the 2781.19 price held back`;
	});
}

async function checkTokenExpiry(installation: N8nInstallation, userFolder: string, sandbox: Sandbox): Promise<void> {
	await check('a token expiring mid-run is renewed and the run succeeds', async () => {
		await sandboxControl(sandbox, 'POST', 'token-lifetime', { seconds: 1 });
		// The token saved in the credential by earlier runs is still valid for 15 minutes.
		await sandboxControl(sandbox, 'POST', 'expire-tokens');
		await sandboxControl(sandbox, 'DELETE', 'log');
		try {
			const execution = await executeWorkflow(installation, userFolder, WORKFLOW_IDS.tokenExpiry);
			assertSucceeded(execution);
			assert.equal(nodeOutput(execution, 'Before').length, sandbox.state.warehouses.length);
			assert.equal(nodeOutput(execution, 'After').length, sandbox.state.warehouses.length);
		} finally {
			await sandboxControl(sandbox, 'POST', 'token-lifetime', { seconds: 900 });
		}
		const log = await sandboxControl<Array<{ route: string; status: number }>>(sandbox, 'GET', 'log');
		const tokenRequests = log.filter((entry) => entry.route === 'token' && entry.status === 200).length;
		const rejected = log.filter((entry) => entry.route === 'warehouses' && entry.status === 401).length;
		// Mid-run: a new token is fetched after the first node already got its answer.
		const firstAnswer = log.findIndex((entry) => entry.route === 'warehouses' && entry.status === 200);
		const renewedAfter = log.slice(firstAnswer + 1).some((entry) => entry.route === 'token' && entry.status === 200);
		assert.ok(firstAnswer >= 0 && renewedAfter, `no token request after the first answer: ${JSON.stringify(log.map((entry) => [entry.route, entry.status]))}`);
		assert.ok(rejected >= 1, 'expected the expired token to be refused once');
		return `${tokenRequests} token requests, ${rejected} request(s) refused with 401 and repeated`;
	});
}

// ---------------------------------------------------------------------------------------------
// Checks against a running n8n

interface TypeDescription {
	name: string;
	displayName: string;
	iconUrl?: string | { light: string; dark: string };
	[key: string]: unknown;
}

async function getJson<T>(session: N8nOwnerSession, instancePath: string): Promise<T> {
	const response = await session.get(instancePath);
	const text = await response.text();
	if (!response.ok) throw new Error(`GET ${instancePath}: HTTP ${response.status} ${text.slice(0, 200)}`);
	return JSON.parse(text) as T;
}

/** Fetches both icon variants of a type description and checks they are SVG files. */
async function checkIcons(session: N8nOwnerSession, description: TypeDescription): Promise<string> {
	const iconUrl = description.iconUrl;
	assert.ok(iconUrl, `${description.name} has no iconUrl`);
	const urls = typeof iconUrl === 'string' ? [iconUrl] : [iconUrl.light, iconUrl.dark];
	for (const url of urls) {
		const response = await session.get(`/${url.replace(/^\//, '')}`);
		const body = await response.text();
		assert.equal(response.status, 200, `icon ${url}: HTTP ${response.status}`);
		assert.match(response.headers.get('content-type') ?? '', /svg/, `icon ${url} content type`);
		assert.match(body, /<svg[\s>]/, `icon ${url} is not an SVG`);
	}
	return urls.join(', ');
}

async function checkListedTypes(session: N8nOwnerSession): Promise<void> {
	await check('n8n lists the node and the trigger, with icons served as SVG', async () => {
		const nodeTypes = await getJson<TypeDescription[]>(session, '/types/nodes.json');
		const node = nodeTypes.find((type) => type.name === NODE_TYPE);
		const trigger = nodeTypes.find((type) => type.name === TRIGGER_TYPE);
		assert.ok(node, `${NODE_TYPE} is not listed (${nodeTypes.length} node types)`);
		assert.ok(trigger, `${TRIGGER_TYPE} is not listed`);
		assert.equal(node.displayName, 'Marketplace Merchant');
		assert.equal(trigger.displayName, 'Marketplace Merchant Trigger');
		await checkIcons(session, node);
		await checkIcons(session, trigger);
		return `${nodeTypes.length} node types loaded`;
	});

	await check('n8n lists the credential type, with icons served as SVG', async () => {
		const credentialTypes = await getJson<TypeDescription[]>(session, '/types/credentials.json');
		const credential = credentialTypes.find((type) => type.name === CREDENTIAL_TYPE);
		assert.ok(credential, `${CREDENTIAL_TYPE} is not listed`);
		assert.equal(credential.displayName, 'Marketplace Merchant API');
		return await checkIcons(session, credential);
	});
}

/** Product Changed: activation fires for nothing; a sale fires once for the sold product. */
async function checkProductTrigger(api: N8nPublicApi, sandbox: Sandbox): Promise<void> {
	const workflowId = WORKFLOW_IDS.productTrigger;
	const sold = sandbox.state.products.find((product) => product.stockLevel > 5 && product.id > 100_100);
	await check('trigger Product Changed: activation fires for nothing, a sale fires once for the sold product', async () => {
		assert.ok(sold, 'no product with stock');
		const reads = () => sandbox.log.filter((entry) => entry.route === 'basicProducts' && entry.status === 200).length;
		await api.activateWorkflow(workflowId);
		await waitFor('the first poll', () => reads() > 0);
		await sleep(1_000);
		assert.equal((await api.listExecutions({ workflowId })).length, 0, 'the first poll fired');

		await sandboxControl(sandbox, 'POST', 'product-changes', { id: sold.id, sold: 2 });
		await pollNow(api, workflowId);
		const [execution] = await api.waitForExecutions(workflowId, 1, { timeoutMs: 20_000 });
		const items = execution.data?.resultData.runData['Product Changed']?.[0]?.data?.main?.[0] ?? [];
		assert.deepEqual(
			items.map((item) => [item.json.id, item.json.stockLevel]),
			[[sold.id, sold.stockLevel - 2]],
		);

		const readsBefore = reads();
		await pollNow(api, workflowId);
		await waitFor('the next poll', () => reads() > readsBefore);
		await sleep(1_500);
		assert.equal((await finishedExecutions(api, workflowId)).length, 1, 'the same sale fired twice');
		await api.deactivateWorkflow(workflowId);
		return `product ${sold.id}: stock ${sold.stockLevel} → ${sold.stockLevel - 2}`;
	});
}

/**
 * Product Changed against a service honouring only the current pages' filter name
 * (`dateModifiedAfter`): idle polls stay one request each and fire nothing, and what they read is
 * what changed since the last poll (less the trigger's 10-minute overlap), not the catalogue a
 * service ignoring `date-modified-after` would answer. Runs after checkProductTrigger, on its state.
 */
/** The trigger's POLL_OVERLAP_MS (nodes/MarketplaceMerchantTrigger/productChanges.ts). */
const PRODUCT_POLL_OVERLAP_MS = 10 * 60_000;

async function checkProductTriggerDocumentedFilter(api: N8nPublicApi, sandbox: Sandbox): Promise<void> {
	const workflowId = WORKFLOW_IDS.productTrigger;
	await check('trigger Product Changed, service honouring only dateModifiedAfter: idle polls one request each, nothing fired, only recent changes read', async () => {
		return await underVariants(sandbox, { basicProductsModifiedFilter: 'documented' }, async () => {
			const startedAt = Date.now();
			const executionsBefore = (await finishedExecutions(api, workflowId)).length;
			const reads = () => sandbox.log.filter((entry) => entry.route === 'basicProducts' && entry.status === 200);
			sandbox.clearLog();
			// The workflow is inactive after checkProductTrigger: activating it polls at once.
			for (let poll = 1; poll <= 3; poll++) {
				if (poll === 1) await api.activateWorkflow(workflowId);
				else await pollNow(api, workflowId);
				await waitFor(`idle poll ${poll}`, () => reads().length >= poll);
			}
			await sleep(1_500);
			await api.deactivateWorkflow(workflowId);
			assert.equal((await finishedExecutions(api, workflowId)).length, executionsBefore, 'an idle poll fired');
			// One request per poll (a scheduled poll may add one of its own): each the first page, with the time filter.
			const polls = reads();
			assert.deepEqual(
				polls.filter(({ query }) => query.page !== '0' || query.dateModifiedAfter === undefined),
				[],
				'a poll read more than one page, or without the time filter',
			);
			const { query } = polls[polls.length - 1];
			assert.match(query.dateModifiedAfter ?? '', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/, `query ${JSON.stringify(query)}`);
			// What the last idle poll read, asked again: the products changed since its timestamp only.
			const answered = await sandboxApi<Array<{ id: number }>>(sandbox, 'GET', `/product/api/v1/merchant-integration/basic-products?${new URLSearchParams(query).toString()}`);
			const since = `${query.dateModifiedAfter}.000Z`;
			const changedSince = sandbox.state.products.filter((product) => product.dateModified >= since).map((product) => product.id);
			assert.deepEqual(answered.map((product) => product.id), changedSince);
			// Exact, whatever the checks before changed (Import adds 2,000 products, updates touch
			// more): the last poll asked from its previous poll (during this check) less the
			// trigger's 10-minute overlap, not from midnight or further back, and the sandbox holds
			// products changed before that, which the answer left out.
			const sinceMs = Date.parse(since);
			assert.ok(
				sinceMs >= startedAt - PRODUCT_POLL_OVERLAP_MS - 1_000 && sinceMs <= Date.now() - PRODUCT_POLL_OVERLAP_MS,
				`the last idle poll read changes since ${since}, not since its previous poll (${new Date(startedAt).toISOString()} or later) less 10 minutes`,
			);
			const catalogue = sandbox.state.products.length;
			assert.ok(changedSince.length < catalogue, `all ${catalogue} products changed since ${since}: the replay cannot tell a filtered answer from the whole catalogue`);
			return `${polls.length} idle polls, one request each, ${answered.length} product(s) changed since ${since} read by the last (catalogue: ${catalogue})`;
		});
	});
}

// ---------------------------------------------------------------------------------------------

async function packageTarball(installation: N8nInstallation, packDir: string): Promise<string> {
	if (process.env.E2E_TARBALL) return path.resolve(process.env.E2E_TARBALL);
	return await packPackage(installation, REPO_DIR, packDir);
}

async function main(): Promise<void> {
	const suiteStartedAt = Date.now();
	let installation: N8nInstallation | undefined;
	let userFolder: string | undefined;
	let sandbox: Sandbox | undefined;
	let n8n: RunningN8n | undefined;
	let agentModel: ScriptedModelServer | undefined;
	let cancelDiscountId = '';
	let packPlaceholders: Record<string, string> = {};
	let heldPrice: HeldPricePlan | undefined;
	const packDir = await mkdtemp(path.join(tmpdir(), 'n8n-e2e-pack-'));
	// Issue 31: the order checks' own sandbox (in its own process) and the folder the order flow saves labels to.
	const labelsDir = await mkdtemp(path.join(tmpdir(), 'n8n-e2e-labels-'));
	let orders: OrderContext | undefined;
	let packPlan: PackPlan | undefined;
	try {
		const ready = await check('setup: n8n installed, package built, packed and installed, sandbox up', async () => {
			installation = await installN8n();
			userFolder = await createUserFolder();
			const tarball = await packageTarball(installation, packDir);
			const installed = await installCommunityPackage(installation, userFolder, tarball);
			sandbox = await startSandbox({ port: 0, seed: 1, products: SANDBOX_PRODUCTS });
			return `n8n ${installation.version}, ${installed.name}@${installed.version}, sandbox ${sandbox.url}`;
		});
		if (!ready || !installation || !userFolder || !sandbox) return;

		const imported = await check('import: credential and workflows', async () => {
			await importCredentials(installation!, userFolder!, [
				{
					...CREDENTIAL,
					type: CREDENTIAL_TYPE,
					data: { baseUrl: sandbox!.url, ...sandbox!.client, apiKey: '' },
				},
				{
					...SERVICE_HOST_CREDENTIAL,
					type: CREDENTIAL_TYPE,
					data: { baseUrl: sandbox!.url, serviceUrl: sandbox!.serviceUrl, ...sandbox!.client, apiKey: '' },
				},
			]);
			const files = (await readdir(WORKFLOWS_DIR)).filter((file) => file.endsWith('.json')).sort();
			packPlaceholders = httpRequestPlaceholders(sandbox!);
			heldPrice = planHeldPrice(sandbox!);
			const placeholders = {
				...(await issue10Placeholders(sandbox!)),
				...importPlaceholders(),
				...(await cancelPlaceholders(sandbox!, sandboxApi)),
				...packPlaceholders,
				...heldPricePlaceholders(heldPrice),
			};
			await importWorkflows(installation!, userFolder!, await Promise.all(files.map((file) => readWorkflow(file, placeholders))));
			cancelDiscountId = placeholders.__CANCEL_DISCOUNT_ID__;
			return `${files.length} workflows`;
		});
		if (!imported) return;
		await check('import: the order checks\' credential and workflows, their sandbox with two confirmed orders to pack', async () => {
			orders = await startOrderSandbox(labelsDir);
			packPlan = await preparePack(orders);
			await importOrderChecks(installation!, userFolder!, orders, packPlan);
			return orders.sandbox.url;
		});

		await checkReadOperations(installation, userFolder, sandbox);
		await checkWriteOperations(installation, userFolder, sandbox);
		await checkIssue10Rows(installation, userFolder, sandbox);
		await checkIssue10MoreRows(installation, userFolder, sandbox);
		await checkSync(installation, userFolder, sandbox);
		await checkKilograms(installation, userFolder, sandbox);
		await checkDiscountUpdate(installation, userFolder, sandbox);
		await checkCalendarBelgrade(installation, userFolder, sandbox);
		await checkInvoicePdfsOfMonth(installation, userFolder, sandbox);
		await checkDiscountCancel(installation, userFolder, sandbox, cancelDiscountId);
		const variantsOf = sandbox;
		await checkImportShapes(installation, userFolder, sandbox, async (variants, body) => await underVariants(variantsOf, variants, body));
		await checkTokenExpiry(installation, userFolder, sandbox);
		await checkServiceHostWorkflow(installation, userFolder, sandbox);
		await checkHttpRequestWrites(installation, userFolder, sandbox, packPlaceholders);
		await checkLocatorWorkflow(installation, userFolder, sandbox);
		await checkEanBatchWorkflow(installation, userFolder, sandbox);
		await checkExamples(installation, userFolder);
		await checkRowsAtScale(installation, userFolder);
		agentModel = await checkAiAgent(installation, userFolder, sandbox);
		await checkAskYourShop(installation, userFolder, sandbox);
		if (orders && packPlan) {
			await checkOrdersReturnAll(installation, userFolder, orders);
			await checkPackNotTwice(installation, userFolder, orders, packPlan);
		}

		let session: N8nOwnerSession | undefined;
		let api: N8nPublicApi | undefined;
		// The order flow saves labels: n8n 2.x lets nodes write only to the folders allowed here.
		const n8nEnv = { N8N_RESTRICT_FILE_ACCESS_TO: labelsDir };
		const started = await check('n8n starts with the package loaded; owner login and API key', async () => {
			n8n = await startN8n({ installation: installation!, userFolder: userFolder!, env: n8nEnv });
			session = await N8nOwnerSession.login(n8n.baseUrl, n8n.owner!);
			api = new N8nPublicApi(n8n.baseUrl, await session.createApiKey());
			return n8n.baseUrl;
		});
		if (!started || !session || !api || !n8n) return;
		if (installation.line[0] === 2 && installation.line[1] === 0) {
			const publicApi = api;
			await check('n8n 2.0: the workflows to activate saved as a new version over the public API (its import records none to activate)', async () => {
				for (const workflowId of [WORKFLOW_IDS.trigger, WORKFLOW_IDS.productTrigger, STREAMING_WORKFLOW_ID, ORDER_WORKFLOWS.flow, ORDER_WORKFLOWS.trigger, HELD_PRICE_WORKFLOWS.main, HELD_PRICE_WORKFLOWS.errors]) {
					await publicApi.saveAsNewVersion(workflowId);
				}
			});
		}
		await checkListedTypes(session);
		await checkEditorDescriptions(session, NODE_TYPE, TRIGGER_TYPE);
		await checkNodeCreatorSearch(session, n8n!.baseUrl, n8n!.owner!, 'Marketplace Merchant');
		await checkStoredExecutionHint(session, ROWS_WORKFLOWS.skip.id, 'Sync', ROWS_HINT);
		await checkLocatorLists(session, { nodeType: NODE_TYPE, credential: { type: CREDENTIAL_TYPE, ...CREDENTIAL } }, sandbox);
		await checkCredentialTest(session, { type: CREDENTIAL_TYPE, ...CREDENTIAL }, { baseUrl: sandbox.url, ...sandbox.client, apiKey: '' }, sandbox, n8n.pid);
		if (agentModel) await checkAiAgentStreaming(api, n8n.baseUrl, sandbox, agentModel);
		const inProcess = sandbox;
		await checkTrigger(api, WORKFLOW_IDS.trigger, {
			addInvoice: async () => invoiceIdOf(await sandboxControl<Invoice>(inProcess, 'POST', 'invoices', {})),
			invoiceRequests: async () => inProcess.log.filter((entry) => entry.route === 'invoices' && entry.status === 200).length,
		});
		sandbox.clearLog();
		await checkProductTrigger(api, sandbox);
		await checkProductTriggerDocumentedFilter(api, sandbox);
		if (heldPrice) await checkHeldPriceErrorWorkflow(api, sandbox, heldPrice, installation.line[0] >= 2);
		if (orders) {
			await checkOrderFlow(api, orders);
			// Last: it restarts n8n (the same user folder and database) between the trigger's polls.
			await checkOrderTriggerAcrossRestart(api, orders, async () => {
				await n8n?.stop();
				n8n = await startN8n({ installation: installation!, userFolder: userFolder!, env: n8nEnv });
				const restarted = await N8nOwnerSession.login(n8n.baseUrl, n8n.owner!);
				return new N8nPublicApi(n8n.baseUrl, await restarted.createApiKey('e2e after restart'));
			});
		}
	} finally {
		await n8n?.stop();
		await orders?.sandbox.close();
		await rm(labelsDir, { recursive: true, force: true });
		await agentModel?.close();
		await sandbox?.close();
		if (userFolder && !process.env.E2E_KEEP_USER_FOLDER) await removeUserFolder(userFolder);
		await rm(packDir, { recursive: true, force: true });
		reportChecks('e2e', suiteStartedAt);
	}
}

main().catch((error: unknown) => {
	console.error(error);
	console.log('0 passed, 1 failed');
	process.exitCode = 1;
});

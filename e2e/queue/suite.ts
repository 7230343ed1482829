/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error, no-console -- end-to-end suite code, run by tsx against a real n8n and never loaded by n8n: it may use process and timers, Node modules, plain errors, console output (docs/architecture.md, Toolchain). */
/**
 * Queue-mode suite: this package in n8n 2.41.1 run as operators scale it, a main instance and two
 * `n8n worker` processes sharing PostgreSQL (database) and Redis (Bull queue), driven only
 * through n8n's public API and production webhooks, against the sandbox in its own process.
 *
 *   npm run test:queue        (tsx e2e/queue/suite.ts)
 *
 * Installs redis-server and postgresql with apt-get when missing (once per machine), starts both
 * on free ports of 127.0.0.1 with temp data folders, installs n8n (cached by e2e/install-n8n.sh),
 * packs the package into one user folder, imports credentials and workflows, starts main +
 * workers, and checks: Return All, Update Many and Discount Schedule on workers; executions after
 * the service invalidated the token, 10 at once over 5 rounds; 6 executions of 60 single updates
 * for one merchant at the live limits; the trigger polling on main. Every process it starts is
 * stopped by its own process id, also on failure, Ctrl-C or SIGTERM. See e2e/README.md.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { RemoteSandbox } from '../../bench/remote-sandbox';
import type { Product, RequestLogEntry } from '../../sandbox';
import { check, invoiceIdOf, nodeOutput, reportChecks, seconds, waitFor, type Json } from '../checks';
import { installCommunityPackage, packPackage } from '../community-package';
import { createUserFolder, importCredentials, importWorkflows, installN8n, removeUserFolder, startN8n, type N8nInstallation } from '../n8n';
import { N8nOwnerSession, N8nPublicApi, type PublicApiExecution } from '../n8n-api';
import { assertOneBatch, assertPaired, ROWS_CATALOGUE, ROWS_CREDENTIAL, ROWS_IN_CSV, ROWS_WORKFLOWS, rowsCsv, rowsWorkflow, syncRun } from '../rows-checks';
import { checkTrigger } from '../trigger-checks';
import { checkOrderFlow, checkOrderTriggerAcrossRestart, importOrderChecks, preparePack, startOrderSandbox, ORDER_WORKFLOWS, type OrderContext } from '../order-checks';
import { checkWriteResults } from '../write-checks';
import { executionsByWorker, startQueueCluster, startQueueServices, Teardown, workerOf, type QueueCluster, type QueueServices } from './cluster';
import { ensureServicePackages } from './services';

const REPO_DIR = path.resolve(__dirname, '..', '..');
const CREDENTIAL_TYPE = 'marketplaceMerchantApi';
/** Used by every workflow but the live-limit one (ids as in e2e/workflows/). */
const CREDENTIAL = { id: 'e2eMarketCred001', name: 'Marketplace Sandbox' };
/** A second merchant account for the live-limit updates: its rate-limit windows start fresh. */
const LIVE_LIMITS_CREDENTIAL = { id: 'e2eMarketCred002', name: 'Marketplace Live Limits' };
const SANDBOX_PRODUCTS = 450;
const WORKERS = 2;
/** Jobs each worker runs at once: 10 executions started together run 5 on each worker. */
const WORKER_CONCURRENCY = 5;

const WORKFLOWS = {
	returnAll: { id: 'queueReturnAll01', path: 'queue-return-all' },
	writes: { id: 'queueWriteOps001', path: 'queue-write-operations' },
	tokenRound: { id: 'queueTokenRound1', path: 'queue-token-round' },
	liveUpdates: { id: 'queueLiveUpdate1', path: 'queue-live-updates' },
	rows: { id: ROWS_WORKFLOWS.clean.id, path: 'queue-rows-csv-sync' },
	trigger: { id: 'e2eInvoiceTrig01' },
};

const TOKEN_ROUNDS = 5;
const EXECUTIONS_PER_ROUND = 10;
/** Live-limit writes: per execution, and executions at once (3 per worker). */
const LIVE_UPDATES_PER_EXECUTION = 60;
const LIVE_EXECUTIONS = 6;
/** The first product of the live-limit writes; each execution takes the next 60 ids. */
const LIVE_FIRST_PRODUCT_ID = 100_051;

type Workflow = Json & { id: string; nodes: Array<Json & { name: string; type: string }> };

async function readJson(file: string): Promise<Workflow> {
	return JSON.parse(await readFile(file, 'utf8')) as Workflow;
}

/**
 * The single-process suite's write workflow (e2e/workflows/write-operations.json) with its manual
 * trigger replaced by a production webhook: the same nodes and lists, so the same results.
 */
async function writeWorkflowOnWebhook(): Promise<Workflow> {
	const workflow = await readJson(path.join(REPO_DIR, 'e2e', 'workflows', 'write-operations.json'));
	return { ...onWebhook(workflow, WORKFLOWS.writes.path, '6a0c7d52-7d0e-4a43-9a11-e2e0000000d1'), id: WORKFLOWS.writes.id, name: 'Queue: bulk updates and discounts with one bad entry each' };
}

/** A workflow of the single-process suite with its manual trigger replaced by a production webhook on `webhookPath`. */
function onWebhook(workflow: Workflow, webhookPath: string, webhookId: string): Workflow {
	const trigger = workflow.nodes.find((node) => node.type === 'n8n-nodes-base.manualTrigger');
	assert.ok(trigger, `${workflow.id} has no manual trigger`);
	Object.assign(trigger, {
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		webhookId,
		parameters: { httpMethod: 'POST', path: webhookPath, responseMode: 'onReceived', options: {} },
	});
	return workflow;
}

async function queueWorkflows(rowsFilesDir: string): Promise<Workflow[]> {
	const dir = path.join(__dirname, 'workflows');
	return [
		onWebhook(await rowsWorkflow('clean', rowsFilesDir), WORKFLOWS.rows.path, '6a0c7d52-7d0e-4a43-9a11-e2e0000000d2'),
		await readJson(path.join(dir, 'return-all.json')),
		await writeWorkflowOnWebhook(),
		await readJson(path.join(dir, 'token-round.json')),
		await readJson(path.join(dir, 'live-updates.json')),
		await readJson(path.join(REPO_DIR, 'e2e', 'workflows', 'invoice-trigger.json')),
	];
}

interface Context {
	installation: N8nInstallation;
	services: QueueServices;
	cluster: QueueCluster;
	sandbox: RemoteSandbox;
	api: N8nPublicApi;
	/** The rows check's own sandbox (50,000 products) and the folder n8n may read its CSV from. */
	rows: { sandbox: RemoteSandbox; filesDir: string };
	/** Issue 31: the order checks' sandbox and the folder the order flow saves labels to (e2e/order-checks.ts). */
	orders: OrderContext;
	teardown: Teardown;
}

const UNFINISHED = new Set(['new', 'running', 'waiting']);

/**
 * Whether the main serves the production webhook: a CORS preflight names its methods (204) once it
 * is registered and answers 404 before, without starting an execution.
 */
async function webhookRegistered(baseUrl: string, webhookPath: string): Promise<boolean> {
	const response = await fetch(`${baseUrl}/webhook/${webhookPath}`, {
		method: 'OPTIONS',
		headers: { origin: baseUrl, 'access-control-request-method': 'POST' },
		signal: AbortSignal.timeout(10_000),
	});
	await response.arrayBuffer();
	return response.status === 204 && (response.headers.get('access-control-allow-methods') ?? '').includes('POST');
}

/** POSTs to a production webhook of the main instance; it answers once the job is queued. */
async function callWebhook(context: Context, webhookPath: string, body: unknown = {}): Promise<void> {
	const response = await fetch(`${context.cluster.main.baseUrl}/webhook/${webhookPath}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
		signal: AbortSignal.timeout(30_000),
	});
	const text = await response.text();
	if (response.status !== 200) throw new Error(`webhook ${webhookPath}: HTTP ${response.status} ${text.slice(0, 300)}`);
}

/**
 * Calls the workflow's webhook once per body, all at once, and waits until every execution it
 * started has finished and a worker has logged it. Answers those executions (with data), oldest
 * first, and the index of the worker that ran each.
 */
async function runOnWorkers(
	context: Context,
	workflow: { id: string; path: string },
	bodies: unknown[],
	timeoutMs: number,
): Promise<Array<{ execution: PublicApiExecution; worker: number }>> {
	const { api, cluster } = context;
	const before = new Set((await api.listExecutions({ workflowId: workflow.id })).map((execution) => execution.id));
	await Promise.all(bodies.map(async (body) => await callWebhook(context, workflow.path, body)));
	const all = await api.waitForExecutions(workflow.id, before.size + bodies.length, { timeoutMs, intervalMs: 500 });
	const started = all.filter((execution) => !before.has(execution.id)).sort((a, b) => Number(a.id) - Number(b.id));
	assert.equal(started.length, bodies.length, `executions started: ${started.length} for ${bodies.length} webhook calls`);
	assert.ok(started.every((execution) => !UNFINISHED.has(execution.status)));
	// A worker logs the start before it runs the execution; its output may reach us a bit later.
	await waitFor(
		'every execution in a worker log',
		() => started.every((execution) => workerOf(executionsByWorker(cluster.workers), execution.id) >= 0),
		5_000,
	).catch(() => undefined);
	const byWorker = executionsByWorker(cluster.workers);
	return started.map((execution) => ({ execution, worker: workerOf(byWorker, execution.id) }));
}

/** How many of `runs` each worker ran; fails when one is in no worker's log (run by the main?). */
function assertRanOnWorkers(runs: Array<{ execution: PublicApiExecution; worker: number }>): number[] {
	const notOnWorker = runs.filter((run) => run.worker < 0).map((run) => run.execution.id);
	assert.deepEqual(notOnWorker, [], `executions no worker logged (ran on main?): ${notOnWorker.join(', ')}`);
	return Array.from({ length: WORKERS }, (_, index) => runs.filter((run) => run.worker === index).length);
}

function split(counts: number[]): string {
	return counts.map((count, index) => `worker ${index + 1}: ${count}`).join(', ');
}

function failureOf(execution: PublicApiExecution): string {
	const error = execution.data?.resultData.error;
	return `execution ${execution.id} ${execution.status}: ${error?.message ?? ''}${error?.description ? ` (${error.description})` : ''}`;
}

async function sandboxState<T>(sandbox: RemoteSandbox, collection: string): Promise<T[]> {
	return (await sandbox.control('GET', `state/${collection}`)) as T[];
}

// ---------------------------------------------------------------------------------------------

async function checkReadAndWriteOnWorkers(context: Context): Promise<void> {
	const { sandbox } = context;
	await check('Product > Get Many Basic with Return All on a worker lists every product, as in one process', async () => {
		await sandbox.clearLog();
		const [run] = await runOnWorkers(context, WORKFLOWS.returnAll, [{}], 60_000);
		assert.equal(run.execution.status, 'success', failureOf(run.execution));
		assertRanOnWorkers([run]);
		const fields = (product: Json) => [product.id, product.ean, product.sku, product.basePrice, product.stockLevel];
		const products = nodeOutput(run.execution, 'Basic Products');
		const expected = await sandboxState<Json>(sandbox, 'products');
		assert.equal(products.length, SANDBOX_PRODUCTS);
		assert.deepEqual(products.map(fields), expected.map(fields));
		// Pages go out ahead of the answers: up to 4 past the short page 0 may be sent.
		const pages = (await sandbox.log('basicProducts'))
			.filter((entry) => entry.status === 200)
			.map((entry) => Number(entry.query.page))
			.sort((a, b) => a - b);
		assert.equal(pages[0], 0);
		assert.ok(pages.length <= 1 + 4, `pages sent: ${pages.join(', ')}`);
		assert.equal(new Set(pages).size, pages.length, `a page was sent twice: ${pages.join(', ')}`);
		return `${products.length} products, pages sent ${pages.join(', ')}, worker ${run.worker + 1}`;
	});

	let writes: PublicApiExecution | undefined;
	const wrote = await check('write workflow of the single-process suite runs on a worker (Product Update Many > Discount Schedule)', async () => {
		await sandbox.clearLog();
		const [run] = await runOnWorkers(context, WORKFLOWS.writes, [{}], 60_000);
		assert.equal(run.execution.status, 'success', failureOf(run.execution));
		assertRanOnWorkers([run]);
		writes = run.execution;
		return `worker ${run.worker + 1}`;
	});
	if (!wrote || !writes) return;
	const execution = writes;

	await checkWriteResults(
		execution,
		{
			stockLevel: async (productId) =>
				(await sandboxState<{ id: number; stockLevel: number }>(sandbox, 'products')).find((product) => product.id === productId)?.stockLevel,
			bulkItemCounts: async () => (await sandbox.log('productBulk')).map((entry) => entry.itemCount),
			discounts: async () => await sandboxState(sandbox, 'discounts'),
		},
		' on a worker',
	);
}

/** Switches the sandbox to keep only the newest token valid; false when it does not know the switch. */
async function keepOnlyNewestToken(sandbox: RemoteSandbox, on: boolean): Promise<boolean> {
	try {
		await sandbox.control('POST', 'variants', { onlyNewestTokenValid: on });
		return true;
	} catch (error) {
		if (/answered 4\d\d/.test((error as Error).message)) return false;
		throw error;
	}
}

async function checkTokenRounds(context: Context): Promise<void> {
	const { sandbox } = context;
	await check(
		`token invalidated by the service, then ${EXECUTIONS_PER_ROUND} executions at once (${WORKER_CONCURRENCY} per worker), ${TOKEN_ROUNDS} rounds: none fails`,
		async () => {
			// Only the tokens matter here: no 429 may mix into the rounds.
			await sandbox.setRateLimits(false);
			const lines: string[] = [];
			const failures: string[] = [];
			let failedExecutions = 0;
			let onlyNewest = false;
			try {
				// Both workers get a token first, as in a running installation.
				const warmUp = await runOnWorkers(context, WORKFLOWS.tokenRound, Array.from({ length: EXECUTIONS_PER_ROUND }, () => ({})), 60_000);
				const warmUpFailed = warmUp.filter((run) => run.execution.status !== 'success');
				failedExecutions += warmUpFailed.length;
				failures.push(...warmUpFailed.map((run) => `warm-up: ${failureOf(run.execution)}`));
				onlyNewest = await keepOnlyNewestToken(sandbox, true);
				for (let round = 1; round <= TOKEN_ROUNDS; round++) {
					await sandbox.clearLog();
					// Each execution's first request waits 1 s before the service answers (401), so
					// that all ten hold their worker slot at once and refresh their token together.
					await sandbox.injectFault({ route: 'warehouses', delayMs: 1_000, count: EXECUTIONS_PER_ROUND });
					await sandbox.control('POST', 'expire-tokens');
					const runs = await runOnWorkers(context, WORKFLOWS.tokenRound, Array.from({ length: EXECUTIONS_PER_ROUND }, () => ({})), 60_000);
					const counts = assertRanOnWorkers(runs);
					if (counts.some((count) => count !== WORKER_CONCURRENCY)) {
						failures.push(`round ${round} did not run ${WORKER_CONCURRENCY} executions on each worker: ${split(counts)}`);
					}
					const failed = runs.filter((run) => run.execution.status !== 'success');
					failedExecutions += failed.length;
					failures.push(...failed.map((run) => `round ${round}, worker ${run.worker + 1}: ${failureOf(run.execution)}`));
					const log = await sandbox.log();
					const tokens = log.filter((entry) => entry.route === 'token' && entry.status === 200).length;
					const refused = log.filter((entry) => entry.route === 'warehouses' && entry.status === 401).length;
					lines.push(`round ${round}: ${split(counts)}, ${failed.length} failed, ${tokens} tokens issued, ${refused} requests refused with 401`);
				}
			} finally {
				await sandbox.clearFaults();
				if (onlyNewest) await keepOnlyNewestToken(sandbox, false);
				await sandbox.setRateLimits({ scale: 1 });
			}
			const variant = onlyNewest ? 'sandbox switch onlyNewestTokenValid on' : 'sandbox without the switch onlyNewestTokenValid: expire-tokens only';
			assert.equal(failures.length, 0, `${failedExecutions} of ${EXECUTIONS_PER_ROUND * (TOKEN_ROUNDS + 1)} executions failed (${variant}):\n${failures.join('\n')}\n${lines.join('\n')}`);
			return `${variant}; ${lines.join('; ')}`;
		},
	);
}

/**
 * The earliest time the live limits let the last of `count` requests through when the first goes
 * at 0: 60 per minute, at most 5 per second (products group, sliding windows).
 */
function liveLimitMinimumMs(count: number): number {
	const perMinute = 60;
	const spacingMs = 1_000 / 5;
	return Math.floor((count - 1) / perMinute) * 60_000 + ((count - 1) % perMinute) * spacingMs;
}

async function checkLiveLimitWrites(context: Context): Promise<void> {
	const { sandbox } = context;
	const total = LIVE_EXECUTIONS * LIVE_UPDATES_PER_EXECUTION;
	await check(
		`${WORKERS} workers × ${LIVE_EXECUTIONS / WORKERS} executions × ${LIVE_UPDATES_PER_EXECUTION} single Product Updates, one merchant, live limits: no item fails`,
		async () => {
			await sandbox.setRateLimits({ scale: 1 });
			await sandbox.clearLog();
			const bodies = Array.from({ length: LIVE_EXECUTIONS }, (_, index) => ({
				firstId: LIVE_FIRST_PRODUCT_ID + index * LIVE_UPDATES_PER_EXECUTION,
				count: LIVE_UPDATES_PER_EXECUTION,
			}));
			const startedAt = Date.now();
			const runs = await runOnWorkers(context, WORKFLOWS.liveUpdates, bodies, 20 * 60_000);
			const finishedAt = Math.max(...runs.map((run) => Date.parse(run.execution.stoppedAt ?? '') || Date.now()));
			const counts = assertRanOnWorkers(runs);
			assert.ok(counts.every((count) => count > 0), `one merchant on both workers: ${split(counts)}`);
			const log: RequestLogEntry[] = await sandbox.log('productUpdate');
			const accepted = log.filter((entry) => entry.status === 200).length;
			const refused = log.filter((entry) => entry.status === 429).length;
			const elapsedMs = finishedAt - startedAt;
			const ratio = elapsedMs / liveLimitMinimumMs(total);
			const figures = `${seconds(elapsedMs)} = ${ratio.toFixed(2)}× the minimum ${seconds(liveLimitMinimumMs(total))}; ${refused} answers 429 for ${accepted} accepted (${((100 * refused) / Math.max(accepted, 1)).toFixed(0)} %); ${split(counts)}`;

			const problems: string[] = [];
			for (const [index, run] of runs.entries()) {
				if (run.execution.status !== 'success') problems.push(failureOf(run.execution));
				const items = nodeOutput(run.execution, 'Update Product');
				const failedItems = items.filter((item) => item.success !== true);
				if (items.length !== LIVE_UPDATES_PER_EXECUTION || failedItems.length > 0) {
					problems.push(
						`execution ${run.execution.id} (${index + 1}): ${items.length} items, ${failedItems.length} failed${failedItems[0] ? `: ${String(failedItems[0].error)}` : ''}`,
					);
				}
			}
			const products = await sandboxState<{ id: number; stockLevel: number }>(sandbox, 'products');
			const notStored = bodies
				.flatMap(({ firstId, count }) => Array.from({ length: count }, (_, index) => firstId + index))
				.filter((id) => products.find((product) => product.id === id)?.stockLevel !== id - 100_000);
			if (notStored.length > 0) problems.push(`${notStored.length} products without their new stock, e.g. ${notStored.slice(0, 5).join(', ')}`);
			// The share of answers 429 is reported, not asserted: issue 41's goal (at most 5 %, at most 1.10 of
			// the minimum) is the target of the bench's two-workers row, where timing belongs; this suite ran
			// 7 % and 1.19 on a loaded 2-core machine (2026-12-08), the bench 5.6 % and 1.03.
			console.log(`     live-limit writes: ${figures}`);
			assert.deepEqual(problems, [], `${figures}\n${problems.join('\n')}`);
			return figures;
		},
	);
}

async function checkTriggerOnMain(context: Context): Promise<void> {
	const { sandbox, api, cluster } = context;
	await sandbox.clearLog();
	const executions = await checkTrigger(api, WORKFLOWS.trigger.id, {
		addInvoice: async () => invoiceIdOf((await sandbox.control('POST', 'invoices', {})) as Json),
		invoiceRequests: async () => (await sandbox.log('invoices')).filter((entry) => entry.status === 200).length,
	});
	if (!executions) return;
	await check('trigger: main polls, the workers run its executions', async () => {
		const byWorker = executionsByWorker(cluster.workers);
		const runs = executions.map((execution) => ({ execution, worker: workerOf(byWorker, execution.id) }));
		const counts = assertRanOnWorkers(runs);
		return split(counts);
	});
}

/** e2e/rows-checks.ts's 1,000-row CSV sync (n8n's file nodes → Sync v2, one entry per row) run by a worker. */
async function checkRowsOnWorker(context: Context): Promise<void> {
	const { sandbox, filesDir } = context.rows;
	await check(`rows: a ${ROWS_IN_CSV}-row CSV → Sync (v2, one entry per row) on a worker against ${ROWS_CATALOGUE.toLocaleString('en')} products: the catalogue read once, one write, ${ROWS_IN_CSV} items paired with their rows`, async () => {
		const products = await sandboxState<Product>(sandbox, 'products');
		await writeFile(path.join(filesDir, ROWS_WORKFLOWS.clean.file), rowsCsv(products, false));
		await sandbox.clearLog();
		const [run] = await runOnWorkers(context, WORKFLOWS.rows, [{}], 120_000);
		assert.equal(run.execution.status, 'success', failureOf(run.execution));
		assertRanOnWorkers([run]);
		const { items, hints } = syncRun(run.execution as Parameters<typeof syncRun>[0]);
		assertPaired(items);
		assert.deepEqual(items.filter((item) => item.json.status !== 'updated').length, 0, 'rows not updated');
		assert.deepEqual(hints, []);
		const log = [...(await sandbox.log('basicProducts')), ...(await sandbox.log('productBulk'))];
		return `${assertOneBatch(log, ROWS_IN_CSV)}; worker ${run.worker + 1}`;
	});
}

// ---------------------------------------------------------------------------------------------

async function setUp(teardown: Teardown, packDir: string, userFolder: string): Promise<Context | undefined> {
	let services: QueueServices | undefined;
	const servicesUp = await check('setup: Redis and PostgreSQL from Debian packages, own ports and temp folders on 127.0.0.1', async () => {
		const packages = await ensureServicePackages((line) => console.log(`     ${line}`));
		services = await startQueueServices(packages.postgresBin, teardown);
		const install = packages.installedInMs === undefined ? 'packages already installed' : `apt-get install took ${seconds(packages.installedInMs)}`;
		return `${install}; ${services.postgres.version.split(' on ')[0]} on port ${services.postgres.port}, Redis on port ${services.redis.port}`;
	});
	if (!servicesUp || !services) return undefined;
	const queueServices = services;

	let installation: N8nInstallation | undefined;
	let sandbox: RemoteSandbox | undefined;
	let rows: Context['rows'] | undefined;
	let orders: OrderContext | undefined;
	const ready = await check('setup: n8n installed, package built, packed and installed, sandboxes up in their own processes', async () => {
		installation = await installN8n();
		const tarball = process.env.E2E_TARBALL ? path.resolve(process.env.E2E_TARBALL) : await packPackage(installation, REPO_DIR, packDir);
		const installed = await installCommunityPackage(installation, userFolder, tarball);
		const started = await RemoteSandbox.start({ seed: 1, products: SANDBOX_PRODUCTS, clients: 2 });
		teardown.add('sandbox', async () => await started.close());
		sandbox = started;
		// The rows check's catalogue, and a folder main and workers may read files from (n8n 2.x restricts file access).
		const rowsSandbox = await RemoteSandbox.start({ seed: 18, products: ROWS_CATALOGUE, clients: 1 });
		teardown.add('rows sandbox', async () => await rowsSandbox.close());
		const filesDir = await mkdtemp(path.join(tmpdir(), 'n8n-queue-rows-'));
		teardown.add('rows files', async () => await rm(filesDir, { recursive: true, force: true }));
		// The order flow saves labels on whichever worker runs it; n8n takes several folders separated by ';'.
		const labelsDir = await mkdtemp(path.join(tmpdir(), 'n8n-queue-labels-'));
		teardown.add('labels folder', async () => await rm(labelsDir, { recursive: true, force: true }));
		queueServices.env.N8N_RESTRICT_FILE_ACCESS_TO = `${filesDir};${labelsDir}`;
		rows = { sandbox: rowsSandbox, filesDir };
		const orderContext = await startOrderSandbox(labelsDir);
		teardown.add('orders sandbox', async () => await orderContext.sandbox.close());
		orders = orderContext;
		return `n8n ${installation.version}, ${installed.name}@${installed.version}, sandbox ${started.url}, rows sandbox ${rowsSandbox.url}`;
	});
	if (!ready || !installation || !sandbox || !rows || !orders) return undefined;
	const rowsContext = rows;
	const orderContext = orders;
	const n8n = installation;
	const remote = sandbox;

	const imported = await check('import: credentials and workflows into PostgreSQL (the first command migrates it)', async () => {
		const options = { env: queueServices.env, timeoutMs: 5 * 60_000 };
		const credentials = [CREDENTIAL, LIVE_LIMITS_CREDENTIAL].map((credential) => ({
			...credential,
			type: CREDENTIAL_TYPE,
			data: { ...remote.credentials(remote.freshClient()) },
		}));
		credentials.push({ ...ROWS_CREDENTIAL, data: { ...rowsContext.sandbox.credentials(rowsContext.sandbox.freshClient()) } });
		await importCredentials(n8n, userFolder, credentials, options);
		const workflows = await queueWorkflows(rowsContext.filesDir);
		await importWorkflows(n8n, userFolder, workflows, options);
		await importOrderChecks(n8n, userFolder, orderContext, await preparePack(orderContext), options);
		return `${credentials.length + 1} credentials, ${workflows.length} workflows and the order checks' ${Object.keys(ORDER_WORKFLOWS).length}`;
	});
	if (!imported) return undefined;

	let cluster: QueueCluster | undefined;
	let api: N8nPublicApi | undefined;
	const started = await check(`n8n main + ${WORKERS} workers in queue mode; PostgreSQL below n8n's supported versions runs with a warning`, async () => {
		cluster = await startQueueCluster({ installation: n8n, userFolder, services: queueServices, workers: WORKERS, concurrency: WORKER_CONCURRENCY, teardown });
		const session = await N8nOwnerSession.login(cluster.main.baseUrl, cluster.main.owner!);
		api = new N8nPublicApi(cluster.main.baseUrl, await session.createApiKey());
		const warning = /Postgres \d+ is (not supported|outside the supported range)[^\n]*/.exec(cluster.main.output())?.[0];
		const major = Number(/PostgreSQL (\d+)/.exec(queueServices.postgres.version)?.[1]);
		if (major < 16) assert.ok(warning, `no warning about PostgreSQL ${major} in the main's output`);
		return `${cluster.main.baseUrl}; ${warning ? `n8n warns: "${warning.trim()}"` : `PostgreSQL ${major}: no warning`}`;
	});
	if (!started || !cluster || !api) return undefined;
	const publicApi = api;
	const mainUrl = cluster.main.baseUrl;

	const activated = await check('webhook workflows activated through the public API', async () => {
		const webhookWorkflows = [WORKFLOWS.returnAll, WORKFLOWS.writes, WORKFLOWS.tokenRound, WORKFLOWS.liveUpdates, WORKFLOWS.rows];
		const activatedAt = Date.now();
		for (const workflow of webhookWorkflows) assert.equal((await publicApi.activateWorkflow(workflow.id)).active, true, workflow.id);
		// n8n 2.41 applies a publication through its outbox: the webhook may register a bit later.
		for (const workflow of webhookWorkflows) {
			await waitFor(`/webhook/${workflow.path} registered`, async () => await webhookRegistered(mainUrl, workflow.path), 60_000);
		}
		return `${webhookWorkflows.map((workflow) => `/webhook/${workflow.path}`).join(', ')} registered after ${seconds(Date.now() - activatedAt)}`;
	});
	if (!activated) return undefined;
	return { installation: n8n, services: queueServices, cluster, sandbox: remote, api, rows: rowsContext, orders: orderContext, teardown };
}

/**
 * Issue 31 in queue mode: the example order flow started by its trigger on the main and run by a
 * worker (the label saved to the folder); New Order to Confirm's 30 orders over 3 polls exactly
 * once, the main restarted before the third (static data in PostgreSQL), executions on workers.
 */
async function checkOrdersOnWorkers(context: Context): Promise<void> {
	const { cluster } = context;
	await checkOrderFlow(context.api, context.orders);
	await check('orders: the order flow ran on a worker', async () => {
		const [execution] = await context.api.listExecutions({ workflowId: ORDER_WORKFLOWS.flow });
		assert.ok(execution, 'no execution of the order flow');
		return split(assertRanOnWorkers([{ execution, worker: workerOf(executionsByWorker(cluster.workers), execution.id) }]));
	});
	context.api = await checkOrderTriggerAcrossRestart(context.api, context.orders, async () => {
		await context.cluster.main.stop();
		const main = await startN8n({ installation: context.installation, userFolder: context.cluster.main.userFolder, env: context.services.env });
		context.teardown.add('n8n main (restarted)', main.stop);
		context.cluster.main = main;
		const session = await N8nOwnerSession.login(main.baseUrl, main.owner!);
		return new N8nPublicApi(main.baseUrl, await session.createApiKey('queue after restart'));
	});
	await check('orders: the trigger\'s executions ran on the workers', async () => {
		const executions = await context.api.listExecutions({ workflowId: ORDER_WORKFLOWS.trigger });
		const byWorker = executionsByWorker(cluster.workers);
		return split(assertRanOnWorkers(executions.map((execution) => ({ execution, worker: workerOf(byWorker, execution.id) }))));
	});
}

/** The checks after setup, in order; `QUEUE_CHECKS=tokens,trigger` runs some of them only. */
const CHECK_GROUPS: Record<string, (context: Context) => Promise<void>> = {
	workers: checkReadAndWriteOnWorkers,
	rows: checkRowsOnWorker,
	tokens: checkTokenRounds,
	'live-limits': checkLiveLimitWrites,
	trigger: checkTriggerOnMain,
	orders: checkOrdersOnWorkers,
};

async function main(): Promise<void> {
	const startedAt = Date.now();
	const selected = new Set(process.env.QUEUE_CHECKS ? process.env.QUEUE_CHECKS.split(',').map((key) => key.trim()) : Object.keys(CHECK_GROUPS));
	const unknown = [...selected].filter((key) => !(key in CHECK_GROUPS));
	if (unknown.length > 0) throw new Error(`QUEUE_CHECKS: unknown ${unknown.join(', ')}; known: ${Object.keys(CHECK_GROUPS).join(', ')}`);
	const teardown = new Teardown();
	const packDir = await mkdtemp(path.join(tmpdir(), 'n8n-queue-pack-'));
	const userFolder = await createUserFolder();
	teardown.add('temp folders', async () => {
		if (!process.env.E2E_KEEP_USER_FOLDER) await removeUserFolder(userFolder);
		await rm(packDir, { recursive: true, force: true });
	});
	// Ctrl-C or a CI timeout: stop everything started (each by its pid) before leaving.
	for (const [signal, code] of [
		['SIGINT', 130],
		['SIGTERM', 143],
	] as const) {
		process.once(signal, () => {
			console.log(`${signal}: stopping every process this suite started`);
			void teardown.run().finally(() => process.exit(code));
		});
	}
	try {
		const context = await setUp(teardown, packDir, userFolder);
		if (!context) return;
		for (const [key, run] of Object.entries(CHECK_GROUPS)) {
			if (selected.has(key)) await run(context);
		}
	} finally {
		const stopping = Date.now();
		await teardown.run();
		console.log(`stopped every process in ${seconds(Date.now() - stopping)}`);
		reportChecks('queue suite', startedAt);
	}
}

main().catch((error: unknown) => {
	console.error(error);
	console.log('0 passed, 1 failed');
	process.exitCode = 1;
});

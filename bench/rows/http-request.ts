/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- benchmark code (`npm run bench`) and never loaded by n8n: it may use process and timers, Node modules (docs/architecture.md, Toolchain). */
/**
 * Issue 14's last row: the concurrency row's three scenarios (bench/rows/concurrency.ts) built the
 * way a user would build them with n8n's own HTTP Request node, run through the same engine in the
 * same process against the same sandbox (latency on, live limits), and the node's execution time
 * compared with the HTTP Request node's, both as n8n records them in the run data.
 *
 * The HTTP Request node lives in n8n-nodes-base, which is not a dependency of this package: it is
 * loaded from the real n8n that e2e/install-n8n.sh installs (same n8n-core and n8n-workflow
 * versions as the package's devDependencies). Without that install the row is skipped, saying so.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import path from 'node:path';
import type { INodeParameters, IVersionedNodeType } from 'n8n-workflow';

import { LIMITS, PATHS } from '../../nodes/MarketplaceMerchant/transport/endpoints';
import { splitIntoWindows } from '../../nodes/MarketplaceMerchant/values/dates';
import { runWorkflow, TEST_ITEMS_NODE_TYPE, TestNodeTypes, type NodeInput, type WorkflowRunResult } from '../../test/harness';
import { runMerchant } from '../merchant-node';
import { TOKEN_PATH } from '../plain-fetch';
import { RemoteSandbox, type BenchClient } from '../remote-sandbox';
import type { Row } from '../report';
import { formatMs, formatRatio, listOf, median } from '../stats';
import { PAGE_SIZE, PRODUCTS, SCENARIOS, warmAccountWithLatency, type Scenario } from './concurrency';

/** The n8n version the e2e suite installs (e2e/n8n-runtime/package.json). */
const N8N_VERSION = '2.41.1';
const HTTP_REQUEST_TYPE = 'n8n-nodes-base.httpRequest';
/** The HTTP Request node version n8n 2.41 adds to a new workflow. */
const HTTP_REQUEST_VERSION = 4.2;
const TARGET = 0.5;

function installDir(): string {
	const cacheRoot =
		process.env.N8N_E2E_CACHE ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(homedir(), '.cache'), 'n8n-nodes-marketplace-merchant');
	return path.join(cacheRoot, `n8n-${N8N_VERSION}`);
}

/** n8n's HTTP Request node class from the installed n8n, or why it cannot be had. */
function loadHttpRequestNode(): IVersionedNodeType | string {
	const packageJson = path.join(installDir(), 'node_modules', 'n8n-nodes-base', 'package.json');
	if (!existsSync(packageJson)) return `n8n ${N8N_VERSION} is not installed (${packageJson} is missing): run bash e2e/install-n8n.sh first`;
	const { HttpRequest } = createRequire(packageJson)('n8n-nodes-base/dist/nodes/HttpRequest/HttpRequest.node.js') as {
		HttpRequest: new () => IVersionedNodeType;
	};
	return new HttpRequest();
}

/** dd/MM/yyyy, the prices endpoint's date format. */
function todayDayMonthYear(): string {
	const now = new Date();
	const pad = (value: number) => String(value).padStart(2, '0');
	return `${pad(now.getUTCDate())}/${pad(now.getUTCMonth() + 1)}/${now.getUTCFullYear()}`;
}

const TOKEN_NODE = 'Get token';
const LIST_NODE = 'List';
const REQUEST_NODE = 'HTTP Request';

/** What a user builds: a first HTTP Request node fetches the token once, a list (if any) feeds the request node. */
function httpWorkflow(sandbox: RemoteSandbox, client: BenchClient, request: INodeParameters, list?: unknown[]): { nodes: NodeInput[]; connections: object } {
	const tokenNode: NodeInput = {
		name: TOKEN_NODE,
		type: HTTP_REQUEST_TYPE,
		typeVersion: HTTP_REQUEST_VERSION,
		parameters: {
			method: 'POST',
			url: `${sandbox.url}${TOKEN_PATH}`,
			sendBody: true,
			specifyBody: 'json',
			jsonBody: JSON.stringify({ grantType: 'CLIENT_CREDENTIALS', clientId: client.clientId, clientSecret: client.clientSecret, scope: 'public_api/full_access' }),
			options: {},
		},
	};
	const requestNode: NodeInput = {
		name: REQUEST_NODE,
		type: HTTP_REQUEST_TYPE,
		typeVersion: HTTP_REQUEST_VERSION,
		parameters: {
			...request,
			sendHeaders: true,
			headerParameters: { parameters: [{ name: 'Authorization', value: `=Bearer {{ $('${TOKEN_NODE}').first().json.access_token }}` }] },
		},
	};
	const link = (from: string, to: string) => ({ [from]: { main: [[{ node: to, type: 'main', index: 0 }]] } });
	if (!list) return { nodes: [tokenNode, requestNode], connections: link(TOKEN_NODE, REQUEST_NODE) };
	const listNode: NodeInput = { name: LIST_NODE, type: TEST_ITEMS_NODE_TYPE, parameters: { items: JSON.stringify(list) } };
	return { nodes: [tokenNode, listNode, requestNode], connections: { ...link(TOKEN_NODE, LIST_NODE), ...link(LIST_NODE, REQUEST_NODE) } };
}

interface HttpScenario {
	/** How the user's workflow does it, for the row's details. */
	how: string;
	request: INodeParameters;
	list?: unknown[];
	/** Why the target is out of reach, where it is. */
	note?: string;
}

/**
 * Why windows and chunks cannot reach the target: the HTTP Request node sends the requests of all
 * its input items at once (unless its Batching option is set), so one request per item is already
 * as concurrent as the node's windows and chunks. Only pages, which its pagination sends one after
 * another, leave room.
 */
const ONE_REQUEST_PER_ITEM_NOTE =
	'HTTP Request sends the requests of all its input items at once (Batching option not set), so both take one latency: ' +
	"≤ 0.5 cannot be reached here; the node's gain is pacing where one request per item at once would exceed the limits " +
	'(e.g. 100 price chunks at once against 60 a minute), which HTTP Request does not do';

/** HTTP Request's parameters for a GET of `pathname` with query parameters (names to values or expressions). */
function getRequest(sandbox: RemoteSandbox, pathname: string, query: Record<string, string>, options: INodeParameters = {}): INodeParameters {
	return {
		method: 'GET',
		url: `${sandbox.url}${pathname}`,
		sendQuery: true,
		queryParameters: { parameters: Object.entries(query).map(([name, value]) => ({ name, value })) },
		options,
	};
}

/** The HTTP Request equivalent of each concurrency scenario, in the same order. */
function httpScenarios(sandbox: RemoteSandbox): HttpScenario[] {
	const [, invoices, prices] = SCENARIOS;
	const windows = splitIntoWindows(new Date(String(invoices.parameters.dateFrom)), new Date(String(invoices.parameters.dateTo)), LIMITS.invoiceWindowMonths);
	const ids = (prices.inputItem?.ids ?? []) as number[];
	const chunks = Array.from({ length: Math.ceil(ids.length / LIMITS.priceIdsPerRequest) }, (_, index) => ({
		ids: ids.slice(index * LIMITS.priceIdsPerRequest, (index + 1) * LIMITS.priceIdsPerRequest).join(','),
	}));
	return [
		{
			how: `GET basic-products?page&size=${PAGE_SIZE}, Pagination option "Update a Parameter in Each Request" (page = {{ $pageCount }}), complete when {{ $response.body.length < ${PAGE_SIZE} }}`,
			request: getRequest(sandbox, PATHS.basicProducts, { size: String(PAGE_SIZE) }, {
				pagination: {
					pagination: {
						paginationMode: 'updateAParameterInEachRequest',
						parameters: { parameters: [{ type: 'qs', name: 'page', value: '={{ $pageCount }}' }] },
						paginationCompleteWhen: 'other',
						completeExpression: `={{ $response.body.length < ${PAGE_SIZE} }}`,
					},
				},
			}),
		},
		{
			how: `a list of ${windows.length} items, one 3-month window each, into one GET invoices?dateFrom&dateTo per item`,
			request: getRequest(sandbox, PATHS.invoices, { dateFrom: '={{ $json.dateFrom }}', dateTo: '={{ $json.dateTo }}' }),
			note: ONE_REQUEST_PER_ITEM_NOTE,
			list: windows.map(({ from, to }) => ({ dateFrom: from.toISOString(), dateTo: to.toISOString() })),
		},
		{
			how: `a list of ${chunks.length} items of ${LIMITS.priceIdsPerRequest} comma-separated ids into one GET prices?merchantInventoryIds&dateFrom per item`,
			request: getRequest(sandbox, PATHS.prices, { merchantInventoryIds: '={{ $json.ids }}', dateFrom: todayDayMonthYear() }),
			note: ONE_REQUEST_PER_ITEM_NOTE,
			list: chunks,
		},
	];
}

/** The node's execution time as n8n records it in the run data; throws when the node failed. */
function executionTimeMs(result: WorkflowRunResult, nodeName: string, what: string): number {
	const node = result.nodes[nodeName];
	const run = node?.runs[node.runs.length - 1];
	if (!run || node.error || result.error) throw new Error(`${what} failed: ${(node?.error ?? result.error)?.message ?? 'did not run'}`);
	return run.executionTime;
}

async function measureScenario(sandbox: RemoteSandbox, nodeTypes: TestNodeTypes, scenario: Scenario, http: HttpScenario, runs: number): Promise<Row> {
	const nodeTimes: number[] = [];
	const httpTimes: number[] = [];
	const requestCounts: number[] = [];
	for (let run = 0; run < runs; run++) {
		// The node, as the concurrency row runs it: token fetched before the latency is on.
		const helper = await warmAccountWithLatency(sandbox, scenario);
		const { result: nodeResult } = await runMerchant(helper, scenario.parameters as never, [scenario.inputItem ?? {}]);
		const nodeMs = executionTimeMs(nodeResult, 'Node', 'Marketplace Merchant');
		const nodeItems = nodeResult.output('Node').length;

		// HTTP Request on a fresh account (fresh rate-limit windows); its token node is not timed.
		const workflow = httpWorkflow(sandbox, sandbox.freshClient(), http.request, http.list);
		await sandbox.clearLog();
		const httpResult = await runWorkflow(workflow as never, { nodeTypes });
		const httpMs = executionTimeMs(httpResult, REQUEST_NODE, 'HTTP Request');
		const httpItems = httpResult.output(REQUEST_NODE).length;
		if (nodeItems === 0 || httpItems !== nodeItems) throw new Error(`items differ: Marketplace Merchant ${nodeItems}, HTTP Request ${httpItems}`);
		requestCounts.push((await sandbox.log()).filter((entry) => !entry.path.startsWith('/iam/')).length);
		nodeTimes.push(nodeMs);
		httpTimes.push(httpMs);
	}
	const ratio = median(nodeTimes) / median(httpTimes);
	return {
		measure: `${scenario.measure.split(':')[0]}: node time ÷ n8n's HTTP Request node as a user builds it`,
		figure: formatRatio(ratio),
		target: `≤ ${TARGET}`,
		met: ratio <= TARGET,
		runs: String(runs),
		details:
			`execution times as n8n records them: node ${listOf(nodeTimes, formatMs)}, HTTP Request ${listOf(httpTimes, formatMs)} ` +
			`(${requestCounts.join(', ')} requests, the token request apart); HTTP Request ${HTTP_REQUEST_VERSION} from n8n ${N8N_VERSION}: ${http.how}; ` +
			'token fetched once by a first HTTP Request node and passed as the Authorization header (not timed)' +
			(http.note ? `; ${http.note}` : ''),
	};
}

export async function measureHttpRequestComparison(runs: number): Promise<Row[]> {
	const httpRequestNode = loadHttpRequestNode();
	if (typeof httpRequestNode === 'string') {
		// Not measured is not met: a bench run without the install must not pass for one that compared.
		return [{ measure: "Issue 14's scenarios: node time ÷ n8n's HTTP Request node as a user builds it", figure: `not measured: ${httpRequestNode}`, target: `≤ ${TARGET}`, met: false, runs: '—', details: '' }];
	}
	const nodeTypes = new TestNodeTypes();
	nodeTypes.register(HTTP_REQUEST_TYPE, httpRequestNode);
	const sandbox = await RemoteSandbox.start({ products: PRODUCTS, rateLimits: { scale: 1 }, clients: SCENARIOS.length * runs * 2 });
	const rows: Row[] = [];
	try {
		const scenarios = httpScenarios(sandbox);
		for (const [index, scenario] of SCENARIOS.entries()) rows.push(await measureScenario(sandbox, nodeTypes, scenario, scenarios[index], runs));
	} finally {
		await sandbox.close();
	}
	return rows;
}

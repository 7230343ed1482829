/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error, @n8n/community-nodes/no-hardcoded-secrets -- end-to-end suite code, run by tsx against a real n8n and never loaded by n8n: it may use Node modules, plain errors, fixed test keys of the sandbox (docs/architecture.md, Toolchain). */
/**
 * Issue 19, AI agents: n8n's AI Agent uses this node as its tools, in a real n8n, with a scripted
 * OpenAI-compatible model (e2e/model-server.ts) in place of a real one. Both workflows give the
 * agent n8n's "OpenAI Chat Model" with an `openAiApi` credential pointing at the scripted server,
 * and two Marketplace Merchant Tool nodes (the `usableAsTool` variant n8n generates) as tools:
 * "Find Products" (Product › Get Many, Search from `$fromAI('search', …)`, its tool description set
 * manually) and "Update Stock" (Product › Update, Product ID and Stock Level from `$fromAI`, the
 * tool description n8n sets automatically).
 * - e2e/workflows/ai-agent.json: Manual Trigger → Set (`chatInput`) → AI Agent, run by `n8n execute`;
 *   the agent does not stream there.
 * - e2e/workflows/ai-agent-streaming.json: Webhook (Response Mode Streaming) → AI Agent, called on a
 *   running n8n: the agent streams, so the model is asked with `stream: true` and answers in SSE.
 *
 * The model's script, the same for both: search the SKU the user named; update the product whose
 * ID the search returned (read from the tool result, never known in advance), first with a stock
 * that is not a whole number (the node refuses it and the agent passes the refusal to the model),
 * then with the stock the user named; answer quoting the product's name and the update's result.
 */
import assert from 'node:assert/strict';

import type { Sandbox } from '../sandbox';
import { check, nodeOutput, waitFor } from './checks';
import {
	messageText,
	startScriptedModelServer,
	type ChatMessage,
	type ChatRequest,
	type ScriptedModelServer,
	type ScriptedReply,
} from './model-server';
import { executeWorkflow, importCredentials, type N8nInstallation } from './n8n';
import type { N8nPublicApi } from './n8n-api';

const WORKFLOW_ID = 'e2eAiAgentTool01';
export const STREAMING_WORKFLOW_ID = 'e2eAiAgentStrm01';
const STREAMING_WEBHOOK_PATH = 'e2e-ai-agent-stream';
/** The credential both workflows name for their chat model. */
const MODEL_CREDENTIAL = { id: 'e2eOpenAiCred001', name: 'Scripted Model', type: 'openAiApi' };
/** A fixed test value, not a secret: the scripted server needs no key. */
const MODEL_API_KEY = 'e2e-scripted-model-key';

/** What the user asks: ai-agent.json's Set node has the first; no other workflow touches these products. */
const EXECUTE_TASK = { id: 100061, sku: 'KIT-000061', stock: 7 };
const STREAMING_TASK = { id: 100060, sku: 'TSH-000060', stock: 9 };
type Task = typeof EXECUTE_TASK;

/** Tool names n8n derives from the tool nodes' names. */
const FIND_TOOL = 'Find_Products';
const UPDATE_TOOL = 'Update_Stock';
/** ai-agent.json's third tool (issue 40): Product › Get Many at node version 4, Output › Selected Fields `id, name, stockLevel` typed (as saved before the list). */
const SELECTED_FIELDS_TOOL = 'List_Stock';
const SELECTED_FIELDS_DESCRIPTION = /^Get many products: List products .* Output › Selected Fields: each item has only these fields \(null where the answer lacks one\): id, name, stockLevel\.$/;
/**
 * Its sibling: the same operation with `id, name, stockLevel` picked from the Fields list and
 * `shelf`, a field the answer schema does not know, typed in Other Fields.
 */
const PICKED_FIELDS_TOOL = 'Pick_Stock';
const PICKED_FIELDS_DESCRIPTION = /^Get many products: List products .* Output › Selected Fields: each item has only these fields \(null where the answer lacks one\): id, name, stockLevel, shelf\.$/;
/**
 * What the model is told about a tool whose description the user left as the node fills it in
 * (actions/tool.ts): the operation's purpose, what it returns and its required inputs, where n8n's
 * own "Set Automatically" said only "Update a product in Marketplace Merchant".
 */
const AUTOMATIC_UPDATE_DESCRIPTION = /^Update a product: Change one product, named by its product ID .* Outputs one item: .* Required: Product ID\.$/;

function toolResults(messages: ChatMessage[]): string[] {
	return messages.filter((message) => message.role === 'tool').map(messageText);
}

function parseToolResult(content: string): Array<Record<string, unknown>> {
	try {
		const parsed = JSON.parse(content) as unknown;
		return Array.isArray(parsed) ? (parsed as Array<Record<string, unknown>>) : [parsed as Record<string, unknown>];
	} catch {
		throw new Error(`tool result is not JSON: ${content.slice(0, 300)}`);
	}
}

function userTask(messages: ChatMessage[]): { sku: string; stock: number } {
	const asked = messages.filter((message) => message.role === 'user').map(messageText).join('\n');
	const match = /SKU (\S+) to (\d+)/.exec(asked);
	if (!match) throw new Error(`no "SKU … to …" in the user's message: ${asked.slice(0, 300)}`);
	return { sku: match[1], stock: Number(match[2]) };
}

/** The stock the model first asks for: not a whole number, as a model may slip; the node refuses it. */
function slippedStock(task: { stock: number }): number {
	return task.stock + 0.5;
}

/**
 * Whether a value the node refuses reaches the model as the tool's result. n8n 2.x hands a tool's
 * error back to the model; n8n 1.123 and 2.0 end the agent's run with it (measured: the execution fails
 * with the node's own message, "Update Fields › Stock Level: 7.5 is not a stock level"), so there
 * the scripted model does not slip.
 */
let toolErrorsReachModel = true;

/**
 * Whether n8n resolves an expression in a tool's description before the model sees it (2.41 does,
 * create-node-as-tool's resolver; older lines are not known to: n8n issue #30909), so that the
 * Selected Fields tool's description names the fields.
 */
let toolDescriptionExpressionsResolved = true;

/**
 * The model's turns: search; update the product found with a stock that is not a whole number;
 * read the node's refusal and update again with the stock asked; answer. Where tool errors do not
 * reach the model (n8n 1.x, 2.0), the slip is left out.
 */
function agentScript(request: ChatRequest): ScriptedReply {
	const offered = (request.tools ?? []).map((tool) => tool.function.name);
	for (const name of [FIND_TOOL, UPDATE_TOOL]) {
		if (!offered.includes(name)) throw new Error(`tool ${name} not offered (offered: ${offered.join(', ')})`);
	}
	const task = userTask(request.messages);
	const results = toolResults(request.messages);
	const [found, refused, updated] = toolErrorsReachModel ? results : [results[0], 'Stock Level (no slip)', results[1]];
	if (found === undefined) return { tool: FIND_TOOL, arguments: { search: task.sku } };
	const product = parseToolResult(found).find((item) => item.sku === task.sku);
	if (!product) throw new Error(`the search result has no product with SKU ${task.sku}: ${found.slice(0, 300)}`);
	if (refused === undefined) return { tool: UPDATE_TOOL, arguments: { productId: product.id, stockLevel: slippedStock(task) } };
	if (!refused.includes('Stock Level')) throw new Error(`the stock ${slippedStock(task)} was not refused naming Stock Level: ${refused.slice(0, 300)}`);
	if (updated === undefined) return { tool: UPDATE_TOOL, arguments: { productId: product.id, stockLevel: task.stock } };
	const [result] = parseToolResult(updated);
	return {
		text: `Done: "${String(product.name)}" (SKU ${String(product.sku)}, ID ${String(result.id)}) now has ${task.stock} in stock; the marketplace answered success: ${String(result.success)}.`,
	};
}

/** The run's four model requests, the sandbox's log and state, and the agent's answer agree. */
function assertAgentRun(sandbox: Sandbox, requests: ChatRequest[], task: Task, before: { name: string; stockLevel: number }, answer: string, selectedFieldsTool = false): string {
	assert.equal(requests.length, modelRequests(), `chat requests: ${requests.length}`);
	const [first, second] = requests;
	const [third, fourth] = toolErrorsReachModel ? [requests[2], requests[3]] : [undefined, requests[2]];

	// What n8n offered the model: the tools' names, descriptions and $fromAI parameters.
	const tools = Object.fromEntries((first.tools ?? []).map((tool) => [tool.function.name, tool.function]));
	assert.match(tools[FIND_TOOL].description ?? '', /^Find products of the merchant's catalogue/);
	assert.match(tools[UPDATE_TOOL].description ?? '', AUTOMATIC_UPDATE_DESCRIPTION);
	assert.deepEqual(Object.keys(tools[FIND_TOOL].parameters?.properties ?? {}), ['search']);
	assert.deepEqual(Object.keys(tools[UPDATE_TOOL].parameters?.properties ?? {}).sort(), ['productId', 'stockLevel']);
	assert.match(tools[UPDATE_TOOL].parameters?.properties?.stockLevel.description ?? '', /whole number of units/);
	// A tool set to Output › Selected Fields is told exactly the fields it returns, not the Simplified ones.
	if (selectedFieldsTool && toolDescriptionExpressionsResolved) {
		for (const [name, description] of [[SELECTED_FIELDS_TOOL, SELECTED_FIELDS_DESCRIPTION], [PICKED_FIELDS_TOOL, PICKED_FIELDS_DESCRIPTION]] as const) {
			const told = tools[name]?.description ?? `no tool ${name} offered`;
			assert.match(told, description);
			assert.doesNotMatch(told, /Simplif|externalId|brand/);
		}
	}

	// The sandbox received the model's arguments: the search, then the update of the ID found; the
	// update with a fractional stock was refused by the node and never sent.
	const searches = sandbox.log.filter((entry) => entry.route === 'products');
	assert.deepEqual(searches.map((entry) => [entry.status, entry.query.search]), [[200, task.sku]]);
	const updates = sandbox.log.filter((entry) => entry.route === 'productUpdate');
	assert.deepEqual(updates.map((entry) => [entry.status, entry.path.split('/').pop()]), [[200, String(task.id)]]);
	assert.equal(sandbox.state.product(task.id)?.stockLevel, task.stock);

	// The model received the sandbox's answers as tool results.
	const listed = parseToolResult(toolResults(second.messages)[0] ?? '');
	assert.deepEqual(
		listed.map((item) => [item.id, item.name, item.stockLevel]),
		[[task.id, before.name, before.stockLevel]],
	);
	const refusal = third ? toolResults(third.messages)[1] ?? '' : '';
	if (third) assert.ok(refusal.includes('Stock Level') && refusal.includes(String(slippedStock(task))), `refusal: ${refusal}`);
	const updateResult = toolResults(fourth.messages)[third ? 2 : 1] ?? '';
	const [updated] = parseToolResult(updateResult);
	assert.equal(Number(updated.id), task.id);
	assert.equal(updated.success, true, `update result: ${updateResult}`);

	// The agent's answer carries the results.
	assert.ok(
		answer.includes(before.name) && answer.includes(`ID ${task.id}`) && answer.includes('success: true'),
		`agent answer: ${answer}`,
	);
	const slip = third ? `stock ${slippedStock(task)} refused before sending (the model was told ${JSON.stringify(refusal.slice(0, 90))})` : 'no slip (this n8n ends the run on a tool error)';
	return `product ${task.id} stock ${before.stockLevel} → ${task.stock}; ${slip}`;
}

/** How many requests the model gets in one run: search, (slip,) update, answer. */
function modelRequests(): number {
	return toolErrorsReachModel ? 4 : 3;
}

function productBefore(sandbox: Sandbox, task: Task): { name: string; stockLevel: number } {
	const product = sandbox.state.product(task.id);
	assert.equal(product?.sku, task.sku, `sandbox product ${task.id}`);
	assert.notEqual(product.stockLevel, task.stock);
	return { name: product.name, stockLevel: product.stockLevel };
}

/**
 * `n8n execute` of ai-agent.json. Starts the scripted model and imports its credential first;
 * returns the model still running for `checkAiAgentStreaming` (the caller closes it), or
 * undefined when it could not be started.
 */
export async function checkAiAgent(installation: N8nInstallation, userFolder: string, sandbox: Sandbox): Promise<ScriptedModelServer | undefined> {
	let model: ScriptedModelServer | undefined;
	// Measured with npm run test:compat: 1.123.81 and 2.0.3 end the run, 2.41.1 hands the error back.
	toolErrorsReachModel = installation.line[0] > 2 || (installation.line[0] === 2 && installation.line[1] > 0);
	toolDescriptionExpressionsResolved = installation.line[0] > 2 || (installation.line[0] === 2 && installation.line[1] >= 41);
	await check('AI Agent with the node as its tools ($fromAI), n8n execute: searches, is refused a fractional stock, updates the product found, answers with the results', async () => {
		const before = productBefore(sandbox, EXECUTE_TASK);
		model = await startScriptedModelServer(agentScript);
		await importCredentials(installation, userFolder, [{ ...MODEL_CREDENTIAL, data: { apiKey: MODEL_API_KEY, url: model.baseUrl } }]);
		sandbox.clearLog();
		const startedAt = Date.now();
		const execution = await executeWorkflow(installation, userFolder, WORKFLOW_ID);
		const runMs = Date.now() - startedAt;
		const error = execution.data.resultData.error;
		assert.equal(execution.status, 'success', `execution ${execution.status}: ${error?.message ?? ''} ${error?.description ?? ''}`);
		const answer = String(nodeOutput(execution, 'AI Agent')[0]?.output ?? '');
		const changed = assertAgentRun(sandbox, model.requests, EXECUTE_TASK, before, answer, true);
		const tools = model.requests[0].tools ?? [];
		const transport = model.streamedReplies === 0 ? 'JSON answers' : `${model.streamedReplies} of ${modelRequests()} answers streamed`;
		return `${changed}; ${modelRequests()} model requests, ${transport}; n8n execute ${(runMs / 1000).toFixed(1)} s; the model saw ${tools
			.map((tool) => `${tool.function.name}: "${(tool.function.description ?? '').slice(0, 45)}"`)
			.join(', ')}`;
	});
	return model;
}

/** Reads a streaming webhook answer: n8n writes one JSON object per line (begin, item, end). */
async function readStreamedAnswer(response: Response): Promise<{ text: string; chunks: number; types: string[] }> {
	const body = await response.text();
	const events = body
		.split('\n')
		.filter((line) => line.trim() !== '')
		.map((line) => {
			try {
				return JSON.parse(line) as { type?: string; content?: string };
			} catch {
				throw new Error(`streamed line is not JSON: ${line.slice(0, 200)}`);
			}
		});
	const items = events.filter((event) => event.type === 'item');
	return { text: items.map((event) => event.content ?? '').join(''), chunks: items.length, types: [...new Set(events.map((event) => String(event.type)))] };
}

/** Whether the production webhook answers a CORS preflight for POST (e2e/queue/suite.ts asks the same). */
async function webhookRegistered(webhookUrl: string, origin: string): Promise<boolean> {
	const response = await fetch(webhookUrl, {
		method: 'OPTIONS',
		headers: { origin, 'access-control-request-method': 'POST' },
		signal: AbortSignal.timeout(10_000),
	});
	await response.arrayBuffer();
	return response.status === 204 && (response.headers.get('access-control-allow-methods') ?? '').includes('POST');
}

/** ai-agent-streaming.json on a running n8n: the agent streams, the model answers in SSE. */
export async function checkAiAgentStreaming(api: N8nPublicApi, baseUrl: string, sandbox: Sandbox, model: ScriptedModelServer): Promise<void> {
	await check('AI Agent streaming to a webhook: the model is asked to stream (SSE), the same turns run, the answer streams back', async () => {
		const before = productBefore(sandbox, STREAMING_TASK);
		const webhookUrl = `${baseUrl}/webhook/${STREAMING_WEBHOOK_PATH}`;
		await api.activateWorkflow(STREAMING_WORKFLOW_ID);
		try {
			await waitFor('the streaming webhook to be registered', async () => await webhookRegistered(webhookUrl, baseUrl), 30_000);
			const requestsBefore = model.requests.length;
			const streamedBefore = model.streamedReplies;
			sandbox.clearLog();
			const startedAt = Date.now();
			const response = await fetch(webhookUrl, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({
					chatInput: `Set the stock of the product with SKU ${STREAMING_TASK.sku} to ${STREAMING_TASK.stock} and tell me which product it is.`,
				}),
				signal: AbortSignal.timeout(60_000),
			});
			assert.equal(response.status, 200, `webhook: HTTP ${response.status}`);
			const streamed = await readStreamedAnswer(response);
			const runMs = Date.now() - startedAt;
			const requests = model.requests.slice(requestsBefore);
			assert.ok(requests.every((request) => request.stream === true), `stream flags: ${requests.map((request) => String(request.stream)).join(', ')}`);
			assert.equal(model.streamedReplies - streamedBefore, modelRequests());
			const changed = assertAgentRun(sandbox, requests, STREAMING_TASK, before, streamed.text);
			return `${changed}; ${modelRequests()} model requests with stream: true, answered in SSE; ${streamed.chunks} answer chunks streamed to the caller (${streamed.types.join(', ')}); ${(runMs / 1000).toFixed(1)} s`;
		} finally {
			await api.deactivateWorkflow(STREAMING_WORKFLOW_ID);
		}
	});
}

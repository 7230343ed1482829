/**
 * Issue 19, AI agents: n8n's AI Agent uses this node as its tools, in a real n8n, with a scripted
 * OpenAI-compatible model (e2e/model-server.ts) in place of a real one. Workflow
 * e2e/workflows/ai-agent.json: Manual Trigger → Set (`chatInput`) → AI Agent, whose model is
 * n8n's "OpenAI Chat Model" with an `openAiApi` credential pointing at the scripted server, and
 * whose tools are two Marketplace Merchant Tool nodes (the `usableAsTool` variant n8n generates):
 * "Find Products" (Product › Get Many, Search from `$fromAI('search', …)`, its tool description set
 * manually) and "Update Stock" (Product › Update, Product ID and Stock Level from `$fromAI`, the
 * tool description n8n sets automatically).
 *
 * The model's script: search the SKU the user named; update the product whose id the search
 * returned (the id is read from the tool result, never known in advance); answer quoting the
 * product's name and the update's result.
 */
import assert from 'node:assert/strict';

import type { Sandbox } from '../sandbox';
import { check, nodeOutput } from './checks';
import { messageText, startScriptedModelServer, type ChatMessage, type ChatRequest, type ScriptedReply } from './model-server';
import { executeWorkflow, importCredentials, type N8nInstallation } from './n8n';

const WORKFLOW_ID = 'e2eAiAgentTool01';
/** The credential e2e/workflows/ai-agent.json names for its chat model. */
const MODEL_CREDENTIAL = { id: 'e2eOpenAiCred001', name: 'Scripted Model', type: 'openAiApi' };
/** A fixed test value, not a secret: the scripted server needs no key. */
const MODEL_API_KEY = 'e2e-scripted-model-key';

/** What the user asks in the workflow's Set node; no other workflow touches this product. */
const PRODUCT = { id: 100061, sku: 'KIT-000061' };
const NEW_STOCK = 7;

/** Tool names n8n derives from the tool nodes' names. */
const FIND_TOOL = 'Find_Products';
const UPDATE_TOOL = 'Update_Stock';

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

/** The model's turns: search, update the product found, answer. */
function agentScript(request: ChatRequest): ScriptedReply {
	const offered = (request.tools ?? []).map((tool) => tool.function.name);
	for (const name of [FIND_TOOL, UPDATE_TOOL]) {
		if (!offered.includes(name)) throw new Error(`tool ${name} not offered (offered: ${offered.join(', ')})`);
	}
	const [found, updated] = toolResults(request.messages);
	if (found === undefined) return { tool: FIND_TOOL, arguments: { search: PRODUCT.sku } };
	const product = parseToolResult(found).find((item) => item.sku === PRODUCT.sku);
	if (!product) throw new Error(`the search result has no product with SKU ${PRODUCT.sku}: ${found.slice(0, 300)}`);
	if (updated === undefined) return { tool: UPDATE_TOOL, arguments: { productId: product.id, stockLevel: NEW_STOCK } };
	const [result] = parseToolResult(updated);
	return {
		text: `Done: "${String(product.name)}" (SKU ${String(product.sku)}, ID ${String(result.id)}) now has ${NEW_STOCK} in stock; the marketplace answered success: ${String(result.success)}.`,
	};
}

export async function checkAiAgent(installation: N8nInstallation, userFolder: string, sandbox: Sandbox): Promise<void> {
	await check('AI Agent with the node as its tools ($fromAI): searches, updates the product found, answers with the results', async () => {
		const product = sandbox.state.product(PRODUCT.id);
		assert.equal(product?.sku, PRODUCT.sku, `sandbox product ${PRODUCT.id}`);
		const stockBefore = product.stockLevel;
		assert.notEqual(stockBefore, NEW_STOCK);

		const model = await startScriptedModelServer(agentScript);
		try {
			await importCredentials(installation, userFolder, [{ ...MODEL_CREDENTIAL, data: { apiKey: MODEL_API_KEY, url: model.baseUrl } }]);
			sandbox.clearLog();
			const startedAt = Date.now();
			const execution = await executeWorkflow(installation, userFolder, WORKFLOW_ID);
			const runMs = Date.now() - startedAt;
			const error = execution.data.resultData.error;
			assert.equal(execution.status, 'success', `execution ${execution.status}: ${error?.message ?? ''} ${error?.description ?? ''}`);

			// What n8n offered the model: the tools' names, descriptions and $fromAI parameters.
			assert.equal(model.requests.length, 3, `chat requests: ${model.requests.length}`);
			const [first, second, third] = model.requests;
			const tools = Object.fromEntries((first.tools ?? []).map((tool) => [tool.function.name, tool.function]));
			assert.match(tools[FIND_TOOL].description ?? '', /^Find products of the merchant's catalogue/);
			assert.equal(tools[UPDATE_TOOL].description, 'Update a product in Marketplace Merchant');
			assert.deepEqual(Object.keys(tools[FIND_TOOL].parameters?.properties ?? {}), ['search']);
			assert.deepEqual(Object.keys(tools[UPDATE_TOOL].parameters?.properties ?? {}).sort(), ['productId', 'stockLevel']);
			assert.match(tools[UPDATE_TOOL].parameters?.properties?.stockLevel.description ?? '', /whole number of units/);
			assert.match(messageText(first.messages.find((message) => message.role === 'user')!), new RegExp(PRODUCT.sku));

			// The sandbox received the model's arguments: the search, then the update of the id found.
			const searches = sandbox.log.filter((entry) => entry.route === 'products');
			assert.deepEqual(searches.map((entry) => [entry.status, entry.query.search]), [[200, PRODUCT.sku]]);
			const updates = sandbox.log.filter((entry) => entry.route === 'productUpdate');
			assert.deepEqual(updates.map((entry) => [entry.status, entry.path.split('/').pop()]), [[200, String(PRODUCT.id)]]);
			assert.equal(sandbox.state.product(PRODUCT.id)?.stockLevel, NEW_STOCK);

			// The model received the sandbox's answers as tool results.
			const [searchResult] = toolResults(second.messages);
			const listed = parseToolResult(searchResult);
			assert.deepEqual(
				listed.map((item) => [item.id, item.name, item.stockLevel]),
				[[PRODUCT.id, product.name, stockBefore]],
			);
			const [, updateResult] = toolResults(third.messages);
			const [updated] = parseToolResult(updateResult);
			assert.equal(Number(updated.id), PRODUCT.id);
			assert.equal(updated.success, true, `update result: ${updateResult}`);

			// The agent's answer carries the results.
			const [answer] = nodeOutput(execution, 'AI Agent');
			const output = String(answer?.output ?? '');
			assert.ok(output.includes(product.name) && output.includes(`ID ${PRODUCT.id}`) && output.includes('success: true'), `agent output: ${output}`);

			const transport = model.streamedReplies === 0 ? 'JSON answers (n8n did not ask to stream)' : `${model.streamedReplies} of 3 answers streamed (SSE)`;
			return `product ${PRODUCT.id} stock ${stockBefore} → ${NEW_STOCK}; 3 model requests, ${transport}; run ${(runMs / 1000).toFixed(1)} s; tools offered: ${FIND_TOOL} "${(tools[FIND_TOOL].description ?? '').slice(0, 40)}…", ${UPDATE_TOOL} "${tools[UPDATE_TOOL].description ?? ''}"`;
		} finally {
			await model.close();
		}
	});
}

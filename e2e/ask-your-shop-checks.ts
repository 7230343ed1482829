/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-hardcoded-secrets -- end-to-end suite code, run by tsx against a real n8n and never loaded by n8n: it may use process and timers, Node modules, fixed test keys of the sandbox (docs/architecture.md, Toolchain). */
/**
 * The example "ask your shop" (examples/ask-your-shop.json) in real n8n, with the scripted model
 * (e2e/model-server.ts) in place of OpenAI: a chat agent with three tool nodes of this package,
 * as a merchant imports it. The chat trigger gives way to a Manual Trigger and a Set node with
 * the merchant's message (`n8n execute` cannot send a chat message); everything else runs as
 * imported, its OpenAI credential pointing at the scripted server and its marketplace credential
 * at the suite's sandbox.
 *
 * The model's script: look the product up by the SKU the merchant named, then schedule a discount
 * of 10% on the ID and price the look-up returned (never known in advance), then answer with the
 * discount's ID. The check pins what the model was told of each tool: the operation's purpose,
 * what it returns and its required inputs (actions/tool.ts), and the $fromAI parameters with
 * their descriptions and types.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

import type { Sandbox } from '../sandbox';
import { DEV_CREDENTIAL } from '../scripts/n8n-dev';
import { check, nodeOutput, type Json } from './checks';
import { messageText, startScriptedModelServer, type ChatRequest, type ScriptedReply } from './model-server';
import { executeWorkflow, importCredentials, importWorkflows, type N8nInstallation } from './n8n';

const EXAMPLE = path.join(__dirname, '..', 'examples', 'ask-your-shop.json');
const FIND = 'Find_Products';
const SCHEDULE = 'Schedule_Discount';
const DISCOUNTS = 'Current_Discounts';
const DAY_MS = 86_400_000;
/** A product no other check changes. */
const PRODUCT_ID = 100062;

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

type Task = { sku: string; dateFrom: string; dateTo: string };

function taskOf(request: ChatRequest): Task {
	const asked = request.messages.filter((message) => message.role === 'user').map(messageText).join('\n');
	const match = /SKU (\S+) .* from (\d{4}-\d\d-\d\d) to (\d{4}-\d\d-\d\d)/.exec(asked);
	if (!match) throw new Error(`no "SKU … from … to …" in the merchant's message: ${asked.slice(0, 300)}`);
	return { sku: match[1], dateFrom: match[2], dateTo: match[3] };
}

function toolResults(request: ChatRequest): unknown[] {
	return request.messages.filter((message) => message.role === 'tool').map((message) => JSON.parse(messageText(message)) as unknown);
}

const asList = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : [value as Json]);

/** Look up, schedule 10% off, answer. */
function script(request: ChatRequest): ScriptedReply {
	const task = taskOf(request);
	const [found, scheduled] = toolResults(request);
	if (found === undefined) return { tool: FIND, arguments: { search: task.sku } };
	const product = asList(found).find((item) => item.sku === task.sku);
	if (!product) throw new Error(`the look-up returned no product with SKU ${task.sku}: ${JSON.stringify(found).slice(0, 300)}`);
	if (scheduled === undefined) {
		const discountPrice = Math.floor(Number(product.basePrice) * 0.9);
		return { tool: SCHEDULE, arguments: { productId: product.id, discountPrice, dateFrom: task.dateFrom, dateTo: task.dateTo } };
	}
	const [result] = asList(scheduled);
	return { text: `Scheduled: "${String(product.name)}" at 10% off from ${task.dateFrom} to ${task.dateTo}, discount ID ${String(result.id)} (success: ${String(result.success)}).` };
}

/** The example with a Manual Trigger and the merchant's message in place of the chat trigger. */
function runnable(example: Json & { nodes: Json[]; connections: Json }, message: string): Json & { id: string } {
	const trigger = example.nodes.find((node) => node.type === '@n8n/n8n-nodes-langchain.chatTrigger');
	assert.ok(trigger, 'the example starts with a chat trigger');
	const nodes = example.nodes.map((node) =>
		node === trigger
			? {
					id: String(node.id),
					name: 'Chat Message',
					type: 'n8n-nodes-base.set',
					typeVersion: 3.4,
					position: node.position,
					parameters: { assignments: { assignments: [{ id: 'm1', name: 'chatInput', type: 'string', value: message }] }, options: {} },
				}
			: node,
	);
	const connections = { ...example.connections, Start: { main: [[{ node: 'Chat Message', type: 'main', index: 0 }]] }, 'Chat Message': example.connections[String(trigger.name)] };
	delete (connections as Json)[String(trigger.name)];
	const start = { id: 'm0', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [-220, 0], parameters: {} };
	return { ...example, id: String(example.id), nodes: [start, ...nodes], connections };
}

export async function checkAskYourShop(installation: N8nInstallation, userFolder: string, sandbox: Sandbox): Promise<void> {
	await check('example "ask your shop": the chat agent looks a product up and schedules a discount by chat; each tool tells the model its purpose, output and required inputs', async () => {
		const example = JSON.parse(await readFile(EXAMPLE, 'utf8')) as Json & { id: string; nodes: Json[]; connections: Json };
		const product = sandbox.state.product(PRODUCT_ID);
		assert.ok(product, `sandbox product ${PRODUCT_ID}`);
		const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
		const task: Task = { sku: product.sku, dateFrom: isoDay(today + 2 * DAY_MS), dateTo: isoDay(today + 9 * DAY_MS) };
		const message = `Put the product with SKU ${task.sku} on sale at 10% off from ${task.dateFrom} to ${task.dateTo}.`;
		const model = await startScriptedModelServer(script);
		try {
			const openAi = (example.nodes.find((node) => node.type === '@n8n/n8n-nodes-langchain.lmChatOpenAi')?.credentials as Json).openAiApi as Json;
			await importCredentials(installation, userFolder, [
				{ id: openAi.id, name: openAi.name, type: 'openAiApi', data: { apiKey: 'e2e-scripted-model-key', url: model.baseUrl } },
				{ ...DEV_CREDENTIAL, data: { baseUrl: sandbox.url, ...sandbox.client, apiKey: '' } },
			]);
			await importWorkflows(installation, userFolder, [runnable(example, message)]);
			sandbox.clearLog();
			const execution = await executeWorkflow(installation, userFolder, example.id);
			const error = execution.data.resultData.error;
			assert.equal(execution.status, 'success', `execution ${execution.status}: ${error?.message ?? ''} ${error?.description ?? ''}`);

			// What the model was told: each tool's purpose, what it returns, its required inputs; the $fromAI parameters.
			assert.equal(model.requests.length, 3, `model requests: ${model.requests.length}`);
			const tools = Object.fromEntries((model.requests[0].tools ?? []).map((tool) => [tool.function.name, tool.function]));
			assert.deepEqual(Object.keys(tools).sort(), [DISCOUNTS, FIND, SCHEDULE]);
			// Find Products is set to Output › Selected Fields, picked from the Fields list: its description names exactly those fields (issue 40), an
			// expression n8n 2.41 resolves; 1.123 and 2.0 hand the model the expression itself (n8n issue #30909; README).
			const resolvesDescriptions = installation.line[0] > 2 || (installation.line[0] === 2 && installation.line[1] >= 41);
			if (resolvesDescriptions) {
				assert.match(
					tools[FIND].description ?? '',
					/^Get many products: List products of the catalogue.* One item per product\. .*Output › Selected Fields: each item has only these fields \(null where the answer lacks one\): id, name, sku, ean, stockLevel, basePrice, status\.$/,
				);
				assert.doesNotMatch(tools[FIND].description ?? '', /Simplif|externalId/);
			} else {
				assert.match(tools[FIND].description ?? '', /Get many products: List products of the catalogue.* One item per product/);
			}
			assert.match(tools[DISCOUNTS].description ?? '', /^Get many discounts: List the discounts that run during a date range/);
			assert.match(tools[SCHEDULE].description ?? '', /^Schedule discounts: .* Required: Product ID, Discount Price, Date From\. For AI agents: schedule one discount per call/);
			assert.deepEqual(Object.keys(tools[SCHEDULE].parameters?.properties ?? {}).sort(), ['dateFrom', 'dateTo', 'discountPrice', 'productId']);
			assert.match(tools[SCHEDULE].parameters?.properties?.discountPrice.description ?? '', /at least 5% below the basePrice/);
			assert.equal(tools[SCHEDULE].parameters?.properties?.discountPrice.type, 'number');

			// Find Products answered only the fields the example selects.
			const [found] = toolResults(model.requests[1]);
			const listed = asList(found).find((item) => item.sku === task.sku);
			assert.deepEqual(Object.keys(listed ?? {}).sort(), ['basePrice', 'ean', 'id', 'name', 'sku', 'status', 'stockLevel']);

			// The sandbox received one look-up and one schedule of the product found, at the price the model chose.
			const price = Math.floor(product.basePrice * 0.9);
			assert.deepEqual(sandbox.log.filter((entry) => entry.route === 'products').map((entry) => entry.query.search), [task.sku]);
			assert.equal(sandbox.log.filter((entry) => entry.route === 'discountSchedule' && entry.status === 200).length, 1);
			const discount = sandbox.state.discounts.find((entry) => entry.merchantInventoryId === PRODUCT_ID && entry.discountPrice === price);
			assert.ok(discount, `no discount of ${price} on product ${PRODUCT_ID} in the sandbox`);
			const answer = String(nodeOutput(execution, 'AI Agent')[0]?.output ?? '');
			assert.ok(answer.includes(String(discount.discountId)) && answer.includes('success: true'), `agent answer: ${answer}`);
			return `product ${PRODUCT_ID} (${task.sku}) at ${price} RSD from ${task.dateFrom} to ${task.dateTo}, discount ${String(discount.discountId)}; the model saw ${Object.keys(tools).join(', ')}`;
		} finally {
			await model.close();
		}
	});
}

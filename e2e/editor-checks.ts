/* eslint-disable @n8n/community-nodes/no-restricted-imports -- end-to-end suite code, run by tsx against a real n8n and never loaded by n8n: it may use Node modules (docs/architecture.md, Toolchain). */
/**
 * What the editor shows, read from the node type descriptions a running n8n serves to its editor
 * (`/types/nodes.json`, the installed package as n8n loaded it): the subtitle in words, Simplify
 * on by default, Return All / Limit on the invoice lists, no `0` default on required prices.
 *
 * "Shown for" is n8n's own answer: `NodeHelpers.displayParameter` over the properties'
 * displayOptions, with the defaults filled in as the editor does, for every panel state (each
 * resource/operation pair of the node, each event of the trigger).
 */
import assert from 'node:assert/strict';

import {
	NodeHelpers,
	Workflow,
	type INode,
	type INodeParameters,
	type INodeProperties,
	type INodePropertyCollection,
	type INodePropertyOptions,
	type INodeType,
	type INodeTypeDescription,
	type INodeTypes,
} from 'n8n-workflow';

import { check } from './checks';
import type { N8nOwnerSession } from './n8n-api';

/** The version the editor gives a node added now: the default version, else the newest. */
function addedVersion(description: INodeTypeDescription): number {
	const versions = Array.isArray(description.version) ? description.version : [description.version];
	return description.defaultVersion ?? Math.max(...versions);
}

/** A node of this type with these parameters, as the editor holds it for a node added now (saved nodes keep their version's defaults). */
function editorNode(description: INodeTypeDescription, parameters: INodeParameters): INode {
	return { id: 'editor-check', name: description.defaults.name ?? description.displayName, type: description.name, typeVersion: addedVersion(description), position: [0, 0], parameters };
}

/** The parameters the panel holds in this state: the given ones plus every default n8n fills in. */
function withDefaults(description: INodeTypeDescription, state: INodeParameters): INodeParameters {
	return NodeHelpers.getNodeParameters(description.properties, state, true, false, editorNode(description, state), description) ?? state;
}

/** The top-level properties the panel shows in this state. */
function shownProperties(description: INodeTypeDescription, state: INodeParameters): INodeProperties[] {
	const values = withDefaults(description, state);
	const node = editorNode(description, values);
	return description.properties.filter((property) => NodeHelpers.displayParameter(values, property, node, description));
}

/** Every state of the panel's selectors (e.g. `resource`, then `operation`): one per combination shown. */
function panelStates(description: INodeTypeDescription, selectors: string[]): INodeParameters[] {
	let states: INodeParameters[] = [{}];
	for (const selector of selectors) {
		states = states.flatMap((state) =>
			shownProperties(description, state)
				.filter((property) => property.name === selector)
				.flatMap((property) => (property.options as INodePropertyOptions[]).map((option) => ({ ...state, [selector]: option.value }))),
		);
	}
	assert.ok(states.length > 0, `${description.name}: no panel state for ${selectors.join(' > ')}`);
	return states;
}

/** `product/getMany`, `event=invoice`: a state as the checks' messages name it. */
function stateName(state: INodeParameters): string {
	return Object.values(state).map(String).join('/');
}

/** Every property at any depth: inside collections and fixed collections too. */
function allProperties(properties: INodeProperties[]): INodeProperties[] {
	return properties.flatMap((property) => {
		const nested = (property.options ?? []).flatMap((option) => {
			if ('values' in option) return (option as INodePropertyCollection).values;
			if ('type' in option) return [option as INodeProperties];
			return [];
		});
		return [property, ...allProperties(nested)];
	});
}

/** The subtitle the canvas shows under a node with these parameters, evaluated as the editor does. */
function subtitleOf(description: INodeTypeDescription, parameters: INodeParameters): unknown {
	const type: INodeType = { description };
	const nodeTypes: INodeTypes = { getByName: () => type, getByNameAndVersion: () => type, getKnownTypes: () => ({}) };
	const node = editorNode(description, parameters);
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	return workflow.expression.getSimpleParameterValue(node, description.subtitle, 'internal', {});
}

async function nodeTypeDescriptions(session: N8nOwnerSession, names: string[]): Promise<INodeTypeDescription[]> {
	const response = await session.get('/types/nodes.json');
	assert.equal(response.status, 200, `GET /types/nodes.json: HTTP ${response.status}`);
	const all = (await response.json()) as INodeTypeDescription[];
	return names.map((name) => {
		const description = all.find((candidate) => candidate.name === name);
		assert.ok(description, `${name} is not listed`);
		return description;
	});
}

/** Simplify is on by default in every state that shows it; returns those states. */
/** The panel states (those `among`) that show the parameter `name`, each checked to default to `byDefault`. */
function statesWith(description: INodeTypeDescription, selectors: string[], name: string, byDefault: unknown, among: (state: INodeParameters) => boolean = () => true): string[] {
	const shown: string[] = [];
	for (const state of panelStates(description, selectors).filter(among)) {
		const found = shownProperties(description, state).filter((property) => property.name === name);
		if (found.length === 0) continue;
		for (const property of found) assert.equal(property.default, byDefault, `${description.name} ${stateName(state)}: ${name} defaults to ${String(property.default)}`);
		shown.push(stateName(state));
	}
	return shown;
}

export async function checkEditorDescriptions(session: N8nOwnerSession, nodeTypeName: string, triggerTypeName: string): Promise<void> {
	let node: INodeTypeDescription | undefined;
	let trigger: INodeTypeDescription | undefined;
	const loaded = await check('editor: n8n serves both node descriptions to the editor', async () => {
		[node, trigger] = await nodeTypeDescriptions(session, [nodeTypeName, triggerTypeName]);
	});
	if (!loaded || !node || !trigger) return;
	const nodeType = node;
	const triggerType = trigger;
	const NODE_SELECTORS = ['resource', 'operation'];

	await check('editor: the subtitle names operation and resource in words ("Update Many: Product") for every pair', async () => {
		const resources = nodeType.properties.find((property) => property.name === 'resource')?.options as INodePropertyOptions[];
		const states = panelStates(nodeType, NODE_SELECTORS);
		for (const state of states) {
			const operations = shownProperties(nodeType, state).find((property) => property.name === 'operation')?.options as INodePropertyOptions[] | undefined;
			// n8n's Custom API Call as the resource shows no operation: the subtitle is the resource alone.
			const operationName = operations?.find((option) => option.value === state.operation)?.name;
			const resourceName = resources.find((option) => option.value === state.resource)?.name;
			assert.ok(resourceName, `${stateName(state)}: no resource name`);
			const expected = operations ? `${operationName}: ${resourceName}` : resourceName;
			assert.equal(subtitleOf(nodeType, state), expected, stateName(state));
		}
		assert.equal(subtitleOf(nodeType, { resource: 'product', operation: 'updateMany' }), 'Update Many: Product');
		return `${states.length} pairs`;
	});

	await check('editor: a node added now (version 4) shows Output, Simplified by default, on the read operations, and Simplify, on by default, on the writes', async () => {
		// Sync Stock and Prices has an Output of its own (One Item per Entry, Summary Only): left out here.
		const reads = ['product/getMany', 'order/getMany', 'order/get', 'shipment/getMany', 'discount/getMany', 'invoice/getMany', 'invoiceCorrection/getMany'];
		const output = statesWith(nodeType, NODE_SELECTORS, 'output', 'simplified', (state) => stateName(state) !== 'product/syncStockAndPrices');
		for (const expected of reads) assert.ok(output.includes(expected), `${expected} shows no Output (shown for: ${output.join(', ')})`);
		const simplify = statesWith(nodeType, NODE_SELECTORS, 'simplify', true);
		assert.ok(simplify.includes('product/updateMany'), `product/updateMany shows no Simplify (shown for: ${simplify.join(', ')})`);
		assert.deepEqual(output.filter((state) => simplify.includes(state)), [], 'a state shows both Output and Simplify');
		return `Output for ${output.join(', ')}; Simplify for ${simplify.join(', ')}`;
	});

	await check('editor: the trigger has Simplify, on by default for every event that shows it', async () => {
		const shown = statesWith(triggerType, ['event'], 'simplify', true);
		assert.ok(shown.length > 0, 'no event shows Simplify');
		return `shown for ${shown.join(', ')}`;
	});

	await check('editor: Invoice and Invoice Correction Get Many have Return All and Limit', async () => {
		for (const resource of ['invoice', 'invoiceCorrection']) {
			const state = { resource, operation: 'getMany' };
			const names = (parameters: INodeParameters) => shownProperties(nodeType, parameters).map((property) => property.name);
			const shown = names(state);
			assert.ok(shown.includes('returnAll'), `${stateName(state)} has no Return All (shows ${shown.join(', ')})`);
			assert.ok(names({ ...state, returnAll: false }).includes('limit'), `${stateName(state)} has no Limit when Return All is off`);
			assert.ok(!names({ ...state, returnAll: true }).includes('limit'), `${stateName(state)} shows Limit with Return All on`);
		}
	});

	await check('editor: required price fields have no 0 default (n8n flags them empty before a run)', async () => {
		const prices = allProperties(nodeType.properties).filter(
			(property) => property.required === true && /price/i.test(`${property.name} ${property.displayName}`),
		);
		assert.ok(prices.length > 0, 'no required price field found');
		const zero = prices.filter((property) => property.default === 0);
		assert.deepEqual(
			zero.map((property) => `${property.displayName} (${property.name})`),
			[],
			'required price fields defaulting to 0',
		);
		return `${prices.length} required price fields: ${[...new Set(prices.map((property) => property.displayName))].join(', ')}`;
	});
}

/**
 * An execution as the editor's REST API gives it (`/rest/executions/:id`): its data in the
 * `flatted` format (every object, array and string of the run data is an entry of one list, and
 * refers to others by their index as a string), turned back into the run data.
 */
function unflatten(text: string): unknown {
	const entries = JSON.parse(text) as unknown[];
	const revived = new Set<object>();
	const revive = (value: object) => {
		revived.add(value);
		const record = value as Record<string, unknown>;
		for (const key of Object.keys(record)) {
			if (typeof record[key] !== 'string') continue;
			const target = entries[Number(record[key])];
			record[key] = target;
			if (typeof target === 'object' && target !== null && !revived.has(target)) revive(target);
		}
	};
	const root = entries[0];
	if (typeof root === 'object' && root !== null) revive(root);
	return root;
}

interface StoredRun {
	resultData: { runData: Record<string, Array<{ hints?: Array<{ message: string; type?: string; location?: string }> }>> };
}

/**
 * What the output pane shows for a node of a stored execution: the execution hints (e.g. "1 of
 * 1000 entries rejected"), read the way the editor reads a past execution, from the newest
 * execution of the workflow (e2e/rows-checks.ts ran it with `n8n execute` before n8n started).
 */
export async function checkStoredExecutionHint(session: N8nOwnerSession, workflowId: string, nodeName: string, expected: RegExp): Promise<void> {
	await check(`editor: a stored execution's hint reaches the editor (/rest/executions/:id, node "${nodeName}", output pane)`, async () => {
		const filter = encodeURIComponent(JSON.stringify({ workflowId }));
		const list = await session.request<{ results: Array<{ id: string }> }>('GET', `/executions?filter=${filter}`);
		const newest = [...list.results].sort((a, b) => Number(b.id) - Number(a.id))[0];
		assert.ok(newest, `no stored execution of workflow ${workflowId}`);
		const execution = await session.request<{ data: string }>('GET', `/executions/${newest.id}`);
		const run = unflatten(execution.data) as StoredRun;
		const hints = run.resultData.runData[nodeName]?.[0]?.hints ?? [];
		assert.equal(hints.length, 1, `hints: ${JSON.stringify(hints)}`);
		assert.match(hints[0].message, expected);
		assert.deepEqual([hints[0].type, hints[0].location], ['warning', 'outputPane']);
		return `execution ${newest.id}: "${hints[0].message}"`;
	});
}

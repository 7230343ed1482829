/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, run by jest and never loaded by n8n: it reads the shipped example from disk, Node modules (docs/architecture.md, Toolchain). */
/**
 * What an AI agent's model is told about each operation (actions/tool.ts), through n8n-workflow's
 * own functions: the parameters the engine fills in for a tool node (`getNodeParameters` with
 * defaults, as Workflow does) and the description n8n hands the model (`getToolDescriptionForNode`).
 * The tool variant is the node's description as n8n renames it ("…Tool", tool-generation/ai-tools.ts),
 * which adds no "Tool Description" selector of its own where the node brings `toolDescription`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { NodeHelpers, Workflow, type INode, type INodeParameters, type INodeType, type INodeTypeDescription, type INodePropertyOptions } from 'n8n-workflow';

import { startSandbox } from '../../sandbox';
import { TestNodeTypes, packageNodeTypeName, runNode, sandboxCredential } from '../harness';

const nodeTypes = new TestNodeTypes();
const plain = (): INodeTypeDescription => nodeTypes.getByNameAndVersion(packageNodeTypeName('marketplaceMerchant'), 3).description;

/** What n8n's convertNodeToAiTool does to the description that matters here: the name, and no selector while `toolDescription` exists. */
function toolVariant(): INodeType {
	const description = plain();
	expect(description.properties.some((property) => property.name === 'toolDescription')).toBe(true);
	return { description: { ...description, name: `${description.name}Tool` } } as INodeType;
}

function toolNode(type: INodeType, parameters: INodeParameters): INode {
	const node: INode = { id: 't1', name: 'Find Products', type: type.description.name, typeVersion: 3, position: [0, 0], parameters };
	const filled = NodeHelpers.getNodeParameters(type.description.properties, parameters, true, false, node, type.description);
	return { ...node, parameters: filled ?? {} };
}

/** Every resource/operation pair the panel offers. */
function operations(): Array<{ resource: string; option: INodePropertyOptions }> {
	return plain().properties
		.filter((property) => property.name === 'operation')
		.flatMap((property) => (property.options as INodePropertyOptions[]).map((option) => ({ resource: String(property.displayOptions?.show?.resource?.[0]), option })));
}

describe('Tool descriptions', () => {
	const tool = toolVariant();

	it('tells the model what each operation does, returns and needs, not only "<action> in Marketplace Merchant"', () => {
		const all = operations();
		expect(all.length).toBeGreaterThan(15);
		for (const { resource, option } of all) {
			const told = NodeHelpers.getToolDescriptionForNode(toolNode(tool, { resource, operation: String(option.value) }), tool);
			expect(told).toContain(String(option.action));
			expect(told).toContain(String(option.description).slice(0, 60));
		}
	});

	it('names the required inputs of an operation', () => {
		const told = (resource: string, operation: string) => NodeHelpers.getToolDescriptionForNode(toolNode(tool, { resource, operation }), tool);
		expect(told('product', 'checkEans')).toMatch(/ Required: EANs\.$/);
		expect(told('product', 'update')).toMatch(/ Required: Product ID\.$/);
		expect(told('discount', 'cancel')).toMatch(/ Required: Discount ID\.$/);
		// Lists have no required input: none is named.
		expect(told('product', 'getMany')).not.toMatch(/Required:/);
	});

	it('says of the bulk writes that they are not for agents, are refused as tools, and why', () => {
		for (const [resource, operation] of [['product', 'syncStockAndPrices'], ['product', 'updateMany'], ['product', 'import'], ['discount', 'update']]) {
			const told = NodeHelpers.getToolDescriptionForNode(toolNode(tool, { resource, operation }), tool);
			expect(told).toMatch(/Not for AI agents, and refused when called as a tool: it /);
		}
		const read = NodeHelpers.getToolDescriptionForNode(toolNode(tool, { resource: 'product', operation: 'getMany' }), tool);
		expect(read).not.toMatch(/Not for AI agents/);
		// One discount a conversation names is what an agent may schedule: the text says how.
		const schedule = NodeHelpers.getToolDescriptionForNode(toolNode(tool, { resource: 'discount', operation: 'schedule' }), tool);
		expect(schedule).toMatch(/ Required: Product ID, Discount Price, Date From\. For AI agents: schedule one discount per call /);
	});

	it('keeps a description the user wrote, and reads a tool saved with "Set Automatically" as the full text', () => {
		const own = toolNode(tool, { resource: 'product', operation: 'getMany', toolDescription: 'Find products by name' });
		expect(NodeHelpers.getToolDescriptionForNode(own, tool)).toBe('Find products by name');
		// Saved by n8n's own selector before: the parameter is no longer the node's, so the engine drops it.
		const saved = toolNode(tool, { resource: 'product', operation: 'getMany', descriptionType: 'auto' });
		expect(saved.parameters.descriptionType).toBeUndefined();
		expect(NodeHelpers.getToolDescriptionForNode(saved, tool)).toMatch(/^Get many products: List products/);
	});

	it('is not a parameter of the node in a workflow (only the tool shows it)', () => {
		const description = plain();
		const node: INode = { id: 'n1', name: 'Node', type: description.name, typeVersion: 3, position: [0, 0], parameters: {} };
		const filled = NodeHelpers.getNodeParameters(description.properties, { resource: 'product', operation: 'getMany' }, true, false, node, description);
		expect(filled?.toolDescription).toBeUndefined();
	});

	describe('follows the Output chosen (node version 4)', () => {
		const latest = (): INodeType => {
			const description = nodeTypes.getByNameAndVersion(packageNodeTypeName('marketplaceMerchant'), 4).description;
			return { description: { ...description, name: `${description.name}Tool` } } as INodeType;
		};

		/** What n8n 2.41 hands the model: the filled-in parameter, its expression resolved against the node's parameters (create-node-as-tool's resolver). */
		function toldAt4(parameters: INodeParameters): string {
			const type = latest();
			const base: INode = { id: 't4', name: 'Find Products', type: type.description.name, typeVersion: 4, position: [0, 0], parameters };
			const node = { ...base, parameters: NodeHelpers.getNodeParameters(type.description.properties, parameters, true, false, base, type.description) ?? {} };
			// The workflow holds the node under the plain type (the harness knows no "…Tool" type); $parameter reads its parameters.
			const workflow = new Workflow({ nodes: [{ ...node, type: packageNodeTypeName('marketplaceMerchant') }], connections: {}, active: false, nodeTypes });
			const resolve = () => workflow.expression.getParameterValue(node.parameters.toolDescription as string, null, 0, 0, node.name, [{ json: {} }], 'manual', {}) as string;
			return String(NodeHelpers.getToolDescriptionForNode(node, type, resolve));
		}

		it('Selected Fields: names exactly the fields the node returns, and none of the Simplified ones', () => {
			const told = toldAt4({ resource: 'product', operation: 'getMany', output: 'selected', fieldsToReturn: 'id, name, stockLevel' });
			expect(told).toMatch(/^Get many products: List products/);
			expect(told).toMatch(/Output › Selected Fields: each item has only these fields \(null where the answer lacks one\): id, name, stockLevel\.$/);
			expect(told).not.toMatch(/Simplif|externalId|brand/);
			expect(told).toContain('Without Return All, at most Limit products');
		});

		it('Selected Fields: names the fields picked from the list, then those typed in Other Fields, each once, as the node returns them', () => {
			const told = toldAt4({ resource: 'product', operation: 'getMany', output: 'selected', fields: ['id', 'name'], fieldsToReturn: 'stockLevel; name  customField.size' });
			expect(told).toMatch(/Output › Selected Fields: each item has only these fields \(null where the answer lacks one\): id, name, stockLevel, customField\.size\.$/);
			expect(told).not.toMatch(/Simplif|externalId|brand/);
			const listOnly = toldAt4({ resource: 'order', operation: 'getMany', output: 'selected', fields: ['id', 'items'] });
			expect(listOnly).toMatch(/these fields \(null where the answer lacks one\): id, items\.$/);
			// The list given by an expression, as text.
			const byExpression = toldAt4({ resource: 'product', operation: 'getMany', output: 'selected', fields: '={{ "id, ean" }}' });
			expect(byExpression).toMatch(/these fields \(null where the answer lacks one\): id, ean\.$/);
		});

		it("examples/ask-your-shop.json's Find Products, its fields picked from the list, is told them in the list's order", () => {
			const example = JSON.parse(readFileSync(path.join(__dirname, '..', '..', 'examples', 'ask-your-shop.json'), 'utf8')) as { nodes: INode[] };
			const find = example.nodes.find((node) => node.name === 'Find Products');
			expect(find?.typeVersion).toBe(4);
			expect(toldAt4(find?.parameters ?? {})).toMatch(/these fields \(null where the answer lacks one\): id, name, sku, ean, stockLevel, basePrice, status\.$/);
		});

		it('Simplified: names the simplified fields under the name of version 4; Raw: the whole answer', () => {
			const simplified = toldAt4({ resource: 'product', operation: 'getMany' });
			expect(simplified).toContain('with Output › Simplified: the product\'s ID');
			expect(simplified).toContain('externalId');
			const raw = toldAt4({ resource: 'product', operation: 'getMany', output: 'raw' });
			expect(raw).not.toMatch(/Simplif|externalId/);
			expect(raw).toMatch(/Output › Raw: each item is the service's whole answer/);
			const discounts = toldAt4({ resource: 'discount', operation: 'getMany', output: 'selected', fieldsToReturn: 'discountId, discountPrice' });
			expect(discounts).toMatch(/dateFrom and dateTo\. Output › Selected Fields: each item has only these fields \(null where the answer lacks one\): discountId, discountPrice\.$/);
		});

		it('versions 1-3 keep the Simplify text, and an operation without Output one description', () => {
			const v3 = NodeHelpers.getToolDescriptionForNode(toolNode(tool, { resource: 'product', operation: 'getMany', simplify: true }), tool);
			expect(v3).toContain('with Simplify: the product\'s ID');
			expect(toldAt4({ resource: 'product', operation: 'update' })).toMatch(/ Required: Product ID\.$/);
		});
	});

	describe('the bulk writes refuse to run as a tool', () => {
		// The tool variant n8n makes of the node ("…Tool"), registered as n8n registers it: the same type under that name.
		const types = new TestNodeTypes();
		types.register(packageNodeTypeName('marketplaceMerchantTool'), types.getByName(packageNodeTypeName('marketplaceMerchant')));

		it.each([
			['product', 'updateMany', { inputMode: 'json', productsJson: '={{ $json.products }}' }, 'Update many products'],
			['product', 'syncStockAndPrices', { inputMode: 'json', productsJson: '={{ $json.products }}' }, 'Sync stock and prices'],
		])('%s › %s: refused as a tool whatever the call holds, nothing sent; run in a workflow as always', async (resource, operation, fields, action) => {
			const sandbox = await startSandbox({ rateLimits: false });
			try {
				const [product] = sandbox.state.products;
				const parameters = { resource, operation, ...fields };
				const items = [{ products: [{ id: product.id, ean: product.ean, stockLevel: product.stockLevel + 1 }] }];
				const run = { nodeTypes: types, credentials: { marketplaceMerchantApi: sandboxCredential(sandbox) } };

				const asTool = await runNode('marketplaceMerchantTool', parameters, items, run);
				expect(asTool.error?.message).toMatch(new RegExp(`^${action}.* is not available to AI agents$`, 'i'));
				expect(asTool.error?.description).toMatch(/^This tool refuses every call: it /);
				expect(sandbox.log.filter((entry) => entry.route !== 'token')).toEqual([]);

				const inWorkflow = await runNode('marketplaceMerchant', parameters, items, run);
				expect(inWorkflow.error).toBeUndefined();
				expect(sandbox.log.filter((entry) => entry.route !== 'token').length).toBeGreaterThan(0);
			} finally {
				await sandbox.close();
			}
		});
	});
});

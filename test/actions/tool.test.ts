/**
 * What an AI agent's model is told about each operation (actions/tool.ts), through n8n-workflow's
 * own functions: the parameters the engine fills in for a tool node (`getNodeParameters` with
 * defaults, as Workflow does) and the description n8n hands the model (`getToolDescriptionForNode`).
 * The tool variant is the node's description as n8n renames it ("…Tool", tool-generation/ai-tools.ts),
 * which adds no "Tool Description" selector of its own where the node brings `toolDescription`.
 */
import { NodeHelpers, type INode, type INodeParameters, type INodeType, type INodeTypeDescription, type INodePropertyOptions } from 'n8n-workflow';

import { TestNodeTypes, packageNodeTypeName } from '../harness';

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

	it('says of the bulk writes that they are not for agents, and why', () => {
		for (const [resource, operation] of [['product', 'syncStockAndPrices'], ['product', 'updateMany'], ['product', 'import'], ['discount', 'update']]) {
			const told = NodeHelpers.getToolDescriptionForNode(toolNode(tool, { resource, operation }), tool);
			expect(told).toMatch(/Not for AI agents: it /);
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
});

/**
 * What an AI agent's model is told about each operation when the node is used as a tool.
 *
 * n8n turns a `usableAsTool` node into "<name>Tool" and, unless the node has a `toolDescription`
 * parameter of its own, adds "Tool Description: Set Automatically", which tells the model only
 * "<action> in Marketplace Merchant" (n8n-workflow `getToolDescriptionForNode`/`makeDescription`,
 * the same in 1.123, 2.0 and 2.41): the operation's description, what it needs and what it
 * returns never reach the model. So the node brings its own `toolDescription`, one per operation,
 * shown only in the tool (display option `@tool`), its default the text below. The engine fills in
 * defaults of displayed parameters (Workflow's `getNodeParameters`), so an untouched tool node
 * tells the model this text; a user's own text replaces it as n8n's manual description did.
 */
import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from './contract';

/**
 * Whether a field shows on a new node (the newest version) until the user changes another field:
 * every condition of its displayOptions holds for the defaults of the fields it names (Input Mode
 * "One Item per …" shows the item fields). The text is the same for every version of the node.
 */
function shownByDefault(field: INodeProperties, fields: INodeProperties[], version: number): boolean {
	const { show = {}, hide } = field.displayOptions ?? {};
	if (hide !== undefined) return false;
	return Object.entries(show).every(([key, values = []]) => {
		if (key === 'resource' || key === 'operation') return true;
		if (key === '@version') return (values as unknown[]).includes(version);
		const sibling = fields.find((other) => other.name === key && other !== field && shownByDefault(other, fields, version));
		return sibling !== undefined && (values as unknown[]).includes(sibling.default);
	});
}

/** The fields a call cannot go without, by their panel labels. */
function requiredInputs(fields: INodeProperties[], version: number): string[] {
	return fields.filter((field) => field.required === true && shownByDefault(field, fields, version)).map((field) => field.displayName);
}

function sentence(text: string): string {
	const trimmed = text.trim();
	return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** The text a model gets: what the operation does and returns (its description), the inputs it cannot go without, and when not to use it. */
export function toolDescriptionOf({ option, fields, tool }: OperationModule, version: number): string {
	const parts = [sentence(`${String(option.action ?? option.name)}: ${String(option.description ?? '')}`)];
	const needs = requiredInputs(fields, version);
	if (needs.length > 0) parts.push(`Required: ${needs.join(', ')}.`);
	if (tool?.keepOut) parts.push(`Not for AI agents: ${sentence(tool.keepOut)}`);
	if (tool?.agents) parts.push(`For AI agents: ${sentence(tool.agents)}`);
	return parts.join(' ');
}

/** The operation's `toolDescription` parameter, shown in the tool variant only. */
export function toolDescriptionProperty(resource: string, operation: OperationModule, version: number): INodeProperties {
	return {
		displayName: 'Tool Description',
		name: 'toolDescription',
		type: 'string',
		typeOptions: { rows: 4 },
		default: toolDescriptionOf(operation, version),
		description:
			'What the AI agent\'s model is told this tool does, needs and returns. Filled in with the operation\'s own description; add your rules (which products, which limits) or replace it.',
		displayOptions: { show: { '@tool': [true], resource: [resource], operation: [String(operation.option.value)] } },
	};
}

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
 * Keys of displayOptions.show that every field of an operation has: a field with others shows only
 * sometimes (an input mode, a node version: the text is the same for every version).
 */
const ALWAYS_SHOWN_KEYS = new Set(['resource', 'operation']);

function isAlwaysShown(field: INodeProperties): boolean {
	const { show = {}, hide } = field.displayOptions ?? {};
	return hide === undefined && Object.keys(show).every((key) => ALWAYS_SHOWN_KEYS.has(key));
}

/** The fields a call cannot go without, by their panel labels. */
function requiredInputs(fields: INodeProperties[]): string[] {
	return fields.filter((field) => field.required === true && isAlwaysShown(field)).map((field) => field.displayName);
}

function sentence(text: string): string {
	const trimmed = text.trim();
	return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** The text a model gets: what the operation does and returns (its description), the inputs it cannot go without, and when not to use it. */
export function toolDescriptionOf({ option, fields, tool }: OperationModule): string {
	const parts = [sentence(`${String(option.action ?? option.name)}: ${String(option.description ?? '')}`)];
	const needs = requiredInputs(fields);
	if (needs.length > 0) parts.push(`Required: ${needs.join(', ')}.`);
	if (tool?.keepOut) parts.push(`Not for AI agents: ${sentence(tool.keepOut)}`);
	return parts.join(' ');
}

/** The operation's `toolDescription` parameter, shown in the tool variant only. */
export function toolDescriptionProperty(resource: string, operation: OperationModule): INodeProperties {
	return {
		displayName: 'Tool Description',
		name: 'toolDescription',
		type: 'string',
		typeOptions: { rows: 4 },
		default: toolDescriptionOf(operation),
		description:
			'What the AI agent\'s model is told this tool does, needs and returns. Filled in with the operation\'s own description; add your rules (which products, which limits) or replace it.',
		displayOptions: { show: { '@tool': [true], resource: [resource], operation: [String(operation.option.value)] } },
	};
}

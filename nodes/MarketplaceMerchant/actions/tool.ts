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
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { LIST_SEPARATORS, SELECTED_FIELDS } from '../values/values';
/** What the tool's text is made of: an operation's option and fields, and its words for agents. */
export interface ToolOperation {
	/** Its entry in the Operation list (no `routing`: every operation runs through actions/run.ts). */
	option: INodePropertyOptions;
	/** Shown for it alone (one `updateDisplayOptions` in the operation file). */
	fields: INodeProperties[];
	/**
	 * What an AI agent's model is told beyond the description: `keepOut` why agents should not use
	 * it (the operation then refuses to run as a tool, actions/run.ts `guardedAgainstAgents`),
	 * `agents` how they may.
	 */
	tool?: { keepOut?: string; agents?: string };
}

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
export function toolDescriptionOf({ option, fields, tool }: ToolOperation, version: number): string {
	const parts = [sentence(`${String(option.action ?? option.name)}: ${String(option.description ?? '')}`)];
	const needs = requiredInputs(fields, version);
	if (needs.length > 0) parts.push(`Required: ${needs.join(', ')}.`);
	if (tool?.keepOut) parts.push(`Not for AI agents, and refused when called as a tool: ${sentence(tool.keepOut)}`);
	if (tool?.agents) parts.push(`For AI agents: ${sentence(tool.agents)}`);
	return parts.join(' ');
}

/** The operation's Output choice of node version 4 (shared/fields.ts `outputFields`), when it has one. */
function outputChoice(fields: INodeProperties[]): INodeProperties | undefined {
	return fields.find(
		(field) => field.name === 'output' && (field.options ?? []).some((option) => 'value' in option && option.value === 'selected'),
	);
}

/**
 * The text without what it says of the Simplified output ("; with Simplify: …" up to the end of
 * its sentence), for an Output that returns other fields.
 */
function withoutSimplified(text: string): string {
	return text.replace(/[;,]? with Simplify[^:]*:[\s\S]*?(?=\.\s[A-Z]|\.?$)/, '');
}

/** An n8n expression: `parts` joined, strings as literals, `{ code }` as that JavaScript's value. */
function expressionOf(parts: Array<string | { code: string }>): string {
	return `={{ ${parts.map((part) => (typeof part === 'string' ? JSON.stringify(part) : part.code)).join(' + ')} }}`;
}

/**
 * JavaScript, for an expression, of the paths Output › Selected Fields returns, as values/values.ts
 * `readOutput` reads them: those of the Fields list (an array, or text from an expression), then
 * those typed in Other Fields (split where `toList` splits), each once, joined by ", ".
 */
function selectedPathsCode(): string {
	const entries = (parameter: string) => {
		const value = `$parameter[${JSON.stringify(parameter)}]`;
		return `(Array.isArray(${value}) ? ${value} : String(${value} ?? '').split(${String(LIST_SEPARATORS)}))`;
	};
	return `[].concat(${entries(SELECTED_FIELDS.list.name)}, ${entries(SELECTED_FIELDS.typed.name)}).map((path) => String(path ?? '').trim()).filter((path, index, all) => path !== '' && all.indexOf(path) === index).join(', ')`;
}

function toolDescriptionField(resource: string, operation: ToolOperation, show: Record<string, Array<string | number | boolean>>, text: string): INodeProperties {
	return {
		displayName: 'Tool Description',
		name: 'toolDescription',
		type: 'string',
		typeOptions: { rows: 4 },
		default: text,
		description:
			'What the AI agent\'s model is told this tool does, needs and returns. Filled in with the operation\'s own description and what the Output chosen returns; add your rules (which products, which limits) or replace it.',
		displayOptions: { show: { '@tool': [true], resource: [resource], operation: [String(operation.option.value)], ...show } },
	};
}

/**
 * The operation's `toolDescription` parameter, shown in the tool variant only. An operation with
 * Output (node version 4) gets one per choice, so that the model is told what the tool returns:
 * Simplified names the simplified fields (the operation's description), Raw the service's whole
 * answer, Selected Fields exactly the fields the node returns, those picked from Fields and those
 * typed in Other Fields (an expression on them: n8n 2.41 resolves a tool description's expression
 * before handing it to the model).
 */
export function toolDescriptionProperties(resource: string, operation: ToolOperation, version: number): INodeProperties[] {
	const told = toolDescriptionOf(operation, version);
	const output = outputChoice(operation.fields);
	if (output === undefined) return [toolDescriptionField(resource, operation, {}, told)];
	const outputVersions = (output.displayOptions?.show?.['@version'] ?? []) as number[];
	const otherVersions = Array.from({ length: version }, (_, index) => index + 1).filter((each) => !outputVersions.includes(each));
	const general = withoutSimplified(told);
	return [
		...(otherVersions.length > 0 ? [toolDescriptionField(resource, operation, { '@version': otherVersions }, told)] : []),
		toolDescriptionField(resource, operation, { '@version': outputVersions, output: ['simplified'] }, told.replace(/ with Simplify\b/, ' with Output › Simplified')),
		toolDescriptionField(
			resource,
			operation,
			{ '@version': outputVersions, output: ['raw'] },
			`${general} Output › Raw: each item is the service's whole answer, every field it sends (the largest output).`,
		),
		toolDescriptionField(
			resource,
			operation,
			{ '@version': outputVersions, output: ['selected'] },
			expressionOf([`${general} Output › Selected Fields: each item has only these fields (null where the answer lacks one): `, { code: selectedPathsCode() }, '.']),
		),
	];
}

/**
 * Field factories the node's operations and the trigger share (actions/common.ts gives them to the
 * operations): here, below actions/, so that the trigger builds its panel without importing actions/.
 */
import type { INodeProperties } from 'n8n-workflow';

/** Off by default (n8n's lint reads the default from a literal): a field on by default overrides it. */
export function booleanField(displayName: string, name: string, description: string): INodeProperties {
	return { displayName, name, type: 'boolean', default: false, description };
}

/** On by default: the flat summary is what a no-code user wants; the full answer is one click away. */
export function simplifyField(description: string): INodeProperties {
	return { displayName: 'Simplify', name: 'simplify', type: 'boolean', default: true, description };
}

/** An operation's "Options" collection: settings of the node rather than fields of the request. */
export function optionsCollection(options: INodeProperties[]): INodeProperties {
	return { displayName: 'Options', name: 'options', type: 'collection', placeholder: 'Add Option', default: {}, options };
}

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

/**
 * What a read operation returns: Simplify up to node version 3 (`simplifyVersions`), from version
 * 4 Output (Simplified, Raw, Selected Fields) and the Fields it selects (values/values.ts `readOutput`).
 */
export function outputFields(simplifyDescription: string, simplifyVersions: number[] = [1, 2, 3]): INodeProperties[] {
	return [
		{ ...simplifyField(simplifyDescription), displayOptions: { show: { '@version': simplifyVersions } } },
		{
			displayName: 'Output',
			name: 'output',
			type: 'options',
			options: [
				{ name: 'Simplified', value: 'simplified', description: simplifyDescription.replace(/^Whether to return /, 'Return ') },
				{ name: 'Raw', value: 'raw', description: "Return the service's answer with every field" },
				{ name: 'Selected Fields', value: 'selected', description: 'Return only the fields named below, from the full answer' },
			],
			default: 'simplified',
			displayOptions: { show: { '@version': [4] } },
		},
		{
			displayName: 'Fields',
			name: 'fieldsToReturn',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. ean, name, stockLevel',
			description: 'Fields of the full answer to return, separated by commas; a dot reaches into an object (e.g. billingAddress.city). A field the answer lacks comes out as null.',
			displayOptions: { show: { '@version': [4], output: ['selected'] } },
		},
	];
}

/** An operation's "Options" collection: settings of the node rather than fields of the request. */
export function optionsCollection(options: INodeProperties[]): INodeProperties {
	return { displayName: 'Options', name: 'options', type: 'collection', placeholder: 'Add Option', default: {}, options };
}

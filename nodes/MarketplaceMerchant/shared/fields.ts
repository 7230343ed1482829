/**
 * Field factories the node's operations and the trigger share (actions/common.ts gives them to the
 * operations): here, below actions/, so that the trigger builds its panel without importing actions/.
 */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { AnswerSchema, Schema } from '../answers/schemas';
import { SELECTED_FIELDS } from '../values/values';

/** Off by default (n8n's lint reads the default from a literal): a field on by default overrides it. */
export function booleanField(displayName: string, name: string, description: string): INodeProperties {
	return { displayName, name, type: 'boolean', default: false, description };
}

/** On by default: the flat summary is what a no-code user wants; the full answer is one click away. */
export function simplifyField(description: string): INodeProperties {
	return { displayName: 'Simplify', name: 'simplify', type: 'boolean', default: true, description };
}

/** What a field of the list holds, in the words its option describes it with. */
const KIND_WORDS: Record<Schema['kind'], string> = {
	string: 'Text',
	number: 'A number',
	integer: 'A whole number',
	boolean: 'True or false',
	any: 'As the service sends it',
	list: 'A list',
	object: 'An object with the fields listed below it',
	map: "An object keyed by the answer's own names",
};

/** The schema of one output item of `answer`: an element of its list, or of the list under `itemsAt` (answers/read.ts `elementsOf`). */
function itemSchemaOf({ body, itemsAt }: AnswerSchema): Schema {
	const list = itemsAt !== undefined && body.kind === 'object' ? body.fields[itemsAt] : body;
	return list?.kind === 'list' ? list.of : body;
}

/**
 * The fields of one output item as paths (`billingAddress.city`: into objects, every level; a list
 * or a map is one field), alphabetical as n8n lists options, each described by its kind and whether
 * only the current documentation's service sends it.
 */
export function answerFieldOptions(answer: AnswerSchema): INodePropertyOptions[] {
	const paths: INodePropertyOptions[] = [];
	const visit = (schema: Schema, prefix: string) => {
		if (schema.kind !== 'object') return;
		for (const [name, field] of Object.entries(schema.fields)) {
			const path = `${prefix}${name}`;
			const sentWhere = field.optional ? ' (where the service sends it: the current documentation adds it)' : '';
			paths.push({ name: path, value: path, description: `${KIND_WORDS[field.kind]}${sentWhere}` });
			visit(field, `${path}.`);
		}
	};
	visit(itemSchemaOf(answer), '');
	return paths.sort((a, b) => a.name.localeCompare(b.name, 'en'));
}

/**
 * What a read operation returns: Simplify up to node version 3 (`simplifyVersions`), from version
 * 4 Output (Simplified, Raw, Selected Fields) and the fields it selects (values/values.ts
 * `readOutput`): Fields, a list of the fields `answer`'s schema gives each item (answers/schemas.ts),
 * and Other Fields, paths typed by hand (`fieldsToReturn`, the text saved nodes of version 4 have:
 * the list is new beside it, empty in them, so they run and show as they were).
 */
export function outputFields(simplifyDescription: string, answer: AnswerSchema, simplifyVersions: number[] = [1, 2, 3]): INodeProperties[] {
	const selected = { show: { '@version': [4], output: ['selected'] } };
	return [
		{ ...simplifyField(simplifyDescription), displayOptions: { show: { '@version': simplifyVersions } } },
		{
			displayName: 'Output',
			name: 'output',
			type: 'options',
			options: [
				{ name: 'Simplified', value: 'simplified', description: simplifyDescription.replace(/^Whether to return /, 'Return ') },
				{ name: 'Raw', value: 'raw', description: "Return the service's answer with every field" },
				{ name: 'Selected Fields', value: 'selected', description: 'Return only the fields chosen below, from the full answer' },
			],
			default: 'simplified',
			displayOptions: { show: { '@version': [4] } },
		},
		{
			displayName: SELECTED_FIELDS.list.label,
			name: SELECTED_FIELDS.list.name,
			type: 'multiOptions',
			options: answerFieldOptions(answer),
			default: [],
			description:
				"Fields of the full answer to return, as the service's documentation names them (a dot reaches into an object, e.g. invoiceHeader.fiscalDetails.invoiceNumber). Choose from the list, or give paths using an expression.",
			displayOptions: selected,
		},
		{
			displayName: SELECTED_FIELDS.typed.label,
			name: SELECTED_FIELDS.typed.name,
			type: 'string',
			default: '',
			placeholder: 'e.g. billingAddress.city',
			description:
				'More fields to return, by their path, separated by commas: those the list does not offer (the service may send more than its documentation names). A dot reaches into an object. A field the answer lacks comes out as null.',
			displayOptions: selected,
		},
	];
}

/** An operation's "Options" collection: settings of the node rather than fields of the request. */
export function optionsCollection(options: INodeProperties[]): INodeProperties {
	return { displayName: 'Options', name: 'options', type: 'collection', placeholder: 'Add Option', default: {}, options };
}

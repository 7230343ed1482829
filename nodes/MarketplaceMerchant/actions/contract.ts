/**
 * The one module contract of the node's actions: every operation file exports `operation`, every
 * resource file `resource`, and the node builds everything from the resources, so adding an
 * operation is one file plus one line in its resource file.
 */
import type { INodeProperties } from 'n8n-workflow';

import { toolDescriptionProperties, type ToolOperation } from './tool';
import type { Steps } from './run';

/** An operation: its option and fields, what agents are told (actions/tool.ts), and how it runs (actions/run.ts). */
export interface OperationModule extends ToolOperation {
	/** Its steps over the run's items, run by the one skeleton (actions/run.ts). */
	steps: Steps;
}

export interface ResourceModule {
	name: string;
	value: string;
	defaultOperation: string;
	operations: OperationModule[];
}

/** The Resource choice, then each resource's Operation choice and its operations' fields; choices alphabetical, as n8n's lint asks. */
export function resourceProperties(resources: ResourceModule[], defaultResource: string, newestVersion: number): INodeProperties[] {
	const alphabetical = <T extends { name: string }>(options: T[]) => options.sort((a, b) => a.name.localeCompare(b.name));
	return [
		{
			displayName: 'Resource',
			name: 'resource',
			type: 'options',
			noDataExpression: true,
			options: alphabetical(resources.map(({ name, value }) => ({ name, value }))),
			default: defaultResource,
		},
		...resources.flatMap(({ value, defaultOperation, operations }): INodeProperties[] => [
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				displayOptions: { show: { resource: [value] } },
				options: alphabetical(operations.map(({ option }) => option)),
				default: defaultOperation,
			},
			...operations.flatMap((operation) => [...operation.fields, ...toolDescriptionProperties(value, operation, newestVersion)]),
		]),
	];
}

/** The value n8n gives `resource` (then there is no operation) or `operation` when Custom API Call is picked. */
const CUSTOM_API_CALL = '__CUSTOM_API_CALL__';

/** The node's subtitle, "Update Many: Product"; an unknown value shows as itself, Custom API Call alone. */
export function subtitleOf(resources: ResourceModule[]): string {
	// One flat map keyed "resource/operation": a nested object would put "}}" inside the expression, which ends it.
	const operationNames = Object.fromEntries(
		resources.flatMap(({ value, operations }) => [
			...operations.map(({ option }) => [`${value}/${String(option.value)}`, option.name]),
			[`${value}/${CUSTOM_API_CALL}`, 'Custom API Call'],
		]),
	);
	const resourceNames = Object.fromEntries([[CUSTOM_API_CALL, 'Custom API Call'], ...resources.map(({ name, value }) => [value, name])]);
	const operation = `${JSON.stringify(operationNames)}[$parameter["resource"] + "/" + $parameter["operation"]] || $parameter["operation"]`;
	const resource = `${JSON.stringify(resourceNames)}[$parameter["resource"]] || $parameter["resource"]`;
	return `={{ [${operation}, ${resource}].filter(Boolean).join(": ") }}`;
}

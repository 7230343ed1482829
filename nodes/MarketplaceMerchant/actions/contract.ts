/**
 * The one module contract of the node's actions: every operation file exports `operation`, every
 * resource file `resource`, and the node builds everything from the resources, so adding an
 * operation is one file plus one line in its resource file.
 */
import { NodeOperationError, type IExecuteFunctions, type INodeExecutionData, type INodeProperties, type INodePropertyOptions } from 'n8n-workflow';

import { toolDescriptionProperties } from './tool';

/** A bulk operation's run over all input items (actions/bulk/run.ts): n8n's custom operation. */
type CustomOperationRun = (this: IExecuteFunctions) => Promise<INodeExecutionData[][]>;

export interface OperationModule {
	/** Its entry in the Operation list, with its `routing` unless `run` is given. */
	option: INodePropertyOptions;
	/** Shown for it alone (one `updateDisplayOptions` in the operation file). */
	fields: INodeProperties[];
	/** For an operation routing cannot express (the bulk operations). */
	run?: CustomOperationRun;
	/**
	 * What an AI agent's model is told beyond the description (actions/tool.ts): `keepOut` why agents
	 * should not use it, `agents` how they may.
	 */
	tool?: { keepOut?: string; agents?: string };
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

/**
 * An operation kept out of agents (`tool.keepOut`: the bulk writes) refuses to run as an AI
 * agent's tool: n8n runs a tool node under the type "<node>Tool", which a model cannot change, so
 * no argument and no wording gets past it. The tool's description says so beforehand; in a
 * workflow the operation runs as always.
 */
function guardedAgainstAgents(option: INodePropertyOptions, run: CustomOperationRun, keepOut: string | undefined): CustomOperationRun {
	if (keepOut === undefined) return run;
	return async function (this: IExecuteFunctions) {
		const node = this.getNode();
		if (node.type.endsWith('Tool')) {
			throw new NodeOperationError(node, `${String(option.action ?? option.name)} is not available to AI agents`, {
				description: `This tool refuses every call: ${keepOut}. Run it in a workflow (not as an agent's tool); for one product or discount give the agent the single-item operation.`,
			});
		}
		return await run.call(this);
	};
}

/** The node's `customOperations`: the operations that give a `run`, those kept out of agents refusing to run as a tool. */
export function customOperationsOf(resources: ResourceModule[]): Record<string, Record<string, CustomOperationRun>> {
	const custom: Record<string, Record<string, CustomOperationRun>> = {};
	for (const resource of resources) {
		for (const { option, run, tool } of resource.operations) {
			if (run) (custom[resource.value] ??= {})[String(option.value)] = guardedAgainstAgents(option, run, tool?.keepOut);
		}
	}
	return custom;
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

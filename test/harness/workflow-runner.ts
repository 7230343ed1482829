import { WorkflowExecute } from 'n8n-core';
import type {
	ExecutionError,
	IConnections,
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	IRun,
	ITaskData,
	IWorkflowBase,
	IWorkflowSettings,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { UserError, Workflow, deepCopy, setGlobalState } from 'n8n-workflow';

import { buildAdditionalData, createLifecycleHooks, nextExecutionId } from './additional-data';
import type { TestCredentialsHelper } from './credentials-helper';
import { TEST_ITEMS_NODE_TYPE } from './test-node-types';
import type { HarnessOptions, NodeInput } from './workflow-setup';
import {
	attachCredentials,
	completeNodes,
	credentialsHelperFor,
	nodeTypesFor,
	staticDataSnapshot,
} from './workflow-setup';

/**
 * The instance's time zone (n8n's GENERIC_TIMEZONE, America/New_York when unset): the harness is an
 * instance with GENERIC_TIMEZONE=UTC, so a workflow without its own `settings.timezone` (the
 * `timezone` option) reads dates in UTC, as the tests written before the zone rule expect.
 */
export const INSTANCE_TIMEZONE = 'UTC';
setGlobalState({ defaultTimezone: INSTANCE_TIMEZONE });

/** A workflow as n8n exports it; only `nodes` and `connections` are required. */
export interface WorkflowInput {
	name?: string;
	nodes: NodeInput[];
	connections: IConnections;
	settings?: IWorkflowSettings;
	staticData?: IDataObject;
}

export interface RunWorkflowOptions extends HarnessOptions {
	/** Execution mode; default `manual` (the editor's "Execute workflow"). */
	mode?: WorkflowExecuteMode;
	/** Name of the node to start from; default: the trigger, else the first node without inputs. */
	startNode?: string;
	/** Workflow static data to start with (overrides the workflow's own). */
	staticData?: IDataObject;
	/** When this settles, the execution is cancelled as n8n's Stop button does (the engine's cancel: the nodes' cancel signal fires). */
	cancelWhen?: Promise<unknown>;
	/** The workflow's time zone (its `settings.timezone`, Workflow Settings › Timezone); default the instance's, UTC. */
	timezone?: string;
}

export interface ItemError {
	outputIndex: number;
	itemIndex: number;
	error: ExecutionError;
}

export interface NodeRunResult {
	/** All runs of the node, as n8n records them. */
	runs: ITaskData[];
	/** Outputs of the last run, one item list per output. */
	outputs: INodeExecutionData[][];
	/** Error that stopped the node's last run. */
	error?: ExecutionError;
	/** Items of the last run that carry an error (continue on fail / error output). */
	itemErrors: ItemError[];
}

export interface WorkflowRunResult {
	run: IRun;
	status: IRun['status'];
	/** The error that ended the execution, if any. */
	error?: ExecutionError;
	nodes: Record<string, NodeRunResult>;
	/** Node names in the order they finished. */
	executionOrder: string[];
	/** Workflow static data after the run, as plain JSON. */
	staticData: IDataObject;
	credentialsHelper: TestCredentialsHelper;
	/** Items of one output of a node's last run; empty when the node did not run. */
	output(nodeName: string, outputIndex?: number): INodeExecutionData[];
	/** The JSON of those items. */
	json(nodeName: string, outputIndex?: number): IDataObject[];
}

function chooseStartNode(workflow: Workflow, nodes: INode[], startNode?: string): INode {
	if (startNode) {
		const node = workflow.getNode(startNode);
		if (!node) throw new UserError(`The workflow has no node named "${startNode}"`);
		return node;
	}
	const hasMainInput = new Set(
		Object.values(workflow.connectionsBySourceNode).flatMap((outputs) =>
			(outputs.main ?? []).flatMap((connections) => (connections ?? []).map((c) => c.node)),
		),
	);
	const trigger = workflow.getTriggerNodes()[0] ?? workflow.getPollNodes()[0];
	const start = trigger ?? nodes.find((node) => !hasMainInput.has(node.name));
	if (!start) throw new UserError('The workflow has no node to start from');
	return start;
}

function summarizeNode(runs: ITaskData[]): NodeRunResult {
	const last = runs[runs.length - 1];
	const outputs = (last?.data?.main ?? []).map((items) => items ?? []);
	const itemErrors: ItemError[] = [];
	outputs.forEach((items, outputIndex) =>
		items.forEach((item, itemIndex) => {
			if (item.error) itemErrors.push({ outputIndex, itemIndex, error: item.error as ExecutionError });
		}),
	);
	return { runs, outputs, error: last?.error, itemErrors };
}

function toResult(
	run: IRun,
	workflow: Workflow,
	executionOrder: string[],
	credentialsHelper: TestCredentialsHelper,
): WorkflowRunResult {
	const nodes: Record<string, NodeRunResult> = {};
	for (const [name, runs] of Object.entries(run.data.resultData.runData)) {
		nodes[name] = summarizeNode(runs);
	}
	const output = (nodeName: string, outputIndex = 0) => nodes[nodeName]?.outputs[outputIndex] ?? [];
	return {
		run,
		status: run.status,
		error: run.data.resultData.error,
		nodes,
		executionOrder,
		staticData: staticDataSnapshot(workflow),
		credentialsHelper,
		output,
		json: (nodeName, outputIndex) => output(nodeName, outputIndex).map((item) => item.json),
	};
}

/** Runs a workflow through n8n-core's WorkflowExecute, with real HTTP for every request. */
export async function runWorkflow(
	input: WorkflowInput,
	options: RunWorkflowOptions = {},
): Promise<WorkflowRunResult> {
	const credentialsHelper = credentialsHelperFor(options);
	const nodeTypes = nodeTypesFor(options);
	const nodes = completeNodes(input.nodes);
	attachCredentials(nodes, nodeTypes, credentialsHelper);

	const mode = options.mode ?? 'manual';
	const executionId = nextExecutionId();
	const workflowData: IWorkflowBase = {
		id: 'test-workflow',
		name: input.name ?? 'Test workflow',
		active: false,
		isArchived: false,
		createdAt: new Date(),
		updatedAt: new Date(),
		nodes,
		connections: input.connections,
		settings: { executionOrder: 'v1', ...input.settings, ...(options.timezone ? { timezone: options.timezone } : {}) },
		staticData: deepCopy(options.staticData ?? input.staticData ?? {}),
		activeVersionId: null,
	};
	const workflow = new Workflow({
		id: workflowData.id,
		name: workflowData.name,
		nodes,
		connections: workflowData.connections,
		active: false,
		nodeTypes,
		staticData: workflowData.staticData,
		settings: workflowData.settings,
	});

	const executionOrder: string[] = [];
	const additionalData = buildAdditionalData({
		credentialsHelper,
		hooks: createLifecycleHooks(mode, executionId, workflowData, executionOrder),
		executionId,
		workflowId: workflowData.id,
		workflowSettings: workflowData.settings,
	});
	const startNode = chooseStartNode(workflow, nodes, options.startNode);
	const running = new WorkflowExecute(additionalData, mode).run({ workflow, startNode });
	void options.cancelWhen?.then(() => running.cancel());
	const run = await running;
	return toResult(run, workflow, executionOrder, credentialsHelper);
}

export interface RunNodeOptions extends RunWorkflowOptions {
	/** Node settings such as `continueOnFail`, `onError`, `retryOnFail`, `typeVersion`. */
	node?: Partial<Omit<INode, 'parameters' | 'type'>>;
}

export const INPUT_NODE_NAME = 'Input';
export const NODE_UNDER_TEST_NAME = 'Node';

/**
 * Runs one node fed by a `test.items` node that emits `inputItems` (plain JSON objects or
 * `{ json, binary }` items). The node is named `Node` and its outputs are in `result.output('Node')`.
 */
export async function runNode(
	nodeType: string,
	parameters: INodeParameters,
	inputItems: unknown[] = [{}],
	options: RunNodeOptions = {},
): Promise<WorkflowRunResult> {
	const { node: nodeSettings, ...runOptions } = options;
	return await runWorkflow(
		{
			nodes: [
				{ name: INPUT_NODE_NAME, type: TEST_ITEMS_NODE_TYPE, parameters: { items: JSON.stringify(inputItems) } },
				{ ...nodeSettings, name: NODE_UNDER_TEST_NAME, type: nodeType, parameters },
			],
			connections: {
				[INPUT_NODE_NAME]: { main: [[{ node: NODE_UNDER_TEST_NAME, type: 'main', index: 0 }]] },
			},
		},
		runOptions,
	);
}

/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code, run by jest and never loaded by n8n: it may use Node modules (docs/architecture.md, Toolchain). */
import { Container } from '@n8n/di';
import { PollContext, PollTriggerExecutor } from 'n8n-core';
import type {
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	WorkflowActivateMode,
} from 'n8n-workflow';
import { Workflow, deepCopy } from 'n8n-workflow';

import { buildAdditionalData, nextExecutionId } from './additional-data';
import type { TestCredentialsHelper } from './credentials-helper';
import { runWorkflow } from './workflow-runner';
import type { HarnessOptions } from './workflow-setup';
import {
	attachCredentials,
	completeNodes,
	credentialsHelperFor,
	nodeTypesFor,
	staticDataSnapshot,
} from './workflow-setup';

export interface RunPollOptions extends HarnessOptions {
	/**
	 * Workflow static data to start from: a previous result's `staticData`, so successive polls
	 * (or an n8n restart in between) can be simulated.
	 */
	staticData?: IDataObject;
	/**
	 * `trigger` (default): a scheduled poll of an active workflow, run by n8n's PollTriggerExecutor;
	 * errors are reported, not thrown. `manual`: the editor's "Fetch test event", run through
	 * WorkflowExecute.
	 */
	mode?: 'trigger' | 'manual';
	/** How the workflow was activated (`trigger` mode only); default `activate`. */
	activation?: WorkflowActivateMode;
	/** Node settings and the workflow timezone. */
	node?: Partial<Omit<INode, 'parameters' | 'type'>>;
	timezone?: string;
}

export interface PollRunResult {
	/** What the poll emitted, one item list per output; `null` when it found nothing new. */
	emitted: INodeExecutionData[][] | null;
	/** The error the poll raised, if any. */
	error?: Error;
	/**
	 * Workflow static data after the poll, as plain JSON. An active workflow keeps this in memory,
	 * so it is what the next poll sees while n8n keeps running.
	 */
	staticData: IDataObject;
	/**
	 * Static data as n8n wrote it to its database during this poll: n8n saves it when a poll
	 * emits, not when it returns nothing (and never for a manual poll). After a restart the next
	 * poll starts from the last saved state.
	 */
	savedStaticData?: IDataObject;
	credentialsHelper: TestCredentialsHelper;
}

export const POLL_NODE_NAME = 'Trigger';

/** Runs one poll of a polling trigger node through n8n-core's real poll path. */
export async function runPoll(
	nodeType: string,
	parameters: INodeParameters,
	options: RunPollOptions = {},
): Promise<PollRunResult> {
	const node = {
		...options.node,
		name: POLL_NODE_NAME,
		type: nodeType,
		parameters,
	};
	const settings = options.timezone ? { timezone: options.timezone } : undefined;

	if (options.mode === 'manual') {
		const result = await runWorkflow(
			{ nodes: [node], connections: {}, settings },
			{ ...options, mode: 'manual', startNode: POLL_NODE_NAME },
		);
		const nodeResult = result.nodes[POLL_NODE_NAME];
		const outputs = nodeResult?.outputs ?? [];
		return {
			emitted: outputs.some((items) => items.length > 0) ? outputs : null,
			error: nodeResult?.error ?? result.error,
			staticData: result.staticData,
			credentialsHelper: result.credentialsHelper,
		};
	}

	const credentialsHelper = credentialsHelperFor(options);
	const nodeTypes = nodeTypesFor(options);
	const [fullNode] = completeNodes([node]);
	attachCredentials([fullNode], nodeTypes, credentialsHelper);
	const workflow = new Workflow({
		id: 'test-workflow',
		name: 'Test workflow',
		nodes: [fullNode],
		connections: {},
		active: true,
		nodeTypes,
		staticData: deepCopy(options.staticData ?? {}),
		settings: { executionOrder: 'v1', ...settings },
	});

	let emitted: INodeExecutionData[][] | null = null;
	let savedStaticData: IDataObject | undefined;
	let error: Error | undefined;
	const additionalData = buildAdditionalData({
		credentialsHelper,
		executionId: nextExecutionId(),
		workflowId: workflow.id,
		workflowSettings: workflow.settings,
	});
	const pollFunctions = new PollContext(
		workflow,
		fullNode,
		additionalData,
		'trigger',
		options.activation ?? 'activate',
		(data) => {
			emitted = data;
			savedStaticData = staticDataSnapshot(workflow);
		},
		(pollError) => {
			error = pollError;
		},
	);
	const isCurrent = () => true;
	await Container.get(PollTriggerExecutor).create(workflow, fullNode, pollFunctions, isCurrent)(false);

	return { emitted, error, staticData: staticDataSnapshot(workflow), savedStaticData, credentialsHelper };
}

/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code, run by jest and never loaded by n8n: it may use Node modules (docs/architecture.md, Toolchain). */
import { Container } from '@n8n/di';
import { ExecutionLifecycleHooks, ExternalSecretsProxy } from 'n8n-core';
import type {
	IWorkflowBase,
	IWorkflowExecuteAdditionalData,
	IWorkflowSettings,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { UnexpectedError } from 'n8n-workflow';

import type { TestCredentialsHelper } from './credentials-helper';
import { prepareEngineServices } from './engine-services';

const INSTANCE_URL = 'http://localhost:5678';

let executionCounter = 0;

export function nextExecutionId(): string {
	executionCounter += 1;
	return String(executionCounter);
}

function notAvailable(feature: string): () => never {
	return () => {
		throw new UnexpectedError(`${feature} is not available in the test harness`);
	};
}

/**
 * The `additionalData` n8n hands to every execution (cli `WorkflowExecuteAdditionalData.getBase`):
 * the credentials helper, lifecycle hooks, instance URLs and the services that sub-workflows,
 * agents and task runners would use, which the harness does not provide.
 */
export function buildAdditionalData(options: {
	credentialsHelper: TestCredentialsHelper;
	hooks?: ExecutionLifecycleHooks;
	executionId?: string;
	workflowId?: string;
	workflowSettings?: IWorkflowSettings;
}): IWorkflowExecuteAdditionalData {
	prepareEngineServices();
	return {
		credentialsHelper: options.credentialsHelper,
		hooks: options.hooks,
		executionId: options.executionId,
		workflowId: options.workflowId,
		workflowSettings: options.workflowSettings,
		currentNodeExecutionIndex: 0,
		restApiUrl: `${INSTANCE_URL}/rest`,
		instanceBaseUrl: `${INSTANCE_URL}/`,
		formBaseUrl: `${INSTANCE_URL}/form`,
		formWaitingBaseUrl: `${INSTANCE_URL}/form-waiting`,
		formTestBaseUrl: `${INSTANCE_URL}/form-test`,
		webhookBaseUrl: `${INSTANCE_URL}/webhook`,
		webhookWaitingBaseUrl: `${INSTANCE_URL}/webhook-waiting`,
		webhookTestBaseUrl: `${INSTANCE_URL}/webhook-test`,
		mcpBaseUrl: `${INSTANCE_URL}/mcp`,
		mcpTestBaseUrl: `${INSTANCE_URL}/mcp-test`,
		variables: {},
		externalSecretsProxy: Container.get(ExternalSecretsProxy),
		executeWorkflow: notAvailable('Executing sub-workflows'),
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		startRunnerTask: notAvailable('Task runners (Code node)'),
		logAiEvent: () => {},
	};
}

/** Lifecycle hooks as n8n creates them for an execution; the harness only records node order. */
export function createLifecycleHooks(
	mode: WorkflowExecuteMode,
	executionId: string,
	workflowData: IWorkflowBase,
	executionOrder: string[],
): ExecutionLifecycleHooks {
	const hooks = new ExecutionLifecycleHooks(mode, executionId, workflowData);
	hooks.addHandler('nodeExecuteAfter', (nodeName) => {
		executionOrder.push(nodeName);
	});
	return hooks;
}

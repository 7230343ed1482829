export { loadBuiltPackage, type BuiltPackage } from './dist-loader';
export { prepareEngineServices } from './engine-services';
export { TestCredentialTypes } from './credential-types';
export { TestCredentialsHelper, type CredentialsHelperCalls } from './credentials-helper';
export { TestNodeTypes } from './node-types';
export {
	TEST_HTTP_REQUEST_NODE_TYPE,
	TEST_ITEMS_NODE_TYPE,
	TEST_WAREHOUSES_NODE_TYPE,
	TEST_WAREHOUSE_POLL_NODE_TYPE,
	TestItems,
	TestMerchantWarehousePoll,
	TestMerchantWarehouses,
} from './test-node-types';
export { PACKAGE_NAME, packageNodeTypeName } from './source-loader';
export {
	INPUT_NODE_NAME,
	NODE_UNDER_TEST_NAME,
	runNode,
	runWorkflow,
	type ItemError,
	type NodeRunResult,
	type RunNodeOptions,
	type RunWorkflowOptions,
	type WorkflowInput,
	type WorkflowRunResult,
} from './workflow-runner';
export { testCredential, type CredentialTestResult, type TestCredentialOptions } from './credential-tester';
export { POLL_NODE_NAME, runPoll, type PollRunResult, type RunPollOptions } from './poll-runner';
export type { HarnessOptions, NodeInput } from './workflow-setup';
export { sandboxCredential } from './sandbox-credential';
export { runListSearch, runLoadOptions, type EditorCallOptions, type EditorCallResult, type ListSearchOptions } from './editor-methods';

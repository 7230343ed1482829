/**
 * The editor's calls into a node: a resource locator's list search (`methods.listSearch`) and an
 * option list (`methods.loadOptions`), run the way n8n's DynamicNodeParametersService runs them
 * for `POST /rest/dynamic-node-parameters/resource-locator-results` and `/options`: a one-node
 * workflow ("Temp-Node") holding the panel's current parameters and the chosen credential, and
 * n8n-core's real LoadOptionsContext (credentials, httpRequestWithAuthentication with token
 * renewal after a 401).
 */
import { LoadOptionsContext } from 'n8n-core';
import type { ILoadOptionsFunctions, INodeListSearchResult, INodeParameters, INodePropertyOptions } from 'n8n-workflow';
import { UserError, Workflow } from 'n8n-workflow';

import { buildAdditionalData } from './additional-data';
import type { TestCredentialsHelper } from './credentials-helper';
import type { HarnessOptions } from './workflow-setup';
import { attachCredentials, completeNodes, credentialsHelperFor, nodeTypesFor } from './workflow-setup';

export interface EditorCallOptions extends HarnessOptions {
	/** The node's parameters as the panel holds them (n8n sends them as `currentNodeParameters`). */
	parameters?: INodeParameters;
	/** Path of the parameter asking, e.g. `parameters.productId`. */
	path?: string;
}

export interface ListSearchOptions extends EditorCallOptions {
	/** What the user typed into the list's search box. */
	filter?: string;
	/** The token of the previous page, when the user scrolled to the end of the list. */
	paginationToken?: string;
}

export interface EditorCallResult<T> {
	result: T;
	credentialsHelper: TestCredentialsHelper;
}

type EditorMethod = (this: ILoadOptionsFunctions, ...args: unknown[]) => Promise<unknown>;

async function callEditorMethod<T>(
	nodeType: string,
	kind: 'listSearch' | 'loadOptions',
	methodName: string,
	args: unknown[],
	options: EditorCallOptions,
): Promise<EditorCallResult<T>> {
	const credentialsHelper = credentialsHelperFor(options);
	const nodeTypes = nodeTypesFor(options);
	const [node] = completeNodes([{ name: 'Temp-Node', type: nodeType, parameters: options.parameters ?? {} }]);
	attachCredentials([node], nodeTypes, credentialsHelper);
	const type = nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
	const method = (type.methods?.[kind] as Record<string, EditorMethod> | undefined)?.[methodName];
	if (typeof method !== 'function') throw new UserError(`${node.type} has no ${kind} method named "${methodName}"`);
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const additionalData = buildAdditionalData({ credentialsHelper });
	additionalData.currentNodeParameters = options.parameters ?? {};
	const context = new LoadOptionsContext(workflow, node, additionalData, options.path ?? 'parameters');
	const result = (await method.call(context, ...args)) as T;
	return { result, credentialsHelper };
}

/** Runs a resource locator's list search as the editor does when the list opens, is searched or scrolled. */
export async function runListSearch(
	nodeType: string,
	methodName: string,
	options: ListSearchOptions = {},
): Promise<EditorCallResult<INodeListSearchResult>> {
	return await callEditorMethod(nodeType, 'listSearch', methodName, [options.filter, options.paginationToken], options);
}

/** Runs an option list method as the editor does when an options field opens. */
export async function runLoadOptions(
	nodeType: string,
	methodName: string,
	options: EditorCallOptions = {},
): Promise<EditorCallResult<INodePropertyOptions[]>> {
	return await callEditorMethod(nodeType, 'loadOptions', methodName, [], options);
}

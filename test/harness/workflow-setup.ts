import type { ICredentialDataDecryptedObject, IDataObject, INode, Workflow } from 'n8n-workflow';
import { deepCopy } from 'n8n-workflow';

import { TestCredentialsHelper } from './credentials-helper';
import { TestNodeTypes } from './node-types';
import { packageNodeTypeName } from './source-loader';

/** What every way of running something through the harness accepts. */
export interface HarnessOptions {
	/** Credential data to store before the run, by credential type; nodes that use a type get it. */
	credentials?: Record<string, ICredentialDataDecryptedObject>;
	/** Reuse a store across runs, so a token saved by one run is used by the next (as n8n's DB). */
	credentialsHelper?: TestCredentialsHelper;
	nodeTypes?: TestNodeTypes;
}

export type NodeInput = Partial<INode> & Pick<INode, 'name' | 'type'>;

let defaultNodeTypes: TestNodeTypes | undefined;

export function nodeTypesFor(options: HarnessOptions): TestNodeTypes {
	if (options.nodeTypes) return options.nodeTypes;
	defaultNodeTypes ??= new TestNodeTypes();
	return defaultNodeTypes;
}

export function credentialsHelperFor(options: HarnessOptions): TestCredentialsHelper {
	const helper = options.credentialsHelper ?? new TestCredentialsHelper();
	for (const [type, data] of Object.entries(options.credentials ?? {})) {
		helper.add(type, data);
	}
	return helper;
}

/**
 * Copies the nodes and completes what an exported workflow may leave out. A node type without a
 * package prefix is taken to be one of this package's.
 */
export function completeNodes(nodes: NodeInput[]): INode[] {
	return deepCopy(nodes).map((node, index) => ({
		id: node.id ?? `node-${index + 1}`,
		typeVersion: node.typeVersion ?? 1,
		position: node.position ?? [index * 220, 0],
		parameters: node.parameters ?? {},
		...node,
		type: packageNodeTypeName(node.type),
	}));
}

/** Points every node at the stored credential of each type it declares, unless already set. */
export function attachCredentials(
	nodes: INode[],
	nodeTypes: TestNodeTypes,
	helper: TestCredentialsHelper,
): void {
	for (const node of nodes) {
		const declared =
			nodeTypes.getByNameAndVersion(node.type, node.typeVersion).description.credentials ?? [];
		for (const { name } of declared) {
			const stored = helper.find(name);
			if (stored && !node.credentials?.[name]) {
				node.credentials = { ...node.credentials, [name]: stored };
			}
		}
	}
}

/** The workflow's static data as plain JSON, the form n8n stores it in. */
export function staticDataSnapshot(workflow: Workflow): IDataObject {
	return JSON.parse(JSON.stringify(workflow.staticData ?? {})) as IDataObject;
}

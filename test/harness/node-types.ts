import { DirectoryLoader, RoutingNode } from 'n8n-core';
import type { ExecuteContext } from 'n8n-core';
import { commonPollingParameters } from 'n8n-core/dist/nodes-loader/constants';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeType,
	INodeTypes,
	IVersionedNodeType,
} from 'n8n-workflow';
import { NodeHelpers, UnexpectedError } from 'n8n-workflow';

import { PACKAGE_NAME, instantiateExportedClasses } from './source-loader';
import { testNodeTypes } from './test-node-types';

function isNodeType(value: unknown): value is INodeType | IVersionedNodeType {
	const description = (value as { description?: { name?: unknown } } | null)?.description;
	return typeof description?.name === 'string';
}

/** n8n's rule (cli `shouldAssignExecuteMethod`) for node types that run through `RoutingNode`. */
function isRoutedDeclaratively(nodeType: INodeType): boolean {
	const isDeclarative = nodeType.description.requestDefaults !== undefined;
	return (
		!nodeType.execute &&
		!nodeType.supplyData &&
		!nodeType.poll &&
		!nodeType.trigger &&
		(!nodeType.webhook || isDeclarative) &&
		(!nodeType.methods || isDeclarative)
	);
}

/** What n8n's node loader adds to every node it loads (`DirectoryLoader.loadNodeFromFile`). */
function applyLoaderAdditions(nodeType: INodeType): void {
	if (nodeType.methods?.loadOptions) {
		nodeType.description.__loadOptionsMethods = Object.keys(nodeType.methods.loadOptions);
	}
	if (nodeType.description.polling) {
		nodeType.description.properties.unshift(...commonPollingParameters);
	}
	DirectoryLoader.applyDeclarativeNodeOptionParameters(nodeType);
}

/**
 * The node types a test workflow can use: the package's nodes loaded from `nodes/**\/*.node.ts`
 * under the names n8n gives them (`<package name>.<description.name>`), plus the test-only
 * types of `test-node-types.ts`. The package's nodes are loaded on the first lookup of a name
 * that is not registered, so tests using only test node types do not depend on them.
 */
export class TestNodeTypes implements INodeTypes {
	private readonly types = new Map<string, INodeType | IVersionedNodeType>();

	private loadPackageTypes: (() => Array<INodeType | IVersionedNodeType>) | undefined;

	constructor(
		packageTypes: Array<INodeType | IVersionedNodeType> | 'load-from-source' = 'load-from-source',
		extraTypes: INodeType[] = testNodeTypes(),
	) {
		if (packageTypes === 'load-from-source') {
			this.loadPackageTypes = loadPackageNodeTypes;
		} else {
			this.registerPackageTypes(packageTypes);
		}
		for (const type of extraTypes) this.register(type.description.name, type);
	}

	register(name: string, type: INodeType | IVersionedNodeType): void {
		const versions = 'nodeVersions' in type ? Object.values(type.nodeVersions) : [type];
		versions.forEach(applyLoaderAdditions);
		this.types.set(name, type);
	}

	getByName(name: string): INodeType | IVersionedNodeType {
		if (!this.types.has(name) && this.loadPackageTypes) {
			const load = this.loadPackageTypes;
			this.loadPackageTypes = undefined;
			this.registerPackageTypes(load());
		}
		const type = this.types.get(name);
		if (!type) throw new UnexpectedError(`Unknown node type "${name}"`);
		return type;
	}

	getByNameAndVersion(name: string, version?: number): INodeType {
		const nodeType = NodeHelpers.getVersionedNodeType(this.getByName(name), version);
		// As n8n's NodeTypes does: a routing-only node gets an execute method that runs RoutingNode,
		// so it goes through the same ExecuteContext path as any programmatic node.
		if (isRoutedDeclaratively(nodeType)) {
			nodeType.execute = async function (this: IExecuteFunctions) {
				const data = await new RoutingNode(this as ExecuteContext, nodeType).runNode();
				return data ?? [];
			};
		}
		return nodeType;
	}

	getKnownTypes(): IDataObject {
		return {};
	}

	private registerPackageTypes(types: Array<INodeType | IVersionedNodeType>): void {
		for (const type of types) this.register(`${PACKAGE_NAME}.${type.description.name}`, type);
	}
}

/** The package's node types, loaded from their sources. */
export function loadPackageNodeTypes(): Array<INodeType | IVersionedNodeType> {
	return instantiateExportedClasses('nodes', '.node.ts', isNodeType);
}

import type { ICredentialType, ICredentialTypes, INodeProperties } from 'n8n-workflow';
import { NodeHelpers, UnexpectedError } from 'n8n-workflow';

import { instantiateExportedClasses } from './source-loader';

function isCredentialType(value: unknown): value is ICredentialType {
	const candidate = value as Partial<ICredentialType> | null;
	return (
		typeof candidate?.name === 'string' &&
		typeof candidate.displayName === 'string' &&
		Array.isArray(candidate.properties)
	);
}

/** The package's credential types, loaded from `credentials/**\/*.credentials.ts`. */
export class TestCredentialTypes implements ICredentialTypes {
	private readonly types = new Map<string, ICredentialType>();

	constructor(types: ICredentialType[] = loadPackageCredentialTypes()) {
		for (const type of types) this.types.set(type.name, type);
	}

	names(): string[] {
		return [...this.types.keys()];
	}

	recognizes(typeName: string): boolean {
		return this.types.has(typeName);
	}

	getByName(typeName: string): ICredentialType {
		const type = this.types.get(typeName);
		if (!type) throw new UnexpectedError(`Unknown credential type "${typeName}"`);
		return type;
	}

	getSupportedNodes(typeName: string): string[] {
		return this.getByName(typeName).supportedNodes ?? [];
	}

	getParentTypes(typeName: string): string[] {
		const parents = this.getByName(typeName).extends ?? [];
		return parents.flatMap((parent) =>
			this.recognizes(parent) ? [parent, ...this.getParentTypes(parent)] : [parent],
		);
	}

	/** The type's properties, inherited ones first, as n8n's credentials helper merges them. */
	getProperties(typeName: string): INodeProperties[] {
		const type = this.getByName(typeName);
		const merged: INodeProperties[] = [];
		for (const parent of type.extends ?? []) {
			if (this.recognizes(parent)) NodeHelpers.mergeNodeProperties(merged, this.getProperties(parent));
		}
		NodeHelpers.mergeNodeProperties(merged, type.properties);
		return merged;
	}
}

function loadPackageCredentialTypes(): ICredentialType[] {
	return instantiateExportedClasses('credentials', '.credentials.ts', isCredentialType);
}

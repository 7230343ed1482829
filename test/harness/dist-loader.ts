/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error -- test code, run by jest and never loaded by n8n: it may use Node modules, plain errors (docs/architecture.md, Toolchain). */
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { ICredentialType, INodeType, IVersionedNodeType } from 'n8n-workflow';

import { PROJECT_ROOT } from './source-loader';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- bundles.js is CommonJS, shared with gulpfile.js
const { buildBundles } = require('../../bundles') as { buildBundles: (root: string, outdir: string, options?: object) => Promise<void> };

interface PackageN8n {
	nodes: string[];
	credentials: string[];
}

export interface BuiltPackage {
	nodeTypes: Array<INodeType | IVersionedNodeType>;
	credentialTypes: ICredentialType[];
	/** The folder the bundles were written to (its dist/ as the package ships it). */
	folder: string;
	/** Removes the folder the bundles were written to. */
	remove(): void;
}

/**
 * The package as n8n loads it: its bundles built as `npm run build` builds them (bundles.js) into a
 * folder of their own, then each file package.json's `n8n` section lists required and its exported
 * classes instantiated (n8n-core's `loadClassInIsolation`: `new (require(file)[className])()`), all
 * in this one process, so that each bundle keeps its own copy of every module, as in n8n. The
 * folder links the project's node_modules, where the bundles find n8n-workflow (external).
 */
export async function loadBuiltPackage(): Promise<BuiltPackage> {
	const folder = mkdtempSync(path.join(tmpdir(), 'mm-bundles-'));
	const remove = () => rmSync(folder, { recursive: true, force: true });
	try {
		symlinkSync(path.join(PROJECT_ROOT, 'node_modules'), path.join(folder, 'node_modules'), 'dir');
		await buildBundles(PROJECT_ROOT, path.join(folder, 'dist'), { logLevel: 'error' });
		const { n8n } = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { n8n: PackageN8n };
		const instances = (files: string[]) =>
			files.flatMap((file) => {
				// eslint-disable-next-line @typescript-eslint/no-require-imports -- a built bundle, loaded as n8n loads it
				const exported = require(path.join(folder, file)) as Record<string, new () => unknown>;
				return Object.values(exported).map((type) => new type());
			});
		return {
			nodeTypes: instances(n8n.nodes) as Array<INodeType | IVersionedNodeType>,
			credentialTypes: instances(n8n.credentials) as ICredentialType[],
			folder,
			remove,
		};
	} catch (error) {
		remove();
		throw error;
	}
}

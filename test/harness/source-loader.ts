/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, run by jest and never loaded by n8n: it may use process and timers, Node modules (docs/architecture.md, Toolchain). */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export const PROJECT_ROOT = path.resolve(__dirname, '..', '..');

/** The npm package name: n8n prefixes the names of a community package's node types with it. */
export const PACKAGE_NAME = (
	JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { name: string }
).name;

/** Full node type name as n8n registers it, e.g. `n8n-nodes-marketplace-merchant.marketplaceMerchant`. */
export function packageNodeTypeName(shortName: string): string {
	return shortName.includes('.') ? shortName : `${PACKAGE_NAME}.${shortName}`;
}

function sourceFiles(directory: string, suffix: string): string[] {
	const root = path.join(PROJECT_ROOT, directory);
	if (!existsSync(root)) return [];
	return (readdirSync(root, { recursive: true }) as string[])
		.filter((file) => file.endsWith(suffix))
		.sort()
		.map((file) => path.join(root, file));
}

/**
 * Instantiates every exported class of the TypeScript sources under `directory` whose file name
 * ends in `suffix` and keeps the instances `accept` recognises. The sources are loaded as they
 * are (ts-jest or tsx transpile them), so tests never need a build.
 */
export function instantiateExportedClasses<T>(
	directory: string,
	suffix: string,
	accept: (instance: unknown) => instance is T,
): T[] {
	const instances: T[] = [];
	for (const file of sourceFiles(directory, suffix)) {
		// eslint-disable-next-line @typescript-eslint/no-require-imports -- a file chosen at run time, loaded as n8n loads it
		const moduleExports = require(file) as Record<string, unknown>;
		for (const exported of Object.values(moduleExports)) {
			if (typeof exported !== 'function' || !/^class\s/.test(Function.prototype.toString.call(exported))) {
				continue;
			}
			const instance: unknown = new (exported as new () => unknown)();
			if (accept(instance)) instances.push(instance);
		}
	}
	return instances;
}

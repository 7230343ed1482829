/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @typescript-eslint/no-unused-vars -- end-to-end suite code, run by tsx against a real n8n and never loaded by n8n: it may use process and timers, Node modules, rest siblings that drop keys (docs/architecture.md, Toolchain). */
/**
 * Puts a community node package into an n8n user folder the way n8n's own installer does
 * (Settings > Community nodes; n8n 2.x `CommunityPackagesService.downloadPackage`), from a tarball
 * made by `npm pack` instead of the registry.
 */
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { runCommand, tail } from './processes';
import type { N8nInstallation } from './n8n';

interface PackageJson {
	name: string;
	version: string;
	dependencies?: Record<string, string>;
	devDependencies?: Record<string, string>;
	peerDependencies?: Record<string, string>;
	optionalDependencies?: Record<string, string>;
	[key: string]: unknown;
}

function npmEnvironment(installation: N8nInstallation): NodeJS.ProcessEnv {
	// npm and the package's lifecycle scripts must run on the Node 24 that runs n8n.
	return { ...process.env, PATH: [path.dirname(installation.nodeBinary), process.env.PATH ?? ''].join(path.delimiter) };
}

/**
 * `npm pack` of `packageDir` (its `prepack` script runs, e.g. the build) into `destinationDir`;
 * returns the tarball path.
 */
export async function packPackage(
	installation: N8nInstallation,
	packageDir: string,
	destinationDir: string,
): Promise<string> {
	await mkdir(destinationDir, { recursive: true });
	const result = await runCommand('npm', ['pack', '--json', `--pack-destination=${destinationDir}`], {
		cwd: packageDir,
		env: npmEnvironment(installation),
		timeoutMs: 5 * 60_000,
	});
	if (result.exitCode !== 0) throw new Error(`npm pack failed in ${packageDir}:\n${tail(result.output)}`);
	// stdout carries the prepack script's output before npm's JSON array.
	const json = result.stdout.slice(result.stdout.lastIndexOf('\n[') + 1);
	const [{ filename }] = JSON.parse(json) as Array<{ filename: string }>;
	return path.join(destinationDir, filename);
}

export interface InstalledPackage {
	name: string;
	version: string;
	directory: string;
}

/**
 * Unpacks the tarball into `<userFolder>/.n8n/nodes/node_modules/<name>`, drops its dev, peer and
 * optional dependencies, installs its runtime dependencies and records it in
 * `.n8n/nodes/package.json`, like n8n does. n8n loads every `n8n-nodes-*` / `@scope/n8n-nodes-*`
 * folder there at start-up (restart a running instance to pick up changes). The peer dependency on
 * n8n-workflow resolves to n8n's own copy; a plain `npm install <tgz>` in .n8n/nodes would instead
 * install a second n8n-workflow from the registry (npm >= 7 installs peers).
 */
export async function installCommunityPackage(
	installation: N8nInstallation,
	userFolder: string,
	tarballPath: string,
): Promise<InstalledPackage> {
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	const stagingDir = path.join(nodesDir, `.unpack-${Date.now()}`);
	await mkdir(stagingDir, { recursive: true });
	try {
		const untar = await runCommand('tar', ['-xzf', tarballPath, '-C', stagingDir, '--strip-components=1'], {
			timeoutMs: 60_000,
		});
		if (untar.exitCode !== 0) throw new Error(`cannot unpack ${tarballPath}:\n${tail(untar.output)}`);
		const { name, version } = JSON.parse(await readFile(path.join(stagingDir, 'package.json'), 'utf8')) as PackageJson;
		const directory = path.join(nodesDir, 'node_modules', name);
		await rm(directory, { recursive: true, force: true });
		await mkdir(path.dirname(directory), { recursive: true });
		await rename(stagingDir, directory);
		await keepRuntimeDependenciesOnly(path.join(directory, 'package.json'));
		const install = await runCommand(
			'npm',
			[
				'install',
				'--audit=false',
				'--fund=false',
				'--bin-links=false',
				'--install-strategy=shallow',
				'--ignore-scripts=true',
				'--package-lock=false',
			],
			{ cwd: directory, env: npmEnvironment(installation), timeoutMs: 5 * 60_000 },
		);
		if (install.exitCode !== 0) throw new Error(`npm install of ${name}'s dependencies failed:\n${tail(install.output)}`);
		await recordInNodesPackageJson(nodesDir, name, version);
		return { name, version, directory };
	} finally {
		await rm(stagingDir, { recursive: true, force: true });
	}
}

async function keepRuntimeDependenciesOnly(packageJsonPath: string): Promise<void> {
	const { devDependencies, peerDependencies, optionalDependencies, ...runtime } = JSON.parse(
		await readFile(packageJsonPath, 'utf8'),
	) as PackageJson;
	await writeFile(packageJsonPath, JSON.stringify(runtime, null, 2));
}

async function recordInNodesPackageJson(nodesDir: string, name: string, version: string): Promise<void> {
	const packageJsonPath = path.join(nodesDir, 'package.json');
	let manifest: { name: string; private: boolean; dependencies: Record<string, string> };
	try {
		manifest = JSON.parse(await readFile(packageJsonPath, 'utf8')) as typeof manifest;
	} catch {
		manifest = { name: 'installed-nodes', private: true, dependencies: {} };
	}
	manifest.dependencies = { ...manifest.dependencies, [name]: version };
	await writeFile(packageJsonPath, JSON.stringify(manifest, null, 2));
}

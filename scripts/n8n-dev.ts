/**
 * Starts a real n8n with this package installed, for trying the nodes in the editor:
 *
 *   npm exec -- tsx scripts/n8n-dev.ts
 *
 * Packs the project (`npm pack` runs the build), installs the tarball into a user folder kept in
 * the e2e cache (workflows and credentials survive restarts), starts n8n on 127.0.0.1 and prints
 * the owner login. Ctrl-C stops it.
 *
 * Environment: N8N_DEV_PORT (default 5678), N8N_DEV_PACKAGE_DIR (default: this repo).
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { installCommunityPackage, packPackage } from '../e2e/community-package';
import { E2E_OWNER, installN8n, startN8n } from '../e2e/n8n';

async function main(): Promise<void> {
	const installation = await installN8n();
	const packageDir = path.resolve(process.env.N8N_DEV_PACKAGE_DIR ?? path.join(__dirname, '..'));
	const userFolder = path.join(path.dirname(installation.dir), 'dev-user-folder');
	await mkdir(userFolder, { recursive: true });

	const packDir = await mkdtemp(path.join(tmpdir(), 'n8n-dev-pack-'));
	try {
		const tarball = await packPackage(installation, packageDir, packDir);
		const installed = await installCommunityPackage(installation, userFolder, tarball);
		console.log(`installed ${installed.name}@${installed.version} into ${userFolder}/.n8n/nodes`);
	} finally {
		await rm(packDir, { recursive: true, force: true });
	}

	const port = Number(process.env.N8N_DEV_PORT ?? 5678);
	const server = await startN8n({ installation, userFolder, ports: { port } });
	console.log(`n8n ${installation.version} at ${server.baseUrl}`);
	console.log(`login: ${E2E_OWNER.email} / ${E2E_OWNER.password} (test-only account)`);
	console.log('Ctrl-C stops n8n');

	await new Promise<void>((resolve) => {
		process.once('SIGINT', resolve);
		process.once('SIGTERM', resolve);
	});
	await server.stop();
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});

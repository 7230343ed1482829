#!/usr/bin/env node
// The jest suite on the older Node lines n8n runs on: n8n 1.123 and 2.0 run on Node >=20.19
// <=24.x (their engines), and the package's engines promise the same. Every other script runs on
// the project's own Node 24 (the node devDependency), so without this only Node 24 is ever tested.
// The suite runs every operation and the trigger through n8n-core's engine, so it is the
// package's code on these Node versions (n8n itself on them: not tested, see README Compatibility).
// Each Node comes from the npm registry (the `node` package, as the devDependency does), installed
// once into ~/.cache/n8n-nodes-marketplace-merchant/node@<version>.
//   npm run test:node-lines                     every line below
//   npm run test:node-lines -- 22.23.3          the versions named
//   npm run test:node-lines -- --maxWorkers=2 test/credential.test.ts   the rest goes to jest
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

// The oldest Node n8n 1.123/2.0 accept, and the newest 22: the lines package.json's engines adds to 24.
const LINES = ['20.19.6', '22.23.3'];

const args = process.argv.slice(2);
const isVersion = (arg) => /^\d+\.\d+\.\d+$/.test(arg);
const versions = args.filter(isVersion);
const jestArgs = args.filter((arg) => !isVersion(arg));
const cache = path.join(process.env.XDG_CACHE_HOME || path.join(homedir(), '.cache'), 'n8n-nodes-marketplace-merchant');

/** The node binary of `version`, installed from the registry when it is not cached. */
function nodeBinary(version) {
	const prefix = path.join(cache, `node@${version}`);
	const binary = path.join(prefix, 'node_modules', 'node', 'bin', 'node');
	if (!existsSync(binary)) {
		mkdirSync(prefix, { recursive: true });
		const install = spawnSync('npm', ['install', '--prefix', prefix, '--no-audit', '--no-fund', '--no-save', `node@${version}`], {
			stdio: 'inherit',
		});
		if (install.status !== 0 || !existsSync(binary)) throw new Error(`npm could not install node@${version} into ${prefix}`);
	}
	return binary;
}

const results = [];
for (const version of versions.length > 0 ? versions : LINES) {
	const binary = nodeBinary(version);
	const started = Date.now();
	process.stdout.write(`== jest on Node ${version}\n`);
	const run = spawnSync(binary, [path.join('node_modules', 'jest', 'bin', 'jest.js'), ...jestArgs], { stdio: 'inherit' });
	results.push({ version, status: run.status, seconds: Math.round((Date.now() - started) / 1000) });
}
for (const { version, status, seconds } of results) {
	process.stdout.write(`Node ${version}: jest ${status === 0 ? 'passed' : `failed (exit ${status})`} in ${seconds} s\n`);
}
process.exitCode = results.every(({ status }) => status === 0) ? 0 : 1;

#!/usr/bin/env node
// The checks of n8n's community package scanner (@n8n/scan-community-package) on a packed
// tarball, before it is published: the scanner itself downloads a package already on npm (and
// checks its provenance there), so it can only judge a version once it is public. Offline:
//  - the tarball's package.json as n8n loads it: the package name n8n accepts, the keyword the
//    community node search lists, no runtime dependencies, no install scripts, and every node
//    and credential file named in its "n8n" field present in the tarball;
//  - ESLint with the scanner's configuration (eslint.scanner.config.mjs: @n8n/community-nodes'
//    recommended rules, no console, n8n-nodes-base's community rules) on every .js file of the
//    tarball, the root index.js included, and on its package.json: what the scanner lints.
// Usage: node scripts/scan-package.mjs [package.tgz]   (no argument: npm pack first, as npm run release:scan does)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ESLint } from 'eslint';
import scannerConfig from '../eslint.scanner.config.mjs';

// npm runs these during npm install, without asking (the list of the lint rule below); n8n's
// scanner and its lint rule no-forbidden-lifecycle-scripts refuse community packages that have them.
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall', 'prepublish', 'preprepare', 'prepare', 'postprepare'];

/** What is wrong with the tarball's package.json; empty when n8n can load it as a community package. */
function manifestProblems(manifest, packageDir) {
	const problems = [];
	if (!/^(@[a-z0-9-~][a-z0-9-._~]*\/)?n8n-nodes-/.test(manifest.name ?? '')) {
		problems.push(`package name ${manifest.name} does not start with n8n-nodes- (or @scope/n8n-nodes-)`);
	}
	if (!manifest.keywords?.includes('n8n-community-node-package')) {
		problems.push('keywords lack n8n-community-node-package');
	}
	const dependencies = Object.keys(manifest.dependencies ?? {});
	if (dependencies.length > 0) problems.push(`runtime dependencies: ${dependencies.join(', ')}`);
	const scripts = INSTALL_SCRIPTS.filter((script) => manifest.scripts?.[script] !== undefined);
	if (scripts.length > 0) problems.push(`install scripts: ${scripts.join(', ')}`);
	const entries = [...(manifest.n8n?.nodes ?? []), ...(manifest.n8n?.credentials ?? [])];
	if (entries.length === 0) problems.push('package.json has no n8n.nodes or n8n.credentials');
	for (const entry of entries) {
		if (!existsSync(path.join(packageDir, entry))) problems.push(`${entry} (named in package.json's n8n field) is not in the tarball`);
	}
	return problems;
}

const folder = mkdtempSync(path.join(tmpdir(), 'scan-package-'));
try {
	// Without an argument: pack the package as npm publish would (prepack builds dist/), into the temp folder.
	let tarball = process.argv[2];
	if (tarball === undefined) {
		// prepack's build log shares stdout with npm's JSON (gulp's lines start "[hh:mm:ss]"): the JSON starts at a line "[".
		const pack = spawnSync('npm', ['pack', '--json', '--pack-destination', folder], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
		if (pack.status !== 0) throw new Error(`npm pack failed (${pack.status})`);
		const [{ filename, integrity }] = JSON.parse(pack.stdout.slice(pack.stdout.search(/^\[\s*$/m)));
		tarball = path.join(folder, filename);
		process.stdout.write(`packed ${filename} ${integrity}\n`);
	} else if (!existsSync(tarball)) {
		throw new Error(`${tarball} not found (usage: node scripts/scan-package.mjs [package.tgz])`);
	}
	const untar = spawnSync('tar', ['-xzf', path.resolve(tarball), '-C', folder], { encoding: 'utf8' });
	if (untar.status !== 0) throw new Error(`tar could not unpack ${tarball}: ${untar.stderr}`);
	const packageDir = path.join(folder, 'package');
	const manifest = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8'));
	const problems = manifestProblems(manifest, packageDir);

	// The repository's own ignores (test/, scripts/, root *.js ...) are for the sources: the scanner
	// lints every file of the package, so only node_modules stays out.
	const rules = scannerConfig.filter((block) => !(block.ignores && Object.keys(block).length === 1));
	const eslint = new ESLint({
		cwd: packageDir,
		overrideConfigFile: true,
		overrideConfig: [{ ignores: ['node_modules/**'] }, ...rules],
		allowInlineConfig: false,
	});
	const files = readdirSync(packageDir, { recursive: true })
		.map(String)
		.filter((file) => file.endsWith('.js') || file === 'package.json');
	const results = await eslint.lintFiles(files);
	const errors = results.reduce((sum, result) => sum + result.errorCount, 0);
	if (errors > 0) {
		const formatter = await eslint.loadFormatter('stylish');
		process.stderr.write(await formatter.format(results));
		problems.push(`${errors} ESLint error(s) under the scanner's rules`);
	}

	const label = `${manifest.name}@${manifest.version} (${path.basename(tarball)}, ${files.length} files linted)`;
	if (problems.length > 0) {
		process.stderr.write(`scan of ${label} failed:\n${problems.map((problem) => `- ${problem}\n`).join('')}`);
		process.exitCode = 1;
	} else {
		process.stdout.write(`scan of ${label}: the community package scanner's checks pass\n`);
	}
} finally {
	rmSync(folder, { recursive: true, force: true });
}

#!/usr/bin/env node
// n8n's community package scanner's own checks (@n8n/scan-community-package, pinned in
// package.json to the version n8n's verification runs), offline. The scanner's command downloads
// a version already on npm and checks its provenance there, so it can only judge a package once
// it is public; its `analyzePackage` is the analysis itself, on a folder, with the scanner's own
// ESLint configuration (`buildScanConfig`: @n8n/community-nodes' recommended rules, no console,
// n8n-nodes-base's community/credentials/nodes rules), run here the way `analyzePackageByName`
// runs it:
//  - the sources: the repository's package.json, nodes/ and credentials/ (SOURCE_FILE_PATTERNS,
//    what the scanner lints in the source checkout the provenance names);
//  - the tarball: every .js file of the packed package and its package.json.
// Beyond the scanner: every node and credential file package.json's "n8n" field names is in the
// tarball (n8n's loader would fail on the package otherwise).
//
// Usage:
//   node scripts/scan-package.mjs              npm pack (prepack builds dist/), then sources and tarball
//   node scripts/scan-package.mjs pkg.tgz      the sources and that tarball
//   node scripts/scan-package.mjs --source     the sources only (npm run lint)
// Prints "packed <file> <integrity>" after packing (scripts/release-dry-run.mjs reads it); exit 1
// when the scanner (or the check above) refuses.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyzePackage, SOURCE_FILE_PATTERNS } from '@n8n/scan-community-package/scanner/scanner.mjs';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The tarball leg of the scanner's analyzePackageByName: compiled JS and the published package.json. */
const TARBALL_FILE_PATTERNS = ['**/*.js', 'package.json'];

/** The scanner's verdict on one folder; its ESLint report on stderr when it refuses. */
async function scan(label, folder, patterns) {
	const result = await analyzePackage(folder, patterns);
	if (result.passed) {
		process.stdout.write(`scanner (${label}): passed${result.message ? ` (${result.message})` : ''}\n`);
		return [];
	}
	if (result.details) process.stderr.write(result.details);
	return [`${label}: ${result.message ?? 'refused by the scanner'}`];
}

/** Files package.json's "n8n" field names that are not in the unpacked tarball. */
function missingEntries(packageDir) {
	const manifest = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8'));
	const entries = [...(manifest.n8n?.nodes ?? []), ...(manifest.n8n?.credentials ?? [])];
	if (entries.length === 0) return ["tarball: package.json's n8n field names no node and no credential"];
	return entries
		.filter((entry) => !existsSync(path.join(packageDir, entry)))
		.map((entry) => `tarball: ${entry} (named in package.json's n8n field) is not in the tarball`);
}

const args = process.argv.slice(2);
const sourceOnly = args.includes('--source');
const folder = mkdtempSync(path.join(tmpdir(), 'scan-package-'));
try {
	const problems = await scan('sources: package.json, nodes/, credentials/', ROOT, SOURCE_FILE_PATTERNS);
	if (!sourceOnly) {
		let tarball = args.find((arg) => !arg.startsWith('--'));
		if (tarball === undefined) {
			// prepack's build log shares stdout with npm's JSON (gulp's lines start "[hh:mm:ss]"): the JSON starts at a line "[".
			const pack = spawnSync('npm', ['pack', '--json', '--pack-destination', folder], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
			if (pack.status !== 0) throw new Error(`npm pack failed (${pack.status})`);
			const [{ filename, integrity }] = JSON.parse(pack.stdout.slice(pack.stdout.search(/^\[\s*$/m)));
			tarball = path.join(folder, filename);
			process.stdout.write(`packed ${filename} ${integrity}\n`);
		} else if (!existsSync(tarball)) {
			throw new Error(`${tarball} not found (usage: node scripts/scan-package.mjs [package.tgz | --source])`);
		}
		const untar = spawnSync('tar', ['-xzf', path.resolve(tarball), '-C', folder], { encoding: 'utf8' });
		if (untar.status !== 0) throw new Error(`tar could not unpack ${tarball}: ${untar.stderr}`);
		const packageDir = path.join(folder, 'package');
		problems.push(...(await scan(`tarball ${path.basename(tarball)}`, packageDir, TARBALL_FILE_PATTERNS)), ...missingEntries(packageDir));
	}
	if (problems.length > 0) {
		process.stderr.write(`the community package scanner refuses:\n${problems.map((problem) => `- ${problem}\n`).join('')}`);
		process.exitCode = 1;
	} else {
		process.stdout.write(`the community package scanner's checks pass (${sourceOnly ? 'sources' : 'sources and tarball'})\n`);
	}
} finally {
	rmSync(folder, { recursive: true, force: true });
}

#!/usr/bin/env node
// CI's release dry run: publish.yml's steps without publishing. Packs and scans the tarball
// (npm run release:scan), then `npm publish --dry-run --provenance --access public`, which runs
// the prepublishOnly guard (in dry-run mode it says what a real publish would meet), packs again
// and stops before sending. It needs no token and no network but the npm registry (npm asks it
// for the package's published versions and carries on without them when it cannot). It checks
// that the second pack (the one npm publish sends) has the integrity of the scanned tarball, so
// the scan judged the bytes that ship.
// --force: the registry's refusal of a version already published belongs to the real release
// (on main, package.json keeps the released version until the next bump).
import { spawnSync } from 'node:child_process';

function run(command, args) {
	const started = Date.now();
	const result = spawnSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
	process.stdout.write(result.stdout);
	const seconds = ((Date.now() - started) / 1000).toFixed(1);
	if (result.status !== 0) {
		process.stderr.write(`release dry run: ${command} ${args.join(' ')} failed (exit ${result.status}) after ${seconds} s\n`);
		process.exit(1);
	}
	process.stdout.write(`release dry run: ${command} ${args.join(' ')} passed in ${seconds} s\n`);
	return result.stdout;
}

const scanned = /^packed \S+ (sha512-\S+)$/m.exec(run('node', ['scripts/scan-package.mjs']))?.[1];
const publishOutput = run('npm', ['publish', '--dry-run', '--provenance', '--access', 'public', '--force', '--json']);
// Script output (the guard, the build) shares stdout with npm's JSON, which starts at a line "{"
// and holds one entry per package published.
const [published] = Object.values(JSON.parse(publishOutput.slice(publishOutput.search(/^\{\s*$/m))));
if (!scanned || published.integrity !== scanned) {
	process.stderr.write(`release dry run: npm publish would send ${published.integrity}, the scan judged ${scanned ?? 'nothing'}\n`);
	process.exit(1);
}
process.stdout.write(`release dry run: ${published.id} would be published as scanned (${published.integrity}), ${published.entryCount} files\n`);

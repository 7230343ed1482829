/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, run by jest and never loaded by n8n: it may use process and timers, Node modules (docs/architecture.md, Toolchain). */
/**
 * n8n Cloud eligibility (issue 40): `eslint.config.mjs` is n8n's default config, unchanged, with
 * `n8n.strict` on (what `n8n-node cloud-support` counts as eligible), so one config lints the code
 * n8n loads and the development tooling alike. The development folders (test/, sandbox/, bench/,
 * e2e/, scripts/) run in Node, never inside n8n: each file states the rules it sets aside in a
 * comment of its own, at its top, with the reason, and only rules from the list below. nodes/ and
 * credentials/ set aside nothing. A new development file that needs an exception writes the same
 * header (docs/architecture.md, Toolchain).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.join(__dirname, '..');
const DEVELOPMENT = ['test', 'sandbox', 'bench', 'e2e', 'scripts'];
const SHIPPED = ['nodes', 'credentials'];

/** The rules a development file may set aside for the whole file, each for a reason it states. */
const FILE_LEVEL_EXCEPTIONS = [
	// n8n's rules for code it loads: a Node program needs process, timers, Node modules,
	// child processes, plain errors and console output; tests use the sandbox's fixed keys; the
	// harness's own test node types are never offered to an agent.
	'@n8n/community-nodes/no-restricted-globals',
	'@n8n/community-nodes/no-restricted-imports',
	'@n8n/community-nodes/no-dangerous-functions',
	'@n8n/community-nodes/require-node-api-error',
	'@n8n/community-nodes/no-hardcoded-secrets',
	'@n8n/community-nodes/node-usable-as-tool',
	'no-console',
	// Test code's allowances: untyped JSON bodies, rest siblings that drop keys, the sandbox's
	// getters that need the outer `this`.
	'@typescript-eslint/no-explicit-any',
	'@typescript-eslint/no-unused-vars',
	'@typescript-eslint/no-this-alias',
];

function sourceFiles(folder: string): string[] {
	return readdirSync(folder).flatMap((name) => {
		const full = path.join(folder, name);
		if (name === 'node_modules') return [];
		if (statSync(full).isDirectory()) return sourceFiles(full);
		return /\.(ts|mts|cts|js|mjs|cjs)$/.test(name) ? [full] : [];
	});
}

/** Every ESLint directive comment of a source: its kind, its rules, its reason, and its offset. */
function directives(source: string) {
	return [...source.matchAll(/(?:\/\*|\/\/)\s*(eslint-disable(?:-next-line|-line)?|eslint-enable|eslint(?=\s))([^\n]*?)(?:\*\/|$)/gm)].map((match) => {
		const [rules, reason] = match[2].split(/\s-{2,}\s/);
		return {
			kind: match[1],
			rules: rules.split(',').map((rule) => rule.trim()).filter(Boolean),
			reason: reason?.trim() ?? '',
			offset: match.index,
		};
	});
}

const relative = (file: string) => path.relative(ROOT, file);

describe('Lint: n8n Cloud eligible (strict mode, the default config) with the development exceptions in the files', () => {
	it("keeps eslint.config.mjs exactly @n8n/node-cli's template and n8n.strict on", () => {
		const template = readFileSync(path.join(ROOT, 'node_modules', '@n8n', 'node-cli', 'dist', 'template', 'templates', 'shared', 'default', 'eslint.config.mjs'), 'utf8');
		const config = readFileSync(path.join(ROOT, 'eslint.config.mjs'), 'utf8');
		const normal = (text: string) => text.replace(/\s+/g, ' ').trim();
		expect(normal(config)).toBe(normal(template));
		const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { n8n: { strict?: boolean } };
		expect(manifest.n8n.strict).toBe(true);
	});

	it.each(SHIPPED)('%s/ sets no rule aside', (folder) => {
		const found = sourceFiles(path.join(ROOT, folder)).flatMap((file) =>
			directives(readFileSync(file, 'utf8')).map((directive) => `${relative(file)}: ${directive.kind} ${directive.rules.join(', ')}`),
		);
		expect(found).toEqual([]);
	});

	it.each(DEVELOPMENT)('%s/ sets rules aside only with a reason, file-wide only at the top and only from the list', (folder) => {
		const problems = sourceFiles(path.join(ROOT, folder)).flatMap((file) => {
			const source = readFileSync(file, 'utf8');
			const firstCode = source.replace(/^#![^\n]*\n/, '').search(/^(?!\s*(\/\*|\*|\/\/)|\s*$)/m);
			return directives(source).flatMap((directive) => {
				const where = `${relative(file)}: ${directive.kind} ${directive.rules.join(', ') || '(every rule)'}`;
				const wrong: string[] = [];
				if (directive.rules.length === 0) wrong.push(`${where}: names no rule`);
				if (directive.reason.length < 10) wrong.push(`${where}: gives no reason after --`);
				if (directive.kind === 'eslint' || directive.kind === 'eslint-enable') wrong.push(`${where}: changes the config inside a file`);
				if (directive.kind === 'eslint-disable') {
					if (directive.offset > firstCode) wrong.push(`${where}: a file-wide exception below the first line of code`);
					const others = directive.rules.filter((rule) => !FILE_LEVEL_EXCEPTIONS.includes(rule));
					if (others.length > 0) wrong.push(`${where}: ${others.join(', ')} is not a development exception (set it aside on its line, with the reason)`);
				}
				return wrong;
			});
		});
		expect(problems).toEqual([]);
	});
});

/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions, no-console -- end-to-end suite code, run by tsx against a real n8n and never loaded by n8n: it may use process and timers, Node modules, child processes, console output (docs/architecture.md, Toolchain). */
/**
 * The end-to-end suite on each n8n line users run: one `e2e/suite.ts` per runtime folder
 * (e2e/n8n-runtime/ is the pinned newest, e2e/n8n-runtime-<line>/ the older ones), one after the
 * other, then one line per version with its counts and time.
 *
 *   npm run test:compat                         every runtime folder, oldest first
 *   npm run test:compat -- --versions 1.123     only the lines named (prefixes of the n8n version)
 *
 * Each run installs its n8n first when it is not cached (4-5.5 min cold). Exit code 1 when a
 * version failed a check or was asked for but has no runtime folder.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { seconds } from './checks';

const E2E_DIR = __dirname;
const REPO_DIR = path.dirname(E2E_DIR);

interface Runtime {
	/** relative to the repo, as N8N_E2E_RUNTIME takes it */
	folder: string;
	n8nVersion: string;
}

function runtimes(): Runtime[] {
	return readdirSync(E2E_DIR)
		.filter((name) => /^n8n-runtime(-[\d.]+)?$/.test(name))
		.map((name) => {
			const manifest = JSON.parse(readFileSync(path.join(E2E_DIR, name, 'package.json'), 'utf8')) as { dependencies: { n8n: string } };
			return { folder: path.join('e2e', name), n8nVersion: manifest.dependencies.n8n };
		})
		.sort((a, b) => compareVersions(a.n8nVersion, b.n8nVersion));
}

function compareVersions(a: string, b: string): number {
	const [left, right] = [a, b].map((version) => version.split('.').map(Number));
	for (let index = 0; index < 3; index++) if (left[index] !== right[index]) return left[index] - right[index];
	return 0;
}

/** `--versions 1.123,2.0` (or `--versions=…`): the lines asked for; every runtime when absent. */
function askedLines(args: string[]): string[] | undefined {
	const index = args.findIndex((arg) => arg === '--versions' || arg.startsWith('--versions='));
	if (index === -1) return undefined;
	const value = args[index].includes('=') ? args[index].split('=')[1] : args[index + 1];
	if (!value) throw new Error('--versions needs a comma-separated list, e.g. --versions 1.123,2.41');
	return value.split(',').map((line) => line.trim()).filter(Boolean);
}

/** Is `version` on `line` (`1.123` matches 1.123.81, `2` matches every 2.x). */
function onLine(version: string, line: string): boolean {
	return version === line || version.startsWith(`${line}.`);
}

interface RunResult {
	n8nVersion: string;
	exitCode: number;
	counts: string;
	ms: number;
}

/** Runs the suite on one runtime, its output passed through line by line with the version in front. */
async function runSuite(runtime: Runtime): Promise<RunResult> {
	const startedAt = Date.now();
	const tsx = path.join(REPO_DIR, 'node_modules', '.bin', 'tsx');
	const child = spawn(tsx, [path.join(E2E_DIR, 'suite.ts')], {
		cwd: REPO_DIR,
		env: { ...process.env, N8N_E2E_RUNTIME: runtime.folder },
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let counts = 'no result';
	const prefix = `[n8n ${runtime.n8nVersion}] `;
	const relay = (stream: NodeJS.ReadableStream, write: (text: string) => void) => {
		let pending = '';
		stream.setEncoding('utf8');
		stream.on('data', (chunk: string) => {
			const lines = (pending + chunk).split('\n');
			pending = lines.pop() ?? '';
			for (const line of lines) {
				if (/^\d+ passed, \d+ failed$/.test(line)) counts = line;
				write(`${prefix}${line}\n`);
			}
		});
		stream.on('end', () => pending && write(`${prefix}${pending}\n`));
	};
	relay(child.stdout, (text) => process.stdout.write(text));
	relay(child.stderr, (text) => process.stderr.write(text));
	const exitCode = await new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? 1)));
	return { n8nVersion: runtime.n8nVersion, exitCode, counts, ms: Date.now() - startedAt };
}

async function main(): Promise<void> {
	const available = runtimes();
	const lines = askedLines(process.argv.slice(2));
	const chosen = lines ? available.filter((runtime) => lines.some((line) => onLine(runtime.n8nVersion, line))) : available;
	const unmatched = (lines ?? []).filter((line) => !available.some((runtime) => onLine(runtime.n8nVersion, line)));
	if (unmatched.length > 0) {
		throw new Error(`no runtime folder for ${unmatched.join(', ')}; available: ${available.map((runtime) => runtime.n8nVersion).join(', ')}`);
	}
	const results: RunResult[] = [];
	for (const runtime of chosen) {
		console.log(`== e2e suite on n8n ${runtime.n8nVersion} (${runtime.folder})`);
		results.push(await runSuite(runtime));
	}
	console.log('== compat');
	for (const result of results) {
		console.log(`${result.exitCode === 0 ? 'PASS' : 'FAIL'} n8n ${result.n8nVersion}: ${result.counts} [${seconds(result.ms)}]`);
	}
	process.exitCode = results.length > 0 && results.every((result) => result.exitCode === 0) ? 0 : 1;
}

main().catch((error: unknown) => {
	console.error(error instanceof Error ? error.message : error);
	process.exitCode = 1;
});

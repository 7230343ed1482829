/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- benchmark code (`npm run bench`) and never loaded by n8n: it may use process and timers, Node modules, child processes (docs/architecture.md, Toolchain). */
/**
 * Child processes of the benchmark: TypeScript scripts run by the same Node (24) with tsx's
 * loader, so they need no build. Every child is tracked and ended when the benchmark ends.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';

export const BENCH_DIR = __dirname;
export const PROJECT_ROOT = path.resolve(__dirname, '..');

const children = new Set<ChildProcess>();

/** Starts `bench/<script>` with tsx; stdin and stdout are pipes, stderr is passed through. */
export function startScript(script: string, env: Record<string, string> = {}, nodeArgs: string[] = []): ChildProcess {
	const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', path.join(BENCH_DIR, script)], {
		cwd: PROJECT_ROOT,
		env: { ...process.env, ...env },
		stdio: ['pipe', 'pipe', 'inherit'],
	});
	children.add(child);
	child.once('exit', () => children.delete(child));
	return child;
}

/** Children prefix their answer with this, since libraries they load may print to stdout too. */
const RESULT_PREFIX = 'BENCH_RESULT ';

/** Writes a child's answer for `resultOf`. */
export function writeResult(value: unknown): void {
	process.stdout.write(`${RESULT_PREFIX}${JSON.stringify(value)}\n`);
}

/** The answer a child wrote with `writeResult`; rejects when the child ends first or takes too long. */
export async function resultOf<T>(child: ChildProcess, timeoutMs: number): Promise<T> {
	const lines = createInterface({ input: child.stdout! });
	try {
		return await new Promise<T>((resolve, reject) => {
			const timer = setTimeout(() => reject(new Error(`child process gave no answer within ${timeoutMs} ms`)), timeoutMs);
			const fail = (code: number | null) => {
				clearTimeout(timer);
				reject(new Error(`child process ended (exit code ${String(code)}) before answering`));
			};
			child.once('exit', fail);
			lines.on('line', (line) => {
				if (!line.startsWith(RESULT_PREFIX)) return;
				clearTimeout(timer);
				child.off('exit', fail);
				resolve(JSON.parse(line.slice(RESULT_PREFIX.length)) as T);
			});
		});
	} finally {
		lines.close();
	}
}

/** Ends a child (closing its stdin first, then SIGTERM) and waits for it. */
export async function stopChild(child: ChildProcess): Promise<void> {
	if (child.exitCode !== null || child.signalCode !== null) return;
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
	child.stdin?.end();
	const timer = setTimeout(() => child.kill('SIGTERM'), 2_000);
	await exited;
	clearTimeout(timer);
}

/** Ends every child still running (on the way out, also after an error). */
export async function stopAllChildren(): Promise<void> {
	await Promise.all([...children].map(stopChild));
}

/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- end-to-end suite code, run by tsx against a real n8n and never loaded by n8n: it may use process and timers, Node modules, child processes (docs/architecture.md, Toolchain). */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';

export const LOOPBACK_HOST = '127.0.0.1';

/** A port that was free on 127.0.0.1 a moment ago (the OS picks it). */
export async function findFreePort(): Promise<number> {
	return await new Promise((resolve, reject) => {
		const server = createServer();
		server.unref();
		server.once('error', reject);
		server.listen(0, LOOPBACK_HOST, () => {
			const address = server.address();
			const port = typeof address === 'object' && address !== null ? address.port : 0;
			server.close(() => (port > 0 ? resolve(port) : reject(new Error('no port assigned'))));
		});
	});
}

/** `preferred` when nothing listens on it on 127.0.0.1, else a free port the OS picks. */
export async function preferredOrFreePort(preferred: number): Promise<number> {
	const available = await new Promise<boolean>((resolve) => {
		const server = createServer();
		server.unref();
		server.once('error', () => resolve(false));
		server.listen(preferred, LOOPBACK_HOST, () => server.close(() => resolve(true)));
	});
	return available ? preferred : await findFreePort();
}

// Children still alive when the test process exits are killed with their process group, so that
// a failing suite never leaves n8n (or its task runner) behind.
const liveProcessGroups = new Set<number>();
process.once('exit', () => {
	for (const pid of liveProcessGroups) killProcessGroup(pid, 'SIGKILL');
});

function killProcessGroup(pid: number, signal: NodeJS.Signals): void {
	try {
		process.kill(-pid, signal);
	} catch {
		// already gone
	}
}

export interface ManagedProcess {
	readonly child: ChildProcess;
	/** stdout and stderr interleaved, as far as received (the last 16 MB at most). */
	output(): string;
	/** stdout alone (the last 16 MB at most). */
	stdout(): string;
	/** Resolves when the process has exited. */
	readonly exited: Promise<{ exitCode: number | null; signal: NodeJS.Signals | null }>;
	/** SIGTERM to the whole process group, SIGKILL after `graceMs`. */
	stop(graceMs?: number): Promise<void>;
}

const KEPT_OUTPUT_BYTES = 16_000_000;

/** Text received in chunks, of which only the newest KEPT_OUTPUT_BYTES are kept. */
class OutputBuffer {
	private readonly chunks: string[] = [];
	private length = 0;

	append(chunk: string): void {
		this.chunks.push(chunk);
		this.length += chunk.length;
		while (this.length > KEPT_OUTPUT_BYTES && this.chunks.length > 1) this.length -= this.chunks.shift()!.length;
	}

	text(): string {
		return this.chunks.join('');
	}
}

/**
 * Spawns a command in its own process group (n8n starts a task-runner child) and keeps its
 * output. The group is killed when the test process exits. `stdoutFd`: a file the command's
 * stdout goes to instead of a pipe (then `stdout()` is empty).
 */
export function spawnManaged(command: string, args: string[], options: SpawnOptions, stdoutFd?: number): ManagedProcess {
	const child = spawn(command, args, { ...options, detached: true, stdio: ['ignore', stdoutFd ?? 'pipe', 'pipe'] });
	const combined = new OutputBuffer();
	const stdout = new OutputBuffer();
	child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
		combined.append(chunk);
		stdout.append(chunk);
	});
	child.stderr?.setEncoding('utf8').on('data', (chunk: string) => combined.append(chunk));
	const pid = child.pid;
	if (pid !== undefined) liveProcessGroups.add(pid);
	const exited = new Promise<{ exitCode: number | null; signal: NodeJS.Signals | null }>((resolve) => {
		child.once('error', (error) => {
			combined.append(`\n${String(error)}\n`);
			resolve({ exitCode: null, signal: null });
		});
		child.once('close', (exitCode, signal) => resolve({ exitCode, signal }));
	}).finally(() => {
		if (pid !== undefined) {
			// The leader is gone; its children (the task runner) must not outlive it.
			killProcessGroup(pid, 'SIGKILL');
			liveProcessGroups.delete(pid);
		}
	});
	return {
		child,
		output: () => combined.text(),
		stdout: () => stdout.text(),
		exited,
		async stop(graceMs = 15_000) {
			if (pid === undefined || !liveProcessGroups.has(pid)) return;
			killProcessGroup(pid, 'SIGTERM');
			const timer = setTimeout(() => killProcessGroup(pid, 'SIGKILL'), graceMs);
			await exited;
			clearTimeout(timer);
		},
	};
}

export interface CommandResult {
	exitCode: number | null;
	signal: NodeJS.Signals | null;
	/** stdout and stderr interleaved */
	output: string;
	stdout: string;
}

/**
 * Runs a command to completion; it is killed (whole group) after `timeoutMs`. `stdoutFile`: the
 * command's stdout is written to that file and read from it once the command has exited. A
 * Node.js program that prints much and then calls process.exit() (as `n8n execute` does) loses
 * what it has not yet written into a pipe, which is written asynchronously, when the reader is
 * slower than it (a loaded machine): writes to a file are synchronous, so nothing is lost.
 */
export async function runCommand(
	command: string,
	args: string[],
	options: SpawnOptions & { timeoutMs: number; stdoutFile?: string },
): Promise<CommandResult> {
	const { timeoutMs, stdoutFile, ...spawnOptions } = options;
	const stdoutFd = stdoutFile === undefined ? undefined : openSync(stdoutFile, 'w', 0o600);
	let managed: ManagedProcess;
	try {
		managed = spawnManaged(command, args, spawnOptions, stdoutFd);
	} finally {
		// The child holds its own copy of the descriptor.
		if (stdoutFd !== undefined) closeSync(stdoutFd);
	}
	let timedOut = false;
	const timer = setTimeout(() => {
		timedOut = true;
		void managed.stop(2_000);
	}, timeoutMs);
	const { exitCode, signal } = await managed.exited;
	clearTimeout(timer);
	const stdout = stdoutFile === undefined ? managed.stdout() : await readFile(stdoutFile, 'utf8');
	// With stdout in a file, stderr comes first, then stdout.
	const output = stdoutFile === undefined ? managed.output() : `${managed.output()}${stdout}`;
	if (timedOut) {
		throw new Error(`${command} ${args.join(' ')} timed out after ${timeoutMs} ms\n${tail(output)}`);
	}
	return { exitCode, signal, output, stdout };
}

/** The end of a long output, for error messages. */
export function tail(text: string, lines = 40): string {
	return text.split('\n').slice(-lines).join('\n');
}

/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error, @n8n/community-nodes/no-hardcoded-secrets -- end-to-end suite code, run by tsx against a real n8n and never loaded by n8n: it may use process and timers, Node modules, plain errors, fixed test keys of the sandbox (docs/architecture.md, Toolchain). */
/**
 * Runs a real n8n (installed by e2e/install-n8n.sh, outside the repo) for end-to-end tests:
 * CLI commands against a throwaway user folder, and `n8n start` on 127.0.0.1 with free ports.
 * See e2e/README.md for the facts behind each setting.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';

import {
	findFreePort,
	LOOPBACK_HOST,
	runCommand,
	spawnManaged,
	tail,
	type CommandResult,
	type ManagedProcess,
} from './processes';

const REPO_DIR = path.resolve(__dirname, '..');
const INSTALL_SCRIPT = path.join(__dirname, 'install-n8n.sh');

/** Fixed, so that credentials imported or saved in one run decrypt in the next. Test-only. */
export const E2E_ENCRYPTION_KEY = 'n8n-nodes-marketplace-merchant-e2e-encryption-key';

export interface N8nInstallation {
	/** cache folder holding node_modules/n8n */
	dir: string;
	version: string;
	/** [major, minor] of `version`, for the harness's branches between n8n lines */
	line: [number, number];
	/** Node >= 24 that runs n8n (and its task runner, started with the same binary) */
	nodeBinary: string;
	/** node_modules/n8n/bin/n8n */
	entryScript: string;
}

export interface N8nOwner {
	email: string;
	password: string;
	firstName: string;
	lastName: string;
}

/** Test-only login for the instance owner. */
export const E2E_OWNER: N8nOwner = {
	email: 'owner@e2e.test',
	password: 'E2e-owner-Passw0rd',
	firstName: 'E2E',
	lastName: 'Owner',
};

function projectNodeBinary(): string {
	return process.env.N8N_E2E_NODE ?? path.join(REPO_DIR, 'node_modules', '.bin', 'node');
}

/**
 * The runtime folder (pinned n8n manifest + lockfile) to run: `N8N_E2E_RUNTIME` (set by
 * `npm run test:compat` for the older lines, e.g. e2e/n8n-runtime-1.123), else e2e/n8n-runtime.
 */
function runtimeFolder(): string {
	return path.resolve(REPO_DIR, process.env.N8N_E2E_RUNTIME ?? path.join('e2e', 'n8n-runtime'));
}

/**
 * Installs n8n if needed (about 4-5 minutes cold, well under a second when cached) and describes
 * the installation.
 */
export async function installN8n(timeoutMs = 20 * 60_000): Promise<N8nInstallation> {
	const result = await runCommand('bash', [INSTALL_SCRIPT, runtimeFolder()], { timeoutMs, env: process.env });
	if (result.exitCode !== 0) throw new Error(`e2e/install-n8n.sh failed:\n${tail(result.output)}`);
	const dir = result.stdout.trim().split('\n').pop() ?? '';
	const entryScript = path.join(dir, 'node_modules', 'n8n', 'bin', 'n8n');
	const { version } = JSON.parse(await readFile(path.join(dir, 'node_modules', 'n8n', 'package.json'), 'utf8')) as {
		version: string;
	};
	const [major, minor] = version.split('.').map(Number);
	return { dir, version, line: [major, minor], nodeBinary: projectNodeBinary(), entryScript };
}

/** A new, empty user folder (n8n keeps everything in `<folder>/.n8n`). */
export async function createUserFolder(): Promise<string> {
	return await mkdtemp(path.join(tmpdir(), 'n8n-e2e-'));
}

export async function removeUserFolder(userFolder: string): Promise<void> {
	await rm(userFolder, { recursive: true, force: true, maxRetries: 3 });
}

// Settings of the parent shell must not leak into the instance under test.
const INHERITED_ENV_BLOCKLIST = /^(N8N_|DB_|EXECUTIONS_|QUEUE_|NODES_|WEBHOOK_URL$|GENERIC_TIMEZONE$|NODE_OPTIONS$|NODE_PATH$)/;

export interface N8nPorts {
	port: number;
	brokerPort: number;
}

/** Environment for any n8n process (CLI or server) on `userFolder`. */
export function n8nEnvironment(
	installation: N8nInstallation,
	userFolder: string,
	ports: N8nPorts,
	extra: Record<string, string> = {},
): NodeJS.ProcessEnv {
	const inherited = Object.fromEntries(
		Object.entries(process.env).filter(([name]) => !INHERITED_ENV_BLOCKLIST.test(name)),
	);
	return {
		...inherited,
		// n8n's bin script and npm (community package installs) resolve `node` through PATH.
		PATH: [path.dirname(installation.nodeBinary), process.env.PATH ?? ''].join(path.delimiter),
		N8N_USER_FOLDER: userFolder,
		N8N_ENCRYPTION_KEY: E2E_ENCRYPTION_KEY,
		N8N_LISTEN_ADDRESS: LOOPBACK_HOST,
		N8N_HOST: LOOPBACK_HOST,
		N8N_PROTOCOL: 'http',
		N8N_PORT: String(ports.port),
		// The task broker defaults to 5679, which clashes with a second instance or with a CLI
		// command (`execute` starts its own broker) running next to a server.
		N8N_RUNNERS_BROKER_PORT: String(ports.brokerPort),
		N8N_RUNNERS_BROKER_LISTEN_ADDRESS: LOOPBACK_HOST,
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_WHATS_NEW_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_DYNAMIC_BANNERS_ENABLED: 'false',
		...disabledModules(installation),
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'true',
		// `execute --rawOutput` prints its JSON through the logger at level info.
		N8N_LOG_LEVEL: 'info',
		...extra,
	};
}

/**
 * `N8N_DISABLED_MODULES` names only modules this n8n has: it refuses to start on an unknown one.
 * mcp-registry's system task fetches api.n8n.io at start-up and logs a stack trace without internet.
 */
function disabledModules(installation: N8nInstallation): Record<string, string> {
	const modules = ['mcp-registry'].filter((module) =>
		existsSync(path.join(installation.dir, 'node_modules', 'n8n', 'dist', 'modules', module)),
	);
	return modules.length > 0 ? { N8N_DISABLED_MODULES: modules.join(',') } : {};
}

async function freePorts(): Promise<N8nPorts> {
	return { port: await findFreePort(), brokerPort: await findFreePort() };
}

export interface CliOptions {
	timeoutMs?: number;
	env?: Record<string, string>;
	/** n8n's stdout goes to this file, not a pipe (see runCommand) */
	stdoutFile?: string;
}

/** Runs `n8n <args>` on `userFolder` with its own free ports. */
export async function runN8nCli(
	installation: N8nInstallation,
	userFolder: string,
	args: string[],
	options: CliOptions = {},
): Promise<CommandResult> {
	return await runCommand(installation.nodeBinary, [installation.entryScript, ...args], {
		cwd: userFolder,
		env: n8nEnvironment(installation, userFolder, await freePorts(), options.env),
		timeoutMs: options.timeoutMs ?? 120_000,
		stdoutFile: options.stdoutFile,
	});
}

async function runN8nCliOrThrow(
	installation: N8nInstallation,
	userFolder: string,
	args: string[],
	options?: CliOptions,
): Promise<CommandResult> {
	const result = await runN8nCli(installation, userFolder, args, options);
	if (result.exitCode !== 0) {
		throw new Error(`n8n ${args[0]} exited with ${result.exitCode ?? result.signal}:\n${tail(result.output)}`);
	}
	return result;
}

/** Writes `entities` to a JSON file in the user folder for an import command. */
async function writeImportFile(userFolder: string, kind: string, entities: unknown[]): Promise<string> {
	const file = path.join(userFolder, `e2e-import-${kind}-${Date.now()}-${process.hrtime.bigint()}.json`);
	await writeFile(file, JSON.stringify(entities), { mode: 0o600 });
	return file;
}

/**
 * `n8n import:workflow`. Each workflow needs an `id` (16 alphanumerics by n8n's convention) to be
 * addressed later; imported workflows are inactive (publish them, or activate through the API).
 */
export async function importWorkflows(
	installation: N8nInstallation,
	userFolder: string,
	workflows: object[],
	options?: CliOptions,
): Promise<void> {
	// n8n 2.0 stores `active` and `versionId` as given and refuses a workflow without them (NOT
	// NULL); 1.123 and later 2.x lines fill them in on import. n8n's own exports carry both.
	const complete = workflows.map((workflow) => ({ active: false, versionId: randomUUID(), ...workflow }));
	const file = await writeImportFile(userFolder, 'workflows', complete);
	try {
		await runN8nCliOrThrow(installation, userFolder, ['import:workflow', `--input=${file}`], options);
	} finally {
		await rm(file, { force: true });
	}
}

/**
 * `n8n import:credentials` with plain `data` objects: n8n encrypts them with the instance key.
 * Shape: `{ id, name, type, data: { ...fields } }`.
 */
export async function importCredentials(
	installation: N8nInstallation,
	userFolder: string,
	credentials: object[],
	options?: CliOptions,
): Promise<void> {
	const file = await writeImportFile(userFolder, 'credentials', credentials);
	try {
		const result = await runN8nCli(installation, userFolder, ['import:credentials', `--input=${file}`], options);
		// The output never echoes credential data, but keep it out of errors anyway.
		if (result.exitCode !== 0) throw new Error(`n8n import:credentials exited with ${result.exitCode ?? result.signal}`);
	} finally {
		await rm(file, { force: true });
	}
}

/** Marks a workflow's current version as published; an instance started afterwards activates it. */
export async function publishWorkflowOffline(
	installation: N8nInstallation,
	userFolder: string,
	workflowId: string,
): Promise<void> {
	await runN8nCliOrThrow(installation, userFolder, ['publish:workflow', `--id=${workflowId}`]);
}

/** The JSON `n8n execute --rawOutput` prints: an execution (IRun) */
export interface CliExecutionResult {
	status: string;
	finished: boolean;
	mode: string;
	data: {
		resultData: {
			runData: Record<string, Array<{ data?: { main?: Array<Array<{ json: Record<string, unknown> }> | null> } }>>;
			error?: { message: string; description?: string };
			lastNodeExecuted?: string;
		};
	};
}

/**
 * `n8n execute --id=<id> --rawOutput`: runs the workflow from its trigger in a separate process
 * and returns the execution, also when it failed (status 'error').
 *
 * n8n prints its log lines on stdout too, so the JSON is taken from the first line that is `{`.
 * The process sometimes crashes with SIGSEGV while exiting (isolated-vm's thread pool is torn
 * down while an isolate is still being warmed up); the execution is complete and saved by then,
 * so a crash after a complete JSON result is not treated as a failure.
 */
export async function executeWorkflow(
	installation: N8nInstallation,
	userFolder: string,
	workflowId: string,
	options?: CliOptions,
): Promise<CliExecutionResult> {
	// The run's JSON (megabytes for 1,000 items) is printed just before n8n exits: through a
	// pipe its end was lost on a loaded machine (see runCommand), so it goes to a file.
	const stdoutFile = path.join(userFolder, `e2e-execute-${workflowId}-${Date.now()}-${process.hrtime.bigint()}.json`);
	let result: CommandResult;
	try {
		result = await runN8nCli(installation, userFolder, ['execute', `--id=${workflowId}`, '--rawOutput'], { ...options, stdoutFile });
	} finally {
		await rm(stdoutFile, { force: true });
	}
	const execution = parseExecutionJson(result.stdout);
	const exitedNormally = result.exitCode === 0 || result.exitCode === 1 || result.signal === 'SIGSEGV';
	if (!execution || !exitedNormally) {
		throw new Error(`n8n execute exited with ${result.exitCode ?? result.signal} without a result:\n${tail(result.output)}`);
	}
	// n8n 2.0 prints the run it awaited to the end with the status it had while running; the
	// outcome is in the run itself.
	if (execution.status === 'running') execution.status = execution.data.resultData.error ? 'error' : 'success';
	return execution;
}

function parseExecutionJson(stdout: string): CliExecutionResult | undefined {
	const lines = stdout.split('\n');
	const start = lines.indexOf('{');
	if (start === -1) return undefined;
	const end = lines.lastIndexOf('}');
	try {
		return JSON.parse(lines.slice(start, end + 1).join('\n')) as CliExecutionResult;
	} catch {
		return undefined;
	}
}

/** Node type descriptions as n8n loads them: built-in ones and community packages. */
export interface ExportedNodeType {
	name: string;
	displayName: string;
	version: number | number[];
	[key: string]: unknown;
}

/** `n8n export:nodes`: every node type n8n loads, including community packages. */
export async function exportNodeTypes(installation: N8nInstallation, userFolder: string): Promise<ExportedNodeType[]> {
	const file = path.join(userFolder, `e2e-node-types-${Date.now()}.json`);
	try {
		await runN8nCliOrThrow(installation, userFolder, ['export:nodes', `--output=${file}`]);
		return JSON.parse(await readFile(file, 'utf8')) as ExportedNodeType[];
	} finally {
		await rm(file, { force: true });
	}
}

/**
 * Environment that makes `n8n start` create (or overwrite) the owner account, so that its login
 * works without the setup screen. n8n wants a bcrypt hash; bcryptjs ships with n8n.
 */
export function ownerEnvironment(installation: N8nInstallation, owner: N8nOwner): Record<string, string> {
	const requireFromN8n = createRequire(path.join(installation.dir, 'node_modules', 'n8n', 'package.json'));
	const bcrypt = requireFromN8n('bcryptjs') as { hashSync(password: string, rounds: number): string };
	return {
		N8N_INSTANCE_OWNER_MANAGED_BY_ENV: 'true',
		N8N_INSTANCE_OWNER_EMAIL: owner.email,
		N8N_INSTANCE_OWNER_FIRST_NAME: owner.firstName,
		N8N_INSTANCE_OWNER_LAST_NAME: owner.lastName,
		N8N_INSTANCE_OWNER_PASSWORD_HASH: bcrypt.hashSync(owner.password, 10),
	};
}

/**
 * Whether this n8n reads its owner from N8N_INSTANCE_OWNER_* (2.x); older ones take the owner from
 * the setup screen's request only. Read from n8n's own config schema, not guessed from the version.
 */
function managesOwnerFromEnv(installation: N8nInstallation): boolean {
	const requireFromN8n = createRequire(path.join(installation.dir, 'node_modules', 'n8n', 'package.json'));
	const configDir = path.dirname(requireFromN8n.resolve('@n8n/config'));
	return readdirSync(configDir, { recursive: true })
		.filter((file) => String(file).endsWith('.js'))
		.some((file) => readFileSync(path.join(configDir, String(file)), 'utf8').includes('N8N_INSTANCE_OWNER_MANAGED_BY_ENV'));
}

/**
 * The setup screen's request (`POST /rest/owner/setup`), for n8n without owner set-up from the
 * environment. A user folder set up before answers 400; its owner then signs in as usual.
 */
async function setUpOwner(baseUrl: string, owner: N8nOwner): Promise<void> {
	const response = await fetch(`${baseUrl}/rest/owner/setup`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ email: owner.email, firstName: owner.firstName, lastName: owner.lastName, password: owner.password }),
		signal: AbortSignal.timeout(10_000),
	});
	const text = await response.text();
	if (response.status === 400 && /already/i.test(text)) return;
	if (response.status !== 200) throw new Error(`n8n owner setup answered HTTP ${response.status}: ${text.slice(0, 300)}`);
}

export interface StartN8nOptions {
	installation: N8nInstallation;
	userFolder: string;
	/** created at start-up; `false` leaves the instance without owner (setup screen) */
	owner?: N8nOwner | false;
	env?: Record<string, string>;
	/** fixed ports instead of free ones (e.g. 5678 for a person's browser) */
	ports?: Partial<N8nPorts>;
	/** the first start on a new user folder also runs the database migrations */
	startupTimeoutMs?: number;
}

export interface RunningN8n {
	baseUrl: string;
	port: number;
	userFolder: string;
	owner: N8nOwner | undefined;
	/** n8n's own process id */
	pid: number | undefined;
	/** everything n8n printed so far */
	output(): string;
	/** SIGTERM, then SIGKILL after 15 s; resolves when n8n and its task runner are gone */
	stop(): Promise<void>;
}

const READY_LINE = 'Editor is now accessible via';

/**
 * `n8n start` on 127.0.0.1 with free ports. Resolves once `/healthz/readiness` answers 200 (database
 * connected and migrated) and start-up has finished (published workflows activated).
 */
export async function startN8n(options: StartN8nOptions): Promise<RunningN8n> {
	const { installation, userFolder, startupTimeoutMs = 120_000 } = options;
	const owner = options.owner === false ? undefined : (options.owner ?? E2E_OWNER);
	const ownerFromEnv = owner !== undefined && managesOwnerFromEnv(installation);
	const ports = { ...(await freePorts()), ...options.ports };
	const env = n8nEnvironment(installation, userFolder, ports, {
		...(owner && ownerFromEnv ? ownerEnvironment(installation, owner) : {}),
		...options.env,
	});
	const server = spawnManaged(installation.nodeBinary, [installation.entryScript, 'start'], { cwd: userFolder, env });
	const baseUrl = `http://${LOOPBACK_HOST}:${ports.port}`;
	try {
		await waitUntilReady(server, READY_LINE, async () => await isReady(baseUrl), startupTimeoutMs);
		if (owner && !ownerFromEnv) await setUpOwner(baseUrl, owner);
	} catch (error) {
		await server.stop(5_000);
		throw error;
	}
	return {
		baseUrl,
		port: ports.port,
		userFolder,
		owner,
		pid: server.child.pid,
		output: () => server.output(),
		stop: async () => await server.stop(),
	};
}

async function waitUntilReady(
	server: ManagedProcess,
	readyLine: string,
	isReady: () => Promise<boolean>,
	timeoutMs: number,
): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	let exited = false;
	void server.exited.then(() => (exited = true));
	while (Date.now() < deadline) {
		if (exited) throw new Error(`n8n exited during start-up:\n${tail(server.output())}`);
		if (server.output().includes(readyLine) && (await isReady())) return;
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
	throw new Error(`n8n was not ready after ${timeoutMs} ms:\n${tail(server.output())}`);
}

export interface StartN8nWorkerOptions {
	installation: N8nInstallation;
	userFolder: string;
	/** jobs the worker runs at once (`n8n worker --concurrency`) */
	concurrency: number;
	/** queue mode settings: EXECUTIONS_MODE, DB_*, QUEUE_BULL_REDIS_* (the same as the main's) */
	env: Record<string, string>;
	startupTimeoutMs?: number;
}

export interface RunningN8nWorker {
	/** everything the worker printed so far */
	output(): string;
	/** the worker's own process id (leader of its process group) */
	pid: number | undefined;
	/** SIGTERM, then SIGKILL after 15 s; resolves when the worker and its task runner are gone */
	stop(): Promise<void>;
}

const WORKER_READY_LINE = 'n8n worker is now ready';

/** `n8n worker` (queue mode): takes executions from the Redis queue the main instance fills. */
export async function startN8nWorker(options: StartN8nWorkerOptions): Promise<RunningN8nWorker> {
	const { installation, userFolder, concurrency, startupTimeoutMs = 120_000 } = options;
	const env = n8nEnvironment(installation, userFolder, await freePorts(), options.env);
	const worker = spawnManaged(installation.nodeBinary, [installation.entryScript, 'worker', `--concurrency=${concurrency}`], {
		cwd: userFolder,
		env,
	});
	try {
		await waitUntilReady(worker, WORKER_READY_LINE, async () => true, startupTimeoutMs);
	} catch (error) {
		await worker.stop(5_000);
		throw error;
	}
	return { output: () => worker.output(), pid: worker.child.pid, stop: async () => await worker.stop() };
}

async function isReady(baseUrl: string): Promise<boolean> {
	try {
		const response = await fetch(`${baseUrl}/healthz/readiness`, { signal: AbortSignal.timeout(2_000) });
		await response.arrayBuffer();
		return response.status === 200;
	} catch {
		return false;
	}
}

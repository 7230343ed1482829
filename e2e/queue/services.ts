/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error -- end-to-end suite code, run by tsx against a real n8n and never loaded by n8n: it may use process and timers, Node modules, plain errors (docs/architecture.md, Toolchain). */
/**
 * Redis and PostgreSQL for n8n's queue mode, from Debian's packages, each on its own free port on
 * 127.0.0.1 with its data in a temp folder: nothing of the machine's own services is used or
 * changed. Installs the packages once per machine (`apt-get install -y redis-server postgresql`).
 */
import { randomBytes } from 'node:crypto';
import { access, chown, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';

import { findFreePort, LOOPBACK_HOST, runCommand, spawnManaged, tail, type ManagedProcess } from '../processes';

const REDIS_SERVER = '/usr/bin/redis-server';
const REDIS_CLI = '/usr/bin/redis-cli';
const POSTGRES_ROOT = '/usr/lib/postgresql';
const DEBIAN_PACKAGES = ['redis-server', 'postgresql'];
const START_TIMEOUT_MS = 60_000;

async function exists(file: string): Promise<boolean> {
	return await access(file).then(
		() => true,
		() => false,
	);
}

/** The bin folder of the newest PostgreSQL installed from Debian's packages, if any. */
async function postgresBinDir(): Promise<string | undefined> {
	const versions = (await readdir(POSTGRES_ROOT).catch(() => [] as string[]))
		.filter((name) => /^\d+$/.test(name))
		.sort((a, b) => Number(b) - Number(a));
	for (const version of versions) {
		const bin = path.join(POSTGRES_ROOT, version, 'bin');
		if ((await exists(path.join(bin, 'initdb'))) && (await exists(path.join(bin, 'postgres')))) return bin;
	}
	return undefined;
}

export interface ServicePackages {
	postgresBin: string;
	/** set when this call installed the packages: how long apt-get took */
	installedInMs?: number;
}

/**
 * Makes sure redis-server and PostgreSQL are installed; installs them with apt-get when one is
 * missing (root needed; 1-2 minutes on a fresh machine). Where dpkg may start services (no
 * policy-rc.d), Debian starts its own instances on 6379/5432: they are not used here.
 */
export async function ensureServicePackages(log: (line: string) => void): Promise<ServicePackages> {
	const found = await postgresBinDir();
	if (found && (await exists(REDIS_SERVER))) return { postgresBin: found };
	if (userInfo().uid !== 0) {
		throw new Error(`redis-server and postgresql are missing: run as root or install them with apt-get install -y ${DEBIAN_PACKAGES.join(' ')}`);
	}
	log(`installing ${DEBIAN_PACKAGES.join(' ')} with apt-get (once per machine)`);
	const startedAt = Date.now();
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	for (const args of [['update'], ['install', '-y', '--no-install-recommends', ...DEBIAN_PACKAGES]]) {
		const result = await runCommand('apt-get', args, { env, timeoutMs: 15 * 60_000 });
		if (result.exitCode !== 0) throw new Error(`apt-get ${args.join(' ')} failed:\n${tail(result.output)}`);
	}
	const postgresBin = await postgresBinDir();
	if (!postgresBin || !(await exists(REDIS_SERVER))) throw new Error('apt-get finished, but redis-server or PostgreSQL is still missing');
	const installedInMs = Date.now() - startedAt;
	log(`installed ${DEBIAN_PACKAGES.join(' ')} in ${(installedInMs / 1000).toFixed(1)} s`);
	return { postgresBin, installedInMs };
}

/** Waits until `probe` answers true; fails when the process exits or after START_TIMEOUT_MS. */
async function waitUntil(what: string, server: ManagedProcess, probe: () => Promise<boolean>): Promise<void> {
	const deadline = Date.now() + START_TIMEOUT_MS;
	let exited = false;
	void server.exited.then(() => (exited = true));
	while (!(await probe())) {
		if (exited) throw new Error(`${what} exited during start-up:\n${tail(server.output())}`);
		if (Date.now() > deadline) throw new Error(`${what} was not ready after ${START_TIMEOUT_MS} ms:\n${tail(server.output())}`);
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
}

export interface RunningRedis {
	host: string;
	port: number;
	pid: number | undefined;
	stop(): Promise<void>;
}

/** redis-server on a free port of 127.0.0.1, no persistence (no RDB snapshots, no AOF). */
export async function startRedis(): Promise<RunningRedis> {
	const port = await findFreePort();
	const dir = await mkdtemp(path.join(tmpdir(), 'n8n-queue-redis-'));
	const args = ['--bind', LOOPBACK_HOST, '--port', String(port), '--save', '', '--appendonly', 'no', '--dir', dir, '--protected-mode', 'yes'];
	const server = spawnManaged(REDIS_SERVER, args, {});
	const stop = async () => {
		await server.stop(10_000);
		await rm(dir, { recursive: true, force: true });
	};
	try {
		await waitUntil('redis-server', server, async () => {
			const ping = await runCommand(REDIS_CLI, ['-h', LOOPBACK_HOST, '-p', String(port), 'ping'], { timeoutMs: 5_000 });
			return ping.stdout.trim() === 'PONG';
		});
	} catch (error) {
		await stop();
		throw error;
	}
	return { host: LOOPBACK_HOST, port, pid: server.child.pid, stop };
}

export interface RunningPostgres {
	host: string;
	port: number;
	user: string;
	password: string;
	database: string;
	/** `SELECT version()` */
	version: string;
	pid: number | undefined;
	stop(): Promise<void>;
}

const POSTGRES_USER = 'postgres';

/** uid and gid of the system user `postgres` the Debian package creates. */
async function postgresAccount(): Promise<{ uid: number; gid: number }> {
	const result = await runCommand('id', [POSTGRES_USER], { timeoutMs: 5_000 });
	const uid = /uid=(\d+)/.exec(result.stdout)?.[1];
	const gid = /gid=(\d+)/.exec(result.stdout)?.[1];
	if (result.exitCode !== 0 || uid === undefined || gid === undefined) throw new Error(`no system user ${POSTGRES_USER}: ${result.output}`);
	return { uid: Number(uid), gid: Number(gid) };
}

/**
 * A throwaway PostgreSQL cluster: `initdb` into a temp folder and `postgres` in the foreground,
 * both as the system user `postgres` (the server refuses to run as root), listening on a free
 * port of 127.0.0.1 only, password login (scram-sha-256) for the database superuser.
 */
export async function startPostgres(postgresBin: string): Promise<RunningPostgres> {
	const account = await postgresAccount();
	const root = await mkdtemp(path.join(tmpdir(), 'n8n-queue-postgres-'));
	await chown(root, account.uid, account.gid);
	const dataDir = path.join(root, 'data');
	const password = randomBytes(18).toString('hex');
	const passwordFile = path.join(root, 'password');
	await writeFile(passwordFile, password, { mode: 0o600 });
	await chown(passwordFile, account.uid, account.gid);
	const asPostgres = { ...account, cwd: root, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8' } };

	const init = await runCommand(
		path.join(postgresBin, 'initdb'),
		['-D', dataDir, '-U', POSTGRES_USER, `--pwfile=${passwordFile}`, '--auth-host=scram-sha-256', '--auth-local=peer', '-E', 'UTF8', '--no-sync'],
		{ ...asPostgres, timeoutMs: 120_000 },
	);
	await rm(passwordFile, { force: true });
	if (init.exitCode !== 0) {
		await rm(root, { recursive: true, force: true });
		throw new Error(`initdb failed:\n${tail(init.output)}`);
	}

	const port = await findFreePort();
	// The unix socket goes to the temp folder, so that no system folder is needed.
	const server = spawnManaged(
		path.join(postgresBin, 'postgres'),
		['-D', dataDir, '-p', String(port), '-c', `listen_addresses=${LOOPBACK_HOST}`, '-c', `unix_socket_directories=${root}`, '-c', 'fsync=off'],
		asPostgres,
	);
	const stop = async () => {
		// SIGINT is PostgreSQL's fast shutdown (SIGTERM would wait for every client to leave).
		if (server.child.pid !== undefined) {
			try {
				process.kill(server.child.pid, 'SIGINT');
			} catch {
				// already gone
			}
		}
		await server.stop(10_000);
		await rm(root, { recursive: true, force: true });
	};
	const psql = async (sql: string) =>
		await runCommand(path.join(postgresBin, 'psql'), ['-h', root, '-p', String(port), '-U', POSTGRES_USER, '-d', 'postgres', '-XAtc', sql], {
			...asPostgres,
			timeoutMs: 10_000,
		});
	try {
		await waitUntil('postgres', server, async () => (await psql('SELECT 1')).stdout.trim() === '1');
		const database = 'n8n';
		const created = await psql(`CREATE DATABASE ${database}`);
		if (created.exitCode !== 0) throw new Error(`CREATE DATABASE failed:\n${created.output}`);
		const version = (await psql('SELECT version()')).stdout.trim();
		return { host: LOOPBACK_HOST, port, user: POSTGRES_USER, password, database, version, pid: server.child.pid, stop };
	} catch (error) {
		await stop();
		throw error;
	}
}

/* eslint-disable no-console -- end-to-end suite code, run by tsx against a real n8n and never loaded by n8n: it may use console output (docs/architecture.md, Toolchain). */
/**
 * n8n in queue mode on one machine: PostgreSQL (the database every instance shares), Redis (the
 * Bull queue the main instance fills and the workers take executions from), one `n8n start` (the
 * main: editor, public API, webhooks, trigger polling) and N `n8n worker` processes, all on one
 * user folder that holds the community package. Everything listens on 127.0.0.1 only.
 */
import { startN8n, startN8nWorker, type N8nInstallation, type RunningN8n, type RunningN8nWorker } from '../n8n';
import { startPostgres, startRedis, type RunningPostgres, type RunningRedis } from './services';

/** What main and workers must agree on: the database and the queue. */
export function queueModeEnvironment(postgres: RunningPostgres, redis: RunningRedis): Record<string, string> {
	return {
		EXECUTIONS_MODE: 'queue',
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: postgres.host,
		DB_POSTGRESDB_PORT: String(postgres.port),
		DB_POSTGRESDB_DATABASE: postgres.database,
		DB_POSTGRESDB_USER: postgres.user,
		DB_POSTGRESDB_PASSWORD: postgres.password,
		QUEUE_BULL_REDIS_HOST: redis.host,
		QUEUE_BULL_REDIS_PORT: String(redis.port),
	};
}

/** Stops what was started, newest first, each by its own process id; runs at most once. */
export class Teardown {
	private readonly steps: Array<{ what: string; stop: () => Promise<void> }> = [];
	private done: Promise<void> | undefined;

	add(what: string, stop: () => Promise<void>): void {
		this.steps.push({ what, stop });
	}

	async run(): Promise<void> {
		this.done ??= (async () => {
			for (const { what, stop } of this.steps.reverse()) {
				try {
					await stop();
				} catch (error) {
					console.error(`stopping ${what} failed: ${(error as Error).message}`);
				}
			}
		})();
		await this.done;
	}
}

export interface QueueServices {
	postgres: RunningPostgres;
	redis: RunningRedis;
	/** the queue-mode environment for every n8n process, CLI commands included */
	env: Record<string, string>;
}

/** PostgreSQL and Redis, each registered with `teardown` as soon as it runs. */
export async function startQueueServices(postgresBin: string, teardown: Teardown): Promise<QueueServices> {
	const [postgres, redis] = await Promise.all([startPostgres(postgresBin), startRedis()]);
	teardown.add(`postgres (pid ${postgres.pid})`, postgres.stop);
	teardown.add(`redis-server (pid ${redis.pid})`, redis.stop);
	return { postgres, redis, env: queueModeEnvironment(postgres, redis) };
}

export interface QueueCluster {
	main: RunningN8n;
	workers: RunningN8nWorker[];
}

/**
 * The main instance, then the workers (side by side). The database must be migrated already
 * (any CLI command on it does that, e.g. the imports), so that the processes do not race for it.
 */
export async function startQueueCluster(options: {
	installation: N8nInstallation;
	userFolder: string;
	services: QueueServices;
	workers: number;
	/** executions each worker runs at once */
	concurrency: number;
	teardown: Teardown;
}): Promise<QueueCluster> {
	const { installation, userFolder, services, teardown } = options;
	const main = await startN8n({ installation, userFolder, env: services.env });
	teardown.add('n8n main', main.stop);
	const workers = await Promise.all(
		Array.from({ length: options.workers }, async (_, index) => {
			const worker = await startN8nWorker({ installation, userFolder, concurrency: options.concurrency, env: services.env });
			teardown.add(`n8n worker ${index + 1} (pid ${worker.pid})`, worker.stop);
			return worker;
		}),
	);
	return { main, workers };
}

const STARTED_EXECUTION = /Worker started execution (\d+) \(job/g;

/** Execution ids each worker logged as started, by worker index. */
export function executionsByWorker(workers: RunningN8nWorker[]): Array<Set<string>> {
	return workers.map((worker) => new Set([...worker.output().matchAll(STARTED_EXECUTION)].map((match) => match[1])));
}

/** The index of the worker that ran `executionId`, or -1 when no worker logged it. */
export function workerOf(byWorker: Array<Set<string>>, executionId: string): number {
	return byWorker.findIndex((ids) => ids.has(executionId));
}

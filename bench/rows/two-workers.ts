/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- benchmark code (`npm run bench`) and never loaded by n8n: it may use process and Node modules (docs/architecture.md, Toolchain). */
/**
 * Issue 41: two queue-mode workers, one merchant. Two processes (bench/worker-process.ts), each
 * with its own gates as n8n's workers have, run 3 executions at once of 60 single Product Updates
 * (one item per product, the queue suite's live-limit workflow, e2e/queue/suite.ts) for one
 * merchant account against one sandbox process at the live limits (scale 1: 60 a minute, 5 a
 * second). Neither worker sees the other's requests: what they can learn is in the service's
 * answers (429, with Retry-After as this sandbox sends it; platform-facts names no header with the
 * counts). Figures: the time from the start until both are done ÷ the limits' minimum for all 360
 * requests (bench/rows/rate-limit.ts), target ≤ 1.10; requests answered 429 ÷ accepted, target
 * ≤ 5 %. Over 5 minutes a run: runs once, whatever `--runs` says.
 */
import type { ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';

import { RATE_LIMIT_GROUPS } from '../../sandbox/rate-limit';
import { resultOf, startScript, stopChild } from '../processes';
import { RemoteSandbox } from '../remote-sandbox';
import type { Row } from '../report';
import type { WorkerJob, WorkerOutcome } from '../worker-process';
import { formatMs, formatRatio } from '../stats';
import { earliestLastRequestMs } from './rate-limit';

const WORKERS = 2;
const EXECUTIONS_PER_WORKER = 3;
const UPDATES_PER_EXECUTION = 60;
const FIRST_PRODUCT_ID = 100_001;
const TIME_TARGET = 1.1;
const REJECTED_TARGET = 0.05;
const START_TIMEOUT_MS = 120_000;
const RUN_TIMEOUT_MS = 20 * 60_000;

export async function measureTwoWorkers(): Promise<Row[]> {
	const total = WORKERS * EXECUTIONS_PER_WORKER * UPDATES_PER_EXECUTION;
	const sandbox = await RemoteSandbox.start({ products: total + 10, rateLimits: { scale: 1 }, clients: 1 });
	const workers: ChildProcess[] = [];
	try {
		const credential = sandbox.credentials(sandbox.freshClient());
		for (let worker = 0; worker < WORKERS; worker++) {
			const executions = Array.from({ length: EXECUTIONS_PER_WORKER }, (_, index) => ({
				firstId: FIRST_PRODUCT_ID + (worker * EXECUTIONS_PER_WORKER + index) * UPDATES_PER_EXECUTION,
				count: UPDATES_PER_EXECUTION,
			}));
			const job: WorkerJob = { credential, executions };
			workers.push(startScript('worker-process.ts', { BENCH_WORKER: JSON.stringify(job) }));
		}
		await Promise.all(workers.map(async (child) => await resultOf<string>(child, START_TIMEOUT_MS)));
		await sandbox.clearLog();
		const outcomes = workers.map(async (child) => await resultOf<WorkerOutcome>(child, RUN_TIMEOUT_MS));
		const startedAt = performance.now();
		for (const child of workers) child.stdin?.write('go\n');
		const done = await Promise.all(outcomes);
		const ms = performance.now() - startedAt;
		const log = await sandbox.log('productUpdate');
		if (process.env.BENCH_TWO_WORKERS_LOG) await writeFile(process.env.BENCH_TWO_WORKERS_LOG, JSON.stringify(log));
		const accepted = log.filter((entry) => entry.status === 200).length;
		const rejected = log.filter((entry) => entry.status === 429).length;
		const failed = done.reduce((sum, outcome) => sum + outcome.failed, 0);
		const minimumMs = earliestLastRequestMs(total, RATE_LIMIT_GROUPS.products);
		const ratio = ms / minimumMs;
		const share = accepted === 0 ? Infinity : rejected / accepted;
		const error = done.find((outcome) => outcome.firstError)?.firstError;
		const counts = `${accepted} accepted, ${rejected} answered 429, ${failed} items failed${error ? ` (${error})` : ''}; per worker ${done.map((outcome) => `${outcome.items} items`).join(', ')}`;
		const setup = `${WORKERS} worker processes × ${EXECUTIONS_PER_WORKER} executions at once × ${UPDATES_PER_EXECUTION} single Product Updates, one merchant, live limits`;
		return [
			{
				measure: `${setup}: time ÷ the limits' minimum`,
				figure: formatRatio(ratio),
				target: `≤ ${TIME_TARGET}`,
				met: ratio <= TIME_TARGET && failed === 0,
				runs: '1',
				details: `${formatMs(ms)} against ${formatMs(minimumMs)} (${total} requests at 60 a minute and 5 a second); ${counts}`,
			},
			{
				measure: `${setup}: requests answered 429 ÷ accepted`,
				figure: `${(share * 100).toFixed(1)} %`,
				target: `≤ ${REJECTED_TARGET * 100} %`,
				met: share <= REJECTED_TARGET && failed === 0,
				runs: '1',
				details: counts,
			},
		];
	} finally {
		await Promise.all(workers.map(stopChild));
		await sandbox.close();
	}
}

/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- benchmark code (`npm run bench`) and never loaded by n8n: it may use process and Node modules (docs/architecture.md, Toolchain). */
/**
 * One queue-mode worker of bench/rows/two-workers.ts: a process of its own, as n8n's workers are,
 * with its own gates (nothing shared with the other worker but the service). The job comes as
 * JSON in the environment variable BENCH_WORKER (it holds the client secret, which must not show
 * in a process list): the credential, the executions to run at once and each one's products. It
 * answers `ready` once the engine is loaded, waits for a line on stdin (the parent's start, so both
 * workers begin together), runs every execution at once (Product Update, one item per product, as
 * the queue suite's live-limit workflow does) and answers what each execution's items did.
 */
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';
import { createInterface } from 'node:readline';

import { runNode } from '../test/harness';
import { CREDENTIAL_TYPE, MERCHANT_NODE } from './merchant-node';
import { writeResult } from './processes';

export interface WorkerJob {
	credential: ICredentialDataDecryptedObject;
	/** Each execution's products: the first id and how many, each set to the stock level `id - 100,000`. */
	executions: Array<{ firstId: number; count: number }>;
}

export interface WorkerOutcome {
	items: number;
	failed: number;
	firstError?: string;
}

async function main(): Promise<void> {
	const job = JSON.parse(process.env.BENCH_WORKER ?? '{}') as WorkerJob;
	writeResult('ready');
	await new Promise<void>((resolve) => createInterface({ input: process.stdin }).once('line', () => resolve()));
	const runs = await Promise.all(
		job.executions.map(async ({ firstId, count }) => {
			const items = Array.from({ length: count }, (_, index) => ({ id: firstId + index, stock: firstId + index - 100_000 }));
			const result = await runNode(
				MERCHANT_NODE,
				{ resource: 'product', operation: 'update', productId: '={{ $json.id }}', updateFields: { stockLevel: '={{ $json.stock }}' } },
				items,
				{ credentials: { [CREDENTIAL_TYPE]: job.credential }, node: { continueOnFail: true } },
			);
			const output = result.output('Node');
			const failed = output.filter((item) => item.error !== undefined || item.json.success !== true);
			return { items: output.length, failed: failed.length + (count - output.length), firstError: result.error?.message ?? failed[0]?.error?.message };
		}),
	);
	const outcome: WorkerOutcome = {
		items: runs.reduce((sum, run) => sum + run.items, 0),
		failed: runs.reduce((sum, run) => sum + run.failed, 0),
		firstError: runs.find((run) => run.firstError)?.firstError,
	};
	writeResult(outcome);
}

main().catch((error: unknown) => {
	process.stderr.write(`bench worker: ${(error as Error).stack ?? String(error)}\n`);
	process.exit(1);
});

/* eslint-disable @n8n/community-nodes/no-restricted-globals -- benchmark code (`npm run bench`) and never loaded by n8n: it may use process and timers (docs/architecture.md, Toolchain). */
/**
 * Measures the memory one run costs, in a process of its own so that nothing else (the sandbox,
 * earlier measurements, the benchmark's bookkeeping) is in the figure. The parent passes
 * BENCH_MEMORY_JOB (JSON, a MemoryJob); the answer (see `writeResult`) is a MemoryReport. RSS is sampled
 * every millisecond the event loop allows and cross-checked with the kernel's high-water mark
 * (getrusage maxrss), which misses no peak.
 *
 * `node` runs Marketplace Merchant through the engine; `fetch` runs the plain-fetch baseline over
 * the same pages, for comparison.
 */
import type { INodeParameters } from 'n8n-workflow';

import { collectGarbage } from './gc';
import { CREDENTIAL_TYPE, TokenRecordingCredentialsHelper, runMerchant } from './merchant-node';
import { fetchAllBasicProducts, requestToken } from './plain-fetch';
import { writeResult } from './processes';
import type { BenchClient } from './remote-sandbox';

export interface MemoryJob {
	kind: 'node' | 'fetch';
	baseUrl: string;
	client: BenchClient;
	parameters: INodeParameters;
	/** A small run first, so that loading modules and getting a token are not counted. */
	warmUpParameters: INodeParameters;
	/**
	 * A sync feed of the catalogue's first `count` products as the input (bench/rows/rows.ts):
	 * one item per product (`items`) or one item holding the list (`list`); built before the
	 * baseline, as the rows a workflow's earlier node gave. Without it: one empty item.
	 */
	feed?: { shape: 'items' | 'list'; count: number };
	typeVersion?: number;
}

export interface MemoryReport {
	baselineRss: number;
	peakRss: number;
	/** Heap still used after a full collection with the output held: the live data itself. */
	retainedHeap: number;
	outputItems: number;
	error?: string;
	ms: number;
}

const SAMPLE_INTERVAL_MS = 1;

interface Outcome {
	outputItems: number;
	error?: string;
	/** What the user holds after the run (the output), kept alive until the heap is measured. */
	output: unknown;
}

/** Holds the output until the heap is measured, so the collector cannot drop it early. */
const heldOutputs: unknown[] = [];

/** The sync feed of `MemoryJob.feed`: every product's EAN with a new stock level and its price. */
async function feedItems(baseUrl: string, client: BenchClient, feed: NonNullable<MemoryJob['feed']>): Promise<unknown[]> {
	const { products } = await fetchAllBasicProducts(baseUrl, await requestToken(baseUrl, client));
	const entries = (products as Array<{ ean: string; stockLevel: number; newBasePrice: number }>)
		.slice(0, feed.count)
		.map((product) => ({ ean: product.ean, stockLevel: product.stockLevel + 1, basePrice: product.newBasePrice }));
	return feed.shape === 'items' ? entries : [{ products: entries }];
}

/** Prepares the run (warm-up included) and returns it, ready to be measured. */
async function prepare(job: MemoryJob): Promise<() => Promise<Outcome>> {
	if (job.kind === 'fetch') {
		const token = await requestToken(job.baseUrl, job.client);
		return async () => {
			const { products } = await fetchAllBasicProducts(job.baseUrl, token);
			return { outputItems: products.length, output: products };
		};
	}
	const credentialsHelper = new TokenRecordingCredentialsHelper();
	credentialsHelper.add(CREDENTIAL_TYPE, { baseUrl: job.baseUrl, ...job.client, apiKey: '' });
	const options = { typeVersion: job.typeVersion };
	await runMerchant(credentialsHelper, job.warmUpParameters, [{}], options);
	const input = job.feed ? await feedItems(job.baseUrl, job.client, job.feed) : [{}];
	return async () => {
		const { result } = await runMerchant(credentialsHelper, job.parameters, input, options);
		return { outputItems: result.output('Node').length, error: result.error?.message, output: result };
	};
}

async function main(): Promise<void> {
	const job = JSON.parse(process.env.BENCH_MEMORY_JOB ?? '{}') as MemoryJob;
	const run = await prepare(job);
	collectGarbage();

	const { rss: baselineRss, heapUsed: baselineHeap } = process.memoryUsage();
	const highWaterBefore = process.resourceUsage().maxRSS * 1024;
	let sampledPeak = baselineRss;
	const sampler = setInterval(() => {
		sampledPeak = Math.max(sampledPeak, process.memoryUsage().rss);
	}, SAMPLE_INTERVAL_MS);

	const startedAt = performance.now();
	const { output, ...outcome } = await run();
	const ms = performance.now() - startedAt;
	sampledPeak = Math.max(sampledPeak, process.memoryUsage().rss);
	clearInterval(sampler);
	const highWaterAfter = process.resourceUsage().maxRSS * 1024;
	// The high-water mark counts only when this run raised it; otherwise it belongs to the warm-up.
	const peakRss = highWaterAfter > highWaterBefore ? Math.max(sampledPeak, highWaterAfter) : sampledPeak;

	heldOutputs.push(output);
	collectGarbage();
	const retainedHeap = process.memoryUsage().heapUsed - baselineHeap;
	heldOutputs.length = 0;

	const report: MemoryReport = { baselineRss, peakRss, retainedHeap, ms, ...outcome };
	writeResult(report);
}

main().then(
	() => process.exit(0),
	(error: unknown) => {
		process.stderr.write(`memory measurement failed: ${(error as Error).message}\n`);
		process.exit(1);
	},
);

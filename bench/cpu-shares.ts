/* eslint-disable @n8n/community-nodes/no-restricted-imports -- benchmark code (`npm run bench`) and never loaded by n8n: it may use Node modules (docs/architecture.md, Toolchain). */
/**
 * Whose code a run's CPU time is spent in, from V8's sampling profiler (node:inspector) in this
 * process: the package's own code (nodes/), n8n's (n8n-core, n8n-workflow, @n8n/*), garbage
 * collection, and the rest (Node's HTTP, axios, the runtime). Samples under the test harness's own
 * nodes (the input node that hands the items over) are left out, as n8n's execution time of the
 * measured node leaves them out; idle time is not CPU time. A frame's share is its self time, so a
 * reader the package calls inside n8n's expression engine counts as n8n's.
 */
import { Session } from 'node:inspector/promises';
import path from 'node:path';

import { PROJECT_ROOT } from './processes';

export interface CpuShares {
	node: number;
	n8n: number;
	gc: number;
	other: number;
}

interface ProfileNode {
	id: number;
	callFrame: { functionName: string; url: string };
	children?: number[];
}

const NODES_DIR = path.join(PROJECT_ROOT, 'nodes') + path.sep;
const HARNESS_DIR = path.join(PROJECT_ROOT, 'test', 'harness') + path.sep;
const N8N = /node_modules[\\/](n8n-core|n8n-workflow|@n8n[\\/])/;
const IDLE = new Set(['(idle)', '(program)', '(root)']);

function filePath(url: string): string {
	return url.startsWith('file://') ? decodeURIComponent(new URL(url).pathname) : url;
}

/** Milliseconds of CPU per share while `work` runs (profiled: run it apart from timed runs). */
export async function cpuSharesOf(work: () => Promise<unknown>): Promise<CpuShares> {
	const session = new Session();
	session.connect();
	let profile;
	try {
		await session.post('Profiler.enable');
		await session.post('Profiler.setSamplingInterval', { interval: 500 });
		await session.post('Profiler.start');
		try {
			await work();
		} finally {
			({ profile } = await session.post('Profiler.stop'));
		}
	} finally {
		session.disconnect();
	}
	const nodes = profile.nodes as ProfileNode[];
	const byId = new Map(nodes.map((node) => [node.id, node]));
	const parentOf = new Map<number, number>();
	for (const node of nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
	const underHarness = new Map<number, boolean>();
	const isUnderHarness = (id: number): boolean => {
		const known = underHarness.get(id);
		if (known !== undefined) return known;
		const parent = parentOf.get(id);
		const frame = byId.get(id)?.callFrame;
		const result = (frame !== undefined && filePath(frame.url).startsWith(HARNESS_DIR) && frame.functionName === 'execute') || (parent !== undefined && isUnderHarness(parent));
		underHarness.set(id, result);
		return result;
	};
	const shares: CpuShares = { node: 0, n8n: 0, gc: 0, other: 0 };
	const samples = profile.samples ?? [];
	const deltas = profile.timeDeltas ?? [];
	for (const [index, id] of samples.entries()) {
		const ms = (deltas[index] ?? 0) / 1000;
		const frame = byId.get(id)?.callFrame;
		if (!frame || IDLE.has(frame.functionName)) continue;
		if (frame.functionName === '(garbage collector)') shares.gc += ms;
		else if (isUnderHarness(id)) continue;
		else if (filePath(frame.url).startsWith(NODES_DIR)) shares.node += ms;
		else if (N8N.test(frame.url)) shares.n8n += ms;
		else shares.other += ms;
	}
	return shares;
}

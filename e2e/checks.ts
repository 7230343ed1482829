/* eslint-disable @n8n/community-nodes/no-restricted-globals, no-console -- end-to-end suite code, run by tsx against a real n8n and never loaded by n8n: it may use process and timers, console output (docs/architecture.md, Toolchain). */
/**
 * The check runner shared by the end-to-end suites (e2e/suite.ts, e2e/queue/suite.ts): one
 * `PASS`/`FAIL` line per check, then `N passed, M failed` and the process exit code.
 */

interface CheckResult {
	name: string;
	passed: boolean;
	detail: string;
	ms: number;
}

const results: CheckResult[] = [];

export function seconds(ms: number): string {
	return `${(ms / 1000).toFixed(1)} s`;
}

export async function sleep(ms: number): Promise<void> {
	await new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `condition` every 100 ms until it holds; fails after `timeoutMs`. */
export async function waitFor(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!(await condition())) {
		if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
		await sleep(100);
	}
}

/** Runs one check and records it; returns false when it failed (later checks may depend on it). */
export async function check(name: string, body: () => Promise<string | void>): Promise<boolean> {
	const startedAt = Date.now();
	try {
		const detail = (await body()) ?? '';
		results.push({ name, passed: true, detail, ms: Date.now() - startedAt });
		console.log(`PASS ${name}${detail ? ` (${detail})` : ''} [${seconds(Date.now() - startedAt)}]`);
		return true;
	} catch (error) {
		const message = error instanceof Error ? error.message : String(error);
		results.push({ name, passed: false, detail: message, ms: Date.now() - startedAt });
		console.log(`FAIL ${name} [${seconds(Date.now() - startedAt)}]\n     ${message.split('\n').slice(0, 30).join('\n     ')}`);
		return false;
	}
}

/** Prints the totals and sets the exit code: 1 when a check failed or none ran. */
export function reportChecks(suite: string, startedAt: number): void {
	const failed = results.filter((result) => !result.passed).length;
	console.log(`${suite} finished in ${seconds(Date.now() - startedAt)}`);
	console.log(`${results.length - failed} passed, ${failed} failed`);
	process.exitCode = failed > 0 || results.length === 0 ? 1 : 0;
}

export type Json = Record<string, unknown>;

/** The part of an execution (CLI output or public API with data) that holds the nodes' output. */
export interface ExecutionWithRunData {
	data?: {
		resultData: {
			runData: Record<string, Array<{ data?: { main?: Array<Array<{ json: Record<string, unknown> }> | null> } }>>;
		};
	};
}

/** Output items (json) of one node in an execution's run data; [] when the node did not run. */
export function nodeOutput(execution: ExecutionWithRunData, nodeName: string): Json[] {
	const runs = execution.data?.resultData.runData[nodeName] ?? [];
	return runs.flatMap((run) => run.data?.main?.[0] ?? []).map((item) => item.json);
}

/** The invoice id of an invoice: a full document (sandbox state, or output with Simplify off) or a simplified item. */
export function invoiceIdOf(document: object): string {
	const full = document as { invoiceHeader?: { orderDetails: { invoiceId: unknown } }; invoiceId?: unknown };
	return String(full.invoiceHeader ? full.invoiceHeader.orderDetails.invoiceId : full.invoiceId);
}

/** Invoice ids emitted by the trigger node `New Invoice` in each execution, oldest execution first. */
export function emittedInvoiceIds(executions: Array<ExecutionWithRunData & { id: string }>): string[][] {
	return [...executions]
		.sort((a, b) => Number(a.id) - Number(b.id))
		.map((execution) => nodeOutput(execution, 'New Invoice').map(invoiceIdOf));
}

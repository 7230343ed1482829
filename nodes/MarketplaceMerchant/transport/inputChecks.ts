/**
 * With On Error = Stop, an invalid input item stops the node before any item is sent.
 *
 * n8n's RoutingNode starts every item's request chain in one synchronous loop (routing-node.ts,
 * `runNode`: no await between items, n8n 1.123 to 2.41, as long as the node offers no Batching
 * option, which it does not): each item awaits its preSend (where values.ts checks the input) and
 * then calls our pagination function. Left alone, items 0 and 2 would be sent while item 1 fails.
 * So every preSend failure is recorded for the node run, and each item, before its first request,
 * awaits once (a microtask: it runs after that loop, when every item's preSend has started; no
 * timer), waits for the preSends of the run still running (those that look something up, as a
 * product given by EAN) and sends nothing if any item of the run was rejected. The node then fails with the rejected item's own error: a held
 * back item resolves with no results rather than rejecting, so the first rejection RoutingNode
 * finds, in item order, is the invalid item's. With On Error = Continue only the invalid items fail.
 */
import { NodeApiError, NodeOperationError, type IExecuteSingleFunctions, type IHttpRequestOptions, type PreSendAction } from 'n8n-workflow';
import { nodeError } from './errors';

/**
 * Node runs in which an item's preSend failed, keyed by the run's execute data: one object per
 * node run, shared by all its items (WorkflowExecute makes one per run), and collected with it.
 */
const runsWithInvalidItems = new WeakSet<object>();

/** The preSends still running in each node run (keyed as above). */
const runningChecks = new WeakMap<object, Set<Promise<unknown>>>();

function runOf(ctx: IExecuteSingleFunctions): object | undefined {
	const executeData = ctx.getExecuteData?.() as unknown;
	return executeData && typeof executeData === 'object' ? executeData : undefined;
}

/** Wraps a preSend so that its failure is known to the other items of the same node run. */
export function recordingInputFailures(preSend: PreSendAction): PreSendAction {
	return async function (this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
		const run = runOf(this);
		// Called inside an async function so that a preSend throwing at once is a rejection too.
		const check = (async () => await preSend.call(this, requestOptions))();
		const running = run ? runningChecks.get(run) ?? new Set<Promise<unknown>>() : undefined;
		if (run && running) runningChecks.set(run, running.add(check));
		try {
			return await check;
		} catch (error) {
			if (run) runsWithInvalidItems.add(run);
			throw error instanceof NodeOperationError || error instanceof NodeApiError ? error : nodeError(this.getNode(), error as Error);
		} finally {
			running?.delete(check);
		}
	};
}

/**
 * Called before an item's first request: whether the item may be sent. False when another item
 * of this node run failed its input checks and the node stops on errors.
 */
export async function mayBeSent(ctx: IExecuteSingleFunctions): Promise<boolean> {
	await Promise.resolve();
	const run = runOf(ctx);
	const running = run ? runningChecks.get(run) : undefined;
	while (running && running.size > 0) await Promise.allSettled([...running]);
	return !(run && runsWithInvalidItems.has(run) && !ctx.continueOnFail());
}

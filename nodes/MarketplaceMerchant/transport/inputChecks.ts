/**
 * With On Error = Stop, an invalid input item stops the node before any item is sent.
 *
 * n8n's RoutingNode starts every item's request chain in one synchronous loop: each item awaits
 * its preSend (where values.ts checks the input) and then calls our pagination function. Left
 * alone, items 0 and 2 would be sent while item 1 fails. So every preSend failure is recorded for
 * the node run, and each item, before its first request, yields once to the event loop (by then
 * every item's preSend has settled: they read parameters only, no I/O) and sends nothing if any
 * item of the run was rejected. The node then fails with the rejected item's own error: a held
 * back item resolves with no results rather than rejecting, so the first rejection RoutingNode
 * finds, in item order, is the invalid item's. With On Error = Continue only the invalid items fail.
 */
import { NodeApiError, NodeOperationError, sleep, type IExecuteSingleFunctions, type IHttpRequestOptions, type PreSendAction } from 'n8n-workflow';

/**
 * Node runs in which an item's preSend failed, keyed by the run's execute data: one object per
 * node run, shared by all its items (WorkflowExecute makes one per run), and collected with it.
 */
const runsWithInvalidItems = new WeakSet<object>();

function runOf(ctx: IExecuteSingleFunctions): object | undefined {
	const executeData = ctx.getExecuteData?.() as unknown;
	return executeData && typeof executeData === 'object' ? executeData : undefined;
}

/** Wraps a preSend so that its failure is known to the other items of the same node run. */
export function recordingInputFailures(preSend: PreSendAction): PreSendAction {
	return async function (this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
		try {
			return await preSend.call(this, requestOptions);
		} catch (error) {
			const run = runOf(this);
			if (run) runsWithInvalidItems.add(run);
			throw error instanceof NodeOperationError || error instanceof NodeApiError ? error : new NodeOperationError(this.getNode(), error as Error);
		}
	};
}

/**
 * Called before an item's first request: whether the item may be sent. False when another item
 * of this node run failed its input checks and the node stops on errors.
 */
export async function mayBeSent(ctx: IExecuteSingleFunctions): Promise<boolean> {
	await sleep(0);
	const run = runOf(ctx);
	return !(run && runsWithInvalidItems.has(run) && !ctx.continueOnFail());
}

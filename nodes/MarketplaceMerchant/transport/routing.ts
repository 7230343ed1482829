/**
 * Only what n8n's RoutingNode needs from the package (docs/architecture.md "Where the package leaves
 * plain declarative routing"): the pagination function every routed operation hands its requests
 * to (`forInputItem`: the operation's strategy, route and reader), and the single named exception,
 * the input barrier. With On Error = Stop, an invalid item holds back every item of the node run:
 * RoutingNode's `runNode` starts all items in one synchronous loop (n8n 1.123 to 2.41), so without
 * it the items before an invalid one would be sent. A held-back item resolves with no results, so
 * the first rejection is the invalid one's.
 */
import {
	NodeApiError,
	NodeOperationError,
	type DeclarativeRestApiSettings,
	type IExecutePaginationFunctions,
	type IExecuteSingleFunctions,
	type IHttpRequestOptions,
	type PreSendAction,
} from 'n8n-workflow';

import { nodeError } from './errors';
import type { ReadAnswer, Route } from './send';
import { assertWithinItemCap, type PaginationFunction } from './batches';

const runsWithInvalidItems = new WeakSet<object>();
const runningChecks = new WeakMap<object, Set<Promise<unknown>>>();

/** The node run an item belongs to: the same object for every item of one run. */
export function runOf(ctx: object): object | undefined {
	const { getExecuteData } = ctx as Partial<Pick<IExecuteSingleFunctions, 'getExecuteData'>>;
	const executeData = getExecuteData?.call(ctx) as unknown;
	return executeData && typeof executeData === 'object' ? executeData : undefined;
}

/** Wraps a preSend so that its failure is known to the other items of the run. */
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

async function mayBeSent(ctx: IExecutePaginationFunctions): Promise<boolean> {
	await Promise.resolve();
	const run = runOf(ctx);
	const running = run ? runningChecks.get(run) : undefined;
	while (running && running.size > 0) await Promise.allSettled([...running]);
	return !(run && runsWithInvalidItems.has(run) && !ctx.continueOnFail());
}

/** An operation's strategy: how one item's request (with the operation's route) becomes requests. */
/** Every output item points at its input item: n8n fills `pairedItem` only when the counts match. */
export function forInputItem(strategy: PaginationFunction, route: Route, read: ReadAnswer) {
	return async function (this: IExecutePaginationFunctions, resultOptions: DeclarativeRestApiSettings.ResultOptions) {
		if (!(await mayBeSent(this))) return [];
		const items = await strategy.call(this, { ...resultOptions, route, read });
		assertWithinItemCap(this, items.length);
		const pairedItem = { item: this.getItemIndex() };
		for (const item of items) item.pairedItem ??= pairedItem;
		return items;
	};
}

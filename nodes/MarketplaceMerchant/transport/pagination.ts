/**
 * What RoutingNode hands each item's requests to. How an operation turns one item into requests
 * (pages, id chunks, body chunks or date windows) is a `routing.operations.pagination` function
 * that sends every request through `sendRequest`, so pacing, retries and token refresh are the
 * same everywhere; users get one output item per product, price, result, invoice or link. The
 * requests of one item overlap, up to the group's in-flight allowance, and their results are
 * merged in request order: over a real network a 40-page Return All takes 9 s instead of 40.
 */
import {
	NodeApiError,
	NodeOperationError,
	type DeclarativeRestApiSettings,
	type IDataObject,
	type IExecutePaginationFunctions,
	type IExecuteSingleFunctions,
	type IHttpRequestOptions,
	type INodeExecutionData,
	type PreSendAction,
} from 'n8n-workflow';

import { formatIsoUtc, parseServiceTimestamp, splitIntoWindows } from '../values/dates';
import { RATE_LIMITS } from './endpoints';
import { RequestNotNeeded } from './pacing';
import { sendRequest, type RequestData, type Route } from './send';
import { asNodeError, nodeError, statusOf } from './errors';
import { readLimit, toList } from '../values/values';

/*
 * With On Error = Stop, an invalid input item stops the node before any item is sent. RoutingNode
 * starts every item's chain in one synchronous loop (routing-node.ts `runNode`, n8n 1.123 to
 * 2.41, while the node offers no Batching option): each item awaits its preSend (where values.ts
 * checks the input), then calls our pagination function, so items 0 and 2 would be sent while
 * item 1 fails. So every preSend failure is recorded for the node run, and each item, before its
 * first request, awaits once (a microtask: after that loop, no timer), waits for the run's
 * preSends still running (a lookup, as a product given by EAN) and sends nothing if any item was
 * rejected. A held-back item resolves with no results rather than rejecting, so the first
 * rejection RoutingNode finds, in item order, is the invalid item's own error.
 */

/**
 * Keyed by the run's execute data: one object per node run (WorkflowExecute makes one per run),
 * shared by its items and collected with it.
 */
const runsWithInvalidItems = new WeakSet<object>();
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

/** False when another item of this node run failed its input checks and the node stops on errors. */
async function mayBeSent(ctx: IExecutePaginationFunctions): Promise<boolean> {
	await Promise.resolve();
	const run = runOf(ctx);
	const running = run ? runningChecks.get(run) : undefined;
	while (running && running.size > 0) await Promise.allSettled([...running]);
	return !(run && runsWithInvalidItems.has(run) && !ctx.continueOnFail());
}

/** How one item becomes requests: an operation's strategy, given the item's request and the operation's route. */
export type PaginationFunction = (this: IExecutePaginationFunctions, requestData: RequestData) => Promise<INodeExecutionData[]>;

/** What RoutingNode calls for each item (`routing.operations.pagination`). */
type RoutingPaginationFunction = (
	this: IExecutePaginationFunctions,
	resultOptions: DeclarativeRestApiSettings.ResultOptions,
) => Promise<INodeExecutionData[]>;

/** No loop runs longer than this many requests for one item. */
const MAX_REQUESTS_PER_ITEM = 10_000;

/**
 * Most output items one input item can produce. n8n's RoutingNode passes an item's results to
 * `Array.push(...)` in one call, which overflows the call stack somewhere above 130,000 items;
 * we stop before that with a message the user can act on instead of a crash.
 */
const MAX_ITEMS_PER_INPUT_ITEM = 100_000;

function assertWithinItemCap(ctx: IExecutePaginationFunctions, count: number): void {
	if (count <= MAX_ITEMS_PER_INPUT_ITEM) return;
	throw nodeError(
		ctx.getNode(),
		`More than ${MAX_ITEMS_PER_INPUT_ITEM.toLocaleString('en-US')} results for one input item (item ${ctx.getItemIndex()})`,
		{
			itemIndex: ctx.getItemIndex(),
			description:
				'n8n cannot return more items from one input item. Narrow the request (e.g. the Modified After filter or a shorter date range), or split it over several input items.',
		},
	);
}

/**
 * Wraps an operation's strategy: nothing is sent while another item of the run failed its input
 * checks and the node stops on errors (`mayBeSent`), every output item points at the input item it came from (n8n
 * fills `pairedItem` in only when input and output counts match, and `.item` expressions
 * downstream need it), and no input item returns more than n8n can take.
 */
export function forInputItem(strategy: PaginationFunction, route: Route): RoutingPaginationFunction {
	return async function (this: IExecutePaginationFunctions, resultOptions: DeclarativeRestApiSettings.ResultOptions) {
		if (!(await mayBeSent(this))) return [];
		const items = await strategy.call(this, { ...resultOptions, route });
		assertWithinItemCap(this, items.length);
		const pairedItem = { item: this.getItemIndex() };
		for (const item of items) item.pairedItem ??= pairedItem;
		return items;
	};
}

/** How many results the user asked for: Infinity with Return All, else Limit (the fields of `returnAllAndLimit`). */
export function resultLimit(ctx: IExecutePaginationFunctions): number {
	if (ctx.getNodeParameter('returnAll', false) as boolean) return Infinity;
	return readLimit(ctx, 'Limit', ctx.getNodeParameter('limit', 50));
}

type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

async function settle<T>(promise: Promise<T>): Promise<Settled<T>> {
	try {
		return { ok: true, value: await promise };
	} catch (error) {
		return { ok: false, error };
	}
}

/**
 * Runs up to `count` requests of one item with at most `width` outstanding, started in index
 * order, and hands each result to `take` in index order as soon as it and those before it are
 * in. `take` returns false to stop: requests not yet let through by the gate are then dropped
 * unsent (`wanted` turns false), those already sent are left to finish and ignored. The first
 * error (in index order) is thrown, after stopping the same way.
 */
async function inOrder<T>(
	count: number,
	width: number,
	run: (index: number, wanted: () => boolean) => Promise<T>,
	take: (result: T, index: number) => boolean | void,
): Promise<void> {
	let stopped = false;
	const wanted = () => !stopped;
	const pending = new Map<number, Promise<Settled<T>>>();
	let next = 0;
	try {
		for (let index = 0; index < count; index++) {
			for (; next < count && next < index + width; next++) pending.set(next, settle(run(next, wanted)));
			const outcome = (await pending.get(index)) as Settled<T>;
			pending.delete(index);
			if (!outcome.ok) throw outcome.error;
			if (take(outcome.value, index) === false) return;
		}
	} finally {
		stopped = true;
	}
}

/** How many requests of one item may be outstanding at once: the group's in-flight allowance. */
function widthFor(requestData: RequestData): number {
	return RATE_LIMITS[requestData.route.group].inFlight;
}

/**
 * Reads every page of a list (`page` from 0 of `pageSize`) until a short page: pages go out ahead
 * of the answers, up to `width` at once (the group's in-flight allowance), so a whole list sends at
 * most `width - 1` requests past the last page; those still waiting at the gate when the short
 * page arrives are never sent (`wanted` turns false).
 */
export async function readAllPages<T>(
	pageSize: number,
	width: number,
	fetchPage: (page: number, wanted: () => boolean) => Promise<T[]>,
	onPage?: (count: number) => void,
): Promise<T[]> {
	const results: T[] = [];
	await inOrder(MAX_REQUESTS_PER_ITEM, width, fetchPage, (pageItems) => {
		for (const item of pageItems) results.push(item);
		onPage?.(results.length);
		return pageItems.length === pageSize;
	});
	return results;
}

/**
 * Pages through a list answer (`page` from 0, `size`) until a short page, honouring the
 * operation's Return All / Limit. Pages go out ahead of the answers (page p+1… before p has
 * answered, up to the group's in-flight allowance of 5), so a Return All sends at most 4 requests
 * past the last page; those still waiting at the gate when the short page arrives are never
 * sent. With a limit, pages are sized so that the limit needs as few as possible, and no page
 * beyond the limit's is requested.
 */
export function pageThrough(maxPageSize: number): PaginationFunction {
	return async function (this: IExecutePaginationFunctions, requestData: RequestData) {
		const limit = resultLimit(this);
		const fetchPage = (size: number) => async (page: number, wanted: () => boolean) =>
			await sendRequest(this, requestData, { qs: { ...requestData.options.qs, page, size } }, wanted);
		if (limit === Infinity) {
			return await readAllPages(maxPageSize, widthFor(requestData), fetchPage(maxPageSize), (count) => assertWithinItemCap(this, count));
		}
		const size = Math.ceil(limit / Math.ceil(limit / maxPageSize));
		const results: INodeExecutionData[] = [];
		await inOrder(Math.ceil(limit / size), widthFor(requestData), fetchPage(size), (pageItems) => {
			for (const item of pageItems) results.push(item);
			return pageItems.length === size && results.length < limit;
		});
		return results.length > limit ? results.slice(0, limit) : results;
	};
}

function chunk<T>(list: T[], size: number): T[][] {
	const chunks: T[][] = [];
	for (let start = 0; start < list.length; start += size) chunks.push(list.slice(start, start + size));
	return chunks;
}

/** Whether a failed request means "nothing found" for its part, as the service answers with 404. */
function isNotFound(error: unknown): boolean {
	return !(error instanceof RequestNotNeeded) && statusOf(error) === 404;
}

/**
 * Sends a comma-separated id list of any length in requests of at most `maxIds` ids, at once
 * within the limits, and merges the answers in id-chunk order. With `notFoundIsEmpty`, a chunk
 * the service answers 404 ("No prices found…") contributes no items; only when every chunk is
 * answered so (nothing at all found) does the item fail with that answer, as a single request would.
 */
export function splitQueryList(parameter: string, maxIds: number, options: { notFoundIsEmpty?: boolean } = {}): PaginationFunction {
	return async function (this: IExecutePaginationFunctions, requestData: RequestData) {
		const ids = toList((requestData.options.qs as IDataObject)[parameter]);
		const chunks = chunk(ids, maxIds).slice(0, MAX_REQUESTS_PER_ITEM);
		const results: INodeExecutionData[] = [];
		let notFound: unknown;
		await inOrder(
			chunks.length,
			widthFor(requestData),
			async (index, wanted) => {
				try {
					return await sendRequest(this, requestData, { qs: { ...requestData.options.qs, [parameter]: chunks[index].join(',') } }, wanted);
				} catch (error) {
					if (!options.notFoundIsEmpty || !isNotFound(error)) throw asNodeError(this.getNode(), error);
					notFound ??= error;
					return [];
				}
			},
			(chunkItems) => {
				for (const item of chunkItems) results.push(item);
			},
		);
		if (results.length === 0 && notFound !== undefined) throw asNodeError(this.getNode(), notFound);
		return results;
	};
}

/**
 * Splits a list into consecutive chunks of at most `maxItems` entries and `maxBytes` of JSON: give
 * it what is sent (the bodies), not objects that carry more, or the chunks are cut too early.
 */
export function chunkBySize<T>(list: T[], maxItems: number, maxBytes: number): T[][] {
	const chunks: T[][] = [];
	let current: T[] = [];
	let currentBytes = 2;
	for (const entry of list) {
		const bytes = Buffer.byteLength(JSON.stringify(entry)) + 1;
		if (current.length > 0 && (current.length >= maxItems || currentBytes + bytes > maxBytes)) {
			chunks.push(current);
			current = [];
			currentBytes = 2;
		}
		current.push(entry);
		currentBytes += bytes;
	}
	if (current.length > 0) chunks.push(current);
	return chunks;
}

/** What one chunk's request gave: its results, or why it failed. */
type ChunkOutcome<R> = Settled<R>;

/**
 * Sends every chunk with `send`, up to `width` at once (1 when an entry's id, `idOf`, repeats
 * across chunks: then the chunks reach the service in the user's order, so the later entry wins),
 * and gives each chunk's outcome in chunk order. A failed chunk does not stop the others.
 */
export async function sendEachChunk<T, R>(
	chunks: T[][],
	width: number,
	send: (chunk: T[], index: number) => Promise<R>,
	idOf?: (entry: T) => string | undefined,
): Promise<Array<ChunkOutcome<R>>> {
	const outcomes: Array<ChunkOutcome<R>> = [];
	const inSequence = idOf === undefined || repeatsAcrossChunks(chunks, idOf);
	await inOrder(
		chunks.length,
		inSequence ? 1 : width,
		async (index) => await settle(send(chunks[index], index)),
		(outcome) => {
			outcomes.push(outcome);
		},
	);
	return outcomes;
}

/** Whether some id comes in more than one chunk (then the chunks must reach the service in order). */
function repeatsAcrossChunks<T>(chunks: T[][], idOf: (entry: T) => string | undefined): boolean {
	const chunkOfId = new Map<string, number>();
	for (const [index, entries] of chunks.entries()) {
		for (const entry of entries) {
			const id = idOf(entry);
			if (id === undefined) continue;
			if ((chunkOfId.get(id) ?? index) !== index) return true;
			chunkOfId.set(id, index);
		}
	}
	return false;
}

interface DateWindowSplit {
	/** The document's own id, to drop the same document seen in two windows. */
	idOf?: (item: INodeExecutionData) => string | undefined;
	/** Whether a 404 for one window means "nothing in this window" rather than an error. */
	notFoundIsEmpty?: boolean;
	/** Sees each window's items before deduplication (e.g. to name a file after the window). */
	onWindow?: (items: INodeExecutionData[], window: { from: Date; to: Date }) => INodeExecutionData[];
	/** Whether the operation's Return All / Limit apply (`returnAllAndLimit` fields). */
	limited?: boolean;
}

/**
 * Splits the `dateFrom`..`dateTo` query range into windows the service accepts (3 months),
 * oldest first, sends them at once within the limits, and merges the answers in window order
 * without duplicates. Under a Limit the windows go one after another, and none is sent once the
 * earlier ones hold enough results (a window may hold thousands of documents, and sending ahead
 * would fetch them for nothing).
 */
export function splitDateRange(split: DateWindowSplit = {}): PaginationFunction {
	return async function (this: IExecutePaginationFunctions, requestData: RequestData) {
		const qs = requestData.options.qs as IDataObject;
		const limit = split.limited ? resultLimit(this) : Infinity;
		// The preSend wrote these as ISO timestamps (readDocumentRange): no user value is read here.
		const from = parseServiceTimestamp(qs.dateFrom);
		const to = parseServiceTimestamp(qs.dateTo);
		if (!from || !to) return (await sendRequest(this, requestData)).slice(0, limit);
		const windows = splitIntoWindows(from, to).slice(0, MAX_REQUESTS_PER_ITEM);
		const seen = new Set<string>();
		const results: INodeExecutionData[] = [];
		await inOrder(
			windows.length,
			limit === Infinity ? widthFor(requestData) : 1,
			async (index, wanted) => {
				const window = windows[index];
				try {
					return await sendRequest(this, requestData, { qs: { ...qs, dateFrom: formatIsoUtc(window.from), dateTo: formatIsoUtc(window.to) } }, wanted);
				} catch (error) {
					if (split.notFoundIsEmpty && isNotFound(error)) return [];
					throw asNodeError(this.getNode(), error);
				}
			},
			(answered, index) => {
				const windowItems = split.onWindow ? split.onWindow(answered, windows[index]) : answered;
				for (const item of windowItems) {
					const id = split.idOf?.(item);
					if (id !== undefined) {
						if (seen.has(id)) continue;
						seen.add(id);
					}
					results.push(item);
				}
				return results.length < limit;
			},
		);
		return results.length > limit ? results.slice(0, limit) : results;
	};
}

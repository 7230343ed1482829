/**
 * Requests in batches, in order: one item's pages, id chunks, body chunks or date windows (the
 * strategies RoutingNode's pagination hook runs, routing.ts), and the chunks of a bulk write. The
 * requests overlap, up to the group's in-flight allowance, and their results are merged in request
 * order: over a real network a 40-page Return All takes 9 s instead of 40.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { LIMITS, RATE_LIMITS } from './endpoints';
import { asNodeError, emptyIfNothingFound, nodeError } from './errors';
import { settle, type Settled } from './policy';
import { sendRequest, type RequestData, type ItemFunctions } from './send';
import { formatIsoUtc, parseServiceTimestamp, splitIntoWindows } from '../values/dates';
import { readLimit } from '../values/numbers';
import { ofItem } from '../values/labels';
import { readFlag, toList } from '../values/values';

/** An operation's strategy: how one item's request (with the operation's route) becomes requests. */
export type PaginationFunction = (this: ItemFunctions, requestData: RequestData) => Promise<INodeExecutionData[]>;

/** The default strategy: one request. */
export async function sendSingle(this: ItemFunctions, requestData: RequestData): Promise<INodeExecutionData[]> {
	return await sendRequest(this, requestData);
}

const MAX_REQUESTS_PER_ITEM = 10_000;

/** RoutingNode passes an item's results to one `Array.push(...)`, which overflows the stack above ~130,000. */
const MAX_ITEMS_PER_INPUT_ITEM = 100_000;

export function assertWithinItemCap(ctx: ItemFunctions, count: number): void {
	if (count <= MAX_ITEMS_PER_INPUT_ITEM) return;
	const message = `More than ${MAX_ITEMS_PER_INPUT_ITEM.toLocaleString('en-US')} results for one input item${ofItem(ctx.getItemIndex())}`;
	throw nodeError(ctx.getNode(), message, {
		itemIndex: ctx.getItemIndex(),
		description:
			'n8n cannot return more items from one input item. Narrow the request (e.g. the Modified After filter or a shorter date range), or split it over several input items.',
	});
}

export function resultLimit(ctx: ItemFunctions): number {
	if (readFlag(ctx, 'returnAll', 'Return All', false)) return Infinity;
	return readLimit(ctx, 'Limit', ctx.getNodeParameter('limit', 50));
}

/**
 * Runs up to `count` requests with at most `width` outstanding and hands each result to `take` in
 * index order. `take` returns false to stop: requests not yet let through by the gate are dropped
 * unsent (`wanted` turns false), those sent are ignored. The first error (in order) is thrown.
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

function widthFor(requestData: RequestData): number {
	return RATE_LIMITS[requestData.route.group].inFlight;
}

/**
 * Every page until a short one (or `limit` results); pages go out ahead, up to `width`: at most
 * `width - 1` past the last. With `keep`, only the items it keeps are results (and count to `limit`).
 */
export async function readAllPages<T>(
	pageSize: number,
	width: number,
	fetchPage: (page: number, wanted: () => boolean) => Promise<T[]>,
	onPage?: (count: number) => void,
	limit = Infinity,
	keep?: (item: T) => boolean,
): Promise<T[]> {
	const results: T[] = [];
	const pages = keep ? MAX_REQUESTS_PER_ITEM : Math.min(MAX_REQUESTS_PER_ITEM, Math.ceil(limit / pageSize));
	await inOrder(pages, width, fetchPage, (pageItems) => {
		for (const item of pageItems) if (!keep || keep(item)) results.push(item);
		onPage?.(results.length);
		return pageItems.length === pageSize && results.length < limit;
	});
	return results.length > limit ? results.slice(0, limit) : results;
}

/** The page size for `limit` results: the largest, or under a Limit as few pages as it needs, evenly sized (150 in 2 of 75). */
export function evenPageSize(limit: number, maxPageSize: number): number {
	return limit === Infinity ? maxPageSize : Math.ceil(limit / Math.ceil(limit / maxPageSize));
}

/**
 * Pages through a list as `readAllPages` does; under a Limit, in as few pages as it needs. `keepOf`:
 * the item's filter the service cannot apply (read once per item), undefined when none is set; then
 * every page is full-size, as how many match is unknown.
 */
export function pageThrough(
	maxPageSize: number,
	keepOf?: (ctx: ItemFunctions) => ((item: INodeExecutionData) => boolean) | undefined,
): PaginationFunction {
	return async function (this: ItemFunctions, requestData: RequestData) {
		const limit = resultLimit(this);
		const keep = keepOf?.(this);
		const size = keep ? maxPageSize : evenPageSize(limit, maxPageSize);
		const fetchPage = async (page: number, wanted: () => boolean) =>
			await sendRequest(this, requestData, { qs: { ...requestData.options.qs, page, size } }, wanted);
		return await readAllPages(size, widthFor(requestData), fetchPage, (count) => assertWithinItemCap(this, count), limit, keep);
	};
}

/**
 * One request per query (merged into the item's), up to `width` at once, each answer handed to `take`
 * in order (false stops). With `notFoundIsEmpty` a 404 gives no items: the first is returned.
 */
async function sendEachQuery(
	ctx: ItemFunctions,
	requestData: RequestData,
	queries: IDataObject[],
	width: number,
	notFoundIsEmpty: boolean | undefined,
	take: (items: INodeExecutionData[], index: number) => boolean | void,
): Promise<unknown> {
	let notFound: unknown;
	const send = async (index: number, wanted: () => boolean) => {
		try {
			return await sendRequest(ctx, requestData, { qs: { ...requestData.options.qs, ...queries[index] } }, wanted);
		} catch (error) {
			if (!notFoundIsEmpty) throw asNodeError(ctx.getNode(), error);
			// "Nothing found" for its part, as the service answers.
			const empty = emptyIfNothingFound(ctx.getNode(), error, []);
			notFound ??= error;
			return empty;
		}
	};
	await inOrder(queries.length, width, send, take);
	return notFound;
}

/**
 * Sends a comma-separated id list in requests of at most `maxIds` ids. With `notFoundIsEmpty`, a
 * chunk answered 404 gives no items; the item fails only when every chunk is, as one request would.
 */
export function splitQueryList(parameter: string, maxIds: number, options: { notFoundIsEmpty?: boolean } = {}): PaginationFunction {
	return async function (this: ItemFunctions, requestData: RequestData) {
		const ids = toList((requestData.options.qs as IDataObject)[parameter]);
		const queries = chunkBySize(ids, maxIds, Infinity).slice(0, MAX_REQUESTS_PER_ITEM).map((chunk) => ({ [parameter]: chunk.join(',') }));
		const results: INodeExecutionData[] = [];
		// One push per item: a spread of a long answer would overflow the stack (MAX_ITEMS_PER_INPUT_ITEM).
		const notFound = await sendEachQuery(this, requestData, queries, widthFor(requestData), options.notFoundIsEmpty, (items) => {
			for (const item of items) results.push(item);
		});
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

/**
 * Sends every chunk, up to `width` at once (one by one when an id repeats across chunks, so that
 * the later entry wins), and gives each chunk's outcome in order. A failed chunk stops no other.
 */
export async function sendEachChunk<T, R>(
	chunks: T[][],
	width: number,
	send: (chunk: T[], index: number) => Promise<R>,
	idOf?: (entry: T) => string | undefined,
): Promise<Array<Settled<R>>> {
	const outcomes: Array<Settled<R>> = [];
	const inSequence = idOf === undefined || repeatsAcrossChunks(chunks, idOf);
	const sendChunk = async (index: number) => await settle(send(chunks[index], index));
	await inOrder(chunks.length, inSequence ? 1 : width, sendChunk, (outcome) => void outcomes.push(outcome));
	return outcomes;
}

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
	idOf?: (item: INodeExecutionData) => string | undefined;
	notFoundIsEmpty?: boolean;
	onWindow?: (items: INodeExecutionData[], window: { from: Date; to: Date }) => INodeExecutionData[];
	limited?: boolean;
}

/**
 * Splits `dateFrom`..`dateTo` into windows the service accepts, merged without an item `idOf` names
 * twice; `onWindow` sees each window's items first (e.g. to name a file after the window). `limited`:
 * under a Limit they go one by one, none once the earlier hold enough (a window may hold thousands).
 */
export function splitDateRange(split: DateWindowSplit): PaginationFunction {
	return async function (this: ItemFunctions, requestData: RequestData) {
		const qs = requestData.options.qs as IDataObject;
		const limit = split.limited ? resultLimit(this) : Infinity;
		const from = parseServiceTimestamp(qs.dateFrom);
		const to = parseServiceTimestamp(qs.dateTo);
		if (!from || !to) return (await sendRequest(this, requestData)).slice(0, limit);
		const windows = splitIntoWindows(from, to, LIMITS.invoiceWindowMonths).slice(0, MAX_REQUESTS_PER_ITEM);
		const queries = windows.map((window) => ({ dateFrom: formatIsoUtc(window.from), dateTo: formatIsoUtc(window.to) }));
		const seen = new Set<string>();
		const results: INodeExecutionData[] = [];
		const width = limit === Infinity ? widthFor(requestData) : 1;
		await sendEachQuery(this, requestData, queries, width, split.notFoundIsEmpty, (answered, index) => {
			const windowItems = split.onWindow ? split.onWindow(answered, windows[index]) : answered;
			for (const item of windowItems) {
				const id = split.idOf?.(item);
				if (id !== undefined && seen.has(id)) continue;
				if (id !== undefined) seen.add(id);
				results.push(item);
			}
			return results.length < limit;
		});
		return results.length > limit ? results.slice(0, limit) : results;
	};
}

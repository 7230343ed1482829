/**
 * How an operation turns one node item into requests: pages, id chunks, body chunks or date
 * windows. Each is a `routing.operations.pagination` function (RoutingNode calls it when
 * `routing.send.paginate` is true) and sends every request through `sendRequest`, so pacing,
 * retries and token refresh are the same everywhere. Users never see the splitting: they get one
 * output item per product, price, result, invoice or link.
 */
import { NodeOperationError, type IDataObject, type IExecutePaginationFunctions, type INodeExecutionData } from 'n8n-workflow';

import { formatIsoUtc, parseServiceTimestamp, splitIntoWindows } from './dates';
import { sendRequest, type RequestData } from './send';
import { asNodeError, statusOf } from './errors';
import { mayBeSent } from './inputChecks';
import { readLimit, toList } from './values';

type PaginationFunction = (this: IExecutePaginationFunctions, requestData: RequestData) => Promise<INodeExecutionData[]>;

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
	throw new NodeOperationError(
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
 * checks and the node stops on errors (inputChecks.ts), every output item points at the input item it came from (n8n
 * fills `pairedItem` in only when input and output counts match, and `.item` expressions
 * downstream need it), and no input item returns more than n8n can take.
 */
export function forInputItem(strategy: PaginationFunction): PaginationFunction {
	return async function (this: IExecutePaginationFunctions, requestData: RequestData) {
		if (!(await mayBeSent(this))) return [];
		const items = await strategy.call(this, requestData);
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

/**
 * Pages through a list answer (`page` from 0, `size`) until a short page, honouring the
 * operation's Return All / Limit: with a limit, pages are sized so that no page is fetched that
 * is not needed.
 */
export function pageThrough(maxPageSize: number): PaginationFunction {
	return async function (this: IExecutePaginationFunctions, requestData: RequestData) {
		const limit = resultLimit(this);
		const size = limit === Infinity ? maxPageSize : Math.ceil(limit / Math.ceil(limit / maxPageSize));
		const results: INodeExecutionData[] = [];
		for (let page = 0; page < MAX_REQUESTS_PER_ITEM; page++) {
			const pageItems = await sendRequest(this, requestData, {
				qs: { ...requestData.options.qs, page, size },
			});
			for (const item of pageItems) results.push(item);
			if (pageItems.length < size || results.length >= limit) break;
			assertWithinItemCap(this, results.length);
		}
		return results.length > limit ? results.slice(0, limit) : results;
	};
}

function chunk<T>(list: T[], size: number): T[][] {
	const chunks: T[][] = [];
	for (let start = 0; start < list.length; start += size) chunks.push(list.slice(start, start + size));
	return chunks;
}

/** Sends a comma-separated id list of any length in requests of at most `maxIds` ids. */
export function splitQueryList(parameter: string, maxIds: number): PaginationFunction {
	return async function (this: IExecutePaginationFunctions, requestData: RequestData) {
		const ids = toList((requestData.options.qs as IDataObject)[parameter]);
		const results: INodeExecutionData[] = [];
		for (const idChunk of chunk(ids, maxIds).slice(0, MAX_REQUESTS_PER_ITEM)) {
			const chunkItems = await sendRequest(this, requestData, {
				qs: { ...requestData.options.qs, [parameter]: idChunk.join(',') },
			});
			for (const item of chunkItems) results.push(item);
		}
		return results;
	};
}

/** Splits a list into consecutive chunks of at most `maxItems` entries and `maxBytes` of JSON. */
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

export interface BodyListSplit {
	/** Where the list is in the body: undefined when the body is the list itself. */
	listKey?: string;
	maxItems: number;
	maxBytes: number;
	/** Turns one request's result items into output items, given the entries that were sent. */
	pairResults: (results: INodeExecutionData[], sent: IDataObject[]) => INodeExecutionData[];
	/** Runs once over all output items of the node item (e.g. to fail on per-item failures). */
	finish?: (this: IExecutePaginationFunctions, items: INodeExecutionData[]) => INodeExecutionData[];
}

/** Sends a bulk body of any length in requests within the service's item and size limits. */
export function splitBodyList(split: BodyListSplit): PaginationFunction {
	return async function (this: IExecutePaginationFunctions, requestData: RequestData) {
		const body = requestData.options.body as IDataObject | IDataObject[];
		const list = (split.listKey ? (body as IDataObject)[split.listKey] : body) as IDataObject[];
		const results: INodeExecutionData[] = [];
		for (const entries of chunkBySize(list, split.maxItems, split.maxBytes).slice(0, MAX_REQUESTS_PER_ITEM)) {
			const chunkBody = split.listKey ? { ...(body as IDataObject), [split.listKey]: entries } : entries;
			const chunkItems = await sendRequest(this, requestData, { body: chunkBody });
			for (const item of split.pairResults(chunkItems, entries)) results.push(item);
		}
		return split.finish ? split.finish.call(this, results) : results;
	};
}

export interface DateWindowSplit {
	/** The document's own id, to drop the same document seen in two windows. */
	idOf?: (item: INodeExecutionData) => string | undefined;
	/** Whether a 404 for one window means "nothing in this window" rather than an error. */
	notFoundIsEmpty?: boolean;
	/** Sees each window's items before deduplication (e.g. to name a file after the window). */
	onWindow?: (items: INodeExecutionData[], window: { from: Date; to: Date }) => INodeExecutionData[];
}

/**
 * Splits the `dateFrom`..`dateTo` query range into windows the service accepts (3 months),
 * oldest first, and merges the answers in order without duplicates.
 */
export function splitDateRange(split: DateWindowSplit = {}): PaginationFunction {
	return async function (this: IExecutePaginationFunctions, requestData: RequestData) {
		const qs = requestData.options.qs as IDataObject;
		// The preSend wrote these as ISO timestamps (readDocumentRange): no user value is read here.
		const from = parseServiceTimestamp(qs.dateFrom);
		const to = parseServiceTimestamp(qs.dateTo);
		if (!from || !to) return await sendRequest(this, requestData);
		const seen = new Set<string>();
		const results: INodeExecutionData[] = [];
		for (const window of splitIntoWindows(from, to).slice(0, MAX_REQUESTS_PER_ITEM)) {
			let windowItems: INodeExecutionData[];
			try {
				windowItems = await sendRequest(this, requestData, {
					qs: { ...qs, dateFrom: formatIsoUtc(window.from), dateTo: formatIsoUtc(window.to) },
				});
			} catch (error) {
				if (split.notFoundIsEmpty && statusOf(error) === 404) continue;
				throw asNodeError(this.getNode(), error);
			}
			if (split.onWindow) windowItems = split.onWindow(windowItems, window);
			for (const item of windowItems) {
				const id = split.idOf?.(item);
				if (id !== undefined) {
					if (seen.has(id)) continue;
					seen.add(id);
				}
				results.push(item);
			}
		}
		return results;
	};
}

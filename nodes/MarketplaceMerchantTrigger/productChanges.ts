/**
 * "Product Changed" (README). The service does not say what changed, so the state keeps a
 * fingerprint (stock, prices) of every product, read whole on activation, and each poll compares
 * the products modified since the last poll. basic-products' filter has two names (values/dates.ts,
 * `basicProductsModifiedAfter`): the reference's day (the previous day, or the last poll's day if
 * earlier) and the current pages' timestamp (the last poll, less a margin); a service honouring
 * the timestamp answers only what changed since the last poll, not since midnight.
 */
import { type IDataObject, type INodeExecutionData, type IPollFunctions } from 'n8n-workflow';

import { DAY_MS, basicProductsModifiedAfter, formatUtcTimestamp, startOfUtcDay } from '../MarketplaceMerchant/values/dates';
import { ANSWERS } from '../MarketplaceMerchant/answers/schemas';
import { decodedNumber } from '../MarketplaceMerchant/answers/read';
import { LIMITS, PATHS } from '../MarketplaceMerchant/transport/endpoints';
import { nodeError } from '../MarketplaceMerchant/transport/errors';
import { isPlainObject, readChoice } from '../MarketplaceMerchant/values/labels';
import { exactCents } from '../MarketplaceMerchant/values/numbers';
import { readSimplify } from '../MarketplaceMerchant/values/values';
import { listOf } from '../MarketplaceMerchant/shared/read';
import { TEST_EVENT_DAYS, pollReader, type PollResult } from './poll';
import { readAllPages } from '../MarketplaceMerchant/transport/batches';

export const PRODUCT_CHANGED = 'productChanged';

const WATCHED_FIELDS = ['both', 'stock', 'price'] as const;
type WatchedFields = (typeof WATCHED_FIELDS)[number];

/** Pages of 2,500 one poll reads at most (the whole of a 250,000-product catalogue). */
const MAX_PAGES_PER_POLL = 100;
/** 2: a baseline of the whole catalogue. Version 1's fingerprints (recent products only) are compared once while it is read. */
const STATE_VERSION = 2;
const VERSION_WITHOUT_BASELINE = 1;
/**
 * How far before the last poll the timestamp filter starts. A change is stamped by the service's
 * clock, and the last poll's time by n8n's: a service clock behind n8n's by less than this, or a
 * change stamped when its transaction began and visible only after the last poll read, is still
 * read. Reading a product twice costs nothing but its bytes (its fingerprint is unchanged, nothing
 * fires), and a poll of products changed in 10 minutes fits one page.
 */
const POLL_OVERLAP_MS = 10 * 60_000;

type Fingerprint = Record<'stockLevel' | 'basePrice' | 'newBasePrice', number | null>;

/** Stored in static data under `productChanged`, compact since it is saved after every poll. */
interface ProductChangeState {
	v: number;
	/** When the last poll's query was made (ISO): the next query starts at that day at the latest. */
	polledAt: string;
	products: string;
}

// --- Compact fingerprints -------------------------------------------------------------------
// One record per product, sorted by id: the id as the difference to the previous id (left empty
// when it is 1, as in a catalogue of consecutive ids), stock, the price that will apply
// (newBasePrice) in cents, and basePrice in cents only when it differs, all in base 36
// (".2s.2rrc"). About 9 bytes a product, against ~45 as a JSON object.

function encodeNumber(value: number | null): string {
	if (value === null) return '';
	// A value that is not a whole number (never seen: stock and cents are whole) keeps its decimal
	// form, with "_" for the point, which separates the fields.
	return Number.isSafeInteger(value) ? value.toString(36) : `~${String(value).replace('.', '_')}`;
}

function decodeNumber(text: string | undefined): number | null {
	if (text === undefined || text === '') return null;
	if (text.startsWith('~')) return Number(text.slice(1).replace('_', '.'));
	const value = parseInt(text, 36);
	return Number.isNaN(value) ? null : value;
}

const fromCents = (cents: number | null) => (cents === null ? null : cents / 100);

export function encodeFingerprints(fingerprints: Map<number, Fingerprint>): string {
	const records: string[] = [];
	let previousId = 0;
	for (const id of [...fingerprints.keys()].sort((a, b) => a - b)) {
		const { stockLevel, basePrice, newBasePrice } = fingerprints.get(id) as Fingerprint;
		const newCents = exactCents(newBasePrice);
		const baseCents = exactCents(basePrice);
		const fields = [id - previousId === 1 ? '' : encodeNumber(id - previousId), encodeNumber(stockLevel), encodeNumber(newCents)];
		if (baseCents !== newCents) fields.push(encodeNumber(baseCents));
		records.push(fields.join('.'));
		previousId = id;
	}
	return records.join(',');
}

export function decodeFingerprints(encoded: string): Map<number, Fingerprint> {
	const fingerprints = new Map<number, Fingerprint>();
	if (encoded === '') return fingerprints;
	let id = 0;
	for (const record of encoded.split(',')) {
		const [delta, stock, newCents, baseCents] = record.split('.');
		id += delta === '' ? 1 : (decodeNumber(delta) ?? 0);
		const newBasePrice = fromCents(decodeNumber(newCents));
		fingerprints.set(id, {
			stockLevel: decodeNumber(stock),
			newBasePrice,
			basePrice: baseCents === undefined ? newBasePrice : fromCents(decodeNumber(baseCents)),
		});
	}
	return fingerprints;
}

function storedState(value: unknown): ProductChangeState | undefined {
	const state = (value ?? {}) as Partial<ProductChangeState>;
	const version = state.v === STATE_VERSION || state.v === VERSION_WITHOUT_BASELINE;
	if (!version || typeof state.products !== 'string' || Number.isNaN(Date.parse(String(state.polledAt)))) return undefined;
	return state as ProductChangeState;
}

/** Since when a poll reads: `time` for the current pages' filter, `day` (included) for the reference's. */
interface ModifiedSince {
	time: Date;
	day: Date;
}

/**
 * The basic products modified since (without a bound: the whole catalogue), in pages of 2,500,
 * paged as every catalogue read is (transport/batches.ts `readAllPages`), one page at a time: a poll asks for
 * no page past the last.
 */
async function productsModifiedSince(ctx: IPollFunctions, since: ModifiedSince | undefined, maxPages = MAX_PAGES_PER_POLL): Promise<IDataObject[]> {
	const filter = since === undefined ? {} : basicProductsModifiedAfter(since.time, since.day);
	const size = LIMITS.basicProductsPageSize;
	const read = pollReader(ctx);
	const fetchPage = async (page: number) => {
		const what = `${since === undefined ? 'the products' : `the products modified since ${formatUtcTimestamp(since.time)}`} (page ${page})`;
		const list = listOf(ctx.getNode(), await read('catalogue', PATHS.basicProducts, { ...filter, page, size }, what, ANSWERS.basicProducts), what);
		// Counted before the filter: a short page (of the answer, not of its objects) is the last.
		return list.map((product) => (isPlainObject(product) ? product : undefined));
	};
	const pages = await readAllPages(size, 1, fetchPage, undefined, maxPages * size);
	return pages.filter((product): product is IDataObject => product !== undefined);
}

function fingerprintOf(product: IDataObject): Fingerprint {
	return {
		stockLevel: decodedNumber(product.stockLevel),
		basePrice: decodedNumber(product.basePrice),
		newBasePrice: decodedNumber(product.newBasePrice),
	};
}

/**
 * The watched fields that differ. Price means the price the merchant set (newBasePrice): that it
 * takes effect the next day (basePrice follows) is not a new change.
 */
function changedFields(previous: Fingerprint, current: Fingerprint, watched: WatchedFields): string[] {
	const changed: string[] = [];
	if (watched !== 'price' && previous.stockLevel !== current.stockLevel) changed.push('stockLevel');
	if (watched !== 'stock' && exactCents(previous.newBasePrice) !== exactCents(current.newBasePrice)) changed.push('newBasePrice');
	return changed;
}

function toItem(product: IDataObject, previous: Fingerprint | null, changed: string[] | null, simplify: boolean): INodeExecutionData {
	if (!simplify) return { json: { event: PRODUCT_CHANGED, ...product, previous, changed } };
	const summary = { id: decodedNumber(product.id), ean: product.ean ?? null, sku: product.sku ?? null, ...fingerprintOf(product) };
	return { json: { ...summary, previous } };
}

/** A scheduled poll: without a baseline (activation, a version 1 state) it reads the whole catalogue. */
export async function pollProductChanges(ctx: IPollFunctions): Promise<PollResult> {
	const watched = readChoice(ctx, 'Changes to Watch', ctx.getNodeParameter('watchFields', 'both'), WATCHED_FIELDS);
	const simplify = readSimplify(ctx);
	const staticData = ctx.getWorkflowStaticData('node');
	const state = storedState(staticData[PRODUCT_CHANGED]);
	const now = Date.now();
	const yesterday = startOfUtcDay(new Date(now)).getTime() - DAY_MS;
	const readsCatalogue = state?.v !== STATE_VERSION;
	const from = state ? Math.min(yesterday, startOfUtcDay(new Date(state.polledAt)).getTime()) : yesterday;
	const known = state ? decodeFingerprints(state.products) : new Map<number, Fingerprint>();

	// A last poll later than now (n8n's clock set back) counts as now: nothing between is skipped.
	const lastPoll = state ? Math.min(Date.parse(state.polledAt), now) : now;
	const since = { time: new Date(lastPoll - POLL_OVERLAP_MS), day: new Date(from) };
	const products = await productsModifiedSince(ctx, readsCatalogue ? undefined : since);
	// The baseline carries over, except when the catalogue is read whole: what was read is the baseline then.
	const fingerprints = readsCatalogue ? new Map<number, Fingerprint>() : known;
	const compared = new Set<number>();
	const items: INodeExecutionData[] = [];
	for (const product of products) {
		const id = decodedNumber(product.id);
		if (id === null || !Number.isSafeInteger(id) || id <= 0) {
			ctx.logger.warn(`Product Changed: skipped a product without a usable id (${JSON.stringify(product.id)})`);
			continue;
		}
		// A product listed twice (pages shifting under a change) is compared once.
		if (compared.has(id)) continue;
		compared.add(id);
		const current = fingerprintOf(product);
		const previous = known.get(id);
		fingerprints.set(id, current);
		// Without an earlier fingerprint nothing tells what changed: nothing fires, the next change will.
		if (!previous) continue;
		const changed = changedFields(previous, current, watched);
		if (changed.length > 0) items.push(toItem(product, previous, changed, simplify));
	}

	// Only now, with every page read, does the stored state change: a failed poll changes nothing.
	const next: ProductChangeState = { v: STATE_VERSION, polledAt: new Date(now).toISOString(), products: encodeFingerprints(fingerprints) };
	staticData[PRODUCT_CHANGED] = next as unknown as IDataObject;
	return items.length === 0 ? null : [items];
}

/** "Fetch Test Event": one product modified recently, as the event would show it (without previous values). */
export async function fetchTestProductChange(ctx: IPollFunctions): Promise<INodeExecutionData[][]> {
	const simplify = readSimplify(ctx);
	const today = startOfUtcDay(new Date()).getTime();
	for (const days of [1, TEST_EVENT_DAYS]) {
		const day = new Date(today - days * DAY_MS);
		const [product] = await productsModifiedSince(ctx, { time: day, day }, 1);
		if (product) return [[toItem(product, null, null, simplify)]];
	}
	throw nodeError(ctx.getNode(), `No product was modified in the last ${TEST_EVENT_DAYS} days`, {
		description: 'Once the workflow is active, the trigger fires for each product whose stock or price changes.',
	});
}

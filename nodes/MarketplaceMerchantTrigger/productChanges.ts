/**
 * The trigger event "Product Changed": once per product whose stock or price changed on the
 * marketplace since the last poll (sales from the platform warehouse, edits in the portal).
 *
 * The service only filters products by modification day (`date-modified-after=yyyy-MM-dd`, that
 * day included) and does not say what changed. Each poll therefore re-reads the products modified
 * since the previous day (or since the day of the last poll, if that is earlier) and compares
 * each with the fingerprint (stock, prices) the last poll stored for it:
 * - a product with a fingerprint fires when a chosen field differs, with the previous values;
 * - a product without one was not modified in the last poll's window, so it was modified since:
 *   it fires with `previous: null` (the service cannot tell whether stock, price or something
 *   else changed; its current values are in the item);
 * - the first poll after activation stores fingerprints and fires for nothing.
 * Fingerprints are kept only for the products the last query returned, i.e. those modified in
 * the last two days: the static data grows with the changes of two days, not with the catalogue.
 */
import { type IDataObject, type INodeExecutionData, type IPollFunctions, type JsonObject } from 'n8n-workflow';

import { formatYearMonthDay } from '../MarketplaceMerchant/transport/dates';
import { decodedNumber } from '../MarketplaceMerchant/transport/decode';
import { LIMITS, PATHS } from '../MarketplaceMerchant/transport/endpoints';
import { ANSWERS } from '../MarketplaceMerchant/transport/schema';
import { readBoolean } from '../MarketplaceMerchant/transport/values';
import { getFromService } from './requests';
import { nodeError, serviceError } from '../MarketplaceMerchant/transport/errors';

export const PRODUCT_CHANGED = 'productChanged';

/** Which fields count as a change (the trigger's "Changes to Watch"). */
type WatchedFields = 'both' | 'stock' | 'price';

const DAY_MS = 86_400_000;
/** Pages of 2,500 one poll reads at most (the whole of a 250,000-product catalogue). */
const MAX_PAGES_PER_POLL = 100;
/** "Fetch Test Event" looks back this far when nothing was modified since yesterday. */
const TEST_EVENT_DAYS = 30;
const STATE_VERSION = 1;

/** What the trigger knows of a product: the values whose change it watches. */
interface Fingerprint {
	stockLevel: number | null;
	basePrice: number | null;
	newBasePrice: number | null;
}

/** Stored in static data under `productChanged`: small, since it is saved after polls that fire. */
interface ProductChangeState {
	v: number;
	/** When the last poll's query was made (ISO): the next query starts at that day at the latest. */
	polledAt: string;
	/** Fingerprints of the products that query returned (`encodeFingerprints`). */
	products: string;
}

// --- Compact fingerprints -------------------------------------------------------------------
// One record per product, sorted by id: the id as the difference to the previous id, stock, the
// price that will apply (newBasePrice) in cents, and basePrice in cents only when it differs,
// all in base 36 ("1k.2s.2rrc"). About 11 bytes a product, against ~45 as a JSON object.

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

function toCents(price: number | null): number | null {
	if (price === null) return null;
	const cents = price * 100;
	return Math.abs(cents - Math.round(cents)) < 1e-6 ? Math.round(cents) : cents;
}

const fromCents = (cents: number | null) => (cents === null ? null : cents / 100);

export function encodeFingerprints(fingerprints: Map<number, Fingerprint>): string {
	const records: string[] = [];
	let previousId = 0;
	for (const id of [...fingerprints.keys()].sort((a, b) => a - b)) {
		const { stockLevel, basePrice, newBasePrice } = fingerprints.get(id) as Fingerprint;
		const newCents = toCents(newBasePrice);
		const baseCents = toCents(basePrice);
		const fields = [encodeNumber(id - previousId), encodeNumber(stockLevel), encodeNumber(newCents)];
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
		id += decodeNumber(delta) ?? 0;
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
	if (!value || typeof value !== 'object') return undefined;
	const state = value as Partial<ProductChangeState>;
	if (state.v !== STATE_VERSION || typeof state.products !== 'string' || Number.isNaN(Date.parse(String(state.polledAt)))) return undefined;
	return state as ProductChangeState;
}

// --- Reading the service ----------------------------------------------------------------------

const startOfUtcDay = (ms: number) => ms - (((ms % DAY_MS) + DAY_MS) % DAY_MS);

/** The basic products modified on or after `day`, in pages of 2,500: all of them, or the first `maxPages` pages. */
async function productsModifiedSince(ctx: IPollFunctions, day: Date, maxPages = MAX_PAGES_PER_POLL): Promise<IDataObject[]> {
	const since = formatYearMonthDay(day);
	const size = LIMITS.basicProductsPageSize;
	const products: IDataObject[] = [];
	for (let page = 0; page < maxPages; page++) {
		const what = `the products modified since ${since} (page ${page})`;
		const list = await getFromService(ctx, 'catalogue', PATHS.basicProducts, { 'date-modified-after': since, page, size }, what, ANSWERS.basicProducts);
		if (list === undefined || list === null) break;
		if (!Array.isArray(list)) {
			throw serviceError(ctx.getNode(), { body: JSON.stringify(list).slice(0, 200) } as JsonObject, {
				message: `The service answered the request for ${what} with something that is not a list`,
			});
		}
		for (const entry of list) if (entry && typeof entry === 'object' && !Array.isArray(entry)) products.push(entry as IDataObject);
		if (list.length < size) break;
	}
	return products;
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
	if (watched !== 'stock' && toCents(previous.newBasePrice) !== toCents(current.newBasePrice)) changed.push('newBasePrice');
	return changed;
}

function toItem(product: IDataObject, previous: Fingerprint | null, changed: string[] | null, simplify: boolean): INodeExecutionData {
	if (simplify) {
		const { stockLevel, basePrice, newBasePrice } = fingerprintOf(product);
		return {
			json: { id: decodedNumber(product.id), ean: product.ean ?? null, sku: product.sku ?? null, stockLevel, basePrice, newBasePrice, previous: previous as IDataObject | null },
		};
	}
	return { json: { event: PRODUCT_CHANGED, ...product, previous: previous as IDataObject | null, changed } };
}

function readOptions(ctx: IPollFunctions): { watched: WatchedFields; simplify: boolean } {
	const watched = ctx.getNodeParameter('watchFields', 'both') as WatchedFields;
	return { watched: ['both', 'stock', 'price'].includes(watched) ? watched : 'both', simplify: readBoolean(ctx, 'Simplify', ctx.getNodeParameter('simplify', true)) };
}

/** A scheduled poll: the products whose watched fields changed since the last poll, each once. */
export async function pollProductChanges(ctx: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const { watched, simplify } = readOptions(ctx);
	const staticData = ctx.getWorkflowStaticData('node');
	const state = storedState(staticData[PRODUCT_CHANGED]);
	const now = Date.now();
	const yesterday = startOfUtcDay(now) - DAY_MS;
	const from = state ? Math.min(yesterday, startOfUtcDay(Date.parse(state.polledAt))) : yesterday;
	const known = state ? decodeFingerprints(state.products) : new Map<number, Fingerprint>();

	const products = await productsModifiedSince(ctx, new Date(from));
	const fingerprints = new Map<number, Fingerprint>();
	const items: INodeExecutionData[] = [];
	for (const product of products) {
		const id = decodedNumber(product.id);
		if (id === null || !Number.isSafeInteger(id) || id <= 0) {
			ctx.logger.warn(`Product Changed: skipped a product without a usable id (${JSON.stringify(product.id)})`);
			continue;
		}
		// A product listed twice (pages shifting under a change) is compared once.
		if (fingerprints.has(id)) continue;
		const current = fingerprintOf(product);
		fingerprints.set(id, current);
		if (!state) continue;
		const previous = known.get(id);
		if (!previous) {
			items.push(toItem(product, null, null, simplify));
			continue;
		}
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
	const { simplify } = readOptions(ctx);
	const today = startOfUtcDay(Date.now());
	for (const days of [1, TEST_EVENT_DAYS]) {
		const [product] = await productsModifiedSince(ctx, new Date(today - days * DAY_MS), 1);
		if (product) return [[toItem(product, null, null, simplify)]];
	}
	throw nodeError(ctx.getNode(), `No product was modified in the last ${TEST_EVENT_DAYS} days`, {
		description: 'Once the workflow is active, the trigger fires for each product whose stock or price changes.',
	});
}

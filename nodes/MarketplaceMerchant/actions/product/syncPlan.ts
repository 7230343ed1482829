/**
 * What Sync Stock and Prices decides, without sending anything: which product each entry names,
 * what differs from the catalogue, what the price guard holds back, and which products not in the
 * list get stock 0. The operation (syncStockAndPrices.operation.ts) reads the catalogue (decoded
 * against the basic-products schema, so its numbers are numbers), calls `planSync` and sends the
 * updates the plan lists.
 */
import { type IDataObject } from 'n8n-workflow';

import { decodedNumber } from '../../answers/decode';
import { fieldPath, isBlank, type ValueContext } from '../../values/values';
import { entriesAt, type BulkSource } from '../bulkInput';
import { priceInCents } from '../productValues';
import { nodeError } from '../../transport/errors';

export type MatchBy = 'id' | 'ean' | 'sku';

type SyncStatus = 'updated' | 'unchanged' | 'guarded' | 'not_found' | 'ambiguous' | 'failed' | 'planned' | 'invalid';

const SYNC_STATUSES: SyncStatus[] = ['updated', 'unchanged', 'guarded', 'not_found', 'ambiguous', 'failed', 'planned', 'invalid'];

/** One entry of the list, checked (syncStockAndPrices.operation.ts reads it). */
export interface SyncEntry {
	/** Its position in its list (or the input item's), from 0. */
	position: number;
	/** The match value as the user gave it, for the output. */
	match: string | number;
	/** The match value normalised for lookup (`matchKeyOf`). */
	key: string;
	stockLevel?: number;
	basePrice?: number;
	allowLargePriceChange: boolean;
}

export interface SyncSettings {
	matchBy: MatchBy;
	zeroProductsNotInList: boolean;
	/** Largest share of the catalogue (percent) that may be set to 0 without `confirmZeroing`. */
	maxZeroSharePercent: number;
	confirmZeroing: boolean;
	priceGuard: { maxDecreasePercent: number; maxIncreasePercent: number; holdWholeEntry: boolean } | false;
}

export interface Change {
	from: number | null;
	to: number;
}

/** One output item of a sync: an entry of the list, or a product not in the list that is set to 0. */
export interface SyncOutcome extends IDataObject {
	/** Position of the entry in the list, from 1 (row 1, entry 1); null for a product not in the list. */
	entry: number | null;
	match: string | number | null;
	productId: number | null;
	/** The product's SKU as the catalogue has it, so that a merchant finds the row in the ERP. */
	sku: string | null;
	status: SyncStatus;
	/** What was (or, with Dry Run, would be) sent. */
	changes: { stockLevel?: Change; basePrice?: Change };
	/** A price the guard held back while the entry's stock change went out. */
	heldBack?: { basePrice: Change };
	errors: string[];
}

interface SyncPlan {
	outcomes: SyncOutcome[];
	/** What to send: the outcome it belongs to and the bulk update entry (id and changed fields only). */
	updates: Array<{ outcome: SyncOutcome; body: IDataObject }>;
}

const MATCH_LABEL: Record<MatchBy, string> = { id: 'Product ID', ean: 'EAN', sku: 'SKU' };

function isDigits(text: string): boolean {
	for (let index = 0; index < text.length; index++) {
		const code = text.charCodeAt(index);
		if (code < 48 || code > 57) return false;
	}
	return text.length > 0;
}

/**
 * The lookup key of a match value: SKUs trimmed (letter case counts), ids and EANs without
 * leading zeros, since the same EAN is written with and without them (EAN-13 vs GTIN-14,
 * sheets that drop them).
 */
export function matchKeyOf(matchBy: MatchBy, value: unknown): string | undefined {
	if (value === undefined || value === null) return undefined;
	const text = typeof value === 'string' ? value.trim() : String(value);
	if (text === '') return undefined;
	if (matchBy === 'sku' || !isDigits(text)) return text;
	// Leading zeros dropped, keeping one digit at least.
	let start = 0;
	while (start < text.length - 1 && text.charCodeAt(start) === 48) start++;
	return start === 0 ? text : text.slice(start);
}

/** The price the catalogue will apply: newBasePrice (a change takes effect the next day), else basePrice. */
function currentPriceOf(product: IDataObject): number | null {
	return decodedNumber(product.newBasePrice) ?? decodedNumber(product.basePrice);
}

function formatPercent(value: number): string {
	return `${Math.round(value * 10) / 10}%`;
}

/**
 * Why the guard holds a price back, or undefined when the price may be sent. `withheld` says what
 * of the entry is held back with it: the price only, or the whole entry.
 */
function guardProblem(change: Change, guard: Exclude<SyncSettings['priceGuard'], false>, withheld: string): string | undefined {
	const override = 'set "allowLargePriceChange": true on the entry to send it';
	if (change.from === null || change.from <= 0) {
		return `The current price is unknown, so the price guard cannot judge the new price ${change.to}; ${withheld}; ${override}`;
	}
	const from = priceInCents(change.from);
	const to = priceInCents(change.to);
	if (to * 100 < from * (100 - guard.maxDecreasePercent)) {
		const decrease = ((from - to) / from) * 100;
		return `New price ${change.to} is ${formatPercent(decrease)} below the current ${change.from} (Max Price Decrease ${guard.maxDecreasePercent}%); ${withheld}; ${override}`;
	}
	if (to * 100 > from * (100 + guard.maxIncreasePercent)) {
		const increase = ((to - from) / from) * 100;
		return `New price ${change.to} is ${formatPercent(increase)} above the current ${change.from} (Max Price Increase ${guard.maxIncreasePercent}%); ${withheld}; ${override}`;
	}
	return undefined;
}

function skuOf(product: IDataObject | undefined): string | null {
	return product === undefined || isBlank(product.sku) ? null : String(product.sku);
}

function idOf(product: IDataObject): number | null {
	return decodedNumber(product.id);
}

function outcome(entry: number | null, match: string | number | null, product: IDataObject | undefined, status: SyncStatus): SyncOutcome {
	return { entry, match, productId: product ? idOf(product) : null, sku: skuOf(product), status, changes: {}, errors: [] };
}

/**
 * Catalogue products by match key; a key may belong to several products (reported, never
 * guessed). A key of one product holds the product itself, which spares 50,000 small lists.
 */
function indexCatalogue(catalogue: IDataObject[], matchBy: MatchBy): Map<string, IDataObject | IDataObject[]> {
	const index = new Map<string, IDataObject | IDataObject[]>();
	for (const product of catalogue) {
		const key = matchKeyOf(matchBy, product[matchBy]);
		if (key === undefined) continue;
		const found = index.get(key);
		if (found === undefined) index.set(key, product);
		else if (Array.isArray(found)) found.push(product);
		else index.set(key, [found, product]);
	}
	return index;
}

/** The changes an entry asks for that differ from the product (prices to the cent). */
function changesFor(entry: SyncEntry, product: IDataObject): SyncOutcome['changes'] {
	const changes: SyncOutcome['changes'] = {};
	if (entry.stockLevel !== undefined) {
		const stockLevel = decodedNumber(product.stockLevel);
		if (stockLevel !== entry.stockLevel) changes.stockLevel = { from: stockLevel, to: entry.stockLevel };
	}
	if (entry.basePrice !== undefined) {
		const price = currentPriceOf(product);
		if (price === null || priceInCents(price) !== priceInCents(entry.basePrice)) changes.basePrice = { from: price, to: entry.basePrice };
	}
	return changes;
}

function updateBody(productId: number, changes: SyncOutcome['changes']): IDataObject {
	const body: IDataObject = { id: productId };
	if (changes.stockLevel) body.stockLevel = changes.stockLevel.to;
	if (changes.basePrice) body.basePrice = changes.basePrice.to;
	return body;
}

const NO_PRODUCTS: IDataObject[] = [];

/** The keys named by more than one entry, with the positions of those entries. */
function repeatedKeys(entries: SyncEntry[]): Map<string, number[]> {
	const firstPosition = new Map<string, number>();
	const repeated = new Map<string, number[]>();
	for (const { key, position } of entries) {
		const first = firstPosition.get(key);
		if (first === undefined) firstPosition.set(key, position);
		else repeated.set(key, [...(repeated.get(key) ?? [first]), position]);
	}
	return repeated;
}

/**
 * Compares the entries with the catalogue. Updates are marked `planned`; the caller sends them
 * (and marks them updated or failed) unless it is a dry run. Throws, before anything is sent,
 * when the run would set more of the catalogue to 0 than allowed.
 */
export function planSync(
	ctx: ValueContext & { getItemIndex(): number },
	entries: SyncEntry[],
	source: BulkSource,
	catalogue: IDataObject[],
	settings: SyncSettings,
): SyncPlan {
	const { matchBy } = settings;
	const label = MATCH_LABEL[matchBy];
	const index = indexCatalogue(catalogue, matchBy);
	const repeated = repeatedKeys(entries);

	const outcomes: SyncOutcome[] = [];
	const updates: SyncPlan['updates'] = [];
	// Products some entry names: with Set Stock to 0, all the others are set to 0.
	const named = new Set<IDataObject>();
	for (const entry of entries) {
		const found = index.get(entry.key);
		const only = Array.isArray(found) ? undefined : found;
		const products = only ? undefined : (found as IDataObject[] | undefined) ?? NO_PRODUCTS;
		if (settings.zeroProductsNotInList) for (const product of products ?? [only as IDataObject]) named.add(product);
		const result = outcome(entry.position + 1, entry.match, only, 'planned');
		outcomes.push(result);

		const positions = repeated.get(entry.key);
		if (positions) {
			result.status = 'ambiguous';
			result.errors.push(
				`${label} ${String(entry.match)} is named by ${entriesAt(source, positions)}: repeated entries are not sent, since it is not clear which values apply`,
			);
			continue;
		}
		if (products?.length === 0) {
			result.status = 'not_found';
			result.errors.push(`No product in the catalogue has ${label} ${String(entry.match)}`);
			continue;
		}
		if (!only) {
			const candidates = products ?? NO_PRODUCTS;
			result.status = 'ambiguous';
			result.errors.push(
				`${label} ${String(entry.match)} matches ${candidates.length} products (IDs ${candidates.map((product) => String(product.id)).join(', ')}): nothing was sent`,
			);
			continue;
		}

		result.changes = changesFor(entry, only);
		if (!result.changes.stockLevel && !result.changes.basePrice) {
			result.status = 'unchanged';
			continue;
		}
		const guard = settings.priceGuard;
		const priceChange = result.changes.basePrice;
		// The guard holds back the price; the stock change still goes out (a shop must not keep
		// selling stock it no longer has) unless the merchant chose to hold back the whole entry.
		const sendsStockAlone = guard && !guard.holdWholeEntry && result.changes.stockLevel !== undefined;
		const withheld = sendsStockAlone ? 'the price was held back and the stock change sent' : 'nothing of this entry was sent';
		const problem = priceChange && guard && !entry.allowLargePriceChange ? guardProblem(priceChange, guard, withheld) : undefined;
		if (problem && priceChange) {
			result.status = 'guarded';
			result.errors.push(problem);
			if (!sendsStockAlone) continue;
			result.heldBack = { basePrice: priceChange };
			delete result.changes.basePrice;
		}
		const productId = result.productId;
		if (productId === null) {
			result.status = 'failed';
			result.errors.push(`The catalogue lists this product without a usable id (${JSON.stringify(only.id)})`);
			continue;
		}
		updates.push({ outcome: result, body: updateBody(productId, result.changes) });
	}

	if (settings.zeroProductsNotInList) {
		const toZero = catalogue.filter((product) => !named.has(product) && decodedNumber(product.stockLevel) !== 0);
		const share = catalogue.length === 0 ? 0 : (toZero.length / catalogue.length) * 100;
		if (share > settings.maxZeroSharePercent && !settings.confirmZeroing) {
			throw nodeError(
				ctx.getNode(),
				`Products Not in the List: this run would set stock to 0 for ${toZero.length} of ${catalogue.length} products (${formatPercent(share)}), more than the allowed ${settings.maxZeroSharePercent}% (item ${ctx.getItemIndex()}). Nothing was sent.`,
				{
					itemIndex: ctx.getItemIndex(),
					description:
						`An empty or truncated feed would empty the shop. Check the list; if the feed is right, raise ${fieldPath('Options', 'Max Share Set to 0 (%)')} or turn on ${fieldPath('Options', 'Confirm Setting More to 0')}.`,
				},
			);
		}
		for (const product of toZero) {
			const result = outcome(null, (product[matchBy] as string | number | undefined) ?? null, product, 'planned');
			const productId = result.productId;
			result.notInList = true;
			result.changes = { stockLevel: { from: decodedNumber(product.stockLevel), to: 0 } };
			outcomes.push(result);
			if (productId === null) {
				result.status = 'failed';
				result.errors.push(`The catalogue lists this product without a usable id (${JSON.stringify(product.id)})`);
			} else {
				updates.push({ outcome: result, body: { id: productId, stockLevel: 0 } });
			}
		}
	}
	return { outcomes, updates };
}

/** Statuses of entries that were written, are as asked, or would be written (Dry Run): the others failed. */
const SUCCEEDED: ReadonlySet<SyncStatus> = new Set<SyncStatus>(['updated', 'unchanged', 'planned']);

/** Whether an outcome counts as done: written, as asked, or planned in a dry run. */
export function succeeded(result: SyncOutcome): boolean {
	return SUCCEEDED.has(result.status);
}

/**
 * One outcome as Simplify gives it, the shape of every bulk result: `{ id, sku, success, status,
 * error, input, changes }`, `input` being the entry as checked (its match value under the Match
 * By key, and the values asked for) or as given when it was invalid, null for a product not in the
 * list (`notInList: true`); `error` only when something of the entry was not done.
 */
export function simplifyOutcome(result: SyncOutcome, matchBy: MatchBy, entry: SyncEntry | undefined, raw?: IDataObject): IDataObject {
	let input: IDataObject | null = raw ?? null;
	if (entry) {
		input = { [matchBy]: entry.match };
		if (entry.stockLevel !== undefined) input.stockLevel = entry.stockLevel;
		if (entry.basePrice !== undefined) input.basePrice = entry.basePrice;
		if (entry.allowLargePriceChange) input.allowLargePriceChange = true;
	}
	const simplified: IDataObject = { id: result.productId, sku: result.sku, success: succeeded(result), status: result.status };
	if (result.errors.length > 0) simplified.error = result.errors.join('; ');
	simplified.input = input;
	simplified.changes = result.changes;
	if (result.heldBack) simplified.heldBack = result.heldBack;
	if (result.notInList) simplified.notInList = true;
	return simplified;
}

/** The outcome of an entry that failed its checks (Skip and Report): not sent, with the reason. */
export function invalidOutcome(position: number, match: unknown, reason: string): SyncOutcome {
	const result = outcome(position + 1, typeof match === 'string' || typeof match === 'number' ? match : null, undefined, 'invalid');
	result.errors.push(reason);
	return result;
}

/** Output "Summary Only": counts and ids per status (the match value where no product id is known). */
export function summarize(outcomes: SyncOutcome[], dryRun: boolean): IDataObject {
	const counts: IDataObject = {};
	const ids: IDataObject = {};
	for (const status of SYNC_STATUSES) {
		counts[status] = 0;
		ids[status] = [];
	}
	for (const result of outcomes) {
		counts[result.status] = (counts[result.status] as number) + 1;
		(ids[result.status] as Array<string | number | null>).push(result.productId ?? result.match);
	}
	return {
		dryRun,
		entries: outcomes.filter((result) => result.entry !== null).length,
		notInList: outcomes.filter((result) => result.entry === null).length,
		counts,
		ids,
	};
}

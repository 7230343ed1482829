/**
 * What Sync Stock and Prices decides, without sending anything: which product each entry names,
 * what differs from the catalogue (decoded against the basic-products schema, so its numbers are
 * numbers), what the price guard holds back, and which products not in the list get stock 0.
 */
import { type IDataObject } from 'n8n-workflow';

import { decodedNumber } from '../../answers/read';
import { nodeError } from '../../transport/errors';
import { fieldPath, isBlank, ofItem, type ValueContext } from '../../values/labels';
import { priceInCents, samePrice, shownPrice } from '../../values/numbers';
import { entriesAt, type BulkSource } from '../bulk/entries';
import { eanKey } from '../catalogue/eans';

export type MatchBy = 'id' | 'ean' | 'sku';

const SYNC_STATUSES = ['updated', 'unchanged', 'guarded', 'price_unreadable', 'not_found', 'ambiguous', 'failed', 'planned', 'invalid'] as const;

type SyncStatus = (typeof SYNC_STATUSES)[number];
export interface SyncEntry {
	position: number;
	/** As the user gave it, for the output; `key` as `matchKeyOf` gives it, for lookup. */
	match: string | number;
	key: string;
	stockLevel?: number;
	basePrice?: number;
	allowLargePriceChange: boolean;
	/** How a value was taken (a stock below 0 as 0), for the entry's output. */
	notes?: string[];
	/**
	 * A price that could not be read (Skip and Report) beside a stock that could: as the guard does
	 * with a price it does not trust, the stock goes out and the price is reported, never sent.
	 */
	unreadPrice?: { given: unknown; problem: string };
}

export interface SyncSettings {
	matchBy: MatchBy;
	zeroProductsNotInList: boolean;
	maxZeroSharePercent: number;
	confirmZeroing: boolean;
	priceGuard: { maxDecreasePercent: number; maxIncreasePercent: number; holdWholeEntry: boolean } | false;
}

export interface Change {
	from: number | null;
	to: number;
}

/** An entry of the list, or a product not in the list that is set to 0. */
export interface SyncOutcome extends IDataObject {
	/** From 1 (row 1, entry 1); null for a product not in the list. */
	entry: number | null;
	match: string | number | null;
	productId: number | null;
	/** As the catalogue has it, so that a merchant finds the row in the ERP. */
	sku: string | null;
	status: SyncStatus;
	/** What was (with Dry Run: would be) sent. */
	changes: { stockLevel?: Change; basePrice?: Change };
	/** A price the guard held back while the entry's stock change went out. */
	heldBack?: { basePrice: Change };
	/** A price that could not be read, as given (status price_unreadable; the reason in errors): never sent. */
	notRead?: { basePrice: unknown };
	errors: string[];
	notes?: string[];
	/** The product's name, where the service's write result names it (the current pages). */
	productName?: string;
	/** Match By EAN: the EAN as the catalogue has it, where the entry gave another form of the code. */
	matchedEan?: string;
}

interface SyncPlan {
	outcomes: SyncOutcome[];
	/** Bulk update entries (id and changed fields only), each with its outcome. */
	updates: Array<{ outcome: SyncOutcome; body: IDataObject }>;
}

export const MATCH_LABEL: Record<MatchBy, string> = { id: 'Product ID', ean: 'EAN', sku: 'SKU' };

/** SKUs trimmed (letter case counts), ids and EANs without leading zeros (the forms of one code, catalogue/eans.ts `eanKey`: EAN-13 vs GTIN-14, sheets that drop them). */
export function matchKeyOf(matchBy: MatchBy, value: unknown): string | undefined {
	if (value === undefined || value === null) return undefined;
	const text = typeof value === 'string' ? value.trim() : String(value);
	if (text === '') return undefined;
	return matchBy === 'sku' || !/^\d+$/.test(text) ? text : eanKey(text);
}

function formatPercent(value: number): string {
	return `${Math.round(value * 10) / 10}%`;
}

/**
 * Why the guard holds a price back, if it does; `withheld` says what of the entry is held back with
 * it, `override` what to set in the panel (or the JSON key) to let this entry alone through.
 */
function guardProblem(change: Change, guard: Exclude<SyncSettings['priceGuard'], false>, withheld: string, override: string): string | undefined {
	if (change.from === null || change.from <= 0) {
		return `The current price is unknown, so the price guard cannot judge the new price ${shownPrice(change.to)}; ${withheld}; ${override}`;
	}
	const from = priceInCents(change.from);
	const to = priceInCents(change.to);
	const falling = to < from;
	const limit = falling ? guard.maxDecreasePercent : guard.maxIncreasePercent;
	if (falling ? to * 100 >= from * (100 - limit) : to * 100 <= from * (100 + limit)) return undefined;
	const percent = formatPercent((Math.abs(to - from) / from) * 100);
	return `New price ${shownPrice(change.to)} is ${percent} ${falling ? 'below' : 'above'} the current ${shownPrice(change.from)} (Max Price ${falling ? 'Decrease' : 'Increase'} ${limit}%); ${withheld}; ${override}`;
}

function outcome(entry: number | null, match: string | number | null, product: IDataObject | undefined, status: SyncStatus): SyncOutcome {
	const sku = product === undefined || isBlank(product.sku) ? null : String(product.sku);
	return { entry, match, productId: product ? decodedNumber(product.id) : null, sku, status, changes: {}, errors: [] };
}

/**
 * The entries of one match key: where the list names it (one position, or all of them when
 * repeated) and the catalogue's products of that key, in catalogue order (one held as itself,
 * sparing 50,000 small lists; several are reported, never guessed).
 */
interface KeyEntries {
	positions: number | number[];
	found?: IDataObject | IDataObject[];
}

function changesFor(entry: SyncEntry, product: IDataObject): SyncOutcome['changes'] {
	const changes: SyncOutcome['changes'] = {};
	if (entry.stockLevel !== undefined) {
		const stockLevel = decodedNumber(product.stockLevel);
		if (stockLevel !== entry.stockLevel) changes.stockLevel = { from: stockLevel, to: entry.stockLevel };
	}
	if (entry.basePrice !== undefined) {
		// The price the catalogue will apply: a change takes effect the next day.
		const price = decodedNumber(product.newBasePrice) ?? decodedNumber(product.basePrice);
		if (price === null || !samePrice(price, entry.basePrice)) changes.basePrice = { from: price, to: entry.basePrice };
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

/** The entries by match key, and each entry's record of its key (in entry order): one look-up per entry and per product. */
function entriesByKey(entries: SyncEntry[]): { byKey: Map<string, KeyEntries>; ofEntry: KeyEntries[] } {
	const byKey = new Map<string, KeyEntries>();
	const ofEntry: KeyEntries[] = [];
	for (const { key, position } of entries) {
		let record = byKey.get(key);
		if (record === undefined) byKey.set(key, (record = { positions: position }));
		else if (Array.isArray(record.positions)) record.positions.push(position);
		else record.positions = [record.positions, position];
		ofEntry.push(record);
	}
	return { byKey, ofEntry };
}

/**
 * A sync's plan, made as the catalogue is read (`see` takes each product in catalogue order, as
 * its page arrives, while later pages are still on their way; nothing else of the catalogue is
 * kept), then `plan` once the last page is in.
 */
export interface SyncPlanner {
	see: (product: IDataObject) => void;
	plan: () => SyncPlan;
}

/**
 * Compares the entries with the catalogue; updates are `planned` for the caller to send. `plan`
 * throws, before anything is sent, when the run would set more of the catalogue to 0 than allowed.
 */
export function syncPlanner(
	ctx: ValueContext & { getItemIndex(): number },
	entries: SyncEntry[],
	source: BulkSource,
	settings: SyncSettings,
	/** What to set, in the panel's words, to let one entry past the price guard. */
	howToAllow: (entry: SyncEntry) => string = () => 'set "allowLargePriceChange": true on the entry to send it',
): SyncPlanner {
	const { matchBy } = settings;
	// Made when the first page has arrived, while the pages after it are on their way.
	let index: ReturnType<typeof entriesByKey> | undefined;
	let catalogueSize = 0;
	/** With Set Stock to 0: the products no entry names (none of their key) whose stock is not 0 already. */
	const toZero: IDataObject[] = [];
	const see = (product: IDataObject) => {
		index ??= entriesByKey(entries);
		catalogueSize++;
		const key = matchKeyOf(matchBy, product[matchBy]);
		const record = key === undefined ? undefined : index.byKey.get(key);
		if (record === undefined) {
			if (settings.zeroProductsNotInList && decodedNumber(product.stockLevel) !== 0) toZero.push(product);
		} else if (record.found === undefined) record.found = product;
		else if (Array.isArray(record.found)) record.found.push(product);
		else record.found = [record.found, product];
	};
	return { see, plan: () => planOf(ctx, entries, (index ??= entriesByKey(entries)).ofEntry, source, settings, howToAllow, { toZero, catalogueSize }) };
}

function planOf(
	ctx: ValueContext & { getItemIndex(): number },
	entries: SyncEntry[],
	ofEntry: KeyEntries[],
	source: BulkSource,
	settings: SyncSettings,
	howToAllow: (entry: SyncEntry) => string,
	{ toZero, catalogueSize }: { toZero: IDataObject[]; catalogueSize: number },
): SyncPlan {
	const { matchBy } = settings;
	const label = MATCH_LABEL[matchBy];
	const outcomes: SyncOutcome[] = [];
	const updates: SyncPlan['updates'] = [];
	const mark = (result: SyncOutcome, status: SyncStatus, error: string) => {
		result.status = status;
		result.errors.push(error);
	};
	const send = (result: SyncOutcome, product: IDataObject) => {
		if (result.productId === null) mark(result, 'failed', `The catalogue lists this product without a usable id (${JSON.stringify(product.id)})`);
		else updates.push({ outcome: result, body: updateBody(result.productId, result.changes) });
	};
	for (const [index, entry] of entries.entries()) {
		const { positions, found = NO_PRODUCTS } = ofEntry[index];
		const only = Array.isArray(found) ? undefined : found;
		const result = outcome(entry.position + 1, entry.match, only, 'planned');
		// Said where the entry gave another form of the code than the catalogue has.
		if (matchBy === 'ean' && only && !isBlank(only.ean) && String(only.ean).trim() !== String(entry.match).trim()) result.matchedEan = String(only.ean).trim();
		if (entry.notes) result.notes = entry.notes;
		outcomes.push(result);
		if (entry.unreadPrice) {
			result.notRead = { basePrice: entry.unreadPrice.given };
			result.errors.push(entry.unreadPrice.problem);
		}
		if (Array.isArray(positions)) {
			const where = entriesAt(source, positions);
			mark(result, 'ambiguous', `${label} ${String(entry.match)} is named by ${where}: repeated entries are not sent, since it is not clear which values apply`);
			continue;
		}
		if (!only) {
			const candidates = found as IDataObject[];
			if (candidates.length === 0) mark(result, 'not_found', `No product in the catalogue has ${label} ${String(entry.match)}`);
			else {
				const ids = candidates.map((product) => String(product.id)).join(', ');
				mark(result, 'ambiguous', `${label} ${String(entry.match)} matches ${candidates.length} products (IDs ${ids}): nothing was sent`);
			}
			continue;
		}
		result.changes = changesFor(entry, only);
		const guard = settings.priceGuard;
		if (entry.unreadPrice) {
			// As a price the guard holds back: the stock goes out unless the whole entry is to be held back.
			result.status = 'price_unreadable';
			const holdEntry = guard && guard.holdWholeEntry;
			result.errors[result.errors.length - 1] += holdEntry || !result.changes.stockLevel
				? holdEntry ? '; nothing of this entry was sent' : '; the price was not sent (the stock is unchanged)'
				: '; the price was not sent and the stock change was';
			if (holdEntry) result.changes = {};
			if (holdEntry || !result.changes.stockLevel) continue;
		}
		if (!result.changes.stockLevel && !result.changes.basePrice) {
			result.status = 'unchanged';
			continue;
		}
		const priceChange = result.changes.basePrice;
		// The guard holds back the price; the stock change still goes out (a shop must not keep
		// selling stock it no longer has) unless the merchant chose to hold back the whole entry.
		const sendsStockAlone = guard && !guard.holdWholeEntry && result.changes.stockLevel !== undefined;
		const withheld = sendsStockAlone ? 'the price was held back and the stock change sent' : 'nothing of this entry was sent';
		const problem = priceChange && guard && !entry.allowLargePriceChange ? guardProblem(priceChange, guard, withheld, howToAllow(entry)) : undefined;
		if (problem && priceChange) {
			mark(result, 'guarded', problem);
			if (!sendsStockAlone) continue;
			result.heldBack = { basePrice: priceChange };
			delete result.changes.basePrice;
		}
		send(result, only);
	}

	if (settings.zeroProductsNotInList) {
		const share = catalogueSize === 0 ? 0 : (toZero.length / catalogueSize) * 100;
		if (share > settings.maxZeroSharePercent && !settings.confirmZeroing) {
			throw nodeError(
				ctx.getNode(),
				`Products Not in the List: this run would set stock to 0 for ${toZero.length} of ${catalogueSize} products (${formatPercent(share)}), more than the allowed ${settings.maxZeroSharePercent}%${ofItem(ctx.getItemIndex())}. Nothing was sent.`,
				{
					itemIndex: ctx.getItemIndex(),
					description:
						`An empty or truncated feed would empty the shop. Check the list; if the feed is right, raise ${fieldPath('Options', 'Max Share Set to 0 (%)')} or turn on ${fieldPath('Options', 'Confirm Setting More to 0')}.`,
				},
			);
		}
		for (const product of toZero) {
			const result = outcome(null, (product[matchBy] as string | number | undefined) ?? null, product, 'planned');
			result.notInList = true;
			result.changes = { stockLevel: { from: decodedNumber(product.stockLevel), to: 0 } };
			outcomes.push(result);
			send(result, product);
		}
	}
	return { outcomes, updates };
}

/** Written, as asked, or planned in a dry run. */
export function succeeded({ status }: SyncOutcome): boolean {
	return status === 'updated' || status === 'unchanged' || status === 'planned';
}

/**
 * One outcome as Simplify gives it, the shape of every bulk result; `input` is the entry as checked
 * (its match value under the Match By key), as given when invalid, null for a product not in the list.
 */
export function simplifyOutcome(result: SyncOutcome, matchBy: MatchBy, entry: SyncEntry | undefined, raw?: IDataObject): IDataObject {
	let input: IDataObject | null = raw ?? null;
	if (entry) {
		input = { [matchBy]: entry.match };
		if (entry.stockLevel !== undefined) input.stockLevel = entry.stockLevel;
		if (entry.basePrice !== undefined) input.basePrice = entry.basePrice;
		else if (entry.unreadPrice) input.basePrice = entry.unreadPrice.given as IDataObject[string];
		if (entry.allowLargePriceChange) input.allowLargePriceChange = true;
	}
	const simplified: IDataObject = { id: result.productId, sku: result.sku, success: succeeded(result), status: result.status };
	if (result.productName !== undefined) simplified.productName = result.productName;
	if (result.matchedEan !== undefined) simplified.matchedEan = result.matchedEan;
	if (result.errors.length > 0) simplified.error = result.errors.join('; ');
	if (result.notes) simplified.notes = result.notes;
	simplified.input = input;
	simplified.changes = result.changes;
	if (result.heldBack) simplified.heldBack = result.heldBack;
	if (result.notRead) simplified.notRead = result.notRead;
	if (result.notInList) simplified.notInList = true;
	return simplified;
}

/** An entry that failed its checks (Skip and Report). */
export function invalidOutcome(position: number, match: unknown, reason: string): SyncOutcome {
	const result = outcome(position + 1, typeof match === 'string' || typeof match === 'number' ? match : null, undefined, 'invalid');
	result.errors.push(reason);
	return result;
}

/** Output "Summary Only": counts and ids (else match values) per status. */
export function summarize(outcomes: SyncOutcome[], dryRun: boolean): IDataObject {
	const counts: IDataObject = Object.fromEntries(SYNC_STATUSES.map((status) => [status, 0]));
	const ids: IDataObject = Object.fromEntries(SYNC_STATUSES.map((status) => [status, []]));
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

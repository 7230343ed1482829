import { NodeOperationError, type IDataObject, type IExecuteFunctions, type INodeProperties } from 'n8n-workflow';

import { formatDayMonthYear } from '../../values/dates';
import { asNodeError, joinSentences } from '../../transport/errors';
import { sendSettingsOf } from '../../transport/send';
import { invalidInput, isBlank, MISSING } from '../../values/labels';
import { PRICE_FORMS, readNumberFormat, readPrice, shownPrice } from '../../values/numbers';
import { DATE_FORMS, readDay, readEntryField, type EntryField } from '../../values/values';
import { panelLabels } from '../common';
import { ItemContext, type BulkEntry } from '../bulk/entries';
import { readsOneEntryPerItem } from '../bulk/fields';
import {
	bulkDiscountOperation,
	changeableDiscountsRange,
	checkDiscountPeriod,
	checkDiscountStart,
	dayField,
	discountLocatorField,
	discountTypeOf,
	discountTypeOptions,
	listedDiscountDays,
	readChangeableDiscounts,
	readDiscountId,
	typeByRules,
	type DiscountType,
	type ListedDiscountDays,
} from './shared';
import { currencyField, currencyOf, settleCurrencies } from './currency';
import type { OperationModule } from '../contract';

const CHANGES = ['newDiscountPrice', 'newDateFrom', 'newDateTo', 'newDiscountType'] as const;
type Change = (typeof CHANGES)[number];

/** An update entry as the user gave it, and (once the discount is read) the body the service requires. */
interface CheckedUpdate {
	discountId: string;
	/** Where the entry names its discount: `discountId`, or `id` as Schedule's and Get Many's outputs carry it. */
	idKey: string;
	price?: number;
	/** The currency the entry gives (undefined: the account's), and the one it goes out in once the account's is known (currency.ts). */
	givenCurrency?: string;
	currency?: string;
	from?: Date;
	to?: Date;
	type?: DiscountType;
	body?: IDataObject;
	/** The earlier entry of the same batch this one repeats (same discount, same change): not sent again, its result given to both. */
	repeats?: BulkEntry<CheckedUpdate>;
}

/** What an entry asks of its discount, to tell a repeat (the same fixed ID and change on several input items) from a further change. */
function changeKey(update: CheckedUpdate): string {
	return JSON.stringify([update.price, update.givenCurrency, update.from?.getTime(), update.to?.getTime(), update.type]);
}

/** The user's values, checked on their own: the rules that need the discount as it is come once it is read (resolveUpdates). */
function checkUpdate(entry: BulkEntry<CheckedUpdate>): CheckedUpdate {
	const { ctx, raw, label, reader } = entry;
	const idKey = isBlank(raw.discountId) && !isBlank(raw.id) ? 'id' : 'discountId';
	const discountId = FIELDS.discountId.read(reader(idKey), label(idKey), raw[idKey]);
	if (CHANGES.every((change) => isBlank(raw[change]))) {
		throw invalidInput(ctx, label(), 'has nothing to change', `Give at least one of: ${CHANGES.map((change) => `${ROW_LABELS[change]} (${change})`).join(', ')}`);
	}
	const update: CheckedUpdate = { discountId, idKey, givenCurrency: FIELDS.newDiscountPriceCurrency.read(reader('newDiscountPriceCurrency'), label('newDiscountPriceCurrency'), raw.newDiscountPriceCurrency) };
	if (!isBlank(raw.newDiscountPrice)) update.price = readEntryField(entry, FIELDS.newDiscountPrice, readNumberFormat(ctx));
	if (!isBlank(raw.newDiscountType)) update.type = FIELDS.newDiscountType.read(reader('newDiscountType'), label('newDiscountType'), raw.newDiscountType);
	if (!isBlank(raw.newDateFrom)) update.from = FIELDS.newDateFrom.read(reader('newDateFrom'), label('newDateFrom'), raw.newDateFrom);
	if (!isBlank(raw.newDateTo)) update.to = FIELDS.newDateTo.read(reader('newDateTo'), label('newDateTo'), raw.newDateTo);
	if (update.from) checkDiscountStart(reader('newDateFrom'), update.type, update.from, label('newDateFrom'));
	checkDiscountPeriod(reader('newDateTo'), label('newDateTo'), update.type, update.from, update.to);
	return update;
}

/** A discount as the service lists it, read once per run; later entries of the same discount see the earlier ones' changes. */
interface Current {
	productId: number;
	price?: number;
	from: Date;
	to?: Date;
	type?: DiscountType;
	state: 'pending' | 'running';
}

const sameDay = (a: Date | undefined, b: Date | undefined) => a?.getTime() === b?.getTime();

/**
 * The body the current documentation requires. A running discount: its product, the new (lower)
 * price and the currency, every other field null; its dates and type cannot change. A pending one:
 * every field, the ones not given taken from the discount as it is.
 */
function updateBody(entry: BulkEntry<CheckedUpdate>, current: Current): IDataObject {
	const update = entry.value as CheckedUpdate;
	const { label, reader } = entry;
	const refuse = (key: Change, problem: string, hint?: string) => invalidInput(reader(key), label(key), problem, hint);
	const body: IDataObject = { discountId: update.discountId, merchantInventoryId: current.productId };
	if (current.state === 'running') {
		const since = `discount ${update.discountId} is running (since ${formatDayMonthYear(current.from)})`;
		const hint = 'A running discount takes one change, a lower price: leave the dates and the type empty';
		if (update.from && !sameDay(update.from, current.from)) throw refuse('newDateFrom', `${since}: its start cannot change`, hint);
		if (update.to && !sameDay(update.to, current.to)) throw refuse('newDateTo', `${since}: its end cannot change`, hint);
		if (update.type && update.type !== current.type) throw refuse('newDiscountType', `${since}: its type cannot change`, hint);
		if (update.price === undefined) throw refuse('newDiscountPrice', `${MISSING}: ${since}, and a lower price is the one change it takes`);
		if (current.price !== undefined && update.price >= current.price) {
			throw refuse('newDiscountPrice', `${shownPrice(update.price, update.currency)} is not below ${shownPrice(current.price, update.currency)}, the price of ${since}`, 'A running discount can only get a lower price');
		}
		current.price = update.price;
		return { ...body, newDateFrom: null, newDateTo: null, newDiscountPrice: String(update.price), newDiscountPriceCurrency: update.currency, newDiscountType: null };
	}
	const pending = `discount ${update.discountId} has not started, so the service needs every field`;
	const type = update.type ?? current.type;
	if (!type) {
		throw refuse('newDiscountType', `${MISSING}: ${pending}, and its listing does not tell a SALE from a SEASONAL_SALE`, 'Give its type (New Discount Type), the current one or a new one');
	}
	const price = update.price ?? current.price;
	if (price === undefined) throw refuse('newDiscountPrice', `${MISSING}: ${pending}, and its listing gives no price`);
	const from = update.from ?? current.from;
	// A discount becoming a CLEARANCE_SALE loses its end: a clearance sale runs until it is cancelled.
	const to = update.to ?? (type === 'CLEARANCE_SALE' ? undefined : current.to);
	if (!to && type !== 'CLEARANCE_SALE') throw refuse('newDateTo', `${MISSING}: a ${type} needs an end day`);
	// The period as it will be, worded on the field the user changed.
	const changed = (['newDateTo', 'newDateFrom', 'newDiscountType', 'newDiscountPrice'] as const).find((key) => !isBlank(entry.raw[key])) as Change;
	const startKey = update.from ? 'newDateFrom' : 'newDiscountType';
	if (update.from || update.type) checkDiscountStart(reader(startKey), type, from, label(startKey));
	checkDiscountPeriod(reader(changed), label(changed), type, from, to);
	Object.assign(current, { price, from, to, type });
	return {
		...body,
		newDateFrom: formatDayMonthYear(from),
		newDateTo: to ? formatDayMonthYear(to) : null,
		newDiscountPrice: String(price),
		newDiscountPriceCurrency: update.currency,
		newDiscountType: type,
	};
}

/** A listed discount as Current (its days as the service's answer names them: `listedDiscountDays`), or why its entry cannot be sent. */
function currentOf(listed: IDataObject | undefined, daysOf: (discount: IDataObject) => ListedDiscountDays, now: Date): Current | string {
	const range = changeableDiscountsRange(now);
	if (!listed) {
		return `is not among the discounts running now or starting by ${range.dateTo} (the service's list from ${range.dateFrom}): it has ended, was cancelled or does not exist`;
	}
	const { from, to, state } = daysOf(listed);
	if (state === 'ended') return `ended on ${formatDayMonthYear(to as Date)}: ended discounts cannot be updated`;
	if (state === undefined || from === undefined || typeof listed.merchantInventoryId !== 'number') {
		return `the service lists it without a readable start or product (dateFrom ${String(listed.dateFrom)}, merchantInventoryId ${String(listed.merchantInventoryId)})`;
	}
	const price = typeof listed.discountPrice === 'number' ? listed.discountPrice : undefined;
	return { productId: listed.merchantInventoryId, price, from, to, type: typeByRules(from, to), state };
}

/**
 * Reads the discounts once for the whole run (one request) and builds each entry's body; an entry
 * the service would refuse becomes invalid (Invalid Entries decides). A list that cannot be read
 * fails the run: sending without it would send what the service may refuse or null.
 */
async function resolveUpdates(exec: IExecuteFunctions, entries: Array<BulkEntry<CheckedUpdate>>): Promise<void> {
	if (entries.length === 0) return;
	const now = new Date();
	let listed: IDataObject[];
	try {
		listed = await readChangeableDiscounts(exec, now, sendSettingsOf(entries[0].ctx));
	} catch (error) {
		const failure = asNodeError(exec.getNode(), error);
		const range = changeableDiscountsRange(now);
		failure.message = `Could not read the discounts to update: ${failure.message}`;
		failure.description = joinSentences(
			failure.description,
			`Update reads the discounts running now or starting within a year (GET discounts, ${range.dateFrom} to ${range.dateTo}) to send each one what the service requires; no update was sent.`,
		);
		throw failure;
	}
	await settleCurrencies(exec, entries, (update) => ({ given: update.givenCurrency, key: 'newDiscountPriceCurrency' }), (update, currency) => (update.currency = currency));
	const byId = new Map(listed.map((discount) => [String(discount.discountId), discount]));
	const daysOf = listedDiscountDays(listed, now);
	const currents = new Map<string, Current>();
	// Entries go out per batch: all input items' together (One Item per Discount), else each item's list.
	const oneBatch = readsOneEntryPerItem(new ItemContext(exec, 0));
	const lastSent = new Map<string, BulkEntry<CheckedUpdate>>();
	for (const entry of entries) {
		if (entry.problem) continue;
		const update = entry.value as CheckedUpdate;
		// The same discount given the same change again (a fixed ID on every item of a run) is a repeat:
		// sent once, not built on itself (a running discount's second "lower price" would be refused as
		// not below the first). A different change builds on the earlier ones, in the order given.
		const batchKey = `${oneBatch ? '' : entry.ctx.itemIndex}\u0000${update.discountId}`;
		const last = lastSent.get(batchKey);
		if (last && changeKey(last.value as CheckedUpdate) === changeKey(update)) {
			update.repeats = last;
			update.body = (last.value as CheckedUpdate).body;
			continue;
		}
		try {
			let current = currents.get(update.discountId);
			if (!current) {
				const found = currentOf(byId.get(update.discountId), daysOf, now);
				if (typeof found === 'string') {
					throw invalidInput(entry.reader(update.idKey), entry.label(update.idKey), found, 'Pick the discount from the list, or find its ID with Discount › Get Many');
				}
				current = found;
				currents.set(update.discountId, current);
			}
			update.body = updateBody(entry, current);
			lastSent.set(batchKey, entry);
		} catch (error) {
			if (!(error instanceof NodeOperationError)) throw asNodeError(exec.getNode(), error);
			entry.problem = error;
		}
	}
}

/** An update row's fields, in the panel's order: each its key, its panel field and its reader. */
const FIELDS = {
	discountId: {
		key: 'discountId',
		field: discountLocatorField('The discount to change: pick a current or upcoming one from the list, or give its ID (Schedule and Get Many return it)'),
		read: readDiscountId,
	},
	newDiscountPrice: {
		key: 'newDiscountPrice',
		field: {
			displayName: 'New Discount Price',
			name: 'newDiscountPrice',
			type: 'string',
			default: '',
			placeholder: 'e.g. 849.99',
			description: `Leave empty to keep the price. A running discount can only get a lower price. ${PRICE_FORMS}.`,
		},
		read: readPrice,
	},
	newDiscountPriceCurrency: {
		key: 'newDiscountPriceCurrency',
		field: currencyField('newDiscountPriceCurrency', 'New Currency', "Currency of the price: the account's own"),
		read: currencyOf,
	},
	newDateFrom: {
		key: 'newDateFrom',
		field: dayField(
			'New Date From',
			'newDateFrom',
			`Leave empty to keep the start day; otherwise today or later. The dates of a running discount cannot change. Accepts ${DATE_FORMS}.`,
		),
		read: readDay,
	},
	newDateTo: { key: 'newDateTo', field: dayField('New Date To', 'newDateTo', `Leave empty to keep the end day. Accepts ${DATE_FORMS}.`), read: readDay },
	newDiscountType: {
		key: 'newDiscountType',
		field: {
			displayName: 'New Discount Type',
			name: 'newDiscountType',
			type: 'options',
			options: [...discountTypeOptions, { name: 'Unchanged', value: '', description: 'Keep the current type' }],
			default: '',
			description: 'The type of a running discount cannot change. For an upcoming discount dated within a seasonal start window and at most 31 days long, give its type even when it stays: the service needs it and its list does not say whether it is a SALE or a SEASONAL_SALE.',
		},
		read: discountTypeOf,
	},
} satisfies Record<string, EntryField<unknown>>;

const rowFields: INodeProperties[] = Object.values(FIELDS).map(({ field }) => field);

const ROW_LABELS = panelLabels(rowFields);

const bulkModule = bulkDiscountOperation<CheckedUpdate>({
	option: {
		name: 'Update',
		value: 'update',
		action: 'Update discounts',
		description:
			'Change scheduled or running discounts in bulk, one per input item (a sheet row) or a list, by discountId: newDiscountPrice, newDateFrom, newDateTo, newDiscountType. Reads the current discounts first (one request) and sends what the service requires: for a running discount its product and the new price only (it can only get a lower price; its dates and type cannot change), for an upcoming one every field, the unchanged ones as they are. Ended discounts cannot be updated. The same discount given the same change by several entries (a fixed ID on every input item) is sent once; different changes of one discount build on each other in the order given. Outputs one item per update, in the order given, with the discount ID, productId, success, error and the input sent.',
	},
	method: 'PUT',
	entries: 'discount updates',
	entry: 'Discount Update',
	nameEntry: (_ctx, entry) => {
		const id = isBlank(entry.discountId) ? undefined : (entry.discountId as IDataObject).value ?? entry.discountId;
		return isBlank(id) ? undefined : `Discount ID ${String(id)}`;
	},
	rowsName: 'discountUpdatesUi',
	rowFields,
	jsonDescription:
		'each with discountId (or id, as Schedule and Get Many give it) and at least one change: newDiscountPrice, newDateFrom, newDateTo (dd/MM/yyyy or ISO 8601 dates), newDiscountType; newDiscountPriceCurrency defaults to the currency of the account (KM is BAM)',
	jsonPlaceholder: '[{"discountId": "3f2c9a4e-8b1d-4c6e-9f7a-2d5b8e1c0a47", "newDiscountPrice": "849.99"}]',
	check: checkUpdate,
	resolve: resolveUpdates,
	body: (update) => update.body as IDataObject,
	repeatOf: (update) => update.repeats,
	idOfInvalid: (raw) => {
		const id = raw.discountId ?? raw.id;
		return typeof id === 'object' && id !== null ? (id as IDataObject).value : id;
	},
});

export const operation: OperationModule = {
	...bulkModule,
	tool: { keepOut: 'it changes many discounts from one list at once; a misread entry moves prices with nobody to check it first' },
};

/**
 * Product › Sync Stock and Prices: make the marketplace match a list (an ERP export, a sheet). A
 * batch reads the catalogue once, compares every entry with it (syncPlan.ts), and sends only what
 * changed with the bulk update.
 */
import {
	updateDisplayOptions,
	type NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeProperties,
	type INodePropertyOptions,
} from 'n8n-workflow';

import { sendSettingsOf, type SendSettings } from '../../transport/send';
import { invalidInput, isBlank, MISSING, readChoice, type SettingsContext, type ValueContext } from '../../values/labels';
import { readId, readNumberFormat, readPercent, readPrice, readSignedStockLevel, type NumberFormat } from '../../values/numbers';
import { readBoolean, readEan, readFlag, readSimplify, readText } from '../../values/values';
import { oncePer, type Batch, type BulkEntry, type BulkSource, type ItemContext } from '../bulk/entries';
import { bulkInputFields, skipsInvalidEntries } from '../bulk/fields';
import { bulkSteps, problemText, type BatchOutput } from '../bulk/run';
import { sendInBulk } from '../bulk/write';
import { NUMBER_FORMAT_OPTION, booleanField, optionsCollection, panelLabels, simplifyField, textField } from '../common';
import { MATCH_LABEL, invalidOutcome, matchKeyOf, simplifyOutcome, syncPlanner, succeeded, summarize, type MatchBy, type SyncEntry, type SyncOutcome, type SyncSettings } from './syncPlan';
import { PRODUCT_BULK_UPDATE, productListInput } from './updateMany.operation';
import { NEGATIVE_STOCK_OPTION, stockLevelToSend } from '../catalogue/fields';
import { readBasicProducts } from '../catalogue/catalogue';
import type { OperationModule } from '../contract';

const OPERATION = 'syncStockAndPrices';

const JSON_HINT =
	'An array of objects such as [{"ean": "8600000000017", "stockLevel": 5, "basePrice": 1299}], each naming its product by the Match By field ("id", "ean" or "sku") and giving stockLevel, basePrice or both; "allowLargePriceChange": true lets one entry past the price guard';

const BULK_INPUT = productListInput(
	'products to sync',
	{
		description: `The list to match. ${JSON_HINT}. One input item is one sync run: aggregate sheet rows into one list first.`,
		placeholder: '[{"ean": "8600000000017", "stockLevel": 5, "basePrice": 1299}]',
		hint: JSON_HINT,
		// Entries name their product by the Match By key; rows give it as Match Value.
		labels: MATCH_LABEL,
	},
	[
		textField('Match Value', 'match', 'The product ID, EAN or SKU (as Match By says) of the product', {
			required: true,
			placeholder: 'e.g. 8600000000017',
		}),
		textField('Stock Level', 'stockLevel', 'Stock to set: a whole number (below 0 is taken as 0 unless Options › Negative Stock says otherwise); empty leaves the stock as it is'),
		textField('Base Price', 'basePrice', 'Price with VAT to set, at most 2 decimals, written as Options › Number Format says (Plain: 1299 or 1299.00); empty leaves the price as it is. With Skip and Report, a price that cannot be read is reported and the stock still sent'),
		booleanField(
			'Allow Large Price Change',
			'allowLargePriceChange',
			"Whether this entry's price may pass the price guard. With One Item per Product, map it to a column (true for the rows to let through) or to an expression true for one row only, e.g. {{ $json.EAN === '8600000000017' }}",
		),
	],
	(ctx, entry) => (isBlank(entry.match) ? undefined : `${MATCH_LABEL[matchByOf(ctx)]} ${String(entry.match)}`),
);

const MATCH_READERS: Record<MatchBy, (ctx: ValueContext, field: string, value: unknown) => string | number> = {
	id: readId,
	ean: readEan,
	sku: readText,
};

/** Read once per item: a parameter read costs about 1.5 µs, a third of a 50,000-entry sync's checks. */
const matchByOf = oncePer((ctx: SettingsContext) => readChoice(ctx, FIELD_LABELS.matchBy, ctx.getNodeParameter('matchBy', 'ean'), ['id', 'ean', 'sku'] satisfies MatchBy[]));

/**
 * The key an entry names its product under: Match Value (`match`) from the panel; in JSON the Match
 * By key or `match`, and for Product ID also the names the node's outputs and the API give it.
 */
const MATCH_KEYS: Record<MatchBy, string[]> = { id: ['id', 'match', 'productId', 'merchantInventoryId'], ean: ['ean', 'match'], sku: ['sku', 'match'] };

function matchKeyIn(entry: IDataObject, matchBy: MatchBy, fromRows: boolean): string {
	if (fromRows) return 'match';
	// A loop over constant lists: it runs for every entry of a 50,000-entry feed.
	for (const key of MATCH_KEYS[matchBy]) if (!isBlank(entry[key])) return key;
	return matchBy;
}

function readSettings(ctx: ItemContext): SyncSettings {
	const options = ctx.getNodeParameter('options', {}) as IDataObject;
	const guardOn = readFlag(ctx, 'options.priceGuard', FIELD_LABELS.priceGuard, true);
	return {
		matchBy: matchByOf(ctx),
		zeroProductsNotInList: readChoice(ctx, FIELD_LABELS.notInList, ctx.getNodeParameter('notInList', 'leave'), ['leave', 'zero']) === 'zero',
		maxZeroSharePercent: readPercent(ctx, FIELD_LABELS.maxZeroSharePercent, options.maxZeroSharePercent ?? 20),
		confirmZeroing: readFlag(ctx, 'options.confirmZeroing', FIELD_LABELS.confirmZeroing, false),
		priceGuard: guardOn
			? {
					maxDecreasePercent: readPercent(ctx, FIELD_LABELS.maxDecreasePercent, options.maxDecreasePercent ?? 50),
					maxIncreasePercent: readPercent(ctx, FIELD_LABELS.maxIncreasePercent, options.maxIncreasePercent ?? 100, Infinity),
					holdWholeEntry: readChoice(ctx, FIELD_LABELS.guardedEntries, options.guardedEntries ?? 'sendStock', ['sendStock', 'holdEntry']) === 'holdEntry',
				}
			: false,
	};
}

/** Skip and Report: an entry with an unreadable price still sends its stock (Stop the Run keeps stopping at it). */
const skipsInvalidOf = oncePer(skipsInvalidEntries);

function readEntryPrice({ raw, label, reader }: BulkEntry<SyncEntry>, format: NumberFormat): number {
	return readPrice(reader('basePrice'), label('basePrice'), raw.basePrice, format);
}

function checkSyncEntry(bulkEntry: BulkEntry<SyncEntry>): SyncEntry {
	const { ctx, raw: entry, position, label, reader, fromPanel } = bulkEntry;
	const matchBy = matchByOf(ctx);
	const format = readNumberFormat(ctx);
	const matchKey = matchKeyIn(entry, matchBy, fromPanel);
	const given = entry[matchKey];
	if (isBlank(given)) throw invalidInput(reader(matchKey), label(matchKey), MISSING, `Match By is "${matchBy}": ${JSON_HINT}`);
	const checked: SyncEntry = {
		position,
		match: given as string | number,
		key: matchKeyOf(matchBy, MATCH_READERS[matchBy](reader(matchKey), label(matchKey), given)) as string,
		allowLargePriceChange: isBlank(entry.allowLargePriceChange)
			? false
			: readBoolean(reader('allowLargePriceChange'), label('allowLargePriceChange'), entry.allowLargePriceChange),
		// Every field from the start, undefined until read: one shape for the 50,000 entries of a full feed, no field added later.
		stockLevel: undefined,
		basePrice: undefined,
		notes: undefined,
		unreadPrice: undefined,
	};
	if (!isBlank(entry.stockLevel)) {
		const stockCtx = reader('stockLevel');
		const stock = readSignedStockLevel(stockCtx, label('stockLevel'), entry.stockLevel, format);
		const { stockLevel, note } = stockLevelToSend(ctx, stockCtx, label('stockLevel'), stock, 'taken');
		checked.stockLevel = stockLevel;
		if (note) checked.notes = [note];
	}
	if (!isBlank(entry.basePrice)) {
		if (checked.stockLevel === undefined || !skipsInvalidOf(ctx)) checked.basePrice = readEntryPrice(bulkEntry, format);
		else {
			try {
				checked.basePrice = readEntryPrice(bulkEntry, format);
			} catch (error) {
				// invalidInput's error: the value as given, the field in the panel's words, the format's hint.
				const refused = error as NodeOperationError;
				const why = typeof refused.description === 'string' && refused.description !== '' ? ` (${refused.description})` : '';
				checked.unreadPrice = { given: entry.basePrice, problem: `${problemText(refused)}${why}` };
			}
		}
	}
	if (checked.stockLevel === undefined && checked.basePrice === undefined) {
		const why = [reader('stockLevel').whyMissing?.(), reader('basePrice').whyMissing?.()].filter((text) => text !== undefined);
		throw invalidInput(ctx, label(), why.length > 0 ? `nothing to sync: ${why.join('; ')}` : 'nothing to sync', 'Give Stock Level (stockLevel), Base Price (basePrice) or both');
	}
	return checked;
}

/**
 * Sends the planned updates and marks each outcome by its result: an entry without one is failed,
 * never assumed written. A guarded entry whose stock went out stays guarded.
 */
async function sendUpdates(exec: IExecuteFunctions, settings: SendSettings, updates: Array<{ outcome: SyncOutcome; body: IDataObject }>): Promise<void> {
	const results = await sendInBulk(exec, PRODUCT_BULK_UPDATE, updates.map(({ body }) => body), settings);
	updates.forEach(({ outcome }, index) => {
		const sent = results[index];
		const error = !sent.ok ? `The bulk update request failed: ${sent.message}` : sent.result.success === true ? undefined : String(sent.result.error);
		if (sent.ok && typeof sent.result.productName === 'string') outcome.productName = sent.result.productName;
		if (error === undefined) {
			// Guarded and price_unreadable entries keep their status: their price was not sent.
			if (outcome.status !== 'guarded' && outcome.status !== 'price_unreadable') outcome.status = 'updated';
		} else {
			outcome.status = 'failed';
			outcome.errors.push(error);
		}
	});
}

const ALLOW = 'allowLargePriceChange';

/** An expression true for one input item only, from the expression that maps its Match Value: `{{ String($json.EAN) === '8600…' }}`. */
function rowExpression(ctx: ItemContext, match: string | number): string {
	const raw = ctx.getNodeParameter('itemMatch', undefined, { rawExpressions: true });
	const mapped = typeof raw === 'string' ? /^=\s*\{\{\s*([\s\S]+?)\s*\}\}\s*$/.exec(raw)?.[1] : undefined;
	const value = `'${String(match).replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
	return `{{ String(${mapped ?? '$json.EAN'}) === ${value} }}`;
}

/**
 * What lets one entry past the price guard, in the words of where it came from: the per-item
 * field mapped to a column or an expression true for that row alone, the row's toggle, or the
 * JSON key on that entry. Worked out only for the entries the guard holds back.
 */
function howToAllowIn(entries: Array<BulkEntry<SyncEntry>>, source: BulkSource): (entry: SyncEntry) => string {
	let byValue: Map<SyncEntry, BulkEntry<SyncEntry>> | undefined;
	return (checked) => {
		byValue ??= new Map(entries.map((entry) => [entry.value as SyncEntry, entry]));
		const entry = byValue.get(checked);
		if (!entry) return `set "${ALLOW}": true on the entry to send it`;
		if (!entry.fromPanel) return `to send it, set "${ALLOW}": true on ${entry.label()}`;
		if (source.list !== '') return `to send it, turn on ${entry.label(ALLOW)}`;
		const field = FIELD_LABELS.itemAllowLargePriceChange ?? 'Allow Large Price Change';
		return `to send it, let ${entry.label(ALLOW)} be true: map ${field} to a column of the sheet (true for the rows to let through), or to an expression true for this row alone, e.g. ${rowExpression(entry.ctx, checked.match)}`;
	};
}

/** Dry Run: a preview, whose would-be rejections never fail the run (Settings › On Error). */
function isDryRun(ctx: ItemContext): boolean {
	return readFlag(ctx, 'dryRun', FIELD_LABELS.dryRun, false);
}

async function syncBatch(exec: IExecuteFunctions, batch: Batch<SyncEntry>): Promise<BatchOutput[]> {
	const ctx = batch.entries[0].ctx;
	const settings = readSettings(ctx);
	const dryRun = isDryRun(ctx);
	const summaryOnly = readChoice(ctx, FIELD_LABELS.output, ctx.getNodeParameter('output', 'entries'), ['entries', 'summary']) === 'summary';
	const simplify = readSimplify(ctx);
	const sendSettings = sendSettingsOf(ctx);
	const valid = batch.entries.filter((entry) => entry.problem === undefined);
	const planner = syncPlanner(ctx, valid.map((entry) => entry.value as SyncEntry), batch.source, settings, howToAllowIn(valid, batch.source));
	await readBasicProducts(exec, sendSettings, { each: planner.see });
	const plan = planner.plan();
	if (!dryRun) await sendUpdates(exec, sendSettings, plan.updates);

	// The plan's outcomes for valid entries, invalid ones in their place.
	let next = 0;
	const perEntry = batch.entries.map(({ problem, position, raw }) =>
		problem ? invalidOutcome(position, raw.match ?? raw[settings.matchBy], problemText(problem)) : plan.outcomes[next++],
	);
	const notInList = plan.outcomes.slice(next);
	const heldBack = plan.outcomes.filter(isHeldPrice).length;
	const quietHeldPrices = readFlag(ctx, 'options.quietHeldPrices', FIELD_LABELS.quietHeldPrices, false);
	if (heldBack > 0 && !dryRun) {
		// A price waits for the merchant while its stock went out: said beside the rejections, whether or not it is one.
		const message = `${heldBack} price${heldBack === 1 ? '' : 's'} held back by the price guard, the stock sent: see the items with status guarded (heldBack)`;
		exec.addExecutionHints({ message, type: 'warning', location: 'outputPane' });
	}
	const shape = (outcome: SyncOutcome, entry?: BulkEntry<SyncEntry>) =>
		simplify ? simplifyOutcome(outcome, settings.matchBy, entry?.value, entry?.raw) : (outcome as IDataObject);
	/** One output per outcome, made in one pass (50,000 in a full feed): no copies of the list. */
	const outputOf = (outcome: SyncOutcome, position: number | undefined): BatchOutput => {
		const output: BatchOutput = { json: shape(outcome, position === undefined ? undefined : batch.entries[position]), entry: position, rejected: isRejection(outcome) };
		if (isHeldPrice(outcome)) {
			output.rejected = !quietHeldPrices;
			if (!quietHeldPrices) output.partlyWritten = true;
		}
		if (position === undefined) output.label = notInListLabel(outcome, settings.matchBy);
		return output;
	};
	const outputs: BatchOutput[] = [];
	for (const [position, outcome] of perEntry.entries()) outputs.push(outputOf(outcome, position));
	for (const outcome of notInList) outputs.push(outputOf(outcome, undefined));
	if (!summaryOnly) return outputs;
	// The summary counts every entry; the rejected ones still go where On Error sends rejections.
	const rejected = outputs.filter((output) => output.rejected);
	return [{ json: summarize([...perEntry, ...notInList], dryRun), pairedItem: batch.items.map((item) => ({ item })) }, ...rejected.map((output) => ({ ...output, inSummary: true }))];
}

/** A price the price guard held back while the entry's stock went out. */
function isHeldPrice(outcome: SyncOutcome): boolean {
	return outcome.status === 'guarded' && outcome.heldBack !== undefined;
}

/**
 * An entry (or a product set to 0) the run did not write as asked (`succeeded` false): invalid, not
 * found, ambiguous, failed, held back whole by the price guard; and a price held back while the
 * entry's stock went out (`isHeldPrice`), unless Options › Keep Held Prices Quiet.
 */
function isRejection(outcome: SyncOutcome): boolean {
	return !succeeded(outcome);
}

function notInListLabel(outcome: SyncOutcome, matchBy: SyncSettings['matchBy']): string {
	const named = outcome.productId !== null ? `Product ID ${outcome.productId}` : `${MATCH_LABEL[matchBy]} ${String(outcome.match)}`;
	return `${named} (not in the list, set to 0)`;
}

const syncStockAndPricesSteps = bulkSteps<SyncEntry>({ input: BULK_INPUT, check: checkSyncEntry, send: syncBatch, preview: isDryRun });

const syncStockAndPricesOperation: INodePropertyOptions = {
	name: 'Sync Stock and Prices',
	value: OPERATION,
	action: 'Sync stock and prices',
	description:
		'Make the marketplace match a sheet or ERP export: one product per input item (or a list), matched by EAN, ID or SKU; reads the catalogue once, sends only what changed, holds back suspicious prices, and reports per entry, in the order given: product ID, SKU, success, status (updated, unchanged, guarded, price_unreadable, not_found, ambiguous, invalid, failed or planned with Dry Run), error and the input',
};

const displayOptions = { show: { resource: ['product'], operation: [OPERATION] } };

function percentOption(displayName: string, name: string, byDefault: number, description: string): INodeProperties {
	return { displayName, name, type: 'number', typeOptions: { minValue: 0, maxValue: 100 }, default: byDefault, description };
}

const syncStockAndPricesFields = updateDisplayOptions(displayOptions, [
	{
		displayName: 'Match By',
		name: 'matchBy',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'EAN', value: 'ean', description: 'Entries give "ean"; matched with and without leading zeros' },
			{ name: 'Product ID', value: 'id', description: 'Entries give the marketplace product ID' },
			{ name: 'SKU', value: 'sku', description: 'Entries give "sku"; matched exactly (letter case counts)' },
		],
		default: 'ean',
		description: 'How each entry names its product. A value that matches two products, or an entry repeated in the list, is reported as ambiguous and not sent.',
	},
	...bulkInputFields(BULK_INPUT),
	{
		displayName: 'Products Not in the List',
		name: 'notInList',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Leave Unchanged', value: 'leave', description: 'Only the products in the list are touched' },
			{
				name: 'Set Stock to 0',
				value: 'zero',
				description: 'For full feeds: products the list does not name get stock 0 (refused beyond Max Share Set to 0)',
			},
		],
		default: 'leave',
	},
	booleanField('Dry Run', 'dryRun', 'Whether to only report what would change (status "planned") and send nothing'),
	{
		displayName: 'Output',
		name: 'output',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'One Item per Entry', value: 'entries', description: 'One item per entry and per product set to 0' },
			{ name: 'Summary Only', value: 'summary', description: 'One item with the counts and the IDs per status' },
		],
		default: 'entries',
	},
	{
		...simplifyField(
			'Whether to return one flat item per entry: the product ID, success, status, error (null unless the entry was not written), the input and the changes. Off: the full outcome with the entry position, match value and errors list.',
		),
		displayOptions: { show: { output: ['entries'] } },
	},
	optionsCollection([
		booleanField(
			'Confirm Setting More to 0',
			'confirmZeroing',
			'Whether to set stock to 0 for products not in the list even beyond Max Share Set to 0',
		),
		percentOption('Max Price Decrease (%)', 'maxDecreasePercent', 50, 'Price guard: a new price more than this far below the current one is held back'),
		{
			...percentOption('Max Price Increase (%)', 'maxIncreasePercent', 100, 'Price guard: a new price more than this far above the current one is held back'),
			// A price may rise by more than 100 %.
			typeOptions: { minValue: 0 },
		},
		percentOption(
			'Max Share Set to 0 (%)',
			'maxZeroSharePercent',
			20,
			'With Set Stock to 0: the run is refused (nothing sent) when it would set more of the catalogue than this to 0',
		),
		NEGATIVE_STOCK_OPTION,
		NUMBER_FORMAT_OPTION,
		{
			displayName: 'When a Price Is Held Back',
			name: 'guardedEntries',
			type: 'options',
			options: [
				{
					name: 'Send the Stock Change',
					value: 'sendStock',
					description: 'The price waits for you; the stock of the entry is still set, so the shop never sells stock you no longer have',
				},
				{ name: 'Hold Back the Whole Entry', value: 'holdEntry', description: 'Nothing of the entry is sent' },
			],
			default: 'sendStock',
			description: 'What the price guard holds back of an entry whose new price it does not trust',
		},
		booleanField(
			'Keep Held Prices Quiet',
			'quietHeldPrices',
			'Whether a price the price guard held back while its stock was sent leaves the run green: the entry then comes out in the main output with status guarded and a warning. Off (the default): it is reported as a rejected entry, by Settings › On Error: the execution ends as an error once everything else is written, or the entry leaves through the error output.',
		),
		{
			...booleanField(
				'Price Guard',
				'priceGuard',
				'Whether to hold back entries whose new price is far from the current one (a wrong column must not reprice the catalogue). An entry whose Allow Large Price Change is true (in JSON, "allowLargePriceChange": true) passes.',
			),
			default: true,
		},
	]),
]);

const FIELD_LABELS = panelLabels(syncStockAndPricesFields);

export const operation: OperationModule = {
	option: syncStockAndPricesOperation,
	fields: syncStockAndPricesFields,
	steps: syncStockAndPricesSteps,
	tool: { keepOut: 'it changes the stock and prices of many products from one list, and can set products the list leaves out to 0; a list a model writes is checked by nobody. Run it in a workflow, with Dry Run and the price guard' },
};

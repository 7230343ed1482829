/**
 * Product › Sync Stock and Prices: make the marketplace match a list (an ERP export, a sheet).
 * One input item is one run: read the catalogue once (Get Many Basic, 2,500 per request), compare
 * every entry with it (syncPlan.ts), hold back suspicious prices, and send only what changed with
 * the bulk update, through the same pacing, retries and chunking as Update Many.
 */
import {
	updateDisplayOptions,
	type IDataObject,
	type IExecutePaginationFunctions,
	type IExecuteSingleFunctions,
	type IHttpRequestOptions,
	type INodeExecutionData,
	type INodePropertyOptions,
} from 'n8n-workflow';

import { pairProductResults } from '../../transport/bulkResults';
import { answersReadAs, keepAnswerUnread } from '../../transport/decode';
import { LIMITS, PATHS } from '../../transport/endpoints';
import { ANSWERS } from '../../transport/schema';
import { sendRequest, type RequestData } from '../../transport/send';
import { chunkBySize, pageThrough } from '../../transport/pagination';
import {
	MISSING,
	invalidInput,
	isBlank,
	readBoolean,
	readEan,
	readId,
	readPercent,
	readPrice,
	readStockLevel,
	readText,
	type ValueContext,
} from '../../transport/values';
import { bulkInputFields, panelLabels, readBulkEntries, simplifyResultsField, type BulkInput, type BulkSource } from '../bulkInput';
import { pacedRouting, optionsCollection } from '../common';
import { matchKeyOf, planSync, simplifyOutcome, summarize, type MatchBy, type SyncEntry, type SyncOutcome, type SyncSettings } from './syncPlan';

const OPERATION = 'syncStockAndPrices';

const JSON_HINT =
	'An array of objects such as [{"ean": "8600000000017", "stockLevel": 5, "basePrice": 1299}], each naming its product by the Match By field ("id", "ean" or "sku") and giving stockLevel, basePrice or both; "allowLargePriceChange": true lets one entry past the price guard';

const BULK_INPUT: BulkInput = {
	entries: 'products to sync',
	call: 'one sync run',
	json: {
		name: 'productsJson',
		displayName: 'Products (JSON)',
		itemProperty: 'products',
		description: `The list to match. ${JSON_HINT}. One input item is one sync run: aggregate sheet rows into one list first.`,
		placeholder: '[{"ean": "8600000000017", "stockLevel": 5, "basePrice": 1299}]',
		hint: JSON_HINT,
		// Entries name their product by the Match By key; rows give it as Match Value.
		labels: { id: 'Product ID', ean: 'EAN', sku: 'SKU' },
	},
	rows: {
		name: 'productRows',
		displayName: 'Products',
		row: {
			name: 'product',
			displayName: 'Product',
			values: [
				{
					displayName: 'Match Value',
					name: 'match',
					type: 'string',
					default: '',
					placeholder: 'e.g. 8600000000017',
					description: 'The product ID, EAN or SKU (as Match By says) of the product',
				},
				{
					displayName: 'Stock Level',
					name: 'stockLevel',
					type: 'string',
					default: '',
					description: 'Stock to set: a whole number of 0 or more; empty leaves the stock as it is',
				},
				{
					displayName: 'Base Price',
					name: 'basePrice',
					type: 'string',
					default: '',
					description: 'Price with VAT to set, at most 2 decimals (1299 or 1299.00); empty leaves the price as it is',
				},
				{
					displayName: 'Allow Large Price Change',
					name: 'allowLargePriceChange',
					type: 'boolean',
					default: false,
					description: 'Whether this price may pass the price guard',
				},
			],
		},
	},
	emptyProblem: 'the list is empty',
};

/** Where an entry names its product, for each Match By. */
const MATCH_READERS: Record<MatchBy, (ctx: ValueContext, field: string, value: unknown) => string | number> = {
	id: readId,
	ean: readEan,
	sku: readText,
};

/** What the preSend hands the strategy: the checked entries and settings (plain data). */
interface SyncRequest {
	entries: SyncEntry[];
	/** Where the entries came from, so that outcomes name them as the panel does. */
	source: BulkSource;
	settings: SyncSettings;
	dryRun: boolean;
	summaryOnly: boolean;
	simplify: boolean;
}

function readSettings(ctx: IExecuteSingleFunctions): SyncSettings {
	const options = ctx.getNodeParameter('options', {}) as IDataObject;
	const guardOn = options.priceGuard === undefined ? true : readBoolean(ctx, FIELD_LABELS.priceGuard, options.priceGuard);
	return {
		matchBy: ctx.getNodeParameter('matchBy', 'ean') as MatchBy,
		zeroProductsNotInList: ctx.getNodeParameter('notInList', 'leave') === 'zero',
		maxZeroSharePercent: readPercent(ctx, FIELD_LABELS.maxZeroSharePercent, options.maxZeroSharePercent ?? 20),
		confirmZeroing: options.confirmZeroing === undefined ? false : readBoolean(ctx, FIELD_LABELS.confirmZeroing, options.confirmZeroing),
		priceGuard: guardOn
			? {
					maxDecreasePercent: readPercent(ctx, FIELD_LABELS.maxDecreasePercent, options.maxDecreasePercent ?? 50),
					// A price may rise by more than 100 %.
					maxIncreasePercent: readPercent(ctx, FIELD_LABELS.maxIncreasePercent, options.maxIncreasePercent ?? 100, Infinity),
				}
			: false,
	};
}

/** Checks every entry before anything is sent; an invalid one fails the item, naming entry and field. */
async function readSyncRequest(this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	const settings = readSettings(this);
	const { entries, source, label } = readBulkEntries(this, BULK_INPUT);
	const readMatch = MATCH_READERS[settings.matchBy];
	const { matchBy } = settings;
	const checked: SyncEntry[] = [];
	for (let index = 0; index < entries.length; index++) {
		const entry = entries[index];
		// JSON entries name their product by the Match By key (or "match"), rows by Match Value.
		const matchKey = source.unit === 'row' || (isBlank(entry[matchBy]) && !isBlank(entry.match)) ? 'match' : matchBy;
		const given = entry[matchKey];
		if (isBlank(given)) throw invalidInput(this, label(index, matchKey), MISSING, `Match By is "${matchBy}": ${JSON_HINT}`);
		const checkedEntry: SyncEntry = {
			match: given as string | number,
			key: matchKeyOf(matchBy, readMatch(this, label(index, matchKey), given)) as string,
			allowLargePriceChange: isBlank(entry.allowLargePriceChange)
				? false
				: readBoolean(this, label(index, 'allowLargePriceChange'), entry.allowLargePriceChange),
		};
		if (!isBlank(entry.stockLevel)) checkedEntry.stockLevel = readStockLevel(this, label(index, 'stockLevel'), entry.stockLevel);
		if (!isBlank(entry.basePrice)) checkedEntry.basePrice = readPrice(this, label(index, 'basePrice'), entry.basePrice);
		if (checkedEntry.stockLevel === undefined && checkedEntry.basePrice === undefined) {
			throw invalidInput(this, label(index), 'nothing to sync', 'Give Stock Level (stockLevel), Base Price (basePrice) or both');
		}
		checked.push(checkedEntry);
	}
	const request: SyncRequest = {
		entries: checked,
		source,
		settings,
		dryRun: readBoolean(this, FIELD_LABELS.dryRun, this.getNodeParameter('dryRun', false)),
		summaryOnly: this.getNodeParameter('output', 'entries') === 'summary',
		simplify: this.getNodeParameter('simplify', true) as boolean,
	};
	requestOptions.body = request as unknown as IDataObject;
	return requestOptions;
}

/** pageThrough honours Return All / Limit; a sync always reads the whole catalogue. */
function readingWholeCatalogue(ctx: IExecutePaginationFunctions): IExecutePaginationFunctions {
	return Object.create(ctx, {
		getNodeParameter: {
			value: (name: string, ...rest: unknown[]) =>
				name === 'returnAll' ? true : (ctx.getNodeParameter as (...args: unknown[]) => unknown)(name, ...rest),
		},
	}) as IExecutePaginationFunctions;
}

/**
 * Sends the planned updates in bulk requests within the service's limits and marks each outcome
 * updated or failed by its result, paired as for Update Many (an entry the answer has no result
 * for is failed, never assumed written). A request that fails marks its own entries failed and
 * the others still go out, so the output says exactly what was written.
 */
async function sendUpdates(ctx: IExecutePaginationFunctions, requestData: RequestData, updates: Array<{ outcome: SyncOutcome; body: IDataObject }>): Promise<void> {
	const writing = answersReadAs(ctx, ANSWERS.productBulkUpdate);
	for (const chunk of chunkBySize(updates, LIMITS.productsPerBulkRequest, LIMITS.bulkRequestBytes)) {
		const sent = chunk.map(({ body }) => body);
		let results: INodeExecutionData[];
		try {
			results = pairProductResults(await sendRequest(writing, requestData, { method: 'PUT', url: PATHS.productBulk, qs: {}, body: sent }), sent);
		} catch (error) {
			const message = (error as Error).message;
			for (const { outcome } of chunk) {
				outcome.status = 'failed';
				outcome.errors.push(`The bulk update request failed: ${message}`);
			}
			continue;
		}
		// pairProductResults gives one result per entry sent, in the order sent.
		chunk.forEach(({ outcome }, position) => {
			const { success, error } = results[position].json;
			if (success === true) {
				outcome.status = 'updated';
			} else {
				outcome.status = 'failed';
				outcome.errors.push(String(error));
			}
		});
	}
}

async function syncStockAndPrices(this: IExecutePaginationFunctions, requestData: RequestData): Promise<INodeExecutionData[]> {
	const { entries, source, settings, dryRun, summaryOnly, simplify } = requestData.options.body as unknown as SyncRequest;
	const catalogueRequest: RequestData = { ...requestData, options: { ...requestData.options, method: 'GET', url: PATHS.basicProducts, qs: {}, body: undefined } };
	const reading = answersReadAs(readingWholeCatalogue(this), ANSWERS.basicProducts);
	const catalogue = (await pageThrough(LIMITS.basicProductsPageSize).call(reading, catalogueRequest)).map(({ json }) => json);
	const plan = planSync(this, entries, source, catalogue, settings);
	if (!dryRun) await sendUpdates(this, requestData, plan.updates);
	if (summaryOnly) return [{ json: summarize(plan.outcomes, dryRun) }];
	if (simplify) return plan.outcomes.map((outcome) => ({ json: simplifyOutcome(outcome, settings.matchBy, entries) }));
	return plan.outcomes.map((json) => ({ json }));
}

export const syncStockAndPricesOperation: INodePropertyOptions = {
	name: 'Sync Stock and Prices',
	value: OPERATION,
	action: 'Sync stock and prices',
	description:
		'Make the marketplace match a list from an ERP or sheet: reads the catalogue once, sends only what changed, holds back suspicious prices, and reports per entry, in the order given: product ID, success, status (updated, unchanged, guarded, not_found, ambiguous, failed or planned with Dry Run), error and the input',
	routing: pacedRouting({
		group: 'catalogue',
		// Reads, then writes that set absolute values: sending one twice changes nothing.
		idempotent: true,
		request: { method: 'GET', url: PATHS.basicProducts },
		preSend: [readSyncRequest],
		strategy: syncStockAndPrices,
		// Reads and writes answer differently: the strategy reads each answer (answersReadAs).
		postReceive: [keepAnswerUnread],
	}),
};

const displayOptions = { show: { resource: ['product'], operation: [OPERATION] } };

export const syncStockAndPricesFields = updateDisplayOptions(displayOptions, [
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
	{
		displayName: 'Dry Run',
		name: 'dryRun',
		type: 'boolean',
		default: false,
		description: 'Whether to only report what would change (status "planned") and send nothing',
	},
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
		...simplifyResultsField(),
		description:
			'Whether to return one flat item per entry: the product ID, success, status, error (null unless the entry was not written), the input and the changes. Off: the full outcome with the entry position, match value and errors list.',
		displayOptions: { show: { output: ['entries'] } },
	},
	optionsCollection([
		{
			displayName: 'Confirm Setting More to 0',
			name: 'confirmZeroing',
			type: 'boolean',
			default: false,
			description: 'Whether to set stock to 0 for products not in the list even beyond Max Share Set to 0',
		},
		{
			displayName: 'Max Price Decrease (%)',
			name: 'maxDecreasePercent',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 100 },
			default: 50,
			description: 'Price guard: a new price more than this far below the current one is held back',
		},
		{
			displayName: 'Max Price Increase (%)',
			name: 'maxIncreasePercent',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 100,
			description: 'Price guard: a new price more than this far above the current one is held back',
		},
		{
			displayName: 'Max Share Set to 0 (%)',
			name: 'maxZeroSharePercent',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 100 },
			default: 20,
			description: 'With Set Stock to 0: the run is refused (nothing sent) when it would set more of the catalogue than this to 0',
		},
		{
			displayName: 'Price Guard',
			name: 'priceGuard',
			type: 'boolean',
			default: true,
			description:
				'Whether to hold back entries whose new price is far from the current one (a wrong column must not reprice the catalogue). An entry with "allowLargePriceChange": true passes.',
		},
	]),
]);

const FIELD_LABELS = panelLabels(syncStockAndPricesFields);

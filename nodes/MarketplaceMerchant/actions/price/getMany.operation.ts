import { updateDisplayOptions, type INodeExecutionData } from 'n8n-workflow';

import { DAY_MONTH_YEAR, formatDayMonthYear } from '../../values/dates';
import { ANSWERS } from '../../answers/schemas';
import { LIMITS, PATHS, SERVICE_HOST_ENDPOINTS } from '../../transport/endpoints';
import { splitQueryList, type PaginationFunction } from '../../transport/batches';
import { joinSentences, statusOf } from '../../transport/errors';
import { settle, type Settled } from '../../transport/policy';
import { isBlank } from '../../values/labels';
import { DATE_FORMS, readDayFromToday, today } from '../../values/values';
import { lookUpNamedProducts, pickedProductsField, productsFound, readListedAndPicked } from '../catalogue/locator';
import type { FoundProduct } from '../catalogue/eans';
import { pacedRouting } from '../common';
import type { OperationModule } from '../contract';
import type { ItemFunctions, RequestData, RequestStep } from '../../transport/send';
import { onceInRun } from '../run';

/** The Product IDs list, then the picked Products rows: read (and checked) alone, their EANs looked up for the whole run (`plan`). */
function readProducts(ctx: ItemFunctions) {
	return readListedAndPicked(ctx, {
		label: 'Product IDs',
		value: ctx.getNodeParameter('merchantInventoryIds', ''),
		empty: { problem: 'no ids given', hint: 'Give a list of product ids, e.g. 100001, 100002 or an expression returning an array, or add products under Products' },
	});
}

const setDateAndCheckProducts: RequestStep = async function (requestOptions) {
	const dateValue = this.getNodeParameter('date', '');
	// The service answers a past day with 400 ("present or future date"): refused before sending.
	const date = isBlank(dateValue) ? today(this) : readDayFromToday(this, 'Date', dateValue, 'Prices are for');
	readProducts(this);
	return { ...requestOptions, qs: { ...requestOptions.qs, dateFrom: formatDayMonthYear(date) } };
};

/** The ids 100 per request; a chunk whose ids have no price at all is answered 404: it contributes no items. */
const byChunks = splitQueryList('merchantInventoryIds', LIMITS.priceIdsPerRequest, { notFoundIsEmpty: true });

/** The service's refusal of `dateFrom` (a 400 naming it: "present or future date"). */
const refusesTheDay = (error: unknown) => statusOf(error) === 400 && /dateFrom/i.test(String((error as { description?: unknown }).description ?? ''));

const withDay = (requestData: RequestData, day: string): RequestData => ({
	...requestData,
	options: { ...requestData.options, qs: { ...requestData.options.qs, dateFrom: day } },
});

/** The day after a dd/MM/yyyy day. */
function nextDay(day: string): string {
	const [, dd, mm, yyyy] = DAY_MONTH_YEAR.exec(day) ?? [];
	return formatDayMonthYear(new Date(Date.UTC(Number(yyyy), Number(mm) - 1, Number(dd) + 1)));
}

/** The day a run's empty Date is asked for (the service's today) and the first item's outcome on it. */
interface TodayOfRun {
	day: string;
	outcome: Settled<INodeExecutionData[]>;
}

/**
 * The first item with an empty Date asks for the workflow's today. A service whose today is ahead
 * (its zone east of the workflow's, near midnight) refuses that day as past: its today is then the
 * next day, asked once more (the run's one extra request), and the run's other items ask for it at once.
 */
async function askForToday(ctx: ItemFunctions, requestData: RequestData, workflowToday: string): Promise<TodayOfRun> {
	const asked = await settle(byChunks.call(ctx, requestData));
	if (asked.ok || !refusesTheDay(asked.error)) return { day: workflowToday, outcome: asked };
	const day = nextDay(workflowToday);
	const outcome = await settle(byChunks.call(ctx, withDay(requestData, day)));
	if (!outcome.ok && refusesTheDay(outcome.error)) {
		const error = outcome.error as { description?: string | null };
		error.description = joinSentences(
			error.description,
			`Date was empty: asked for today in the workflow's time zone (${workflowToday}, ${ctx.getTimezone()}), refused as past, then for the next day (${day})`,
		);
	}
	return { day, outcome };
}

/**
 * Prices of the day asked. A Date the user named is sent as is; an empty Date is the service's
 * today, learned once per run (`askForToday`); where that is not the workflow's today, each item
 * says the day its prices are for (`dateFrom`), so an output never passes one day's prices for another's.
 */
const pricesOfTheDay: PaginationFunction = async function (requestData) {
	if (!isBlank(this.getNodeParameter('date', ''))) return await byChunks.call(this, requestData);
	const workflowToday = String(requestData.options.qs?.dateFrom);
	const { first, result } = onceInRun(this, `price-today|${workflowToday}`, async () => await askForToday(this, requestData, workflowToday));
	const { day, outcome } = await result;
	const items = first ? outcome : await settle(byChunks.call(this, withDay(requestData, day)));
	if (!items.ok) throw items.error;
	return day === workflowToday ? items.value : items.value.map((item) => ({ ...item, json: { ...item.json, dateFrom: day } }));
};

export const operation: OperationModule = {
	steps: pacedRouting({
		group: 'payments',
		idempotent: true,
		host: SERVICE_HOST_ENDPOINTS.prices,
		request: { method: 'GET', url: PATHS.prices },
		preSend: [setDateAndCheckProducts],
		// Every item's EANs looked up together, one request per 100 of the run's.
		plan: async (exec, requests) => await lookUpNamedProducts(exec, requests.flatMap(({ ctx }) => readProducts(ctx))),
		complete: (ctx, options, found) => {
			const ids = productsFound(ctx, readProducts(ctx), found as Map<string, FoundProduct[]>).map(({ id }) => id);
			return { ...options, qs: { ...options.qs, merchantInventoryIds: ids.join(',') } };
		},
		strategy: pricesOfTheDay,
		answer: ANSWERS.prices,
	}),
	option: {
		name: 'Get Many',
		value: 'getMany',
		action: 'Get many prices',
		description:
			'Get the prices of products, named by product ID or EAN, on a day (today or later): one item per product with merchantInventoryId (the product ID), basePrice and sellablePrice (in the currency of the account, VAT included; sellablePrice with any discount) and the discountId of an active discount. Products without a price give no item.',
	},
	fields: updateDisplayOptions({ show: { resource: ['price'], operation: ['getMany'] } }, [
		{
			displayName: 'Product IDs',
			name: 'merchantInventoryIds',
			type: 'string',
			default: '',
			placeholder: 'e.g. 100001, 100002, 100003',
			description:
				'Product IDs (the API calls them merchantInventoryId) separated by commas or new lines, or an expression returning an array. Any number: they are sent 100 per request. Products picked below are added to these.',
		},
		pickedProductsField('Products picked one by one (from the list, by ID or by EAN), asked for after the Product IDs above'),
		{
			displayName: 'Date',
			name: 'date',
			type: 'dateTime',
			default: '',
			description: `Day the prices are for: today or a future day, sent as given. Empty means today: the workflow's today, or the service's where the service already counts the next day (it refuses the workflow's as past: asked once more, and the items then carry that day as dateFrom). Accepts ${DATE_FORMS}.`,
		},
	]),
};

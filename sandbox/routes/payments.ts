/** Payment routes: discounts (schedule, update, list, cancel) and prices. */
import { dayIn, parseDayMonthYear } from '../dates';
import { badRequest, listParam, notFound, requireBody, type RequestBody } from '../http';
import { reportedResults } from '../result-variants';
import type { RouteDefinition } from '../route';
import { isRecord } from '../values';
import { xmlList } from '../xml';

const BASE = '/payment/api/v1/merchant-integration';
export const MAX_DISCOUNTS_PER_REQUEST = 500;
export const MAX_PRICE_IDS = 100;

/** The `discounts` list of a schedule or update body, JSON or XML. */
function discountItems(body: RequestBody): unknown[] | undefined {
	if (!isRecord(body.value)) return undefined;
	const discounts = body.value.discounts;
	if (body.format === 'xml') return xmlList(discounts, ['discounts', 'item']);
	return Array.isArray(discounts) ? discounts : undefined;
}

function requireDiscountItems(body: RequestBody): unknown[] {
	requireBody(body);
	const items = discountItems(body);
	if (!items) throw badRequest('Request body must be an object with a discounts array');
	if (items.length === 0) throw badRequest('discounts must not be empty');
	if (items.length > MAX_DISCOUNTS_PER_REQUEST) {
		throw badRequest(`At most ${MAX_DISCOUNTS_PER_REQUEST} discounts per request`);
	}
	return items;
}

function dayParam(query: URLSearchParams, name: string): number {
	const dayMs = parseDayMonthYear(query.get(name) ?? '');
	if (dayMs === undefined) throw badRequest(`${name} is required, in format dd/MM/yyyy`);
	return dayMs;
}

export const paymentRoutes: RouteDefinition[] = [
	{
		key: 'discountSchedule',
		method: 'POST',
		pattern: new RegExp(`^${BASE}/discounts$`),
		authenticated: true,
		handle: ({ core, body }) => ({
			json: { scheduleResult: reportedResults(core.variants, core.discounts.schedule(requireDiscountItems(body))) },
		}),
		itemCount: ({ body }) => discountItems(body)?.length,
	},
	{
		key: 'discountUpdate',
		method: 'PUT',
		pattern: new RegExp(`^${BASE}/discounts$`),
		authenticated: true,
		handle: ({ core, body }) => ({
			json: { updateResult: reportedResults(core.variants, core.discounts.update(requireDiscountItems(body), core.variants.current.discountUpdateRules)) },
		}),
		itemCount: ({ body }) => discountItems(body)?.length,
	},
	{
		key: 'discountList',
		method: 'GET',
		pattern: new RegExp(`^${BASE}/discounts$`),
		authenticated: true,
		handle({ core, query }) {
			const fromDay = dayParam(query, 'dateFrom');
			const toDay = dayParam(query, 'dateTo');
			if (fromDay > toDay) throw badRequest('dateFrom must not be after dateTo');
			return { json: core.discounts.list(fromDay, toDay) };
		},
	},
	{
		key: 'discountCancel',
		method: 'PUT',
		pattern: new RegExp(`^${BASE}/discounts/(?<discountId>[^/]+)/cancellations$`),
		authenticated: true,
		handle({ core, params }) {
			const { discountId } = params;
			const outcome = core.discounts.cancel(discountId);
			if (outcome === 'not-found') throw notFound(`Discount ${discountId} does not exist`);
			if (outcome === 'already-cancelled') throw badRequest(`Discount ${discountId} is already cancelled`);
			if (outcome === 'ended') throw badRequest('Ended discounts cannot be cancelled');
			return { json: { message: `Discount ${discountId} cancelled` } };
		},
	},
	{
		key: 'prices',
		method: 'GET',
		pattern: new RegExp(`^${BASE}/prices$`),
		authenticated: true,
		handle({ core, query }) {
			const dayMs = dayParam(query, 'dateFrom');
			if (dayMs < dayIn(core.clock.nowMs(), core.variants.current.serviceTimeZone)) throw badRequest('dateFrom must be today or a future date');
			const rawIds = listParam(query, 'merchantInventoryIds');
			if (rawIds.length === 0) throw badRequest('merchantInventoryIds is required');
			if (rawIds.length > MAX_PRICE_IDS) throw badRequest(`At most ${MAX_PRICE_IDS} merchantInventoryIds per request`);
			if (rawIds.some((id) => !/^\d+$/.test(id))) throw badRequest('merchantInventoryIds must be integers');
			const prices = core.discounts.prices([...new Set(rawIds.map(Number))], dayMs);
			// The live service answers 404 when none of the request's ids has a price (variants.ts).
			if (prices.length === 0 && core.variants.current.pricesNotFoundWhenNoMatch) {
				throw notFound('No prices found for the given merchantInventoryIds');
			}
			return { json: prices };
		},
		itemCount: ({ query }) => listParam(query, 'merchantInventoryIds').length || undefined,
	},
];

/** Order routes: warehouses, invoices, invoice corrections and their document links. */
import { addUtcMonths, parseZonedIso } from '../dates';
import type { DocumentStore } from '../document-store';
import { badRequest, listParam, notFound, wantsXml } from '../http';
import type { RouteContext, RouteDefinition, RouteResult } from '../route';
import type { InvoiceType } from '../types';
import { documentedDocument } from '../documented-shapes';

const BASE = '/order/api/v1/merchant-integration';
const INVOICE_TYPES: InvoiceType[] = ['FISCAL', 'NON_FISCAL'];
const EARLIEST_DATE_MS = Date.UTC(2022, 4, 1);
const MAX_RANGE_MONTHS = 3;

interface DateRange {
	fromMs: number;
	toMs: number;
}

function timestampParam(query: URLSearchParams, name: string): number {
	const raw = query.get(name) ?? '';
	const ms = parseZonedIso(raw);
	if (ms === undefined) {
		throw badRequest(`${name} must be an ISO 8601 timestamp with a zone, e.g. 2024-05-01T00:00:00.000Z`);
	}
	return ms;
}

/** The live service's range rules: both bounds, in order, from 2022-05-01, at most 3 months. */
function dateRange(query: URLSearchParams, required: boolean): DateRange | undefined {
	const hasFrom = Boolean(query.get('dateFrom'));
	const hasTo = Boolean(query.get('dateTo'));
	if (!hasFrom && !hasTo && !required) return undefined;
	if (!hasFrom || !hasTo) throw badRequest('dateFrom and dateTo are both required');
	const fromMs = timestampParam(query, 'dateFrom');
	const toMs = timestampParam(query, 'dateTo');
	if (fromMs > toMs) throw badRequest('dateFrom must not be after dateTo');
	if (fromMs < EARLIEST_DATE_MS) throw badRequest('dateFrom must not be before 2022-05-01');
	if (toMs > addUtcMonths(fromMs, MAX_RANGE_MONTHS)) {
		throw badRequest(`The date range must not be longer than ${MAX_RANGE_MONTHS} months`);
	}
	return { fromMs, toMs };
}

function invoiceType(query: URLSearchParams): InvoiceType | undefined {
	const raw = query.get('type');
	if (raw === null || raw === '') return undefined;
	if (!INVOICE_TYPES.includes(raw as InvoiceType)) throw badRequest(`type must be one of ${INVOICE_TYPES.join(', ')}`);
	return raw as InvoiceType;
}

function listDocuments<T>(store: (context: RouteContext) => DocumentStore<T>) {
	return (context: RouteContext): RouteResult => {
		const { core, query, headers } = context;
		const documents = store(context).query({
			...dateRange(query, true),
			type: invoiceType(query),
			nowMs: core.clock.nowMs(),
		});
		const shaped = documents.map((document) => documentedDocument(core.variants, document));
		if (wantsXml(headers.accept)) return { xml: shaped };
		return { json: shaped };
	};
}

/** Links keyed by suborder id, selected by suborder ids and/or a date range. */
function documentLinks<T>(store: (context: RouteContext) => DocumentStore<T>) {
	return (context: RouteContext): RouteResult => {
		const { core, query } = context;
		const suborderIds = listParam(query, 'suborderIds');
		const range = dateRange(query, false);
		if (!range && suborderIds.length === 0) throw badRequest('Either suborderIds or dateFrom and dateTo are required');
		// The interface reference marks all three required (variants.ts, urlsSelection).
		if (core.variants.current.urlsSelection === 'all') {
			const missing = !range ? 'dateFrom' : suborderIds.length === 0 ? 'suborderIds' : undefined;
			if (missing) throw badRequest(`Required request parameter '${missing}' for method parameter type String is not present`);
		}
		const documents = store(context);
		const nowMs = core.clock.nowMs();
		const found = documents.query({
			...range,
			type: invoiceType(query),
			suborderIds: suborderIds.length > 0 ? new Set(suborderIds) : undefined,
			nowMs,
		});
		if (found.length === 0) throw notFound('No documents found');
		const links: Record<string, Array<{ documentCorrelationId: string; link: string }>> = {};
		for (const document of found) {
			const { suborderId, correlationId } = documents.keysOf(document);
			(links[suborderId] ??= []).push({
				documentCorrelationId: correlationId,
				link: core.links.link(core.baseUrl, correlationId, nowMs),
			});
		}
		// The key the spec's schema gives the suborder ids, which some clients read literally.
		if (core.variants.current.urlsKeyedBySchemaName) return { json: { suborderIdNumberValue: Object.values(links).flat() } };
		return { json: links };
	};
}

const suborderCount = ({ query }: Pick<RouteContext, 'query'>) => listParam(query, 'suborderIds').length || undefined;

export const orderRoutes: RouteDefinition[] = [
	{
		key: 'warehouses',
		method: 'GET',
		pattern: new RegExp(`^${BASE}/merchant-warehouses$`),
		authenticated: true,
		// The flag under the key variants.ts `warehouseDefaultKey` names (the documentation's table spells it `defaultAddres`).
		handle: ({ core }) => ({
			json: {
				content: core.warehouses.map(({ id, warehouseName, defaultAddress }) => ({ id, warehouseName, [core.variants.current.warehouseDefaultKey]: defaultAddress })),
			},
		}),
	},
	{
		key: 'invoices',
		method: 'GET',
		pattern: new RegExp(`^${BASE}/invoices$`),
		authenticated: true,
		handle: listDocuments(({ core }) => core.invoices),
	},
	{
		key: 'invoiceCorrections',
		method: 'GET',
		pattern: new RegExp(`^${BASE}/invoice-corrections$`),
		authenticated: true,
		handle: listDocuments(({ core }) => core.corrections),
	},
	{
		key: 'invoiceUrls',
		method: 'GET',
		pattern: new RegExp(`^${BASE}/invoices/urls$`),
		authenticated: true,
		handle: documentLinks(({ core }) => core.invoices),
		itemCount: suborderCount,
	},
	{
		key: 'invoiceCorrectionUrls',
		method: 'GET',
		pattern: new RegExp(`^${BASE}/invoice-corrections/urls$`),
		authenticated: true,
		handle: documentLinks(({ core }) => core.corrections),
		itemCount: suborderCount,
	},
];

/** The fields the documents' operations and the trigger share, each with the reader of its value. */
import type { IDataObject, IExecuteSingleFunctions, INodeProperties, PreSendAction } from 'n8n-workflow';

import { DAY_MS, formatIsoUtc, formatYearMonthDay } from '../../values/dates';
import { LIMITS } from '../../transport/endpoints';
import type { PaginationFunction } from '../../transport/batches';
import type { AnswerSchema } from '../../answers/schemas';
import type { Shaping } from '../../answers/read';
import { invalidInput, isBlank, type ValueContext } from '../../values/labels';
import { isBareDay, readChoice, readDate } from '../../values/values';
import { pacedRouting } from '../common';
import { DOCUMENTS, type DocumentKind } from './documents';

const FROM_LABEL = 'Date From';
const TO_LABEL = 'Date To';

/** The defaults of Date From and Date To: saved nodes keep them (n8n saves only what differs from them). */
export const DEFAULT_DATE_FROM = '={{ $now.minus({ days: 7 }).startOf("day").toISO() }}';
export const DEFAULT_DATE_TO = '={{ $now.toISO() }}';

function dateField(displayName: string, name: string, value: string, description: string, required: boolean): INodeProperties {
	return { displayName, name, type: 'dateTime', default: value, required, description };
}

/** `withSuborderIds`: Get Document Links, where the dates only narrow the suborders' documents (not required, may be cleared). */
export function rangeAndTypeFields(kind: DocumentKind, typeDescription: string, withSuborderIds = false): INodeProperties[] {
	const range = `range (inclusive) of the ${DOCUMENTS[kind].label}'s invoiced date: a date from the picker or an expression, ISO 8601 or dd/MM/yyyy; times without a zone are UTC`;
	const narrowing = withSuborderIds
		? ' With Suborder IDs the dates are sent only when changed from their defaults (or cleared): then only the documents invoiced in the range are returned.'
		: '';
	return [
		dateField(FROM_LABEL, 'dateFrom', DEFAULT_DATE_FROM, `Start of the ${range}. Not before 2022-05-01. Ranges longer than 3 months are fetched in 3-month parts. Default: 7 days ago.${narrowing}`, !withSuborderIds),
		dateField(TO_LABEL, 'dateTo', DEFAULT_DATE_TO, `End of the ${range}, and a day without a time (2024-03-31 or 31/03/2024) includes the whole day. Default: now.`, !withSuborderIds),
		invoiceTypeField(typeDescription),
	];
}

/**
 * Whether the item's dates select anything beside its suborder ids: not when both are left at their
 * defaults (the 7 days before now would hide every older document of the suborders: the silent
 * failure of issue 29) or blank. Read from the node's parameters as saved: n8n fills a default in
 * where nothing was saved, so a default is its expression, whatever it evaluates to.
 */
export function datesNarrowSuborders(ctx: Pick<IExecuteSingleFunctions, 'getNode'>, fromValue: unknown, toValue: unknown): boolean {
	const saved = ctx.getNode().parameters;
	const atDefault = (value: unknown, fallback: string) => value === undefined || value === fallback;
	if (atDefault(saved.dateFrom, DEFAULT_DATE_FROM) && atDefault(saved.dateTo, DEFAULT_DATE_TO)) return false;
	return !(isBlank(fromValue) && isBlank(toValue));
}

/** Checked before anything is sent: the service answers a bare 400. A To given as a bare day includes that whole day. */
export function readDocumentRange(ctx: ValueContext, fromValue: unknown, toValue: unknown): { from: Date; to: Date } {
	const from = readDate(ctx, FROM_LABEL, fromValue);
	const toInstant = readDate(ctx, TO_LABEL, toValue);
	const to = isBareDay(toValue) ? new Date(toInstant.getTime() + DAY_MS - 1) : toInstant;
	if (from.getTime() < Date.parse(LIMITS.earliestInvoiceDate)) {
		const earliest = formatYearMonthDay(new Date(LIMITS.earliestInvoiceDate));
		const hint = `The service keeps no documents from before ${earliest} and rejects such ranges`;
		throw invalidInput(ctx, FROM_LABEL, `must not be before ${earliest} (got ${formatIsoUtc(from)})`, hint);
	}
	if (to.getTime() < from.getTime()) {
		throw invalidInput(ctx, TO_LABEL, `must not be before ${FROM_LABEL} (${formatIsoUtc(to)} is before ${formatIsoUtc(from)})`);
	}
	return { from, to };
}

const INVOICE_TYPE_LABEL = 'Invoice Type';
const ALL_TYPES = 'all';
const INVOICE_TYPES = ['FISCAL', 'NON_FISCAL'] as const;
export type InvoiceTypeFilter = (typeof INVOICE_TYPES)[number] | undefined;

export function invoiceTypeField(description: string): INodeProperties {
	return {
		displayName: INVOICE_TYPE_LABEL,
		name: 'invoiceType',
		type: 'options',
		options: [
			{ name: 'All', value: ALL_TYPES, description: 'Fiscal and non-fiscal' },
			{ name: 'Fiscal', value: 'FISCAL', description: 'Registered with the tax administration' },
			{ name: 'Non-Fiscal', value: 'NON_FISCAL', description: 'Platform invoices only' },
		],
		default: ALL_TYPES,
		description,
	};
}

/** The `type` to ask for, undefined for all (the service's `type` left out). */
export function readInvoiceType(ctx: ValueContext, value: unknown): InvoiceTypeFilter {
	if (isBlank(value) || (typeof value === 'string' && value.trim().toLowerCase() === ALL_TYPES)) return undefined;
	return readChoice(ctx, INVOICE_TYPE_LABEL, value, INVOICE_TYPES);
}

const DEFAULT_BINARY_PROPERTY = 'data';

export function outputFileField(description: string, displayOptions: INodeProperties['displayOptions']): INodeProperties {
	return {
		displayName: 'Put Output File in Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: DEFAULT_BINARY_PROPERTY,
		hint: 'The name of the output binary field to put the file in',
		description,
		displayOptions,
	};
}

export function binaryPropertyOf(ctx: Pick<IExecuteSingleFunctions, 'getNodeParameter'>): string {
	return String(ctx.getNodeParameter('options.binaryPropertyName', DEFAULT_BINARY_PROPERTY) ?? '').trim() || DEFAULT_BINARY_PROPERTY;
}

/** The query of a range, as zoned ISO timestamps in UTC, and a type. */
export function rangeQuery(range: { from: Date; to: Date }, type: InvoiceTypeFilter): IDataObject {
	return { dateFrom: formatIsoUtc(range.from), dateTo: formatIsoUtc(range.to), ...(type ? { type } : {}) };
}

/** The range and the type of the current item in the query. */
export const addRangeAndType: PreSendAction = async function (requestOptions) {
	const range = readDocumentRange(this, this.getNodeParameter('dateFrom', ''), this.getNodeParameter('dateTo', ''));
	const type = readInvoiceType(this, this.getNodeParameter('invoiceType', ALL_TYPES));
	return { ...requestOptions, qs: { ...requestOptions.qs, ...rangeQuery(range, type) } };
};

/** The type alone (Get Document Links by suborder ids, dates not given). */
export const addType: PreSendAction = async function (requestOptions) {
	const type = readInvoiceType(this, this.getNodeParameter('invoiceType', ALL_TYPES));
	return type ? { ...requestOptions, qs: { ...requestOptions.qs, type } } : requestOptions;
};

/** The routing of the documents' operations: a GET of `url`, its query made by the `preSend` actions (the range and type first). */
export function rangeRouting(url: string, preSend: PreSendAction[], strategy: PaginationFunction, answer: AnswerSchema, shape: Shaping[]) {
	const request = { method: 'GET' as const, url };
	return pacedRouting({ group: 'orders', idempotent: true, request, preSend, strategy, answer, shape });
}

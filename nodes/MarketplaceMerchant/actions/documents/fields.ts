/** The panel fields of the documents' operations and their preSends; the readers and the fields the trigger shares: shared/documents/fields.ts. */
import type { INodeProperties } from 'n8n-workflow';
import { isBlank } from '../../values/labels';
import type { PaginationFunction } from '../../transport/batches';
import type { AnswerSchema } from '../../answers/schemas';
import type { Shaping } from '../../answers/read';
import { DOCUMENTS, type DocumentKind } from '../../shared/documents/documents';
import {
	ALL_TYPES,
	DEFAULT_DATE_FROM,
	DEFAULT_DATE_TO,
	FROM_LABEL,
	TO_LABEL,
	invoiceTypeField,
	rangeQuery,
	readDocumentRange,
	readInvoiceType,
} from '../../shared/documents/fields';
import { pacedRouting, type PacedRouting } from '../common';
import type { ItemFunctions, RequestStep } from '../../transport/send';

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
export function datesNarrowSuborders(ctx: Pick<ItemFunctions, 'getNode'>, fromValue: unknown, toValue: unknown): boolean {
	const saved = ctx.getNode().parameters;
	const atDefault = (value: unknown, fallback: string) => value === undefined || value === fallback;
	if (atDefault(saved.dateFrom, DEFAULT_DATE_FROM) && atDefault(saved.dateTo, DEFAULT_DATE_TO)) return false;
	return !(isBlank(fromValue) && isBlank(toValue));
}

/** The range and the type of the current item in the query. */
export const addRangeAndType: RequestStep = async function (requestOptions) {
	const range = readDocumentRange(this, this.getNodeParameter('dateFrom', ''), this.getNodeParameter('dateTo', ''));
	const type = readInvoiceType(this, this.getNodeParameter('invoiceType', ALL_TYPES));
	return { ...requestOptions, qs: { ...requestOptions.qs, ...rangeQuery(range, type) } };
};

/** The type alone (Get Document Links by suborder ids, dates not given). */
export const addType: RequestStep = async function (requestOptions) {
	const type = readInvoiceType(this, this.getNodeParameter('invoiceType', ALL_TYPES));
	return type ? { ...requestOptions, qs: { ...requestOptions.qs, type } } : requestOptions;
};

/**
 * The steps of the documents' operations: a GET of `url`, its query made by the `preSend` actions
 * (the range and type first); `plan`: what the run's items ask together (Get Document Links).
 */
export function rangeRouting(url: string, preSend: RequestStep[], strategy: PaginationFunction, answer: AnswerSchema, shape: Shaping[], plan?: PacedRouting['plan']) {
	const request = { method: 'GET' as const, url };
	return pacedRouting({ group: 'orders', idempotent: true, request, preSend, plan, strategy, answer, shape });
}

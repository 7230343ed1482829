/**
 * The query by range and the fields the node's documents operations and the trigger share, each
 * with the reader of its value: Date From / Date To, Invoice Type, and the binary field a file goes in.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { formatIsoUtc, formatYearMonthDay } from '../../values/dates';
import { LIMITS } from '../../transport/endpoints';
import { invalidInput, isBlank, readChoice, type SettingsContext, type ValueContext } from '../../values/labels';
import { checkRangeOrder, readDate, readRangeEnd } from '../../values/values';

export const FROM_LABEL = 'Date From';
export const TO_LABEL = 'Date To';

/** The defaults of Date From and Date To: saved nodes keep them (n8n saves only what differs from them). */
export const DEFAULT_DATE_FROM = '={{ $now.minus({ days: 7 }).startOf("day").toISO() }}';
export const DEFAULT_DATE_TO = '={{ $now.toISO() }}';

/** Checked before anything is sent: the service answers a bare 400. A To given as a bare day includes that whole day. */
export function readDocumentRange(ctx: ValueContext, fromValue: unknown, toValue: unknown): { from: Date; to: Date } {
	const from = readDate(ctx, FROM_LABEL, fromValue);
	const to = readRangeEnd(ctx, TO_LABEL, toValue);
	if (from.getTime() < Date.parse(LIMITS.earliestInvoiceDate)) {
		const earliest = formatYearMonthDay(new Date(LIMITS.earliestInvoiceDate));
		const hint = `The service keeps no documents from before ${earliest} and rejects such ranges`;
		throw invalidInput(ctx, FROM_LABEL, `must not be before ${earliest} (got ${formatIsoUtc(from)})`, hint);
	}
	checkRangeOrder(ctx, { field: FROM_LABEL, date: from }, { field: TO_LABEL, date: to });
	return { from, to };
}

const INVOICE_TYPE_LABEL = 'Invoice Type';
export const ALL_TYPES = 'all';
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

/** The query of a range, as zoned ISO timestamps in UTC, and a type. */
export function rangeQuery(range: { from: Date; to: Date }, type: InvoiceTypeFilter | string | undefined): IDataObject {
	return { dateFrom: formatIsoUtc(range.from), dateTo: formatIsoUtc(range.to), ...(type ? { type } : {}) };
}

const DEFAULT_BINARY_PROPERTY = 'data';

/** The field's name and labels: Put Output File in Field by default; Get Many's PDFs have their own (pdfs beside the raw XML). */
interface OutputFileNames {
	name: string;
	displayName: string;
	hint: string;
}

const OUTPUT_FILE: OutputFileNames = {
	name: 'binaryPropertyName',
	displayName: 'Put Output File in Field',
	hint: 'The name of the output binary field to put the file in',
};

export function outputFileField(description: string, displayOptions: INodeProperties['displayOptions'], names = OUTPUT_FILE): INodeProperties {
	return { displayName: names.displayName, name: names.name, type: 'string', default: DEFAULT_BINARY_PROPERTY, hint: names.hint, description, displayOptions };
}

/**
 * The binary field a file goes in, read from `parameter` (the node's Options › Put Output File in
 * Field by default; the trigger's top-level field): the name as given, trimmed, else `data`.
 */
export function binaryPropertyOf(ctx: Pick<SettingsContext, 'getNodeParameter'>, parameter = `options.${OUTPUT_FILE.name}`): string {
	return String(ctx.getNodeParameter(parameter, DEFAULT_BINARY_PROPERTY) ?? '').trim() || DEFAULT_BINARY_PROPERTY;
}

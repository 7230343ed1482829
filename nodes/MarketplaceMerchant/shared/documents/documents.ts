/**
 * Invoices and invoice corrections ("documents"), for the node's operations and the polling
 * trigger: both kinds have the same shape and parallel endpoints, so everything here takes the kind.
 * The documents client (shared/documents/): this file the kinds, ids, de-duplication, Simplify
 * and the listing by window (the trigger's; the node's Get Many lists through its routing);
 * fields.ts the query by range and the shared fields; links.ts the links; pdfs.ts the PDFs.
 */
import { createHash } from 'crypto';
import type { IDataObject, INode } from 'n8n-workflow';

import { formatIsoUtc, parseServiceTimestamp } from '../../values/dates';
import { PATHS } from '../../transport/endpoints';
import { ANSWERS } from '../../answers/schemas';
import { isPlainObject } from '../../values/labels';
import { listOf, type ReadEndpoint } from '../read';
import { rangeQuery, type InvoiceTypeFilter } from './fields';

export type DocumentKind = 'invoice' | 'correction';

export const DOCUMENTS = {
	invoice: {
		/** The node's resource and the trigger's event. */
		resource: 'invoice',
		listPath: PATHS.invoices,
		linksPath: PATHS.invoiceUrls,
		fileStem: 'invoices',
		label: 'invoice',
		/** The id (a dedupe key) in `invoiceHeader.orderDetails` and in simplified output. */
		idField: 'invoiceId',
		answer: ANSWERS.invoices,
	},
	correction: {
		resource: 'invoiceCorrection',
		listPath: PATHS.invoiceCorrections,
		linksPath: PATHS.invoiceCorrectionUrls,
		fileStem: 'invoice-corrections',
		label: 'invoice correction',
		idField: 'invoiceNumber',
		answer: ANSWERS.invoiceCorrections,
	},
};

function objectAt(value: unknown, ...path: string[]): IDataObject {
	const found = path.reduce<unknown>((current, key) => (isPlainObject(current) ? current[key] : undefined), value);
	return isPlainObject(found) ? found : {};
}

/** The answer reader (answers/read.ts) made amounts numbers already; anything else is left out. */
const numberOf = (value: unknown) => (typeof value === 'number' ? value : undefined);

export function textOf(value: unknown): string | undefined {
	if (typeof value === 'string') return value;
	if (typeof value === 'number' || typeof value === 'boolean') return String(value);
	return undefined;
}

function orderDetailsId(document: IDataObject, field: string): string | undefined {
	const id = objectAt(document, 'invoiceHeader', 'orderDetails')[field];
	return typeof id === 'string' && id !== '' ? id : undefined;
}

/**
 * The document's id. The reference names an invoice's `orderDetails.invoiceId`; the current pages'
 * example carries it as `orderDetails.invoiceNumber` (platform facts), read when the first is
 * absent. A correction's is `orderDetails.invoiceNumber`, else its `fiscalDetails.invoiceNumber`.
 */
export function documentIdOf(document: IDataObject, kind: DocumentKind): string | undefined {
	const id = orderDetailsId(document, DOCUMENTS[kind].idField);
	if (id !== undefined) return id;
	const fallback = kind === 'invoice' ? objectAt(document, 'invoiceHeader', 'orderDetails').invoiceNumber : objectAt(document, 'invoiceHeader', 'fiscalDetails').invoiceNumber;
	return typeof fallback === 'string' && fallback !== '' ? fallback : undefined;
}

/**
 * The number the merchant's books and the customer know: of an invoice the tax administration's
 * (or, non-fiscal, the platform's) `fiscalDetails.invoiceNumber`, of a correction its own id.
 * Also of a document as Simplify gives it (an input item from Get Many): its `invoiceNumber`.
 */
export function invoiceNumberOf(document: IDataObject, kind: DocumentKind): string | undefined {
	if (!isPlainObject(document.invoiceHeader)) return textOf(document.invoiceNumber) || undefined;
	if (kind === 'correction') return documentIdOf(document, kind);
	return textOf(objectAt(document, 'invoiceHeader', 'fiscalDetails').invoiceNumber) || undefined;
}

/** The document id of a full document or of its Simplify summary (`invoiceId`, of a correction `invoiceNumber`). */
export function documentIdOfAny(document: IDataObject, kind: DocumentKind): string | undefined {
	if (isPlainObject(document.invoiceHeader)) return documentIdOf(document, kind);
	return textOf(document[DOCUMENTS[kind].idField]) || undefined;
}

export const suborderIdOf = (document: IDataObject) => orderDetailsId(document, 'suborderId');

/** The date the service filters on. */
export function invoicedDateOf(document: IDataObject): Date | undefined {
	return parseServiceTimestamp(objectAt(document, 'invoiceHeader', 'orderDetails').invoicedDate);
}

/** The invoiced date of a full document or of its Simplify summary (an input item from Get Many). */
export function invoicedDateOfAny(document: IDataObject): Date | undefined {
	return isPlainObject(document.invoiceHeader) ? invoicedDateOf(document) : parseServiceTimestamp(document.invoicedDate);
}

/** `fba` is a boolean in invoices and a string in corrections, as the spec types them. */
function toBoolean(value: unknown): boolean | undefined {
	if (typeof value === 'boolean') return value;
	if (value === 'true' || value === 'false') return value === 'true';
	return undefined;
}

/** Unreadable values pass through. */
function toIsoUtc(value: unknown): string | undefined {
	const date = parseServiceTimestamp(value);
	return date ? formatIsoUtc(date) : textOf(value) || undefined;
}

/** The fields a bookkeeping sheet needs, dates as zoned ISO timestamps, amounts as numbers. */
export function simplifyDocument(document: IDataObject, kind: DocumentKind): IDataObject {
	const header = objectAt(document, 'invoiceHeader');
	const orderDetails = objectAt(header, 'orderDetails');
	const fiscalDetails = objectAt(header, 'fiscalDetails');
	const customer = objectAt(header, 'customerDetails');
	const totals = objectAt(document, 'productSpecification', 'totalDetails');
	const taxes = objectAt(document, 'taxRateSpecification');
	const taxGroups = Array.isArray(taxes.taxRateSpecification) ? (taxes.taxRateSpecification as IDataObject[]) : [];
	const customerName = [textOf(customer.firstName), textOf(customer.lastName)].filter(Boolean).join(' ');
	const vatRates = taxGroups.map((group) => numberOf(group?.vat)).filter((rate): rate is number => rate !== undefined);
	const simplified: IDataObject = {
		...(kind === 'invoice'
			? { invoiceId: documentIdOf(document, kind), invoiceNumber: invoiceNumberOf(document, kind) }
			: { invoiceNumber: documentIdOf(document, kind), referentDocumentNumber: textOf(fiscalDetails.referentDocumentNumber) }),
		invoiceType: textOf(header.invoiceType),
		suborderId: textOf(orderDetails.suborderId),
		orderId: textOf(orderDetails.orderid),
		invoicedDate: toIsoUtc(orderDetails.invoicedDate),
		fiscalInvoiceDate: toIsoUtc(fiscalDetails.fiscalInvoiceDate),
		orderDate: toIsoUtc(orderDetails.orderDate),
		customerName: customerName || undefined,
		customerCity: textOf(objectAt(customer, 'address').city),
		basePrice: numberOf(totals.basePrice),
		vatAmount: numberOf(totals.vatAmount),
		chargedPrice: numberOf(totals.chargedPrice),
		grandTotal: numberOf(taxes.grandTotal),
		vatRates: [...new Set(vatRates)],
		paymentMethods: Array.isArray(orderDetails.paymentMethods) ? orderDetails.paymentMethods.map(String) : [],
		fba: toBoolean(orderDetails.fba),
	};
	if (kind === 'correction') simplified.correctionReason = textOf(header.invoiceCorrectionReason);
	// n8n shows undefined fields as empty columns; leave them out instead.
	for (const key of Object.keys(simplified)) if (simplified[key] === undefined) delete simplified[key];
	return simplified;
}


/** The key that de-duplicates documents: its id, or (an id never seen missing on the live service) a hash of its content. */
export function dedupeKeyOf(document: IDataObject, kind: DocumentKind): string {
	return documentIdOf(document, kind) ?? `#${createHash('sha256').update(JSON.stringify(document)).digest('hex').slice(0, 24)}`;
}

/** The documents invoiced in one window (at most 3 months: the service's longest range), through the caller's reader. */
export async function documentsIn(
	read: ReadEndpoint,
	node: INode,
	kind: DocumentKind,
	window: { from: Date; to: Date },
	type: InvoiceTypeFilter,
): Promise<IDataObject[]> {
	const what = `${DOCUMENTS[kind].label}s from ${formatIsoUtc(window.from)} to ${formatIsoUtc(window.to)}`;
	const answer = await read('orders', DOCUMENTS[kind].listPath, rangeQuery(window, type), what, DOCUMENTS[kind].answer);
	return listOf(node, answer, what).filter(isPlainObject);
}

/** Undated documents first; of equal dates (the sort is stable) in the order listed. */
export function oldestFirst(documents: IDataObject[]): IDataObject[] {
	const at = (document: IDataObject) => invoicedDateOf(document)?.getTime() ?? Number.MIN_SAFE_INTEGER;
	return documents.sort((a, b) => at(a) - at(b));
}

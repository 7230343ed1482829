/**
 * Invoices and invoice corrections ("documents"), for the node's operations and the polling
 * trigger: both kinds have the same shape and parallel endpoints, so everything here takes the kind.
 */
import { type BinaryHelperFunctions, type IDataObject, type INodeExecutionData } from 'n8n-workflow';

import { formatIsoUtc, parseServiceTimestamp } from '../../values/dates';
import { LIMITS, PATHS } from '../../transport/endpoints';
import { asNodeError, downloadFailureDescription, nodeError, statusOf } from '../../transport/errors';
import { chunkBySize } from '../../transport/batches';
import { downloadPresigned, type DownloadContext } from '../../transport/send';
import { ANSWERS } from '../../answers/schemas';
import { isPlainObject } from '../../values/labels';

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

function textOf(value: unknown): string | undefined {
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

/**
 * The one name of a downloaded PDF, for the node and the trigger: `<invoice number>.pdf` where the
 * document the link belongs to is known, else the link's document id (or suborder).
 */
export function pdfFileName(link: DocumentLink, invoiceNumber?: string): string {
	const stem = invoiceNumber || link.documentCorrelationId || link.suborderId || 'document';
	return `${stem.replace(/[^\w.-]+/g, '_')}.pdf`;
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

/** `suborderId` is null when the answer does not say which of several requested suborders it is for. */
export type DocumentLink = IDataObject & { suborderId: string | null; documentCorrelationId: string; link: string };

/** The spec's placeholder name for the suborder-id keys (platform facts: not a literal key). */
const SPEC_KEY_PLACEHOLDER = 'suborderIdNumberValue';

/**
 * The /urls answer `{ "<suborderId>": [{ documentCorrelationId, link }] }` (also with one object
 * for a list, or a plain list) as one entry per document. A key or an entry's own suborderId
 * counts only when requested (any but the spec's placeholder when none are given); else the
 * suborder is the only one requested, or null: never a schema name.
 */
export function flattenDocumentLinks(answer: unknown, requestedSuborderIds: string[] = []): DocumentLink[] {
	const requested = new Set(requestedSuborderIds);
	const isSuborder = (id: string | undefined): id is string =>
		id !== undefined && (requested.size > 0 ? requested.has(id) : id !== SPEC_KEY_PLACEHOLDER);
	const onlyRequested = requestedSuborderIds.length === 1 ? requestedSuborderIds[0] : null;
	const toLink = (entry: unknown, key?: string): DocumentLink | undefined => {
		if (!isPlainObject(entry)) return undefined;
		const own = textOf([entry.suborderId, entry.suborderid].find((id) => id !== undefined && id !== null && id !== ''));
		const { documentCorrelationId, link, ...otherFields } = entry;
		delete otherFields.suborderId;
		const suborderId = isSuborder(key) ? key : isSuborder(own) ? own : onlyRequested;
		return { suborderId, documentCorrelationId: textOf(documentCorrelationId) ?? '', link: textOf(link) ?? '', ...otherFields };
	};
	const links: Array<DocumentLink | undefined> = [];
	if (Array.isArray(answer)) {
		for (const entry of answer) links.push(toLink(entry));
	} else if (isPlainObject(answer)) {
		for (const [key, value] of Object.entries(answer)) {
			for (const entry of Array.isArray(value) ? value : [value]) links.push(toLink(entry, key));
		}
	}
	return links.filter((link): link is DocumentLink => link !== undefined && link.link !== '');
}

/** The link naming the document (also when the answer names no suborder), or its suborder's only link. */
export function linkOfDocument(document: IDataObject, kind: DocumentKind, links: DocumentLink[]): DocumentLink | undefined {
	const id = documentIdOf(document, kind);
	const ofSuborder = links.filter((link) => link.suborderId === suborderIdOf(document));
	return links.find((link) => link.documentCorrelationId === id) ?? (ofSuborder.length === 1 ? ofSuborder[0] : undefined);
}

/** Suborder ids per /urls request, within LIMITS (the service documents no limit; this keeps the query short). */
export const suborderGroups = (suborderIds: string[]) =>
	chunkBySize(suborderIds, LIMITS.suborderIdsPerLinksRequest, LIMITS.suborderIdsBytesPerLinksRequest);

const PDF_MAGIC = '%PDF';
const DOWNLOAD_TIMEOUT_MS = 120_000;

/**
 * One item per link with its PDF. The links are pre-signed and expire after about 10 minutes, so
 * this runs right after they are fetched. Messages never contain a link: its signature grants
 * access. A file is named `<invoice number>.pdf` where the caller knows it (`invoiceNumbers`).
 */
export async function downloadDocumentPdfs(
	ctx: DownloadContext & { helpers: Pick<BinaryHelperFunctions, 'prepareBinaryData'> },
	links: DocumentLink[],
	binaryProperty: string,
	itemIndex?: number,
	invoiceNumbers: Array<string | undefined> = [],
): Promise<INodeExecutionData[]> {
	return await Promise.all(
		links.map(async (link, index) => {
			const which = `document ${link.documentCorrelationId} (suborder ${link.suborderId ?? 'not named'})`;
			let pdf: Buffer;
			try {
				pdf = await downloadPresigned(ctx, link.link, DOWNLOAD_TIMEOUT_MS);
			} catch (error) {
				const status = statusOf(error);
				throw nodeError(ctx.getNode(), `Could not download the PDF of ${which}${status ? `: HTTP ${status}` : ''}`, {
					itemIndex,
					description: downloadFailureDescription(error),
				});
			}
			if (pdf.subarray(0, PDF_MAGIC.length).toString('latin1') !== PDF_MAGIC) {
				const description = `The answer starts with: ${pdf.subarray(0, 60).toString('utf8')}`;
				throw nodeError(ctx.getNode(), `The link of ${which} did not return a PDF`, { itemIndex, description });
			}
			const binary = await ctx.helpers.prepareBinaryData(pdf, pdfFileName(link, invoiceNumbers[index]), 'application/pdf');
			return { json: link, binary: { [binaryProperty]: binary } };
		}),
	);
}

/** One `/urls` request: the links of its answer (none for a 404, the service's "no documents"). */
export type AskForLinks = (query: IDataObject, requestedSuborderIds: string[]) => Promise<DocumentLink[]>;

/** A listed document and the output item that carries it (simplified or not). */
export interface ListedDocument {
	document: IDataObject;
	item: INodeExecutionData;
}

/**
 * The PDFs of listed documents (Get Many's Download PDFs, the trigger), each attached to its own
 * item and named `<invoice number>.pdf`. The links are asked in as few `/urls` requests as the
 * selection allows (platform facts: suborder ids or a date range select the documents): by the
 * range, one request per window, when the list holds every document of it (`wholeRange`); else by
 * the documents' suborder ids, many per request, within the range when one is given. A document
 * the service gives no link for says so in `pdfError`.
 */
export async function attachPdfsOfDocuments(
	ctx: DownloadContext & { helpers: Pick<BinaryHelperFunctions, 'prepareBinaryData'> },
	kind: DocumentKind,
	listed: ListedDocument[],
	selection: { windows: Array<{ from: Date; to: Date }>; type?: string; wholeRange: boolean },
	ask: AskForLinks,
	binaryProperty: string,
	itemIndex?: number,
): Promise<void> {
	if (listed.length === 0) return;
	const typeQuery = selection.type ? { type: selection.type } : {};
	const rangeOf = (window: { from: Date; to: Date }) => ({ dateFrom: formatIsoUtc(window.from), dateTo: formatIsoUtc(window.to), ...typeQuery });
	const bySuborders = async () => {
		const found: DocumentLink[] = [];
		const suborderIds = [...new Set(listed.map(({ document }) => suborderIdOf(document)).filter((id): id is string => !!id))];
		const ranges = selection.windows.length > 0 ? selection.windows.map(rangeOf) : [typeQuery];
		for (const chunk of suborderGroups(suborderIds)) {
			for (const range of ranges) found.push(...(await ask({ ...range, suborderIds: chunk.join(',') }, chunk)));
		}
		return found;
	};
	const byRange = async () => {
		const found: DocumentLink[] = [];
		for (const window of selection.windows) found.push(...(await ask(rangeOf(window), [])));
		return found;
	};
	let links: DocumentLink[];
	try {
		links = selection.wholeRange && selection.windows.length > 0 ? await byRange() : await bySuborders();
	} catch (error) {
		// The interface reference requires suborderIds beside the range (platform facts: the current
		// pages take either): a 400 to the range alone is asked again by the suborders, within it.
		if (statusOf(error) !== 400 || !selection.wholeRange) throw asNodeError(ctx.getNode(), error);
		links = await bySuborders();
	}
	const toDownload: Array<{ entry: ListedDocument; link: DocumentLink }> = [];
	for (const entry of listed) {
		const link = linkOfDocument(entry.document, kind, links);
		if (link) toDownload.push({ entry, link });
		else entry.item.json.pdfError = `The service returned no PDF link for this ${DOCUMENTS[kind].label}`;
	}
	const names = toDownload.map(({ entry }) => invoiceNumberOf(entry.document, kind));
	const downloaded = await downloadDocumentPdfs(ctx, toDownload.map(({ link }) => link), binaryProperty, itemIndex, names);
	for (const [index, { entry }] of toDownload.entries()) entry.item.binary = { ...entry.item.binary, ...downloaded[index].binary };
}

/**
 * Invoices and invoice corrections ("documents"): what the node's Invoice and Invoice Correction
 * operations and the polling trigger know about them. Both kinds have the same shape and parallel
 * endpoints, so everything here takes the kind.
 *
 *   DOCUMENTS[kind]                  { resource, listPath, linksPath, fileStem, label, idField, answer }
 *   documentIdOf(document, kind)     the id that identifies a document (dedupe key), of a document
 *                                    read by decode.ts: invoice → orderDetails.invoiceId;
 *                                    correction → orderDetails.invoiceNumber
 *   suborderIdOf / invoicedDateOf    the suborder, and the invoiced date the service filters on
 *   simplifyDocument(document, kind) flat summary for no-code use (the Simplify toggle)
 *   rawXmlFileName(kind, from, to)   `invoices-2024-01-01-2024-03-31.xml`
 *   flattenDocumentLinks(answer, requestedSuborderIds?)
 *                                    the keyed-by-suborder /urls answer as a list of DocumentLink
 *   linkOfDocument(document, kind, links)
 *                                    which of the links is this document's PDF
 *   suborderGroups(ids)              suborder ids in groups of one /urls request each
 *   downloadDocumentPdfs(ctx, links, binaryProperty, itemIndex?)
 *                                    one item per link with its PDF (downloaded at once: links
 *                                    expire after about 10 minutes); a failed or non-PDF download
 *                                    throws a NodeOperationError that never shows the signed link
 */
import {
	type BinaryHelperFunctions,
	type IDataObject,
	type INodeExecutionData,
} from 'n8n-workflow';

import { formatIsoUtc, formatYearMonthDay, parseServiceTimestamp } from '../../values/dates';
import { PATHS } from '../../transport/endpoints';
import { nodeError, statusOf } from '../../transport/errors';
import { chunkBySize } from '../../transport/pagination';
import { ANSWERS, type AnswerSchema } from '../../answers/schema';
import { downloadPresigned, type DownloadContext } from '../../transport/send';

export type DocumentKind = 'invoice' | 'correction';

interface DocumentEndpoints {
	/** The node's resource and the trigger's event for this kind. */
	resource: 'invoice' | 'invoiceCorrection';
	/** GET list of documents for a date range. */
	listPath: string;
	/** GET links to the documents' PDFs, keyed by suborder id. */
	linksPath: string;
	/** Start of file names of archived answers. */
	fileStem: string;
	/** How messages name one document of this kind. */
	label: string;
	/** Name of the id field in `invoiceHeader.orderDetails` (and in simplified output). */
	idField: 'invoiceId' | 'invoiceNumber';
	/** The schema of the list answer (decode.ts reads JSON and XML with it). */
	answer: AnswerSchema;
}

export const DOCUMENTS: Record<DocumentKind, DocumentEndpoints> = {
	invoice: {
		resource: 'invoice',
		listPath: PATHS.invoices,
		linksPath: PATHS.invoiceUrls,
		fileStem: 'invoices',
		label: 'invoice',
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
	let current = value;
	for (const key of path) {
		current = current && typeof current === 'object' && !Array.isArray(current) ? (current as IDataObject)[key] : undefined;
	}
	return current && typeof current === 'object' && !Array.isArray(current) ? (current as IDataObject) : {};
}

/** The first of several spellings of a field that has a value. */
function firstOf(object: IDataObject, ...names: string[]): unknown {
	for (const name of names) {
		const value = object[name];
		if (value !== undefined && value !== null && value !== '') return value;
	}
	return undefined;
}

/** Amounts of a document read by decode.ts are numbers already; anything else is left out. */
function numberOf(value: unknown): number | undefined {
	return typeof value === 'number' ? value : undefined;
}

function textOf(value: unknown): string | undefined {
	if (typeof value === 'string') return value;
	if (typeof value === 'number' || typeof value === 'boolean') return String(value);
	return undefined;
}

export function documentIdOf(document: IDataObject, kind: DocumentKind): string | undefined {
	const id = objectAt(document, 'invoiceHeader', 'orderDetails')[DOCUMENTS[kind].idField];
	return typeof id === 'string' && id !== '' ? id : undefined;
}

/**
 * The document's invoice number, as the merchant's books and the customer know it: of an invoice
 * the tax administration's (or, non-fiscal, the platform's) `fiscalDetails.invoiceNumber`, of a
 * correction its own `orderDetails.invoiceNumber`.
 */
export function invoiceNumberOf(document: IDataObject, kind: DocumentKind): string | undefined {
	if (kind === 'correction') return documentIdOf(document, kind);
	return textOf(objectAt(document, 'invoiceHeader', 'fiscalDetails').invoiceNumber);
}

export function suborderIdOf(document: IDataObject): string | undefined {
	const id = objectAt(document, 'invoiceHeader', 'orderDetails').suborderId;
	return typeof id === 'string' && id !== '' ? id : undefined;
}

/** The platform invoiced date, the date the service filters on (zone-less values are UTC). */
export function invoicedDateOf(document: IDataObject): Date | undefined {
	return parseServiceTimestamp(objectAt(document, 'invoiceHeader', 'orderDetails').invoicedDate);
}

/** `fba` is a boolean in invoices and a string in corrections (the reader keeps each as the spec types it). */
function toBoolean(value: unknown): boolean | undefined {
	if (typeof value === 'boolean') return value;
	if (value === 'true' || value === 'false') return value === 'true';
	return undefined;
}

/** Response timestamps may come without a zone; they are UTC. Unreadable values pass through. */
function toIsoUtc(value: unknown): string | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	const date = parseServiceTimestamp(value);
	return date ? formatIsoUtc(date) : textOf(value);
}

interface SimplifiedDocument extends IDataObject {
	invoiceType?: string;
	suborderId?: string;
	orderId?: string;
	invoicedDate?: string;
	fiscalInvoiceDate?: string;
	orderDate?: string;
	customerName?: string;
	customerCity?: string;
	basePrice?: number;
	vatAmount?: number;
	chargedPrice?: number;
	grandTotal?: number;
	vatRates: number[];
	paymentMethods: string[];
	fba?: boolean;
}

/**
 * A flat summary of an invoice or correction: the fields a bookkeeping sheet needs, dates as
 * zoned ISO timestamps, amounts as numbers. Invoices carry `invoiceId` and the tax
 * administration's `invoiceNumber`; corrections carry their `invoiceNumber`, the corrected
 * invoice's `referentDocumentNumber` and the `correctionReason`.
 */
export function simplifyDocument(document: IDataObject, kind: DocumentKind): SimplifiedDocument {
	const header = objectAt(document, 'invoiceHeader');
	const orderDetails = objectAt(header, 'orderDetails');
	const fiscalDetails = objectAt(header, 'fiscalDetails');
	const customer = objectAt(header, 'customerDetails');
	const totals = objectAt(document, 'productSpecification', 'totalDetails');
	const taxes = objectAt(document, 'taxRateSpecification');
	const taxGroups = Array.isArray(taxes.taxRateSpecification) ? (taxes.taxRateSpecification as IDataObject[]) : [];
	const customerName = [textOf(customer.firstName), textOf(customer.lastName)].filter(Boolean).join(' ');
	const vatRates = taxGroups.map((group) => numberOf(group?.vat)).filter((rate): rate is number => rate !== undefined);

	const ids: IDataObject =
		kind === 'invoice'
			? { invoiceId: documentIdOf(document, kind), invoiceNumber: invoiceNumberOf(document, kind) }
			: {
					invoiceNumber: documentIdOf(document, kind),
					referentDocumentNumber: textOf(fiscalDetails.referentDocumentNumber),
				};
	const simplified: SimplifiedDocument = {
		...ids,
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

export function rawXmlFileName(kind: DocumentKind, from: Date, to: Date): string {
	return `${DOCUMENTS[kind].fileStem}-${formatYearMonthDay(from)}-${formatYearMonthDay(to)}.xml`;
}

export interface DocumentLink extends IDataObject {
	/** null when the answer does not say which of several requested suborders the link is for. */
	suborderId: string | null;
	documentCorrelationId: string;
	link: string;
}

/** The spec's placeholder name for the suborder-id keys (platform facts: not a literal key). */
const SPEC_KEY_PLACEHOLDER = 'suborderIdNumberValue';

/**
 * Turns the /urls answer `{ "<suborderId>": [{ documentCorrelationId, link }] }` into one entry
 * per document. Also read: a single object instead of a list, and a plain list of entries. A key
 * (or an entry's own suborderId) counts only when it is one of `requestedSuborderIds` (any key but
 * the spec's placeholder when none are given): otherwise, e.g. under the literal
 * `suborderIdNumberValue`, the suborder is the requested one when only one was asked, else null,
 * never a schema name. Fields beyond the documented ones pass through.
 */
export function flattenDocumentLinks(answer: unknown, requestedSuborderIds: string[] = []): DocumentLink[] {
	const requested = new Set(requestedSuborderIds);
	const isSuborder = (id: string | undefined): id is string =>
		id !== undefined && (requested.size > 0 ? requested.has(id) : id !== SPEC_KEY_PLACEHOLDER);
	const onlyRequested = requestedSuborderIds.length === 1 ? requestedSuborderIds[0] : null;
	const toLink = (entry: unknown, key?: string): DocumentLink | undefined => {
		if (!entry || typeof entry !== 'object' || Array.isArray(entry)) return undefined;
		const fields = entry as IDataObject;
		const own = textOf(firstOf(fields, 'suborderId', 'suborderid'));
		const { documentCorrelationId, link, ...otherFields } = fields;
		delete otherFields.suborderId;
		const suborderId = isSuborder(key) ? key : isSuborder(own) ? own : onlyRequested;
		return {
			suborderId,
			documentCorrelationId: textOf(documentCorrelationId) ?? '',
			link: textOf(link) ?? '',
			...otherFields,
		};
	};
	const links: Array<DocumentLink | undefined> = [];
	if (Array.isArray(answer)) {
		for (const entry of answer) links.push(toLink(entry));
	} else if (answer && typeof answer === 'object') {
		for (const [key, value] of Object.entries(answer as IDataObject)) {
			for (const entry of Array.isArray(value) ? value : [value]) links.push(toLink(entry, key));
		}
	}
	return links.filter((link): link is DocumentLink => link !== undefined && link.link !== '');
}

/**
 * Which link is the PDF of this document: the link names the document it belongs to (also when
 * the answer does not name its suborder); a suborder with a single link needs no name.
 */
export function linkOfDocument(document: IDataObject, kind: DocumentKind, links: DocumentLink[]): DocumentLink | undefined {
	const id = documentIdOf(document, kind);
	const ofSuborder = links.filter((link) => link.suborderId === suborderIdOf(document));
	return links.find((link) => link.documentCorrelationId === id) ?? (ofSuborder.length === 1 ? ofSuborder[0] : undefined);
}

/**
 * Suborder ids per /urls request. The service documents no limit; this keeps the query string
 * (and the log line of a failed request) short whatever the list.
 */
const SUBORDER_IDS_PER_REQUEST = 100;
const SUBORDER_ID_BYTES_PER_REQUEST = 2_000;

/** Suborder ids in the groups that one /urls request each asks for. */
export function suborderGroups(suborderIds: string[]): string[][] {
	return chunkBySize(suborderIds, SUBORDER_IDS_PER_REQUEST, SUBORDER_ID_BYTES_PER_REQUEST);
}

/** What downloading needs from an execution context (node or trigger). */
interface DocumentDownloadContext extends DownloadContext {
	helpers: DownloadContext['helpers'] & Pick<BinaryHelperFunctions, 'prepareBinaryData'>;
}

const PDF_MAGIC = '%PDF';
const DOWNLOAD_TIMEOUT_MS = 120_000;

/** `<invoice number>.pdf` when the document is known, else named by the link's document id. */
function pdfFileName(link: DocumentLink, invoiceNumber: string | undefined): string {
	const name = (invoiceNumber || link.documentCorrelationId || link.suborderId || 'document').replace(/[^\w.-]+/g, '_');
	return `${name}.pdf`;
}

/**
 * Downloads every link's PDF as binary data. The links are pre-signed (no credentials are sent)
 * and expire after about 10 minutes, so this runs right after the links are fetched. Downloads
 * go through the shared retry policy (429/5xx, cut connections) under their own gate, so they
 * neither count against nor wait for the API's rate limits. Messages never contain a link: its
 * signature grants access to the document. Each file is named `<invoice number>.pdf` by
 * `invoiceNumbers` (one per link) where the caller read the documents (invoiceNumberOf).
 */
export async function downloadDocumentPdfs(
	ctx: DocumentDownloadContext,
	links: DocumentLink[],
	binaryProperty = 'data',
	itemIndex?: number,
	invoiceNumbers: Array<string | undefined> = [],
): Promise<INodeExecutionData[]> {
	return await Promise.all(
		links.map(async (link, index) => {
			let pdf: Buffer;
			try {
				pdf = await downloadPresigned(ctx, link.link, DOWNLOAD_TIMEOUT_MS);
			} catch (error) {
				const status = statusOf(error);
				throw nodeError(
					ctx.getNode(),
					`Could not download the PDF of document ${link.documentCorrelationId} (suborder ${link.suborderId ?? 'not named'})${status ? `: HTTP ${status}` : ''}`,
					{
						itemIndex,
						description:
							status === 403 || status === 410
								? 'Document links expire about 10 minutes after they are issued: fetch the links again and download them at once'
								: (error as Error).message?.replace(/https?:\/\/\S+/g, '<link>'),
					},
				);
			}
			if (pdf.subarray(0, PDF_MAGIC.length).toString('latin1') !== PDF_MAGIC) {
				throw nodeError(
					ctx.getNode(),
					`The link of document ${link.documentCorrelationId} (suborder ${link.suborderId ?? 'not named'}) did not return a PDF`,
					{ itemIndex, description: `The answer starts with: ${pdf.subarray(0, 60).toString('utf8')}` },
				);
			}
			const binary = await ctx.helpers.prepareBinaryData(pdf, pdfFileName(link, invoiceNumbers[index]), 'application/pdf');
			return { json: link, binary: { [binaryProperty]: binary } };
		}),
	);
}

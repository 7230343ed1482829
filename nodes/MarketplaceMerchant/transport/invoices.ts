/**
 * Invoices and invoice corrections ("documents"): what the node's Invoice and Invoice Correction
 * operations and the polling trigger share. Pure helpers except `downloadDocumentPdfs`, which
 * needs n8n's request and binary helpers (any execution context has them).
 *
 * Stable API (the trigger imports it; change only compatibly):
 *
 *   type DocumentKind = 'invoice' | 'correction'
 *   DOCUMENTS[kind]                  { listPath, linksPath, fileStem, label, idField }
 *   XML_TEXT_FIELDS[kind]            fields parseXmlAnswer must keep as text for this kind
 *   documentIdOf(document, kind)     the id that identifies a document (dedupe key) or undefined:
 *                                    invoice → orderDetails.invoiceId (or invoiceid);
 *                                    correction → orderDetails.invoiceNumber
 *   simplifyInvoice(document, kind)  flat summary for no-code use (SimplifiedDocument)
 *   validateDocumentRange(from, to, labels?)
 *                                    checks a From/To pair before anything is sent:
 *                                    { ok: true, from, to } | { ok: false, field, problem, hint? }
 *   rawXmlFileName(kind, from, to)   `invoices-2024-01-01-2024-03-31.xml`
 *   flattenDocumentLinks(answer, requestedSuborderIds?)
 *                                    the keyed-by-suborder /urls answer as a list of DocumentLink
 *   downloadDocumentPdfs(ctx, links, binaryProperty = 'data', itemIndex?)
 *                                    one item per link, in order: json = the link,
 *                                    binary[binaryProperty] = the PDF (`<documentCorrelationId>.pdf`,
 *                                    application/pdf). Downloads at once (links expire after about
 *                                    10 minutes), at most 5 at a time with the shared retries;
 *                                    a failed or non-PDF download throws a NodeOperationError
 *                                    (never showing the signed link)
 */
import {
	NodeOperationError,
	type BinaryHelperFunctions,
	type IDataObject,
	type INode,
	type INodeExecutionData,
	type RequestHelperFunctions,
} from 'n8n-workflow';

import { formatIsoUtc, formatYearMonthDay, parseDate } from './dates';
import { LIMITS, PATHS } from './endpoints';
import { sendWithPolicy, statusOf } from './requestPolicy';
import { isBlank, toNumber } from './validation';

export type DocumentKind = 'invoice' | 'correction';

export interface DocumentEndpoints {
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
}

export const DOCUMENTS: Record<DocumentKind, DocumentEndpoints> = {
	invoice: {
		listPath: PATHS.invoices,
		linksPath: PATHS.invoiceUrls,
		fileStem: 'invoices',
		label: 'invoice',
		idField: 'invoiceId',
	},
	correction: {
		listPath: PATHS.invoiceCorrections,
		linksPath: PATHS.invoiceCorrectionUrls,
		fileStem: 'invoice-corrections',
		label: 'invoice correction',
		idField: 'invoiceNumber',
	},
};

/**
 * XML carries no types: xml.ts restores them by field name. `fba` is a boolean in invoices but a
 * string in corrections, so for corrections it must stay text to match the JSON answer.
 */
export const XML_TEXT_FIELDS: Record<DocumentKind, ReadonlySet<string>> = {
	invoice: new Set(),
	correction: new Set(['fba']),
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

function textOf(value: unknown): string | undefined {
	if (typeof value === 'string') return value;
	if (typeof value === 'number' || typeof value === 'boolean') return String(value);
	return undefined;
}

export function documentIdOf(document: IDataObject, kind: DocumentKind): string | undefined {
	const orderDetails = objectAt(document, 'invoiceHeader', 'orderDetails');
	const id =
		kind === 'invoice'
			? firstOf(orderDetails, 'invoiceId', 'invoiceid', 'invoiceID')
			: firstOf(orderDetails, 'invoiceNumber', 'invoicenumber');
	return textOf(id);
}

/** `fba` is a boolean in invoices and a string in corrections. */
function toBoolean(value: unknown): boolean | undefined {
	if (typeof value === 'boolean') return value;
	if (typeof value === 'string' && /^(true|false)$/i.test(value.trim())) return value.trim().toLowerCase() === 'true';
	return undefined;
}

/** `paymentMethods` is usually an array, sometimes one value or a comma-separated string. */
function toTextList(value: unknown): string[] {
	const values = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : value === undefined || value === null ? [] : [value];
	return values.map((entry) => textOf(entry)?.trim() ?? '').filter((entry) => entry !== '');
}

/** Response timestamps may come without a zone; they are UTC. Unreadable values pass through. */
function toIsoUtc(value: unknown): string | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	const date = parseDate(value);
	return date ? formatIsoUtc(date) : textOf(value);
}

export interface SimplifiedDocument extends IDataObject {
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
export function simplifyInvoice(document: IDataObject, kind: DocumentKind): SimplifiedDocument {
	const header = objectAt(document, 'invoiceHeader');
	const orderDetails = objectAt(header, 'orderDetails');
	const fiscalDetails = objectAt(header, 'fiscalDetails');
	const customer = objectAt(header, 'customerDetails');
	const totals = objectAt(document, 'productSpecification', 'totalDetails');
	const taxes = objectAt(document, 'taxRateSpecification');
	const taxGroups = Array.isArray(taxes.taxRateSpecification) ? (taxes.taxRateSpecification as IDataObject[]) : [];
	const customerName = [textOf(customer.firstName), textOf(customer.lastName)].filter(Boolean).join(' ');
	const vatRates = taxGroups.map((group) => toNumber(group?.vat)).filter((rate): rate is number => rate !== undefined);

	const ids: IDataObject =
		kind === 'invoice'
			? { invoiceId: documentIdOf(document, kind), invoiceNumber: textOf(fiscalDetails.invoiceNumber) }
			: {
					invoiceNumber: documentIdOf(document, kind),
					referentDocumentNumber: textOf(fiscalDetails.referentDocumentNumber),
				};
	const simplified: SimplifiedDocument = {
		...ids,
		invoiceType: textOf(header.invoiceType),
		suborderId: textOf(firstOf(orderDetails, 'suborderId', 'suborderid', 'subOrderId')),
		orderId: textOf(firstOf(orderDetails, 'orderid', 'orderId')),
		invoicedDate: toIsoUtc(orderDetails.invoicedDate),
		fiscalInvoiceDate: toIsoUtc(fiscalDetails.fiscalInvoiceDate),
		orderDate: toIsoUtc(orderDetails.orderDate),
		customerName: customerName || undefined,
		customerCity: textOf(objectAt(customer, 'address').city),
		basePrice: toNumber(totals.basePrice),
		vatAmount: toNumber(totals.vatAmount),
		chargedPrice: toNumber(totals.chargedPrice),
		grandTotal: toNumber(taxes.grandTotal),
		vatRates: [...new Set(vatRates)],
		paymentMethods: toTextList(orderDetails.paymentMethods),
		fba: toBoolean(orderDetails.fba),
	};
	if (kind === 'correction') simplified.correctionReason = textOf(header.invoiceCorrectionReason);
	// n8n shows undefined fields as empty columns; leave them out instead.
	for (const key of Object.keys(simplified)) if (simplified[key] === undefined) delete simplified[key];
	return simplified;
}

const DATE_ONLY = /^\s*(\d{4}-\d{2}-\d{2}|\d{2}\/\d{2}\/\d{4})\s*$/;
const DAY_MS = 86_400_000;

/** "To 2024-03-31" means through that day: a bare day (no time) as the end of a range is its last millisecond. */
function endOfDayIfDateOnly(value: unknown, date: Date | undefined): Date | undefined {
	if (!date || typeof value !== 'string' || !DATE_ONLY.test(value)) return date;
	return new Date(date.getTime() + DAY_MS - 1);
}

export interface RangeLabels {
	from: string;
	to: string;
}

export type DocumentRangeCheck =
	| { ok: true; from: Date; to: Date }
	| { ok: false; field: string; problem: string; hint?: string };

/**
 * Checks a From/To pair before anything is sent (the service answers a bare 400 to these).
 * `labels` are the fields' display names, used in the problem and returned as `field`. A To
 * given as a bare day (`2024-03-31`, `31/03/2024`) includes that whole day.
 */
export function validateDocumentRange(
	fromValue: unknown,
	toValue: unknown,
	labels: RangeLabels = { from: 'Date From', to: 'Date To' },
): DocumentRangeCheck {
	const dateHint = 'Use the date picker, an ISO 8601 timestamp (2024-05-01T00:00:00Z) or dd/MM/yyyy; times without a zone are UTC';
	if (isBlank(fromValue)) return { ok: false, field: labels.from, problem: 'is required', hint: dateHint };
	if (isBlank(toValue)) return { ok: false, field: labels.to, problem: 'is required', hint: dateHint };
	const from = parseDate(fromValue);
	if (!from) return { ok: false, field: labels.from, problem: `"${String(fromValue)}" is not a date`, hint: dateHint };
	const to = endOfDayIfDateOnly(toValue, parseDate(toValue));
	if (!to) return { ok: false, field: labels.to, problem: `"${String(toValue)}" is not a date`, hint: dateHint };
	const earliest = new Date(LIMITS.earliestInvoiceDate);
	if (from.getTime() < earliest.getTime()) {
		return {
			ok: false,
			field: labels.from,
			problem: `must not be before ${formatYearMonthDay(earliest)} (got ${formatIsoUtc(from)})`,
			hint: `The service keeps no documents from before ${formatYearMonthDay(earliest)} and rejects such ranges`,
		};
	}
	if (to.getTime() < from.getTime()) {
		return {
			ok: false,
			field: labels.to,
			problem: `must not be before ${labels.from} (${formatIsoUtc(to)} is before ${formatIsoUtc(from)})`,
		};
	}
	return { ok: true, from, to };
}

export function rawXmlFileName(kind: DocumentKind, from: Date, to: Date): string {
	return `${DOCUMENTS[kind].fileStem}-${formatYearMonthDay(from)}-${formatYearMonthDay(to)}.xml`;
}

export interface DocumentLink extends IDataObject {
	suborderId: string;
	documentCorrelationId: string;
	link: string;
}

/** The spec's placeholder name for the suborder-id keys (platform facts: not a literal key). */
const SPEC_KEY_PLACEHOLDER = 'suborderIdNumberValue';

/**
 * Turns the /urls answer `{ "<suborderId>": [{ documentCorrelationId, link }] }` into one entry
 * per document. Also read: a key that is the spec's placeholder (then the entry's own suborderId,
 * or the one requested suborder), a single object instead of a list, and a plain list of entries.
 * Fields beyond the documented ones pass through.
 */
export function flattenDocumentLinks(answer: unknown, requestedSuborderIds: string[] = []): DocumentLink[] {
	const onlyRequested = requestedSuborderIds.length === 1 ? requestedSuborderIds[0] : undefined;
	const toLink = (entry: unknown, key?: string): DocumentLink | undefined => {
		if (!entry || typeof entry !== 'object' || Array.isArray(entry)) return undefined;
		const fields = entry as IDataObject;
		const keyIsSuborder = key !== undefined && key !== SPEC_KEY_PLACEHOLDER;
		const suborderId = keyIsSuborder ? key : (textOf(firstOf(fields, 'suborderId', 'suborderid')) ?? onlyRequested ?? key ?? '');
		const { suborderId: _ownSuborderId, documentCorrelationId, link, ...otherFields } = fields;
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

/** What downloading needs from an execution context (node or trigger). */
export interface DocumentDownloadContext {
	getNode(): INode;
	helpers: Pick<RequestHelperFunctions, 'httpRequest'> & Pick<BinaryHelperFunctions, 'prepareBinaryData'>;
}

const PDF_MAGIC = '%PDF';
const DOWNLOAD_TIMEOUT_MS = 120_000;

function pdfFileName(link: DocumentLink): string {
	const name = (link.documentCorrelationId || link.suborderId || 'document').replace(/[^\w.-]+/g, '_');
	return `${name}.pdf`;
}

/**
 * Downloads every link's PDF as binary data. The links are pre-signed (no credentials are sent)
 * and expire after about 10 minutes, so this runs right after the links are fetched. Downloads
 * go through the shared retry policy (429/5xx, cut connections) under their own gate, so they
 * neither count against nor wait for the API's rate limits. Messages never contain a link: its
 * signature grants access to the document.
 */
export async function downloadDocumentPdfs(
	ctx: DocumentDownloadContext,
	links: DocumentLink[],
	binaryProperty = 'data',
	itemIndex?: number,
): Promise<INodeExecutionData[]> {
	return await Promise.all(
		links.map(async (link) => {
			let pdf: Buffer;
			try {
				const origin = new URL(link.link).origin;
				const body: unknown = await sendWithPolicy(
					{ node: ctx.getNode(), merchantKey: `document-downloads|${origin}`, url: link.link, group: 'documentDownloads', idempotent: true },
					async () =>
						await ctx.helpers.httpRequest({
							method: 'GET',
							url: link.link,
							encoding: 'arraybuffer',
							json: false,
							timeout: DOWNLOAD_TIMEOUT_MS,
						}),
				);
				pdf = Buffer.isBuffer(body) ? body : Buffer.from(body as ArrayBuffer);
			} catch (error) {
				const status = statusOf(error);
				throw new NodeOperationError(
					ctx.getNode(),
					`Could not download the PDF of document ${link.documentCorrelationId} (suborder ${link.suborderId})${status ? `: HTTP ${status}` : ''}`,
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
				throw new NodeOperationError(
					ctx.getNode(),
					`The link of document ${link.documentCorrelationId} (suborder ${link.suborderId}) did not return a PDF`,
					{ itemIndex, description: `The answer starts with: ${pdf.subarray(0, 60).toString('utf8')}` },
				);
			}
			const binary = await ctx.helpers.prepareBinaryData(pdf, pdfFileName(link), 'application/pdf');
			return { json: link, binary: { [binaryProperty]: binary } };
		}),
	);
}

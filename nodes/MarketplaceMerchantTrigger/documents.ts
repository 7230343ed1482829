/**
 * The trigger's requests: documents of one date window, and their PDFs. Every request goes
 * through send.ts (the credential's token, renewed after a 401) under the shared pacing and
 * retry policy, as the node's requests do.
 */
import {
	NodeApiError,
	type IDataObject,
	type IN8nHttpFullResponse,
	type INodeExecutionData,
	type IPollFunctions,
	type JsonObject,
} from 'n8n-workflow';

import { formatIsoUtc, parseServiceTimestamp } from '../MarketplaceMerchant/transport/dates';
import { decodeAnswer } from '../MarketplaceMerchant/transport/decode';
import {
	DOCUMENTS,
	documentIdOf,
	downloadDocumentPdfs,
	flattenDocumentLinks,
	type DocumentKind,
	type DocumentLink,
} from '../MarketplaceMerchant/transport/invoices';
import { statusOf } from '../MarketplaceMerchant/transport/errors';
import { ANSWERS, type AnswerSchema } from '../MarketplaceMerchant/transport/schema';
import { sendAuthenticated } from '../MarketplaceMerchant/transport/send';
import type { DateWindow } from './cursor';

/** Month-long ranges are slow on the live service; a request that hangs must still end. */
const REQUEST_TIMEOUT_MS = 180_000;
/** Suborder ids per request for document links: keeps the query string short. */
const SUBORDERS_PER_LINK_REQUEST = 50;

export type InvoiceTypeFilter = 'FISCAL' | 'NON_FISCAL' | undefined;

function objectAt(value: unknown, key: string): IDataObject {
	const child = value && typeof value === 'object' ? (value as IDataObject)[key] : undefined;
	return child && typeof child === 'object' && !Array.isArray(child) ? (child as IDataObject) : {};
}

function orderDetailsOf(document: IDataObject): IDataObject {
	return objectAt(objectAt(document, 'invoiceHeader'), 'orderDetails');
}

/** The platform invoiced date, the date the service filters on (zone-less values are UTC). */
export function invoicedDateOf(document: IDataObject): Date | undefined {
	return parseServiceTimestamp(orderDetailsOf(document).invoicedDate);
}

function suborderIdOf(document: IDataObject): string | undefined {
	const value = orderDetailsOf(document).suborderId;
	return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * The error a failed request becomes: what was being read, the HTTP status, and what to do. n8n's
 * request helpers throw a NodeApiError already, and wrapping one hands back the same error, so a
 * new one is built from its parts.
 */
function describeFailure(ctx: IPollFunctions, error: unknown, what: string): NodeApiError {
	const status = statusOf(error);
	const original = (error ?? {}) as { message?: string; description?: string | null };
	const originalMessage = original.message ?? String(error);
	const details = { message: originalMessage, description: original.description ?? null } as JsonObject;
	const httpCode = status === undefined ? undefined : String(status);
	if (status === 401 || status === 403) {
		return new NodeApiError(ctx.getNode(), details, {
			httpCode,
			message: `The service rejected the credential while reading ${what} (HTTP ${status})`,
			description:
				status === 401
					? 'Check the Client ID and Client Secret, and that they belong to the environment of the Base URL (production and staging credentials differ).'
					: 'The client has no permission for this route: check its permissions in the merchant portal.',
		});
	}
	if (status === 429 || (status !== undefined && status >= 500)) {
		return new NodeApiError(ctx.getNode(), details, {
			httpCode,
			message: `The service did not answer the request for ${what} (HTTP ${status}, after retries)`,
			description: `${originalMessage}. Nothing was skipped: the next poll asks for the same period again.`,
		});
	}
	return new NodeApiError(ctx.getNode(), details, {
		httpCode,
		message: `Could not read ${what}: ${originalMessage}`,
		description: original.description ?? undefined,
	});
}

/**
 * One authenticated GET under the shared policy; the answer read against its schema (decode.ts).
 * With `notFoundIsEmpty`, a 404 (the link endpoints' "no such document") reads as no answer.
 */
export async function getFromService(
	ctx: IPollFunctions,
	path: string,
	qs: IDataObject,
	what: string,
	answer: AnswerSchema,
	{ notFoundIsEmpty = false }: { notFoundIsEmpty?: boolean } = {},
): Promise<unknown> {
	let response: IN8nHttpFullResponse;
	try {
		response = await sendAuthenticated(ctx, { group: 'orders', idempotent: true }, {
			method: 'GET',
			url: path,
			qs,
			timeout: REQUEST_TIMEOUT_MS,
		});
	} catch (error) {
		if (notFoundIsEmpty && statusOf(error) === 404) return undefined;
		throw describeFailure(ctx, error, what);
	}
	return decodeAnswer(ctx, response, answer);
}

function rangeQuery(window: DateWindow, type: InvoiceTypeFilter): IDataObject {
	return { dateFrom: formatIsoUtc(window.from), dateTo: formatIsoUtc(window.to), ...(type ? { type } : {}) };
}

/** The documents of one kind invoiced within the window (bounds inclusive), in the service's order. */
export async function fetchDocuments(
	ctx: IPollFunctions,
	kind: DocumentKind,
	window: DateWindow,
	type: InvoiceTypeFilter,
): Promise<IDataObject[]> {
	const what = `${DOCUMENTS[kind].label}s from ${formatIsoUtc(window.from)} to ${formatIsoUtc(window.to)}`;
	const list = await getFromService(ctx, DOCUMENTS[kind].listPath, rangeQuery(window, type), what, DOCUMENTS[kind].answer);
	if (list === undefined || list === null) return [];
	if (!Array.isArray(list)) {
		throw new NodeApiError(ctx.getNode(), { body: JSON.stringify(list).slice(0, 200) } as JsonObject, {
			message: `The service answered the request for ${what} with something that is not a list`,
		});
	}
	return list.filter((entry): entry is IDataObject => !!entry && typeof entry === 'object' && !Array.isArray(entry));
}

export interface DocumentItem {
	document: IDataObject;
	item: INodeExecutionData;
}

/**
 * Attaches each document's PDF to its item. Links are asked for by suborder id (the window
 * narrows the search) and downloaded at once, since they expire after about 10 minutes. A
 * document the service has no link for is emitted without a PDF and says so in `pdfError`; a
 * failing request fails the poll, which then repeats the same period.
 */
export async function attachPdfs(
	ctx: IPollFunctions,
	kind: DocumentKind,
	window: DateWindow,
	entries: DocumentItem[],
	binaryProperty: string,
): Promise<void> {
	const suborderIds = [...new Set(entries.map(({ document }) => suborderIdOf(document)).filter((id): id is string => !!id))];
	const links: DocumentLink[] = [];
	for (let start = 0; start < suborderIds.length; start += SUBORDERS_PER_LINK_REQUEST) {
		const chunk = suborderIds.slice(start, start + SUBORDERS_PER_LINK_REQUEST);
		const what = `the PDF links of ${chunk.length} ${DOCUMENTS[kind].label}(s)`;
		const answer = await getFromService(
			ctx,
			DOCUMENTS[kind].linksPath,
			{ ...rangeQuery(window, undefined), suborderIds: chunk.join(',') },
			what,
			ANSWERS.invoiceUrls,
			{ notFoundIsEmpty: true },
		);
		links.push(...flattenDocumentLinks(answer, chunk));
	}
	const toDownload: Array<{ entry: DocumentItem; link: DocumentLink }> = [];
	for (const entry of entries) {
		const id = documentIdOf(entry.document, kind);
		const suborderId = suborderIdOf(entry.document);
		// The link names the document it belongs to (also when the answer does not name its suborder);
		// a suborder with a single link needs no name.
		const ofSuborder = links.filter((link) => link.suborderId === suborderId);
		const link = links.find((candidate) => candidate.documentCorrelationId === id) ?? (ofSuborder.length === 1 ? ofSuborder[0] : undefined);
		if (link) toDownload.push({ entry, link });
		else entry.item.json.pdfError = `The service returned no PDF link for this ${DOCUMENTS[kind].label}`;
	}
	const downloaded = await downloadDocumentPdfs(
		ctx,
		toDownload.map(({ link }) => link),
		binaryProperty,
	);
	toDownload.forEach(({ entry }, index) => {
		entry.item.binary = downloaded[index].binary;
	});
}

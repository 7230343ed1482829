/**
 * The trigger's requests: documents of one date window, and their PDFs. Every request goes
 * through send.ts (the credential's token, renewed after a 401) under the shared pacing and
 * retry policy, as the node's requests do; what a document is and how its links and PDFs are
 * read is the documents family's (actions/documents/).
 */
import {
	NodeApiError,
	type IDataObject,
	type IN8nHttpFullResponse,
	type INodeExecutionData,
	type IPollFunctions,
	type JsonObject,
} from 'n8n-workflow';

import {
	DOCUMENTS,
	downloadDocumentPdfs,
	invoiceNumberOf,
	flattenDocumentLinks,
	linkOfDocument,
	suborderGroups,
	suborderIdOf,
	type DocumentKind,
	type DocumentLink,
} from '../MarketplaceMerchant/actions/documents/documents';
import type { InvoiceTypeFilter } from '../MarketplaceMerchant/actions/documents/fields';
import { formatIsoUtc } from '../MarketplaceMerchant/values/dates';
import { decodeAnswer } from '../MarketplaceMerchant/answers/decode';
import type { EndpointGroup } from '../MarketplaceMerchant/transport/endpoints';
import { credentialAdvice, serviceError, statusOf } from '../MarketplaceMerchant/transport/errors';
import { ANSWERS, type AnswerSchema } from '../MarketplaceMerchant/answers/schema';
import { sendAuthenticated } from '../MarketplaceMerchant/transport/send';
import type { DateWindow } from './cursor';

/** Month-long ranges are slow on the live service; a request that hangs must still end. */
const REQUEST_TIMEOUT_MS = 180_000;

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
		// The request engine's description already ends with what to check (errors.ts, credentialAdvice).
		return serviceError(ctx.getNode(), details, {
			httpCode,
			message: `The service rejected the credential while reading ${what} (HTTP ${status})`,
			description: original.description ?? credentialAdvice(status),
		});
	}
	if (status === 429 || (status !== undefined && status >= 500)) {
		return serviceError(ctx.getNode(), details, {
			httpCode,
			message: `The service did not answer the request for ${what} (HTTP ${status}, after retries)`,
			description: `${originalMessage}. Nothing was skipped: the next poll asks for the same period again.`,
		});
	}
	return serviceError(ctx.getNode(), details, {
		httpCode,
		message: `Could not read ${what}: ${originalMessage}`,
		description: original.description ?? undefined,
	});
}

/**
 * One authenticated GET under the shared policy, paced with the endpoint's group; the answer read
 * against its schema (decode.ts). With `notFoundIsEmpty`, a 404 (the link endpoints' "no such
 * document") reads as no answer.
 */
export async function getFromService(
	ctx: IPollFunctions,
	group: EndpointGroup,
	path: string,
	qs: IDataObject,
	what: string,
	answer: AnswerSchema,
	{ notFoundIsEmpty = false }: { notFoundIsEmpty?: boolean } = {},
): Promise<unknown> {
	let response: IN8nHttpFullResponse;
	try {
		response = await sendAuthenticated(ctx, { group, idempotent: true }, {
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
	const list = await getFromService(ctx, 'orders', DOCUMENTS[kind].listPath, rangeQuery(window, type), what, DOCUMENTS[kind].answer);
	if (list === undefined || list === null) return [];
	if (!Array.isArray(list)) {
		throw serviceError(ctx.getNode(), { body: JSON.stringify(list).slice(0, 200) } as JsonObject, {
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
	for (const chunk of suborderGroups(suborderIds)) {
		const what = `the PDF links of ${chunk.length} ${DOCUMENTS[kind].label}(s)`;
		const answer = await getFromService(
			ctx,
			'orders',
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
		const link = linkOfDocument(entry.document, kind, links);
		if (link) toDownload.push({ entry, link });
		else entry.item.json.pdfError = `The service returned no PDF link for this ${DOCUMENTS[kind].label}`;
	}
	const downloaded = await downloadDocumentPdfs(
		ctx,
		toDownload.map(({ link }) => link),
		binaryProperty,
		undefined,
		toDownload.map(({ entry }) => invoiceNumberOf(entry.document, kind)),
	);
	toDownload.forEach(({ entry }, index) => {
		entry.item.binary = downloaded[index].binary;
	});
}

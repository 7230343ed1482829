/**
 * The PDFs of documents, for the node (Get Document Links, Get Many's Download PDFs) and the
 * trigger: one name for a file, the download of pre-signed links, and the PDFs of listed documents.
 */
import type { BinaryHelperFunctions, INodeExecutionData, IDataObject } from 'n8n-workflow';

import { downloadPresigned, type DownloadContext } from '../../transport/send';
import { nodeError, statusOf, downloadFailureDescription } from '../../transport/errors';
import type { ReadEndpoint } from '../read';
import { DOCUMENTS, invoiceNumberOf, type DocumentKind } from './documents';
import { linkOfDocument, linksAsker, linksOfDocuments, type DocumentLink, type LinkSelection } from './links';

type PdfContext = DownloadContext & { helpers: Pick<BinaryHelperFunctions, 'prepareBinaryData'> };

/**
 * The one name of a downloaded PDF, for the node and the trigger: `<invoice number>.pdf` where the
 * document the link belongs to is known, else the link's document id (or suborder).
 */
export function pdfFileName(link: DocumentLink, invoiceNumber?: string): string {
	const stem = invoiceNumber || link.documentCorrelationId || link.suborderId || 'document';
	return `${stem.replace(/[^\w.-]+/g, '_')}.pdf`;
}

const PDF_MAGIC = '%PDF';
const DOWNLOAD_TIMEOUT_MS = 120_000;

/**
 * One item per link with its PDF. The links are pre-signed and expire after about 10 minutes, so
 * this runs right after they are fetched. Messages never contain a link: its signature grants
 * access. A file is named `<invoice number>.pdf` where the caller knows it (`invoiceNumbers`).
 */
export async function downloadDocumentPdfs(
	ctx: PdfContext,
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

/** A listed document and the output item that carries it (simplified or not). */
export interface ListedDocument {
	document: IDataObject;
	item: INodeExecutionData;
}

/**
 * The PDFs of listed documents (Get Many's Download PDFs, the trigger), each attached to its own
 * item and named `<invoice number>.pdf`; their links asked by `linksOfDocuments` (links.ts) through
 * the caller's reader. A document the service gives no link for says so in `pdfError`.
 */
export async function attachPdfsOfDocuments(
	ctx: PdfContext,
	kind: DocumentKind,
	listed: ListedDocument[],
	selection: LinkSelection,
	read: ReadEndpoint,
	binaryProperty: string,
	itemIndex?: number,
): Promise<void> {
	if (listed.length === 0) return;
	const links = await linksOfDocuments(ctx.getNode(), listed.map(({ document }) => document), selection, linksAsker(read, kind));
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

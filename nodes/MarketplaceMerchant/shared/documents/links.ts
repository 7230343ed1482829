/**
 * Document links (`/urls`), for the node's Get Document Links and Get Many's PDFs and for the
 * trigger: reading an answer, which link is whose, suborder IDs per request, selecting by the range
 * or by suborder IDs, and asking once more with what the run knows where the service wants both.
 */
import type { IDataObject, INode } from 'n8n-workflow';

import { LIMITS } from '../../transport/endpoints';
import { asNodeError, nodeError, statusOf } from '../../transport/errors';
import { chunkBySize } from '../../transport/batches';
import { ANSWERS } from '../../answers/schemas';
import { isPlainObject } from '../../values/labels';
import type { ReadEndpoint } from '../read';
import { DOCUMENTS, documentIdOf, suborderIdOf, textOf, type DocumentKind } from './documents';
import { rangeQuery } from './fields';

/** Get Document Links' field, named in the errors that ask for it. */
export const SUBORDER_IDS_LABEL = 'Suborder IDs';

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


/** One `/urls` request: the links of its answer (none for a 404, the service's "no documents"). */
export type AskForLinks = (query: IDataObject, requestedSuborderIds: string[]) => Promise<DocumentLink[]>;

/** The `/urls` requests of a caller outside routing (Get Many's PDFs, the trigger), through its reader. */
export function linksAsker(read: ReadEndpoint, kind: DocumentKind): AskForLinks {
	return async (query, requested) => {
		const what = `the PDF links of ${requested.length} ${DOCUMENTS[kind].label}(s)`;
		return flattenDocumentLinks(await read('orders', DOCUMENTS[kind].linksPath, query, what, ANSWERS.invoiceUrls, true), requested);
	};
}

/** Which listed documents' links to ask: the windows of their range, their type, and whether the list holds every document of it. */
export interface LinkSelection {
	windows: Array<{ from: Date; to: Date }>;
	type?: string;
	wholeRange: boolean;
}

/**
 * The links of listed documents, in as few `/urls` requests as the selection allows (platform
 * facts: suborder ids or a date range select the documents): by the range, one request per window,
 * when the list holds every document of it (`wholeRange`); else by the documents' suborder ids,
 * many per request, within the range when one is given.
 */
export async function linksOfDocuments(node: INode, documents: IDataObject[], selection: LinkSelection, ask: AskForLinks): Promise<DocumentLink[]> {
	const typeQuery = selection.type ? { type: selection.type } : {};
	const rangeOf = (window: { from: Date; to: Date }) => rangeQuery(window, selection.type);
	const bySuborders = async () => {
		const found: DocumentLink[] = [];
		const suborderIds = [...new Set(documents.map((document) => suborderIdOf(document)).filter((id): id is string => !!id))];
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
	try {
		return selection.wholeRange && selection.windows.length > 0 ? await byRange() : await bySuborders();
	} catch (error) {
		// The interface reference requires suborderIds beside the range (platform facts: the current
		// pages take either): a 400 to the range alone is asked again by the suborders, within it.
		if (statusOf(error) !== 400 || !selection.wholeRange) throw asNodeError(node, error);
		return await bySuborders();
	}
}

/**
 * The interface reference marks the dates required beside the suborder ids (platform facts: the
 * current pages take the ids alone). Where the service answers 400 to the ids alone, they are
 * asked again once within the range of the items' invoiced dates (Get Many's items carry them);
 * without those, the item fails saying which dates to set.
 */
export async function withDatesIfRequired(
	node: INode,
	itemIndex: number,
	query: IDataObject,
	invoicedDates: Array<Date | undefined>,
	askAll: (query: IDataObject) => Promise<DocumentLink[]>,
): Promise<DocumentLink[]> {
	try {
		return await askAll(query);
	} catch (error) {
		if (statusOf(error) !== 400 || query.dateFrom !== undefined) throw asNodeError(node, error);
		if (invoicedDates.length === 0 || invoicedDates.some((date) => date === undefined)) {
			throw nodeError(node, `The service requires Date From and Date To with ${SUBORDER_IDS_LABEL} (HTTP 400)`, {
				itemIndex,
				description: 'Set Date From and Date To to cover the dates the documents were invoiced, or give the items of Invoice › Get Many, which carry them',
			});
		}
		const times = (invoicedDates as Date[]).map((date) => date.getTime());
		const range = rangeQuery({ from: new Date(Math.min(...times)), to: new Date(Math.max(...times)) }, undefined);
		return await askAll({ ...query, ...range });
	}
}

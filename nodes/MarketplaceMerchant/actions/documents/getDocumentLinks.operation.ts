/**
 * Get Document Links of invoices or corrections: one item per document link, of some suborders or
 * of a date range, optionally with its PDF. The suborder ids of every input item of a node run go
 * out together, as few per request as the endpoint allows, and each link comes back on the item
 * that asked for it.
 */
import { updateDisplayOptions, type IDataObject, type INodeExecutionData } from 'n8n-workflow';

import { ANSWERS } from '../../answers/schemas';
import { asNodeError, emptyIfNothingFound, firstOf, nodeError, statusOf } from '../../transport/errors';
import { sendRequest, type RequestData, type ItemFunctions, type RequestStep } from '../../transport/send';
import { splitDateRange, type PaginationFunction } from '../../transport/batches';
import { type Shaping } from '../../answers/read';
import { settle, type Settled } from '../../transport/policy';
import { isPlainObject } from '../../values/labels';
import { readList, toList, readFlag } from '../../values/values';
import { optionsCollection } from '../common';
import { DOCUMENTS, documentIdOfAny, invoicedDateOfAny, invoiceNumberOf, type DocumentKind } from '../../shared/documents/documents';
import { binaryPropertyOf, outputFileField } from '../../shared/documents/fields';
import { SUBORDER_IDS_LABEL, flattenDocumentLinks, suborderGroups, withDatesIfRequired, type DocumentLink } from '../../shared/documents/links';
import { downloadDocumentPdfs } from '../../shared/documents/pdfs';
import { addRangeAndType, addType, datesNarrowSuborders, rangeAndTypeFields, rangeRouting } from './fields';
import type { OperationModule } from '../contract';
import type { ReadItem } from '../run';

const GET_DOCUMENT_LINKS = 'getDocumentLinks';

/**
 * The query: the suborder ids, with the range only when the dates narrow them (fields.ts,
 * `datesNarrowSuborders`); without ids, the range alone (platform facts: either selects documents).
 */
const addSelection: RequestStep = async function (requestOptions) {
	// Left empty, the range selects; filled (an expression too) but empty for this item, the item
	// fails: an item without its suborder must not turn into every document of the range.
	const saved = this.getNode().parameters.suborderIds;
	if (saved === undefined || (typeof saved === 'string' && saved.trim() === '')) return await addRangeAndType.call(this, requestOptions);
	const value = this.getNodeParameter('suborderIds', '');
	const suborderIds = readList(this, SUBORDER_IDS_LABEL, value, {
		empty: {
			problem: 'must list at least one suborder ID',
			hint: 'Separate several IDs with commas, or use an expression that gives an array, e.g. {{ $json.suborderIds }}',
		},
	});
	const narrowed = datesNarrowSuborders(this, this.getNodeParameter('dateFrom', ''), this.getNodeParameter('dateTo', ''));
	const withDates = await (narrowed ? addRangeAndType : addType).call(this, requestOptions);
	return { ...withDates, qs: { ...withDates.qs, suborderIds: suborderIds.join(',') } };
};

/** The links of one answer; which suborders were asked is known only to the request (see `askerOf`). */
const readDocumentLinks: Shaping = async function (_items, _answer, body) {
	return flattenDocumentLinks(body).map((link) => ({ json: link }));
};

type Ask = (suborderIds: string[]) => Promise<DocumentLink[]>;

/** One request per window of the item's range (none: one request); a 404 is "nothing there". */
function askerOf(ctx: ItemFunctions, requestData: RequestData): Ask {
	const qs = requestData.options.qs as IDataObject;
	const inWindows = splitDateRange({
		idOf: ({ json }) => (json.documentCorrelationId ? String(json.documentCorrelationId) : undefined),
		notFoundIsEmpty: true,
	});
	return async (suborderIds) => {
		const query = { ...qs, suborderIds: suborderIds.join(',') };
		let answered: INodeExecutionData[];
		if (qs.dateFrom !== undefined) {
			answered = await inWindows.call(ctx, { ...requestData, options: { ...requestData.options, qs: query } });
		} else {
			try {
				answered = await sendRequest(ctx, requestData, { qs: query });
			} catch (error) {
				answered = emptyIfNothingFound(ctx.getNode(), error, []);
			}
		}
		// A link whose suborder the answer does not name belongs to the one asked, if one was.
		return flattenDocumentLinks(answered.map(({ json }) => json), suborderIds);
	};
}

/** The links of the suborders of the run's items that share one selection (dates, type), by selection; each with how many items asked. */
type LinksOfRun = Map<string, { asked: number; links: Settled<DocumentLink[]> }>;

/** The selection of an item's request but its suborders: items of one selection ask together. */
function selectionOf(qs: IDataObject): string {
	const selection: IDataObject = { ...qs };
	delete selection.suborderIds;
	return JSON.stringify(selection);
}

/**
 * The plan (actions/run.ts): the suborder ids of every item with the same dates and type go out
 * together, in `suborderGroups` of them per request, sent with the first such item's request; a
 * failed look-up fails each item that asked.
 */
async function linksOfRun(_exec: unknown, requests: Array<ReadItem<RequestData>>): Promise<LinksOfRun> {
	const bySelection = new Map<string, Array<ReadItem<RequestData>>>();
	for (const request of requests) {
		const qs = request.entry.options.qs as IDataObject;
		if (toList(qs.suborderIds).length === 0) continue;
		const key = selectionOf(qs);
		bySelection.set(key, [...(bySelection.get(key) ?? []), request]);
	}
	const run: LinksOfRun = new Map();
	await Promise.all(
		[...bySelection].map(async ([key, asking]) => {
			const [{ ctx, entry: requestData }] = asking;
			const ids = [...new Set(asking.flatMap(({ entry }) => toList((entry.options.qs as IDataObject).suborderIds)))];
			const askAll = async (qs: IDataObject) => {
				const askOne = askerOf(ctx, { ...requestData, options: { ...requestData.options, qs } });
				const links: DocumentLink[] = [];
				for (const group of suborderGroups(ids)) links.push(...(await askOne(group)));
				return links;
			};
			const invoicedDates = asking.map((each) => invoicedDateOfAny(each.ctx.getInputData()?.json ?? {}));
			const links = await settle(withDatesIfRequired(ctx.getNode(), ctx.getItemIndex(), requestData.options.qs as IDataObject, invoicedDates, askAll));
			run.set(key, { asked: asking.length, links });
		}),
	);
	return run;
}

/**
 * The links of this item's suborders: those the answer names, and those it does not name that are
 * the item's document (an item from Get Many carries its id) or, when the item asked alone, all.
 * If links were left unnamed and none is the item's, its ids are asked again one per request.
 */
async function linksOfItem(ctx: ItemFunctions, requestData: RequestData, kind: DocumentKind, suborderIds: string[]): Promise<DocumentLink[]> {
	const { asked, links: outcome } = (requestData.plan as LinksOfRun).get(selectionOf(requestData.options.qs as IDataObject)) as LinksOfRun extends Map<string, infer T> ? T : never;
	if (!outcome.ok) throw outcome.error;
	const all = outcome.value;
	const mine = new Set(suborderIds);
	const ownId = documentIdOfAny(ctx.getInputData()?.json ?? {}, kind);
	const unnamed = all.filter((link) => link.suborderId === null);
	const links = all.filter((link) => (link.suborderId !== null ? mine.has(link.suborderId) : asked === 1 || link.documentCorrelationId === ownId));
	if (links.length > 0 || unnamed.length === 0) return links;
	const ask = askerOf(ctx, requestData);
	const alone: DocumentLink[] = [];
	for (const id of suborderIds) alone.push(...(await ask([id])));
	return alone;
}

/**
 * `<invoice number>.pdf` for the link of the item's own document: the item carries the invoice
 * number (Get Many's output, simplified or not) and the link is its document's, or its only one.
 */
function invoiceNumbersOf(ctx: ItemFunctions, kind: DocumentKind, links: DocumentLink[]): Array<string | undefined> {
	const input = ctx.getInputData()?.json;
	if (!isPlainObject(input)) return [];
	const number = invoiceNumberOf(input, kind);
	const ownId = documentIdOfAny(input, kind);
	return links.map((link) => (number && (link.documentCorrelationId === ownId || links.length === 1) ? number : undefined));
}

/** Every document of the item's range; a service that selects by suborder ids only (the interface reference) answers 400. */
async function linksOfRange(ctx: ItemFunctions, requestData: RequestData, inWindows: PaginationFunction): Promise<DocumentLink[]> {
	try {
		return flattenDocumentLinks((await inWindows.call(ctx, requestData)).map(({ json }) => json));
	} catch (error) {
		if (statusOf(error) !== 400) throw asNodeError(ctx.getNode(), error);
		throw nodeError(ctx.getNode(), `The service requires ${SUBORDER_IDS_LABEL} to select documents (HTTP 400)`, {
			itemIndex: ctx.getItemIndex(),
			description: 'Give the suborder IDs (e.g. from Invoice › Get Many over the same range), or use Get Many with Options › Download PDFs, which asks for them itself',
		});
	}
}

function fetchDocumentLinks(kind: DocumentKind): PaginationFunction {
	const inWindows = splitDateRange({
		idOf: ({ json }) => (json.documentCorrelationId ? String(json.documentCorrelationId) : undefined),
		notFoundIsEmpty: true,
	});
	return async function (requestData) {
		const qs = requestData.options.qs as IDataObject;
		const suborderIds = toList(qs.suborderIds);
		const links =
			suborderIds.length > 0
				? await linksOfItem(this, requestData, kind, suborderIds)
				: await linksOfRange(this, requestData, inWindows);
		if (links.length === 0) {
			const { label } = DOCUMENTS[kind];
			const range = qs.dateFrom === undefined ? '' : ` from ${String(qs.dateFrom)} to ${String(qs.dateTo)}`;
			const which = suborderIds.length > 0 ? ` for suborder ID(s) ${firstOf(suborderIds, 10)}` : '';
			const description =
				suborderIds.length > 0
					? `Check the suborder IDs${range ? ` and that the range covers the date the ${label} was issued` : ''}${qs.type ? ` and that it is ${String(qs.type)}` : ''}`
					: `No ${label} was invoiced in the range${qs.type ? ` as ${String(qs.type)}` : ''}`;
			throw nodeError(this.getNode(), `No ${label} documents found${which}${range}`, { itemIndex: this.getItemIndex(), description });
		}
		if (!readFlag(this, 'options.downloadPdfs', 'Options › Download PDFs', false)) return links.map((link) => ({ json: link }));
		return await downloadDocumentPdfs(this, links, binaryPropertyOf(this), this.getItemIndex(), invoiceNumbersOf(this, kind, links));
	};
}

export function operationOf(kind: DocumentKind): OperationModule {
	const { resource, label, linksPath } = DOCUMENTS[kind];
	const option = {
		name: 'Get Document Links',
		value: GET_DOCUMENT_LINKS,
		action: `Get ${label} document links`,
		description: `Get links to the PDF documents of the ${label}s of some suborders, or of a date range: one item per document with suborderId, documentCorrelationId and link. Links expire after about 10 minutes; the PDFs can be downloaded at once.`,
	};
	const fields = updateDisplayOptions({ show: { resource: [resource], operation: [GET_DOCUMENT_LINKS] } }, [
		{
			displayName: SUBORDER_IDS_LABEL,
			name: 'suborderIds',
			type: 'string',
			default: '',
			placeholder: '5100123-1, 5100456-2',
			description: `Suborders whose ${label} documents are wanted, separated by commas, or an expression that gives one or an array (e.g. the suborderId of Get Many's items: the IDs of all input items go out together). Leave the field empty for every ${label} document of the date range.`,
		},
		...rangeAndTypeFields(kind, `Which ${label}s' documents to return`, true),
		optionsCollection([
			{
				displayName: 'Download PDFs',
				name: 'downloadPdfs',
				type: 'boolean',
				default: false,
				description: `Whether to download each PDF right away as binary data, named after the ${label} number when the input item carries it (as Get Many's items do), else after the documentCorrelationId; links expire after about 10 minutes`,
			},
			outputFileField('Binary field for the downloaded PDF', { show: { downloadPdfs: [true] } }),
		]),
	]);
	const steps = rangeRouting(linksPath, [addSelection], fetchDocumentLinks(kind), ANSWERS.invoiceUrls, [readDocumentLinks], linksOfRun);
	return { steps, option, fields };
}

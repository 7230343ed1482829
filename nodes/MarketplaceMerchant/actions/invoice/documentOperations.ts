/**
 * The operations of the Invoice and Invoice Correction resources. Both resources read documents
 * of the same shape from parallel endpoints, so each operation is built here once for either
 * kind; the operation files of actions/invoice/ and actions/invoiceCorrection/ only pick the kind.
 *
 * Get Many: one item per document over a date range of any length (3-month windows, merged in
 * order without duplicates), optionally simplified, read from JSON or XML, optionally with the
 * raw XML answer attached. Get Document Links: one item per document link of some suborders,
 * optionally with the PDF downloaded at once.
 */
import {
	NodeOperationError,
	type IDataObject,
	type IExecutePaginationFunctions,
	type IExecuteSingleFunctions,
	type IHttpRequestOptions,
	type IN8nHttpFullResponse,
	type INodeExecutionData,
	type INodeProperties,
	type INodePropertyOptions,
} from 'n8n-workflow';

import { formatIsoUtc } from '../../transport/dates';
import { decodeAnswer, readAnswer } from '../../transport/decode';
import {
	DOCUMENTS,
	documentIdOf,
	downloadDocumentPdfs,
	flattenDocumentLinks,
	rawXmlFileName,
	simplifyInvoice,
	readDocumentRange,
	type DocumentKind,
	type DocumentLink,
} from '../../transport/invoices';
import { ANSWERS } from '../../transport/schema';
import type { RequestData } from '../../transport/send';
import { chunkBySize, splitDateRange } from '../../transport/pagination';
import { isBlank, readChoice, readList, toList } from '../../transport/values';
import { looksLikeXml } from '../../transport/xml';
import { pacedRouting, optionsCollection } from '../common';

export const GET_MANY = 'getMany';
export const GET_DOCUMENT_LINKS = 'getDocumentLinks';

const INVOICE_TYPES = ['FISCAL', 'NON_FISCAL'] as const;

/**
 * Suborder ids per /urls request. The service documents no limit; this keeps the query string
 * (and the log line of a failed request) short whatever the input list.
 */
const SUBORDER_IDS_PER_REQUEST = 100;
const SUBORDER_ID_BYTES_PER_REQUEST = 2_000;

const DEFAULT_BINARY_PROPERTY = 'data';

function binaryPropertyOf(ctx: IExecuteSingleFunctions): string {
	const name = String(ctx.getNodeParameter('options.binaryPropertyName', DEFAULT_BINARY_PROPERTY) ?? '').trim();
	return name || DEFAULT_BINARY_PROPERTY;
}

function wantsXml(ctx: IExecuteSingleFunctions): boolean {
	return (
		ctx.getNodeParameter('options.responseFormat', 'json') === 'xml' ||
		(ctx.getNodeParameter('options.attachRawXml', false) as boolean)
	);
}

/**
 * Checks the range, type and suborder ids of the current item and puts them in the query, as
 * the service wants them (zoned ISO timestamps in UTC, ids comma-separated). Any problem fails
 * the item before a request is sent.
 */
function prepareQuery(operation: typeof GET_MANY | typeof GET_DOCUMENT_LINKS) {
	return async function (this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
		const range = readDocumentRange(this, this.getNodeParameter('dateFrom', ''), this.getNodeParameter('dateTo', ''));
		const typeValue = this.getNodeParameter('invoiceType', '');
		const type = isBlank(typeValue) ? '' : readChoice(this, 'Type', typeValue, INVOICE_TYPES);
		const qs: IDataObject = { ...requestOptions.qs, dateFrom: formatIsoUtc(range.from), dateTo: formatIsoUtc(range.to) };
		if (type !== '') qs.type = type;
		const headers = { ...requestOptions.headers };
		if (operation === GET_DOCUMENT_LINKS) {
			const suborderIds = readList(this, 'Suborder IDs', this.getNodeParameter('suborderIds', ''), {
				empty: {
					problem: 'must list at least one suborder ID',
					hint: 'Separate several IDs with commas, or use an expression that gives an array, e.g. {{ $json.suborderIds }}',
				},
			});
			qs.suborderIds = suborderIds.join(',');
		} else if (wantsXml(this)) {
			headers.Accept = 'application/xml';
		}
		return { ...requestOptions, qs, headers };
	};
}

/**
 * With "Attach Raw XML", every document item gets the XML answer it came from as binary data,
 * for archiving (the same file for all documents of one answer). The window's dates are only
 * known to the strategy, which names the file (see `fetchDocuments`).
 */
function attachRawXmlIfAsked(kind: DocumentKind) {
	return async function (
		this: IExecuteSingleFunctions,
		items: INodeExecutionData[],
		response: IN8nHttpFullResponse,
	): Promise<INodeExecutionData[]> {
		if (items.length === 0 || !(this.getNodeParameter('options.attachRawXml', false) as boolean)) return items;
		const body = Buffer.isBuffer(response.body) ? response.body.toString('utf8') : response.body;
		if (!looksLikeXml(response.headers?.['content-type'], body)) return items;
		const file = await this.helpers.prepareBinaryData(
			Buffer.from(body as string, 'utf8'),
			`${DOCUMENTS[kind].fileStem}.xml`,
			'application/xml',
		);
		const property = binaryPropertyOf(this);
		return items.map((item) => ({ ...item, binary: { ...item.binary, [property]: file } }));
	};
}

/** Get Many's strategy: the range in windows, deduplicated by document id, then simplified if asked. */
function fetchDocuments(kind: DocumentKind) {
	return async function (this: IExecutePaginationFunctions, requestData: RequestData): Promise<INodeExecutionData[]> {
		const property = binaryPropertyOf(this);
		const inWindows = splitDateRange({
			idOf: ({ json }) => documentIdOf(json, kind),
			onWindow: (items, window) => {
				const fileName = rawXmlFileName(kind, window.from, window.to);
				for (const item of items) {
					const file = item.binary?.[property];
					if (file) file.fileName = fileName;
				}
				return items;
			},
		});
		const documents = await inWindows.call(this, requestData);
		if (!(this.getNodeParameter('options.simplify', false) as boolean)) return documents;
		return documents.map((item) => ({ ...item, json: simplifyInvoice(item.json, kind) }));
	};
}

/** Reads a /urls answer (keyed by suborder id) as one item per document link. */
async function readDocumentLinks(
	this: IExecuteSingleFunctions,
	_items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	const requested = toList(this.getNodeParameter('suborderIds', ''));
	return flattenDocumentLinks(decodeAnswer(this, response, ANSWERS.invoiceUrls), requested).map((link) => ({ json: link }));
}

/**
 * Get Document Links' strategy: suborder ids in groups, each over the range in windows (a 404
 * for a window means nothing there), then the PDFs downloaded at once if asked: links expire
 * after about 10 minutes.
 */
function fetchDocumentLinks(kind: DocumentKind) {
	const inWindows = splitDateRange({
		idOf: ({ json }) => (json.documentCorrelationId ? String(json.documentCorrelationId) : undefined),
		notFoundIsEmpty: true,
	});
	return async function (this: IExecutePaginationFunctions, requestData: RequestData): Promise<INodeExecutionData[]> {
		const qs = requestData.options.qs as IDataObject;
		const suborderIds = toList(qs.suborderIds);
		const links: INodeExecutionData[] = [];
		for (const group of chunkBySize(suborderIds, SUBORDER_IDS_PER_REQUEST, SUBORDER_ID_BYTES_PER_REQUEST)) {
			const groupRequest = { ...requestData, options: { ...requestData.options, qs: { ...qs, suborderIds: group.join(',') } } };
			for (const link of await inWindows.call(this, groupRequest)) links.push(link);
		}
		if (links.length === 0) {
			const shown = suborderIds.length > 10 ? `${suborderIds.slice(0, 10).join(', ')} and ${suborderIds.length - 10} more` : suborderIds.join(', ');
			throw new NodeOperationError(
				this.getNode(),
				`No ${DOCUMENTS[kind].label} documents found for suborder ID(s) ${shown} from ${String(qs.dateFrom)} to ${String(qs.dateTo)}`,
				{
					itemIndex: this.getItemIndex(),
					description: `Check the suborder IDs and that the range covers the date the ${DOCUMENTS[kind].label} was issued${qs.type ? ` and that it is ${String(qs.type)}` : ''}`,
				},
			);
		}
		if (!(this.getNodeParameter('options.downloadPdfs', false) as boolean)) return links;
		return await downloadDocumentPdfs(
			this,
			links.map(({ json }) => json as DocumentLink),
			binaryPropertyOf(this),
			this.getItemIndex(),
		);
	};
}

export interface DocumentOperation {
	operation: INodePropertyOptions;
	/** The operation's own fields, shown before the shared range fields. */
	fields: INodeProperties[];
	/** The operation's Options collection, shown after them. */
	options: INodeProperties;
}

/** The fields both operations share (range and type), shown for one resource. */
export function documentRangeFields(resource: string, kind: DocumentKind): INodeProperties[] {
	const label = DOCUMENTS[kind].label;
	const display = { show: { resource: [resource], operation: [GET_MANY, GET_DOCUMENT_LINKS] } };
	return [
		{
			displayName: 'Date From',
			name: 'dateFrom',
			type: 'dateTime',
			default: '',
			required: true,
			description: `Start of the range (inclusive) of the ${label}'s invoiced date: a date from the picker or an expression, ISO 8601 or dd/MM/yyyy; times without a zone are UTC. Not before 2022-05-01. Ranges longer than 3 months are fetched in 3-month parts.`,
			displayOptions: display,
		},
		{
			displayName: 'Date To',
			name: 'dateTo',
			type: 'dateTime',
			default: '',
			required: true,
			description: `End of the range (inclusive) of the ${label}'s invoiced date: a date from the picker or an expression, ISO 8601 or dd/MM/yyyy; times without a zone are UTC, and a day without a time (2024-03-31 or 31/03/2024) includes the whole day`,
			displayOptions: display,
		},
		{
			displayName: 'Type',
			name: 'invoiceType',
			type: 'options',
			options: [
				{ name: 'All', value: '', description: 'Fiscal and non-fiscal' },
				{ name: 'Fiscal', value: 'FISCAL', description: 'Registered with the tax administration' },
				{ name: 'Non-Fiscal', value: 'NON_FISCAL', description: 'Platform invoices only' },
			],
			default: '',
			description: `Which ${label}s to return`,
			displayOptions: display,
		},
	];
}

/** An operation's Options, shown for one of the two resources. */
function documentOptions(resource: string, operation: string, options: INodeProperties[]): INodeProperties {
	return { ...optionsCollection(options), displayOptions: { show: { resource: [resource], operation: [operation] } } };
}

const binaryPropertyOption: INodeProperties = {
	displayName: 'Put Output File in Field',
	name: 'binaryPropertyName',
	type: 'string',
	default: DEFAULT_BINARY_PROPERTY,
	hint: 'The name of the output binary field to put the file in',
};

export function getManyDocuments(resource: string, kind: DocumentKind): DocumentOperation {
	const { label, listPath, idField } = DOCUMENTS[kind];
	return {
		operation: {
			name: 'Get Many',
			value: GET_MANY,
			action: `Get many ${label}s`,
			description: `List the ${label}s invoiced in a date range: one item per ${label} with its full document (header with ${idField}, suborder and customer, product lines, totals, VAT groups)`,
			routing: pacedRouting({
				group: 'orders',
				idempotent: true,
				request: { method: 'GET', url: listPath },
				preSend: [prepareQuery(GET_MANY)],
				strategy: fetchDocuments(kind),
				postReceive: [readAnswer(DOCUMENTS[kind].answer), attachRawXmlIfAsked(kind)],
			}),
		},
		fields: [],
		options: documentOptions(resource, GET_MANY, [
			{
				displayName: 'Attach Raw XML',
				name: 'attachRawXml',
				type: 'boolean',
				default: false,
				description: `Whether to ask for XML and attach the service's raw XML answer as a file for archiving (every ${label} of one answer carries the same file, named after its date range)`,
			},
			{ ...binaryPropertyOption, description: 'Binary field for the raw XML file' },
			{
				displayName: 'Response Format',
				name: 'responseFormat',
				type: 'options',
				options: [
					{ name: 'JSON', value: 'json' },
					{ name: 'XML', value: 'xml', description: 'The service answers in XML; the output is the same' },
				],
				default: 'json',
				description: 'Format the service answers in. The output items are the same either way.',
			},
			{
				displayName: 'Simplify',
				name: 'simplify',
				type: 'boolean',
				default: false,
				description: `Whether to return a flat summary of each ${label} (${idField}, type, suborder and order IDs, dates, customer name and city, totals, VAT rates, payment methods, FBA${kind === 'correction' ? ', correction reason' : ''}) instead of the full document`,
			},
		]),
	};
}

export function getDocumentLinks(resource: string, kind: DocumentKind): DocumentOperation {
	const { label, linksPath } = DOCUMENTS[kind];
	return {
		operation: {
			name: 'Get Document Links',
			value: GET_DOCUMENT_LINKS,
			action: `Get ${label} document links`,
			description: `Get links to the PDF documents of the ${label}s of some suborders: one item per document with suborderId, documentCorrelationId and link. Links expire after about 10 minutes; the PDFs can be downloaded at once.`,
			routing: pacedRouting({
				group: 'orders',
				idempotent: true,
				request: { method: 'GET', url: linksPath },
				preSend: [prepareQuery(GET_DOCUMENT_LINKS)],
				strategy: fetchDocumentLinks(kind),
				postReceive: [readDocumentLinks],
			}),
		},
		fields: [
			{
				displayName: 'Suborder IDs',
				name: 'suborderIds',
				type: 'string',
				default: '',
				required: true,
				placeholder: '5100123-1, 5100456-2',
				description: `Suborders whose ${label} documents are wanted, separated by commas, or an expression that gives an array`,
				displayOptions: { show: { resource: [resource], operation: [GET_DOCUMENT_LINKS] } },
			},
		],
		options: documentOptions(resource, GET_DOCUMENT_LINKS, [
			{
				displayName: 'Download PDFs',
				name: 'downloadPdfs',
				type: 'boolean',
				default: false,
				description: 'Whether to download each PDF right away as binary data (file name: documentCorrelationId.pdf); links expire after about 10 minutes',
			},
			{ ...binaryPropertyOption, description: 'Binary field for the downloaded PDF' },
		]),
	};
}

/**
 * Get Many of invoices or corrections over a range of any length (3-month windows, merged in order
 * without duplicates), read from JSON or XML, optionally with the raw XML answer attached.
 */
import { updateDisplayOptions, type IDataObject } from 'n8n-workflow';

import { looksLikeXml, type Shaping } from '../../answers/read';
import { LIMITS } from '../../transport/endpoints';
import { asNodeError } from '../../transport/errors';
import { resultLimit, splitDateRange, type PaginationFunction } from '../../transport/batches';
import { sendSettingsOf, type RequestData, type ItemFunctions, type RequestStep } from '../../transport/send';
import { optionsCollection, returnAllAndLimit, outputFields } from '../common';
import { fieldPath, invalidInput, readChoice, type SettingsContext } from '../../values/labels';
import { readFlag, readOutput, shapeOutput } from '../../values/values';
import { formatYearMonthDay, parseServiceTimestamp, splitIntoWindows } from '../../values/dates';
import { DOCUMENTS, documentIdOf, simplifyDocument, type DocumentKind } from '../../shared/documents/documents';
import { binaryPropertyOf, outputFileField } from '../../shared/documents/fields';
import { attachPdfsOfDocuments, type ListedDocument } from '../../shared/documents/pdfs';
import { endpointReader } from '../../shared/read';
import { addRangeAndType, rangeAndTypeFields, rangeRouting } from './fields';
import type { OperationModule } from '../contract';

export const GET_MANY = 'getMany';

/** Options › Attach Raw XML, read as every boolean parameter is. */
function attachesRawXml(ctx: SettingsContext): boolean {
	return readFlag(ctx, 'options.attachRawXml', fieldPath('Options', 'Attach Raw XML'), false);
}

const acceptXmlIfAsked: RequestStep = async function (requestOptions) {
	const format = readChoice(this, fieldPath('Options', 'Response Format'), this.getNodeParameter('options.responseFormat', 'json'), ['json', 'xml']);
	if (format !== 'xml' && !attachesRawXml(this)) return requestOptions;
	return { ...requestOptions, headers: { ...requestOptions.headers, Accept: 'application/xml' } };
};

/** Every document of one answer carries the same file; only the strategy knows the window's dates, so it names the file. */
const attachRawXmlIfAsked: Shaping = async function (items, response) {
	if (items.length === 0 || !attachesRawXml(this)) return items;
	const body = Buffer.isBuffer(response.body) ? response.body.toString('utf8') : response.body;
	if (!looksLikeXml(response.headers?.['content-type'], body)) return items;
	const file = await this.helpers.prepareBinaryData(Buffer.from(body as string, 'utf8'), 'answer.xml', 'application/xml');
	const property = binaryPropertyOf(this);
	return items.map((item) => ({ ...item, binary: { ...item.binary, [property]: file } }));
};

function fetchDocuments(kind: DocumentKind): PaginationFunction {
	return async function (requestData) {
		const property = binaryPropertyOf(this);
		const inWindows = splitDateRange({
			idOf: ({ json }) => documentIdOf(json, kind),
			onWindow: (items, window) => {
				const fileName = `${DOCUMENTS[kind].fileStem}-${formatYearMonthDay(window.from)}-${formatYearMonthDay(window.to)}.xml`;
				for (const item of items) {
					const file = item.binary?.[property];
					if (file) file.fileName = fileName;
				}
				return items;
			},
			limited: true,
		});
		const documents = await inWindows.call(this, requestData);
		const output = readOutput(this);
		const simplify = (json: IDataObject) => simplifyDocument(json, kind);
		const items = output.mode === 'raw' ? documents : documents.map((item) => ({ ...item, json: shapeOutput(output, item.json, simplify) }));
		if (readFlag(this, 'options.downloadPdfs', 'Options › Download PDFs', false)) {
			const listed = documents.map((item, index) => ({ document: item.json, item: items[index] }));
			await attachListedPdfs(this, kind, requestData, listed);
		}
		return items;
	};
}

/**
 * Download PDFs: the links of the listed documents, by the range when the list is every document
 * of it (one `/urls` request per window: "every fiscal PDF of last month" is one), else (under a
 * Limit) by their suborder ids, many per request. Sent like the trigger's, through the same engine.
 */
async function attachListedPdfs(ctx: ItemFunctions, kind: DocumentKind, requestData: RequestData, listed: ListedDocument[]) {
	const qs = requestData.options.qs as IDataObject;
	const from = parseServiceTimestamp(qs.dateFrom);
	const to = parseServiceTimestamp(qs.dateTo);
	const limit = resultLimit(ctx);
	const windows = from && to ? splitIntoWindows(from, to, LIMITS.invoiceWindowMonths) : [];
	const selection = { windows, type: typeof qs.type === 'string' ? qs.type : undefined, wholeRange: listed.length < limit };
	const property = pdfPropertyOf(ctx);
	// 404: no documents there. A 400 to the range alone is asked again by suborder (links.ts).
	const read = endpointReader(ctx, sendSettingsOf(ctx));
	try {
		await attachPdfsOfDocuments(ctx, kind, listed, selection, read, property, ctx.getItemIndex());
	} catch (error) {
		throw asNodeError(ctx.getNode(), error);
	}
}

const PDF_PROPERTY_LABEL = 'Put PDFs in Field';

const PDF_FIELD = { name: 'pdfBinaryPropertyName', displayName: PDF_PROPERTY_LABEL, hint: 'The name of the output binary field to put each PDF in' };

/** Its own field: Attach Raw XML may fill the other; the two may not name the same one. */
function pdfPropertyOf(ctx: ItemFunctions): string {
	const property = binaryPropertyOf(ctx, `options.${PDF_FIELD.name}`);
	if (attachesRawXml(ctx) && property === binaryPropertyOf(ctx)) {
		throw invalidInput(ctx, `Options › ${PDF_PROPERTY_LABEL}`, `must differ from Options › Put Output File in Field ("${property}"): the raw XML goes there`);
	}
	return property;
}

export function operationOf(kind: DocumentKind): OperationModule {
	const { resource, label, listPath, idField } = DOCUMENTS[kind];
	const option = {
		name: 'Get Many',
		value: GET_MANY,
		action: `Get many ${label}s`,
		description: `List the ${label}s invoiced in a date range (ISO 8601 or dd/MM/yyyy; by default the last 7 days): one item per ${label}, a flat summary or the full document (header with ${idField}, suborder and customer, product lines, totals, VAT groups)`,
	};
	const fields = updateDisplayOptions({ show: { resource: [resource], operation: [GET_MANY] } }, [
		...rangeAndTypeFields(kind, `Which ${label}s to return`),
		...returnAllAndLimit(),
		...outputFields(
			`Whether to return a flat summary of each ${label} (${idField}, type, suborder and order IDs, dates, customer name and city, totals, VAT rates, payment methods, FBA${kind === 'correction' ? ', correction reason' : ''}) instead of the full document`,
			DOCUMENTS[kind].answer,
		),
		optionsCollection([
			{
				displayName: 'Attach Raw XML',
				name: 'attachRawXml',
				type: 'boolean',
				default: false,
				description: `Whether to ask for XML and attach the service's raw XML answer as a file for archiving (every ${label} of one answer carries the same file, named after its date range)`,
			},
			outputFileField('Binary field for the raw XML file', { show: { attachRawXml: [true] } }),
			{
				displayName: 'Download PDFs',
				name: 'downloadPdfs',
				type: 'boolean',
				default: false,
				description: `Whether to download the PDF of each ${label} as binary data named after its number (e.g. INV-7145.pdf), in as few link requests as possible (one per 3 months of the range when every ${label} is listed); a ${label} without a PDF says so in pdfError`,
			},
			outputFileField('Binary field for the downloaded PDF', { show: { downloadPdfs: [true] } }, PDF_FIELD),
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
		]),
	]);
	const steps = rangeRouting(listPath, [addRangeAndType, acceptXmlIfAsked], fetchDocuments(kind), DOCUMENTS[kind].answer, [attachRawXmlIfAsked]);
	return { steps, option, fields };
}

/**
 * Get Many of invoices or corrections over a range of any length (3-month windows, merged in order
 * without duplicates), read from JSON or XML, optionally with the raw XML answer attached.
 */
import { updateDisplayOptions, type PreSendAction } from 'n8n-workflow';

import { looksLikeXml, readAnswer } from '../../answers/answers';
import { splitDateRange, type PaginationFunction, type PostReceiveFunction } from '../../transport/engine';
import { optionsCollection, returnAllAndLimit, simplifyField } from '../common';
import { readSimplify } from '../../values/values';
import { formatYearMonthDay } from '../../values/dates';
import { DOCUMENTS, documentIdOf, simplifyDocument, type DocumentKind } from './documents';
import { binaryPropertyOf, outputFileField, rangeAndTypeFields, rangeRouting } from './fields';
import type { OperationModule } from '../contract';

export const GET_MANY = 'getMany';

const acceptXmlIfAsked: PreSendAction = async function (requestOptions) {
	const format = this.getNodeParameter('options.responseFormat', 'json');
	if (format !== 'xml' && !this.getNodeParameter('options.attachRawXml', false)) return requestOptions;
	return { ...requestOptions, headers: { ...requestOptions.headers, Accept: 'application/xml' } };
};

/** Every document of one answer carries the same file; only the strategy knows the window's dates, so it names the file. */
const attachRawXmlIfAsked: PostReceiveFunction = async function (items, response) {
	if (items.length === 0 || !this.getNodeParameter('options.attachRawXml', false)) return items;
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
		if (!readSimplify(this)) return documents;
		return documents.map((item) => ({ ...item, json: simplifyDocument(item.json, kind) }));
	};
}

export function operationOf(kind: DocumentKind): OperationModule {
	const { resource, label, listPath, idField } = DOCUMENTS[kind];
	const option = {
		name: 'Get Many',
		value: GET_MANY,
		action: `Get many ${label}s`,
		description: `List the ${label}s invoiced in a date range (ISO 8601 or dd/MM/yyyy; by default the last 7 days): one item per ${label}, a flat summary or the full document (header with ${idField}, suborder and customer, product lines, totals, VAT groups)`,
		routing: rangeRouting(listPath, acceptXmlIfAsked, fetchDocuments(kind), [readAnswer(DOCUMENTS[kind].answer), attachRawXmlIfAsked]),
	};
	const fields = updateDisplayOptions({ show: { resource: [resource], operation: [GET_MANY] } }, [
		...rangeAndTypeFields(kind, `Which ${label}s to return`),
		...returnAllAndLimit(),
		simplifyField(
			`Whether to return a flat summary of each ${label} (${idField}, type, suborder and order IDs, dates, customer name and city, totals, VAT rates, payment methods, FBA${kind === 'correction' ? ', correction reason' : ''}) instead of the full document`,
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
	return { option, fields };
}

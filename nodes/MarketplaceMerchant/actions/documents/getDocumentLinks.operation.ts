/** Get Document Links of invoices or corrections: one item per document link of some suborders, optionally with its PDF. */
import { updateDisplayOptions, type IDataObject, type INodeExecutionData, type PreSendAction } from 'n8n-workflow';

import { ANSWERS, decodeAnswer } from '../../answers/answers';
import { firstOf, nodeError, splitDateRange, type PaginationFunction, type PostReceiveFunction } from '../../transport/engine';
import { readList, toList } from '../../values/values';
import { optionsCollection } from '../common';
import { DOCUMENTS, downloadDocumentPdfs, flattenDocumentLinks, suborderGroups, type DocumentKind, type DocumentLink } from './documents';
import { binaryPropertyOf, outputFileField, rangeAndTypeFields, rangeRouting } from './fields';
import type { OperationModule } from '../contract';

const GET_DOCUMENT_LINKS = 'getDocumentLinks';

/** None fails the item before a request is sent. */
const addSuborderIds: PreSendAction = async function (requestOptions) {
	const suborderIds = readList(this, 'Suborder IDs', this.getNodeParameter('suborderIds', ''), {
		empty: {
			problem: 'must list at least one suborder ID',
			hint: 'Separate several IDs with commas, or use an expression that gives an array, e.g. {{ $json.suborderIds }}',
		},
	});
	return { ...requestOptions, qs: { ...requestOptions.qs, suborderIds: suborderIds.join(',') } };
};

const readDocumentLinks: PostReceiveFunction = async function (_items, response) {
	const requested = toList(this.getNodeParameter('suborderIds', ''));
	return flattenDocumentLinks(decodeAnswer(this, response, ANSWERS.invoiceUrls), requested).map((link) => ({ json: link }));
};

/** Suborder ids in groups, each over the range in windows (a 404 for a window means nothing there). */
function fetchDocumentLinks(kind: DocumentKind): PaginationFunction {
	const inWindows = splitDateRange({
		idOf: ({ json }) => (json.documentCorrelationId ? String(json.documentCorrelationId) : undefined),
		notFoundIsEmpty: true,
	});
	return async function (requestData) {
		const qs = requestData.options.qs as IDataObject;
		const suborderIds = toList(qs.suborderIds);
		const links: INodeExecutionData[] = [];
		for (const group of suborderGroups(suborderIds)) {
			const groupRequest = { ...requestData, options: { ...requestData.options, qs: { ...qs, suborderIds: group.join(',') } } };
			for (const link of await inWindows.call(this, groupRequest)) links.push(link);
		}
		if (links.length === 0) {
			const { label } = DOCUMENTS[kind];
			const message = `No ${label} documents found for suborder ID(s) ${firstOf(suborderIds, 10)} from ${String(qs.dateFrom)} to ${String(qs.dateTo)}`;
			const description = `Check the suborder IDs and that the range covers the date the ${label} was issued${qs.type ? ` and that it is ${String(qs.type)}` : ''}`;
			throw nodeError(this.getNode(), message, { itemIndex: this.getItemIndex(), description });
		}
		if (!(this.getNodeParameter('options.downloadPdfs', false) as boolean)) return links;
		return await downloadDocumentPdfs(this, links.map(({ json }) => json as DocumentLink), binaryPropertyOf(this), this.getItemIndex());
	};
}

export function operationOf(kind: DocumentKind): OperationModule {
	const { resource, label, linksPath } = DOCUMENTS[kind];
	const option = {
		name: 'Get Document Links',
		value: GET_DOCUMENT_LINKS,
		action: `Get ${label} document links`,
		description: `Get links to the PDF documents of the ${label}s of some suborders: one item per document with suborderId, documentCorrelationId and link. Links expire after about 10 minutes; the PDFs can be downloaded at once.`,
		routing: rangeRouting(linksPath, addSuborderIds, fetchDocumentLinks(kind), [readDocumentLinks]),
	};
	const fields = updateDisplayOptions({ show: { resource: [resource], operation: [GET_DOCUMENT_LINKS] } }, [
		{
			displayName: 'Suborder IDs',
			name: 'suborderIds',
			type: 'string',
			default: '',
			required: true,
			placeholder: '5100123-1, 5100456-2',
			description: `Suborders whose ${label} documents are wanted, separated by commas, or an expression that gives an array`,
		},
		...rangeAndTypeFields(kind, `Which ${label}s' documents to return`),
		optionsCollection([
			{
				displayName: 'Download PDFs',
				name: 'downloadPdfs',
				type: 'boolean',
				default: false,
				description: 'Whether to download each PDF right away as binary data (file name: documentCorrelationId.pdf); links expire after about 10 minutes',
			},
			outputFileField('Binary field for the downloaded PDF', { show: { downloadPdfs: [true] } }),
		]),
	]);
	return { option, fields };
}

import type { INodeProperties } from 'n8n-workflow';

import { operationProperty } from '../common';
import { GET_MANY, documentRangeFields } from '../invoice/documentOperations';
import {
	getInvoiceCorrectionDocumentLinks,
	getInvoiceCorrectionDocumentLinksFields,
	getInvoiceCorrectionDocumentLinksOptions,
} from './getDocumentLinks.operation';
import {
	getManyInvoiceCorrections,
	getManyInvoiceCorrectionsFields,
	getManyInvoiceCorrectionsOptions,
} from './getMany.operation';

export const invoiceCorrectionOperations = operationProperty(
	'invoiceCorrection',
	[getInvoiceCorrectionDocumentLinks, getManyInvoiceCorrections],
	GET_MANY,
);

export const invoiceCorrectionFields: INodeProperties[] = [
	...getInvoiceCorrectionDocumentLinksFields,
	...getManyInvoiceCorrectionsFields,
	...documentRangeFields('invoiceCorrection', 'correction'),
	getInvoiceCorrectionDocumentLinksOptions,
	getManyInvoiceCorrectionsOptions,
];

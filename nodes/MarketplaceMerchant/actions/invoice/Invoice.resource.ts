import type { INodeProperties } from 'n8n-workflow';

import { operationProperty } from '../common';
import { GET_MANY, documentRangeFields } from './documentOperations';
import {
	getInvoiceDocumentLinks,
	getInvoiceDocumentLinksFields,
	getInvoiceDocumentLinksOptions,
} from './getDocumentLinks.operation';
import { getManyInvoices, getManyInvoicesFields, getManyInvoicesOptions } from './getMany.operation';

export const invoiceOperations = operationProperty('invoice', [getInvoiceDocumentLinks, getManyInvoices], GET_MANY);

export const invoiceFields: INodeProperties[] = [
	...getInvoiceDocumentLinksFields,
	...getManyInvoicesFields,
	...documentRangeFields('invoice', 'invoice'),
	getInvoiceDocumentLinksOptions,
	getManyInvoicesOptions,
];

import { getDocumentLinks } from './documentOperations';

export const {
	operation: getInvoiceDocumentLinks,
	fields: getInvoiceDocumentLinksFields,
	options: getInvoiceDocumentLinksOptions,
} = getDocumentLinks('invoice', 'invoice');

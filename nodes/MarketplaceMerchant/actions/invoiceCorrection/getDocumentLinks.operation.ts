import { getDocumentLinks } from '../invoice/documentOperations';

export const {
	operation: getInvoiceCorrectionDocumentLinks,
	fields: getInvoiceCorrectionDocumentLinksFields,
	options: getInvoiceCorrectionDocumentLinksOptions,
} = getDocumentLinks('invoiceCorrection', 'correction');

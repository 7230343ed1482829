import { getManyDocuments } from '../invoice/documentOperations';

export const {
	operation: getManyInvoiceCorrections,
	fields: getManyInvoiceCorrectionsFields,
	options: getManyInvoiceCorrectionsOptions,
} = getManyDocuments('invoiceCorrection', 'correction');

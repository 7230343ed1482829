import { getManyDocuments } from './documentOperations';

export const {
	operation: getManyInvoices,
	fields: getManyInvoicesFields,
	options: getManyInvoicesOptions,
} = getManyDocuments('invoice', 'invoice');

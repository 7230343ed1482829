import type { ResourceModule } from '../contract';
import { operationOf as getDocumentLinks } from './getDocumentLinks.operation';
import { GET_MANY, operationOf as getMany } from './getMany.operation';

export const resource: ResourceModule = {
	name: 'Invoice Correction',
	value: 'invoiceCorrection',
	defaultOperation: GET_MANY,
	operations: [getDocumentLinks('correction'), getMany('correction')],
};

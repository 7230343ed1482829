import type { ResourceModule } from '../contract';
import { operationOf as getDocumentLinks } from './getDocumentLinks.operation';
import { GET_MANY, operationOf as getMany } from './getMany.operation';

export const resource: ResourceModule = {
	name: 'Invoice',
	value: 'invoice',
	defaultOperation: GET_MANY,
	operations: [getDocumentLinks('invoice'), getMany('invoice')],
};

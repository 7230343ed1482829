import type { ResourceModule } from '../contract';
import { DOCUMENTS, type DocumentKind } from './documents';
import { operationOf as getDocumentLinks } from './getDocumentLinks.operation';
import { GET_MANY, operationOf as getMany } from './getMany.operation';

const resourceOf = (kind: DocumentKind, name: string): ResourceModule => ({
	name,
	value: DOCUMENTS[kind].resource,
	defaultOperation: GET_MANY,
	operations: [getDocumentLinks(kind), getMany(kind)],
});

export const invoice = resourceOf('invoice', 'Invoice');
export const invoiceCorrection = resourceOf('correction', 'Invoice Correction');

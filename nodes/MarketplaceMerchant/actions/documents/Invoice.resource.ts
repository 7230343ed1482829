import type { INodeProperties } from 'n8n-workflow';

import { operationProperty } from '../common';
import { getDocumentLinks } from './getDocumentLinks.operation';
import { GET_MANY, getManyDocuments } from './getMany.operation';

const links = getDocumentLinks('invoice');
const getMany = getManyDocuments('invoice');

export const invoiceOperations = operationProperty('invoice', [links.operation, getMany.operation], GET_MANY);

export const invoiceFields: INodeProperties[] = [...links.fields, ...getMany.fields];

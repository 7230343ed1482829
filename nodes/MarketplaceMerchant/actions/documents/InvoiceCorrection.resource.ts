import type { INodeProperties } from 'n8n-workflow';

import { operationProperty } from '../common';
import { getDocumentLinks } from './getDocumentLinks.operation';
import { GET_MANY, getManyDocuments } from './getMany.operation';

const links = getDocumentLinks('correction');
const getMany = getManyDocuments('correction');

export const invoiceCorrectionOperations = operationProperty('invoiceCorrection', [links.operation, getMany.operation], GET_MANY);

export const invoiceCorrectionFields: INodeProperties[] = [...links.fields, ...getMany.fields];

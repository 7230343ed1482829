import type { INodeProperties } from 'n8n-workflow';

import { operationProperty } from '../common';
import { getManyPrices, getManyPricesFields } from './getMany.operation';

export const priceOperations = operationProperty('price', [getManyPrices], 'getMany');

export const priceFields: INodeProperties[] = [...getManyPricesFields];

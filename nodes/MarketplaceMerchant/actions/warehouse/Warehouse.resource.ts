import type { INodeProperties } from 'n8n-workflow';

import { operationProperty } from '../common';
import { getManyWarehouses, getManyWarehousesFields } from './getMany.operation';

export const warehouseOperations = operationProperty('warehouse', [getManyWarehouses], 'getMany');

export const warehouseFields: INodeProperties[] = [...getManyWarehousesFields];

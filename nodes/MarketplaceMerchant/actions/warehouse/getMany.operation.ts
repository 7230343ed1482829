import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { PATHS } from '../../transport/endpoints';
import { engineRouting } from '../common';

export const getManyWarehouses: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getMany',
	action: 'Get many warehouses',
	description: "List the merchant's warehouses (pickup addresses); exactly one is the default outbound address",
	routing: engineRouting({ request: { method: 'GET', url: PATHS.warehouses } }),
};

export const getManyWarehousesFields: INodeProperties[] = [];

import type { ResourceModule } from '../contract';
import { operation as getLabel } from './getLabel.operation';
import { operation as getMany } from './getMany.operation';
import { operation as pack } from './pack.operation';

export const resource: ResourceModule = {
	name: 'Shipment',
	value: 'shipment',
	defaultOperation: 'getMany',
	operations: [getLabel, getMany, pack],
};

import type { ResourceModule } from '../contract';
import { operation as getMany } from './getMany.operation';

export const resource: ResourceModule = {
	name: 'Shipment',
	value: 'shipment',
	defaultOperation: 'getMany',
	operations: [getMany],
};

import type { ResourceModule } from '../contract';
import { operation as confirm } from './confirm.operation';
import { operation as get } from './get.operation';
import { operation as getMany } from './getMany.operation';
import { operation as getStatuses } from './getStatuses.operation';
import { operation as getStatusGroups } from './getStatusGroups.operation';

export const resource: ResourceModule = {
	name: 'Order',
	value: 'order',
	defaultOperation: 'getMany',
	operations: [confirm, get, getMany, getStatuses, getStatusGroups],
};

import type { ResourceModule } from '../contract';
import { operation as getMany } from './getMany.operation';

export const resource: ResourceModule = { name: 'Warehouse', value: 'warehouse', defaultOperation: 'getMany', operations: [getMany] };

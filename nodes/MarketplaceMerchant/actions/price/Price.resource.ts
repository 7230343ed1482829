import type { ResourceModule } from '../contract';
import { operation as getMany } from './getMany.operation';

export const resource: ResourceModule = { name: 'Price', value: 'price', defaultOperation: 'getMany', operations: [getMany] };

import type { ResourceModule } from '../contract';
import { operation as cancel } from './cancel.operation';
import { operation as getMany } from './getMany.operation';
import { operation as schedule } from './schedule.operation';
import { operation as update } from './update.operation';

export const resource: ResourceModule = { name: 'Discount', value: 'discount', defaultOperation: 'schedule', operations: [cancel, getMany, schedule, update] };

import type { INodeProperties } from 'n8n-workflow';

import { operationProperty } from '../common';
import { cancelDiscount, cancelDiscountFields } from './cancel.operation';
import { getManyDiscounts, getManyDiscountsFields } from './getMany.operation';
import { scheduleDiscounts, scheduleDiscountsFields } from './schedule.operation';
import { updateDiscounts, updateDiscountsFields } from './update.operation';

export const discountOperations = operationProperty(
	'discount',
	[cancelDiscount, getManyDiscounts, scheduleDiscounts, updateDiscounts],
	'schedule',
);

export const discountFields: INodeProperties[] = [
	...scheduleDiscountsFields,
	...updateDiscountsFields,
	...getManyDiscountsFields,
	...cancelDiscountFields,
];

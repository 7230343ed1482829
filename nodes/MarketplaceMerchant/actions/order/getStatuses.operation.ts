/** Order › Get Statuses: the status names an order's suborders (shipments) can have. */
import { ANSWERS } from '../../answers/schemas';
import { PATHS } from '../../transport/endpoints';
import { pacedRouting } from '../common';
import type { OperationModule } from '../contract';
import { ORDER_READS } from '../orders/shared';

export const operation: OperationModule = {
	option: {
		name: 'Get Statuses',
		value: 'getStatuses',
		action: 'Get order statuses',
		description: 'List the status names of orders and shipments as the service gives them (e.g. CREATED, CONFIRMED, PACKED, READY_FOR_COLLECTION): one item per status, as value',
		routing: pacedRouting({ ...ORDER_READS, request: { method: 'GET', url: PATHS.orderStatuses }, answer: ANSWERS.orderStatuses }),
	},
	fields: [],
};

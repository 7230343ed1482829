/** Order › Get Statuses: the status names an order's suborders (shipments) can have. */
import { ANSWERS } from '../../answers/schemas';
import { elementsOf, type Shaping } from '../../answers/read';
import { PATHS } from '../../transport/endpoints';
import { isPlainObject } from '../../values/labels';
import { pacedRouting } from '../common';
import type { OperationModule } from '../contract';
import { ORDER_READS } from '../orderReads';

/** The service lists plain names: one `{ status }` each, named as a shipment's field is (an object, should one come, as it is). */
const statusItems: Shaping = async function (_items, _answer, body) {
	return elementsOf(body, ANSWERS.orderStatuses).map((status) => ({ json: isPlainObject(status) ? status : { status: status as string } }));
};

export const operation: OperationModule = {
	steps: pacedRouting({ ...ORDER_READS, request: { method: 'GET', url: PATHS.orderStatuses }, answer: ANSWERS.orderStatuses, shape: [statusItems] }),
	option: {
		name: 'Get Statuses',
		value: 'getStatuses',
		action: 'Get order statuses',
		description: 'List the status names of orders and shipments as the service gives them (e.g. CREATED, CONFIRMED, PACKED, READY_FOR_COLLECTION): one item per status',
	},
	fields: [],
};

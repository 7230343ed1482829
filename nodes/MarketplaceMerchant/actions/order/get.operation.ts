/** Order › Get: one order by its ID. */
import { updateDisplayOptions } from 'n8n-workflow';

import { ANSWERS } from '../../answers/schemas';
import { PATHS } from '../../transport/endpoints';
import { nodeError } from '../../transport/errors';
import { readOrder, simplifyOrder } from '../../families/orders';
import { ofItem } from '../../values/labels';
import { readText } from '../../values/values';
import { pacedRouting, textField } from '../common';
import type { OperationModule } from '../contract';
import { ORDER_READS, readingOrders } from '../orders/shared';
import { orderOutputFields } from './getMany.operation';

export const operation: OperationModule = {
	option: {
		name: 'Get',
		value: 'get',
		action: 'Get an order',
		description: 'Get one order by its ID, whatever its status; an order the service does not know is an error',
		routing: pacedRouting({
			...ORDER_READS,
			request: { method: 'GET', url: PATHS.orders },
			answer: ANSWERS.orders,
			strategy: readingOrders(async function (read) {
				const orderId = readText(this, 'Order ID', this.getNodeParameter('orderId', ''));
				const order = await readOrder(read, this.getNode(), orderId);
				if (order) return [order];
				const itemIndex = this.getItemIndex();
				throw nodeError(this.getNode(), `No order with ID ${orderId}${ofItem(itemIndex)}`, {
					itemIndex,
					description: 'The service lists no order with this ID for this merchant account. Order IDs look like HPGUJ-1SQQI (a suborder ID adds -DS-1).',
				});
			}, simplifyOrder),
		}),
	},
	fields: updateDisplayOptions({ show: { resource: ['order'], operation: ['get'] } }, [
		textField('Order ID', 'orderId', 'The ID of the order, e.g. from Get Many or the trigger', { required: true, placeholder: 'e.g. HPGUJ-1SQQI' }),
		...orderOutputFields,
	]),
};

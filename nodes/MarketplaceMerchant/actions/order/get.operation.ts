/** Order › Get: one order by its ID. */
import { updateDisplayOptions } from 'n8n-workflow';

import { nodeError } from '../../transport/errors';
import { readOrder, readOrderThroughShipments } from '../../shared/orders/orders';
import { simplifyOrder } from '../../shared/orders/outputs';
import { ofItem } from '../../values/labels';
import { readText } from '../../values/values';
import { textField } from '../common';
import type { OperationModule } from '../contract';
import { readingOrders } from '../orderReads';
import { orderOutputFields } from './getMany.operation';

export const operation: OperationModule = {
	steps: readingOrders(async function (read) {
		const orderId = readText(this, 'Order ID', this.getNodeParameter('orderId', ''));
		const order = await readOrder(read, this.getNode(), orderId);
		if (order) return [order];
		// The orders endpoint answers an order the marketplace fulfils (FBA) with an empty list: its shipments find it.
		const rebuilt = await readOrderThroughShipments(read, this.getNode(), orderId);
		if (rebuilt) return [rebuilt];
		const itemIndex = this.getItemIndex();
		throw nodeError(this.getNode(), `No order with ID ${orderId}${ofItem(itemIndex)}`, {
			itemIndex,
			description:
				'The service lists no order and no shipment with this ID for this merchant account (orders the marketplace fulfils itself were looked for among the shipments too). Order IDs look like HPGUJ-1SQQI (a suborder ID adds -DS-1 or -FBA-1).',
		});
	}, simplifyOrder),
	option: {
		name: 'Get',
		value: 'get',
		action: 'Get an order',
		description: 'Get one order by its ID, whatever its status, also one the marketplace fulfils itself (rebuilt from its shipments); an order the service does not know is an error',
	},
	fields: updateDisplayOptions({ show: { resource: ['order'], operation: ['get'] } }, [
		textField('Order ID', 'orderId', 'The ID of the order, e.g. from Get Many or the trigger', { required: true, placeholder: 'e.g. HPGUJ-1SQQI' }),
		...orderOutputFields,
	]),
};

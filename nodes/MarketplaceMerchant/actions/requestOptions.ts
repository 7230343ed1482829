/**
 * "Request Options": settings of how the node talks to the service, shown for every operation.
 * The request engine (transport/send.ts) reads them; they are not part of any request.
 */
import type { INodeProperties } from 'n8n-workflow';

export const requestOptions: INodeProperties = {
	displayName: 'Request Options',
	name: 'requestOptions',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		{
			displayName: 'Requests per Minute',
			name: 'requestsPerMinute',
			type: 'number',
			typeOptions: { minValue: 1, numberPrecision: 0 },
			default: 60,
			description:
				"Most requests per minute this node sends to the operation's group of endpoints for this account. Without it the node paces itself to the service's limits (60 a minute for products, prices and discounts, 300 for warehouses and invoices, 500 for discount cancellations); set a lower value when other tools use the same account or your contract allows less. A higher value than the service's limit has no effect.",
		},
	],
};

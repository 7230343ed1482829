/** Order › Get Many: the orders waiting for confirmation, the processed ones, or all, created in a range; Spring pages of 100. */
import { updateDisplayOptions, type IDataObject, type INodeProperties } from 'n8n-workflow';

import { ANSWERS } from '../../answers/schemas';
import { resultLimit } from '../../transport/batches';
import { listMarketplaceOrders, listOrders, newestOrders, type OrderFilter } from '../../shared/orders/orders';
import { simplifyOrder } from '../../shared/orders/outputs';
import { fieldPath, readChoice } from '../../values/labels';
import { DATE_FORMS, readFlag } from '../../values/values';
import { returnAllAndLimit, outputFields } from '../common';
import type { OperationModule } from '../contract';
import { readTimeRange, readingOrders } from '../orderReads';

export const orderOutputFields = outputFields(
	'Whether to return a flat summary of each order (ID, created, total, currency, payment methods as a list, buyer, number of items, and per line the merchant inventory ID, product ID, EAN, SKU, name, quantities ordered, confirmed and packed, unit price, total and warehouse) instead of the full order',
	ANSWERS.orders,
);

const CREATED_FROM = fieldPath('Filters', 'Created From');
const CREATED_TO = fieldPath('Filters', 'Created To');

const fields: INodeProperties[] = [
	{
		displayName: 'Status Group',
		name: 'statusGroup',
		type: 'options',
		options: [
			{ name: 'All', value: 'all', description: 'Every order, whatever its status' },
			{ name: 'For Confirmation', value: 'forConfirmation', description: 'Orders waiting for you to confirm their quantities' },
			{ name: 'Processed', value: 'processed', description: 'Orders confirmed (in part or in full) or closed' },
		],
		default: 'forConfirmation',
		description: 'Which orders to return',
	},
	{
		displayName: 'Include Marketplace-Fulfilled Orders',
		name: 'includeMarketplaceFulfilled',
		type: 'boolean',
		default: true,
		description:
			"Whether to list the orders the marketplace fulfils itself (FBA) too, with Processed or All: the service's order list leaves them out, so they are rebuilt from their shipments (ID, purchase time, total, lines, suborders; no buyer or VAT), at the cost of 3 more requests a run",
		displayOptions: { show: { statusGroup: ['processed', 'all'] } },
	},
	...returnAllAndLimit(),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{ displayName: 'Created From', name: 'createdFrom', type: 'dateTime', default: '', description: `Only orders created at or after this time: ${DATE_FORMS}` },
			{ displayName: 'Created To', name: 'createdTo', type: 'dateTime', default: '', description: `Only orders created at or before this time (a day alone: up to its end): ${DATE_FORMS}` },
		],
	},
	...orderOutputFields,
];

export const operation: OperationModule = {
	steps: readingOrders(async function (read, onPage) {
		const filter: OrderFilter = {};
		const group = readChoice(this, 'Status Group', this.getNodeParameter('statusGroup', 'forConfirmation'), ['forConfirmation', 'processed', 'all']);
		if (group !== 'all') filter.group = group;
		const { createdFrom, createdTo } = this.getNodeParameter('filters', {}) as IDataObject;
		const created = readTimeRange(this, { field: CREATED_FROM, value: createdFrom, key: 'createdFrom' }, { field: CREATED_TO, value: createdTo, key: 'createdTo' });
		Object.assign(filter, created);
		const limit = resultLimit(this);
		const orders = await listOrders(read, this.getNode(), filter, limit, onPage);
		// Orders for confirmation are the merchant's own: the marketplace confirms the orders it fulfils.
		if (group === 'forConfirmation' || !readFlag(this, 'includeMarketplaceFulfilled', 'Include Marketplace-Fulfilled Orders', true)) return orders;
		const fulfilled = await listMarketplaceOrders(read, this.getNode(), created, limit, (count) => onPage(orders.length + count));
		return newestOrders([orders, fulfilled], limit);
	}, simplifyOrder),
	option: {
		name: 'Get Many',
		value: 'getMany',
		action: 'Get many orders',
		description:
			'List orders, newest first: those waiting for confirmation (the default), the processed ones or all, optionally created in a range. One item per order; without Return All, at most Limit orders.',
	},
	fields: updateDisplayOptions({ show: { resource: ['order'], operation: ['getMany'] } }, fields),
};

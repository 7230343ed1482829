/**
 * Shipment › Get Many: the suborders to pack, on their way or completed, or those of one order or
 * suborder, with the shipments endpoint's filters; Spring pages of 100.
 */
import { updateDisplayOptions, type IDataObject, type INodeProperties } from 'n8n-workflow';

import { ANSWERS } from '../../answers/schemas';
import { resultLimit } from '../../transport/batches';
import { sendSettingsOf } from '../../transport/send';
import { listShipments, type ShipmentFilter } from '../../shared/orders/orders';
import { PAYMENT_METHODS, PAYMENT_METHOD_NAMES, paymentMethodCode, simplifyShipment } from '../../shared/orders/outputs';
import { fieldPath, isBlank, listEntry, readChoice } from '../../values/labels';
import { DATE_FORMS, OPTION_LIST_SEPARATORS, readStatusNames, readText, toList } from '../../values/values';
import { returnAllAndLimit, textField, outputFields } from '../common';
import type { OperationModule } from '../contract';
import { STATUSES_METHOD, WAREHOUSES_METHOD, defaultWarehouseId, readTimeRange, readWarehouseId, readingOrders } from '../orderReads';

const LABEL = {
	statuses: fieldPath('Filters', 'Statuses'),
	warehouseIds: fieldPath('Filters', 'Warehouses'),
	paymentMethods: fieldPath('Filters', 'Payment Methods'),
	carriers: fieldPath('Filters', 'Carriers'),
	confirmedFrom: fieldPath('Filters', 'Confirmed From'),
	confirmedTo: fieldPath('Filters', 'Confirmed To'),
	createdFrom: fieldPath('Filters', 'Created From'),
	createdTo: fieldPath('Filters', 'Created To'),
	suborderTypes: fieldPath('Filters', 'Suborder Types'),
};

const fields: INodeProperties[] = [
	{
		displayName: 'Find',
		name: 'find',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'By Order or Suborder ID', value: 'byOrder', description: 'The shipments of one order, or one shipment by its suborder ID' },
			{ name: 'By Status Group', value: 'byStatusGroup', description: 'The shipments to pack, on their way, or completed' },
		],
		default: 'byStatusGroup',
	},
	{
		displayName: 'Status Group',
		name: 'statusGroup',
		type: 'options',
		options: [
			{ name: 'Completed', value: 'completed', description: 'Delivered, cancelled or returned' },
			{ name: 'For Packaging', value: 'forPackaging', description: 'Confirmed, waiting for you to pack them' },
			{ name: 'On Delivery', value: 'onDelivery', description: 'Packed, waiting for the carrier, or on their way' },
		],
		default: 'forPackaging',
		description: 'Which shipments to return',
		displayOptions: { show: { find: ['byStatusGroup'] } },
	},
	textField('Order or Suborder ID', 'search', 'An order ID (all its shipments) or a suborder ID (that shipment)', {
		required: true,
		placeholder: 'e.g. H7SRK-Z2IAO or H7SRK-Z2IAO-DS-1',
		displayOptions: { show: { find: ['byOrder'] } },
	}),
	...returnAllAndLimit(),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{ displayName: 'Carriers', name: 'carriers', type: 'string', default: '', placeholder: 'e.g. DExpress, AKS', description: 'Only shipments of these carriers, separated by commas' },
			{ displayName: 'Confirmed From', name: 'confirmedFrom', type: 'dateTime', default: '', description: `Only shipments confirmed at or after this time: ${DATE_FORMS}` },
			{ displayName: 'Confirmed To', name: 'confirmedTo', type: 'dateTime', default: '', description: `Only shipments confirmed at or before this time (a day alone: up to its end): ${DATE_FORMS}` },
			{
				displayName: 'Created From',
				name: 'createdFrom',
				type: 'dateTime',
				default: '',
				description: `Only shipments purchased at or after this time, also cancellations never confirmed (which Confirmed From leaves out; the service has no such filter, so the node reads the newest pages until they are older than this): ${DATE_FORMS}`,
			},
			{
				displayName: 'Created To',
				name: 'createdTo',
				type: 'dateTime',
				default: '',
				description: `Only shipments purchased at or before this time (a day alone: up to its end; without Created From every page of the group is read): ${DATE_FORMS}`,
			},
			{
				displayName: 'Payment Methods',
				name: 'paymentMethods',
				type: 'multiOptions',
				options: PAYMENT_METHODS.map((code) => ({ name: code === 'VOUCHER' ? PAYMENT_METHOD_NAMES[code] : `${PAYMENT_METHOD_NAMES[code]} (${code})`, value: code })),
				default: [],
				description: 'Only shipments of orders paid with one of these (in an expression: the codes COD, PBC, POS, VOUCHER or the names shown)',
			},
			{
				displayName: 'Status Names or IDs',
				name: 'statuses',
				type: 'multiOptions',
				typeOptions: { loadOptionsMethod: STATUSES_METHOD },
				default: [],
				description:
					'Only shipments in one of these statuses (with a status group: those of the group in one of them). Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			},
			{
				displayName: 'Suborder Types',
				name: 'suborderTypes',
				type: 'multiOptions',
				options: [
					{ name: 'Fulfilled by the Marketplace (FBA)', value: 'FBA', description: 'Suborders the marketplace ships from its own warehouse (IDs ending -FBA-1)' },
					{ name: 'Your Own Delivery (DS)', value: 'DS', description: 'Suborders you pack and hand to the carrier (IDs ending -DS-1)' },
				],
				default: [],
				description: 'Only shipments of these types',
			},
			{
				displayName: 'Warehouse Names or IDs',
				name: 'warehouseIds',
				type: 'multiOptions',
				typeOptions: { loadOptionsMethod: WAREHOUSES_METHOD },
				default: [],
				description:
					'Only shipments sent from one of these warehouses. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			},
		],
	},
	...outputFields(
		'Whether to return a flat summary of each shipment (suborder and order IDs, status and subgroup, created, warehouse, carrier, total, quantities, and per line the merchant inventory ID, EAN, SKU, name, quantities ordered, confirmed and packed, unit price and total) instead of the full shipment',
		ANSWERS.shipments,
	),
];

/** A multi-option value: a list, or text separated by commas from an expression. */
function listIn(value: unknown): string[] {
	return toList(value, OPTION_LIST_SEPARATORS);
}

export const operation: OperationModule = {
	steps: readingOrders(async function (read, onPage) {
		const filter: ShipmentFilter = {};
		if (readChoice(this, 'Find', this.getNodeParameter('find', 'byStatusGroup'), ['byStatusGroup', 'byOrder']) === 'byOrder') {
			filter.search = readText(this, 'Order or Suborder ID', this.getNodeParameter('search', ''));
		} else {
			const groups = ['forPackaging', 'onDelivery', 'completed'] as const;
			filter.group = readChoice(this, 'Status Group', this.getNodeParameter('statusGroup', 'forPackaging'), groups);
		}
		const filters = this.getNodeParameter('filters', {}) as IDataObject;
		if (!isBlank(filters.statuses)) filter.statuses = readStatusNames(this, LABEL.statuses, filters.statuses);
		if (!isBlank(filters.paymentMethods)) {
			filter.paymentMethods = listIn(filters.paymentMethods).map(
				(method, index) => paymentMethodCode(method) ?? readChoice(this, listEntry(LABEL.paymentMethods, index), method, PAYMENT_METHODS),
			);
		}
		if (!isBlank(filters.carriers)) filter.carriers = listIn(filters.carriers);
		const ids = isBlank(filters.warehouseIds) ? [] : Array.isArray(filters.warehouseIds) ? filters.warehouseIds.map(String) : listIn(filters.warehouseIds);
		if (ids.length > 0) {
			const read = ids.map((id, index) => readWarehouseId(this, listEntry(LABEL.warehouseIds, index), id));
			// Default Address: the warehouse marked default when the node runs (one read of the warehouses).
			const fallback = read.includes(undefined) ? await defaultWarehouseId(this, sendSettingsOf(this)) : undefined;
			filter.warehouseIds = [...new Set(read.map((id) => id ?? (fallback as number)))];
		}
		if (!isBlank(filters.suborderTypes)) {
			filter.suborderTypes = listIn(filters.suborderTypes).map((type, index) => readChoice(this, listEntry(LABEL.suborderTypes, index), type, ['DS', 'FBA']));
		}
		Object.assign(
			filter,
			readTimeRange(this, { field: LABEL.confirmedFrom, value: filters.confirmedFrom, key: 'confirmedFrom' }, { field: LABEL.confirmedTo, value: filters.confirmedTo, key: 'confirmedTo' }),
			readTimeRange(this, { field: LABEL.createdFrom, value: filters.createdFrom, key: 'createdFrom' }, { field: LABEL.createdTo, value: filters.createdTo, key: 'createdTo' }),
		);
		return await listShipments(read, this.getNode(), filter, resultLimit(this), onPage);
	}, simplifyShipment),
	option: {
		name: 'Get Many',
		value: 'getMany',
		action: 'Get many shipments',
		description:
			'List shipments (suborders), newest purchase first: those to pack (the default), on delivery or completed, or those of one order or suborder ID, optionally filtered by status, warehouse, payment method, carrier, suborder type, confirmation or purchase time. One item per shipment; without Return All, at most Limit shipments.',
	},
	fields: updateDisplayOptions({ show: { resource: ['shipment'], operation: ['getMany'] } }, fields),
};

import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { formatDayMonthYear } from '../../values/dates';
import { DATE_FORMS, invalidInput, isBlank, readDay, readPrice } from '../../values/values';
import { PRICE_FORMS } from '../products';
import { panelLabels } from '../common';
import type { BulkEntry } from '../bulkRun';
import {
	bulkDiscountOperation,
	checkDiscountPeriod,
	checkDiscountStart,
	currencyField,
	currencyOf,
	dayField,
	discountLocatorField,
	discountTypeOf,
	discountTypeOptions,
	readDiscountId,
} from './shared';

const CHANGES = ['newDiscountPrice', 'newDateFrom', 'newDateTo', 'newDiscountType'] as const;

/**
 * Only the changes given are sent. The new price goes out as text, as the interface types it, with
 * its currency. The discount is `discountId`, or `id` as Schedule's and Get Many's outputs carry it.
 */
function checkUpdate({ ctx, raw: entry, label, reader }: BulkEntry<IDataObject>): IDataObject {
	const idKey = isBlank(entry.discountId) && !isBlank(entry.id) ? 'id' : 'discountId';
	const discountId = readDiscountId(reader(idKey), label(idKey), entry[idKey]);
	if (CHANGES.every((change) => isBlank(entry[change]))) {
		throw invalidInput(ctx, label(), 'has nothing to change', `Give at least one of: ${CHANGES.map((change) => `${ROW_LABELS[change]} (${change})`).join(', ')}`);
	}
	const update: IDataObject = { discountId };
	if (!isBlank(entry.newDiscountPrice)) {
		update.newDiscountPrice = String(readPrice(reader('newDiscountPrice'), label('newDiscountPrice'), entry.newDiscountPrice));
		update.newDiscountPriceCurrency = currencyOf(reader('newDiscountPriceCurrency'), label('newDiscountPriceCurrency'), entry.newDiscountPriceCurrency);
	}
	const newType = isBlank(entry.newDiscountType) ? undefined : discountTypeOf(reader('newDiscountType'), label('newDiscountType'), entry.newDiscountType);
	const newDateFrom = isBlank(entry.newDateFrom) ? undefined : readDay(reader('newDateFrom'), label('newDateFrom'), entry.newDateFrom);
	const newDateTo = isBlank(entry.newDateTo) ? undefined : readDay(reader('newDateTo'), label('newDateTo'), entry.newDateTo);
	if (newDateFrom) checkDiscountStart(reader('newDateFrom'), newType, newDateFrom, label('newDateFrom'));
	checkDiscountPeriod(reader('newDateTo'), label('newDateTo'), newType, newDateFrom, newDateTo);
	if (newDateFrom) update.newDateFrom = formatDayMonthYear(newDateFrom);
	if (newDateTo) update.newDateTo = formatDayMonthYear(newDateTo);
	if (newType) update.newDiscountType = newType;
	return update;
}

const rowFields: INodeProperties[] = [
	discountLocatorField('The discount to change: pick a current or upcoming one from the list, or give its ID (Schedule and Get Many return it)'),
	{
		displayName: 'New Discount Price',
		name: 'newDiscountPrice',
		type: 'string',
		default: '',
		placeholder: 'e.g. 849.99',
		description: `Leave empty to keep the price. A running discount can only get a lower price. ${PRICE_FORMS}.`,
	},
	currencyField('newDiscountPriceCurrency', 'New Currency', 'Currency of the new price (the service takes RSD); sent only with a new price'),
	dayField(
		'New Date From',
		'newDateFrom',
		`Leave empty to keep the start day; otherwise today or later. The dates of a running discount cannot change. Accepts ${DATE_FORMS}.`,
	),
	dayField('New Date To', 'newDateTo', `Leave empty to keep the end day. Accepts ${DATE_FORMS}.`),
	{
		displayName: 'New Discount Type',
		name: 'newDiscountType',
		type: 'options',
		options: [...discountTypeOptions, { name: 'Unchanged', value: '', description: 'Keep the current type' }],
		default: '',
	},
];

const ROW_LABELS = panelLabels(rowFields);

export const operation = bulkDiscountOperation<IDataObject>({
	option: {
		name: 'Update',
		value: 'update',
		action: 'Update discounts',
		description:
			'Change scheduled or running discounts in bulk, one per input item (a sheet row) or a list, by discountId: newDiscountPrice, newDateFrom, newDateTo, newDiscountType. A running discount can only get a lower price; ended discounts cannot be updated. Outputs one item per update, in the order given, with the discount ID, success, error and the input sent.',
	},
	method: 'PUT',
	entries: 'discount updates',
	entry: 'Discount Update',
	nameEntry: (_ctx, entry) => {
		const id = isBlank(entry.discountId) ? undefined : (entry.discountId as IDataObject).value ?? entry.discountId;
		return isBlank(id) ? undefined : `Discount ID ${String(id)}`;
	},
	rowsName: 'discountUpdatesUi',
	rowFields,
	jsonDescription:
		'each with discountId (or id, as Schedule and Get Many give it) and at least one change: newDiscountPrice, newDateFrom, newDateTo (dd/MM/yyyy or ISO 8601 dates), newDiscountType; newDiscountPriceCurrency defaults to RSD',
	jsonPlaceholder: '[{"discountId": "3f2c9a4e-8b1d-4c6e-9f7a-2d5b8e1c0a47", "newDiscountPrice": "849.99"}]',
	check: checkUpdate,
	body: (update) => update,
	idOfInvalid: (raw) => {
		const id = raw.discountId ?? raw.id;
		return typeof id === 'object' && id !== null ? (id as IDataObject).value : id;
	},
});

import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteSingleFunctions,
	type INodeProperties,
	type INodePropertyOptions,
} from 'n8n-workflow';

import { formatDayMonthYear } from '../../transport/dates';
import { ANSWERS } from '../../transport/schema';
import { DATE_FORMS, invalidInput, isBlank, readDay, readPrice } from '../../transport/values';
import { PRICE_FORMS } from '../productValues';
import { bulkInputFields, panelLabels, simplifyResultsField, type BulkEntries } from '../bulkInput';
import { failOnItemErrorsOptions } from '../common';
import {
	RESOURCE,
	bulkDiscountRouting,
	checkDiscountPeriod,
	checkDiscountStart,
	currencyField,
	currencyOf,
	discountBulkInput,
	discountTypeOf,
	discountTypeOptions,
} from './shared';
import { discountLocatorField, readDiscountId } from './discountLocator';

const OPERATION = 'update';

const CHANGES = ['newDiscountPrice', 'newDateFrom', 'newDateTo', 'newDiscountType'] as const;

/**
 * Checks every entry and turns it into the service's shape: only the changes given are sent. The
 * new price goes out as text, as the interface types it, with its currency (RSD unless given).
 */
function updateEntries(this: IExecuteSingleFunctions, entries: IDataObject[], label: BulkEntries['label']): IDataObject[] {
	return entries.map((entry, index) => {
		const field = (name: string) => label(index, name);
		const discountId = readDiscountId(this, field('discountId'), entry.discountId);
		if (CHANGES.every((change) => isBlank(entry[change]))) {
			throw invalidInput(this, label(index), 'has nothing to change', `Give at least one of: ${CHANGES.map((change) => `${ROW_LABELS[change]} (${change})`).join(', ')}`);
		}
		const update: IDataObject = { discountId };
		if (!isBlank(entry.newDiscountPrice)) {
			update.newDiscountPrice = String(readPrice(this, field('newDiscountPrice'), entry.newDiscountPrice));
			update.newDiscountPriceCurrency = currencyOf(this, field('newDiscountPriceCurrency'), entry.newDiscountPriceCurrency);
		}
		const newType = isBlank(entry.newDiscountType) ? undefined : discountTypeOf(this, field('newDiscountType'), entry.newDiscountType);
		const newDateFrom = isBlank(entry.newDateFrom) ? undefined : readDay(this, field('newDateFrom'), entry.newDateFrom);
		const newDateTo = isBlank(entry.newDateTo) ? undefined : readDay(this, field('newDateTo'), entry.newDateTo);
		if (newDateFrom) checkDiscountStart(this, newType, newDateFrom, field('newDateFrom'));
		checkDiscountPeriod(this, newType, newDateFrom, newDateTo, { from: field('newDateFrom'), to: field('newDateTo') });
		if (newDateFrom) update.newDateFrom = formatDayMonthYear(newDateFrom);
		if (newDateTo) update.newDateTo = formatDayMonthYear(newDateTo);
		if (newType) update.newDiscountType = newType;
		return update;
	});
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
	{
		displayName: 'New Date From',
		name: 'newDateFrom',
		type: 'dateTime',
		default: '',
		description: `Leave empty to keep the start day; otherwise today or later. The dates of a running discount cannot change. Accepts ${DATE_FORMS}.`,
	},
	{
		displayName: 'New Date To',
		name: 'newDateTo',
		type: 'dateTime',
		default: '',
		description: `Leave empty to keep the end day. Accepts ${DATE_FORMS}.`,
	},
	{
		displayName: 'New Discount Type',
		name: 'newDiscountType',
		type: 'options',
		options: [...discountTypeOptions, { name: 'Unchanged', value: '', description: 'Keep the current type' }],
		default: '',
	},
];

const ROW_LABELS = panelLabels(rowFields);

const BULK_INPUT = discountBulkInput({
	entries: 'discount updates',
	rowsName: 'discountUpdatesUi',
	rowDisplayName: 'Discount Update',
	rowFields,
	jsonDescription:
		'each with discountId and at least one change: newDiscountPrice, newDateFrom, newDateTo (dd/MM/yyyy or ISO 8601 dates), newDiscountType; newDiscountPriceCurrency defaults to RSD',
	jsonPlaceholder: '[{"discountId": "3f2c9a4e-8b1d-4c6e-9f7a-2d5b8e1c0a47", "newDiscountPrice": "849.99"}]',
});

export const updateDiscounts: INodePropertyOptions = {
	name: 'Update',
	value: OPERATION,
	action: 'Update discounts',
	description:
		'Change scheduled or running discounts in bulk by discountId: newDiscountPrice, newDateFrom, newDateTo, newDiscountType. A running discount can only get a lower price; ended discounts cannot be updated. Outputs one item per update, in the order given, with the discount ID, success, error and the input sent.',
	routing: bulkDiscountRouting('PUT', ANSWERS.discountUpdate, BULK_INPUT, updateEntries),
};

const displayOptions = { show: { resource: [RESOURCE], operation: [OPERATION] } };

export const updateDiscountsFields = updateDisplayOptions(displayOptions, [
	...bulkInputFields(BULK_INPUT),
	simplifyResultsField(),
	failOnItemErrorsOptions(),
]);

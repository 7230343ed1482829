import type { IDataObject, IExecuteSingleFunctions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { formatDayMonthYear } from '../../transport/dates';
import { ANSWERS } from '../../transport/schema';
import { invalidInput, productIdInput } from '../../transport/validation';
import { bulkInputFields } from '../bulkInput';
import { failOnItemErrorsOptions } from '../common';
import {
	DEFAULT_CURRENCY,
	RESOURCE,
	bulkDiscountRouting,
	checkDiscountPeriod,
	currencyOf,
	dayOf,
	discountBulkInput,
	discountTypeOf,
	discountTypeOptions,
	entryField,
	positivePriceOf,
} from './shared';

const OPERATION = 'schedule';

/** Checks every entry and turns it into the service's shape; the first problem stops the item. */
function scheduleEntries(this: IExecuteSingleFunctions, entries: IDataObject[]): IDataObject[] {
	return entries.map((entry, index) => {
		const field = (name: string) => entryField(index, name);
		const merchantInventoryId = productIdInput(this, field('merchantInventoryId'), entry.merchantInventoryId);
		const discountPrice = positivePriceOf(this, field('discountPrice'), entry.discountPrice);
		const discountType = discountTypeOf(this, field('discountType'), entry.discountType);
		const dateFrom = dayOf(this, field('dateFrom'), entry.dateFrom);
		if (!dateFrom) throw invalidInput(this, field('dateFrom'), 'is missing');
		const dateTo = dayOf(this, field('dateTo'), entry.dateTo);
		if (!dateTo && discountType !== 'CLEARANCE_SALE') throw invalidInput(this, field('dateTo'), 'is missing (only a CLEARANCE_SALE has no end date)');
		checkDiscountPeriod(this, discountType, dateFrom, dateTo, { from: field('dateFrom'), to: field('dateTo') });
		const discount: IDataObject = {
			merchantInventoryId,
			discountPrice,
			discountPriceCurrency: currencyOf(entry.discountPriceCurrency ?? entry.currency),
			dateFrom: formatDayMonthYear(dateFrom),
			discountType,
		};
		if (dateTo) discount.dateTo = formatDayMonthYear(dateTo);
		return discount;
	});
}

const rowFields: INodeProperties[] = [
	{
		displayName: 'Merchant Inventory ID',
		name: 'merchantInventoryId',
		type: 'string',
		default: '',
		required: true,
		description: 'ID of the product the discount applies to',
	},
	{
		displayName: 'Discount Price',
		name: 'discountPrice',
		type: 'number',
		typeOptions: { minValue: 0, numberPrecision: 2 },
		default: 0,
		required: true,
		description: 'Price with VAT during the discount; must be at least 5% below the regular price',
	},
	{
		displayName: 'Currency',
		name: 'currency',
		type: 'string',
		default: DEFAULT_CURRENCY,
		description: 'Currency of the discount price',
	},
	{
		displayName: 'Date From',
		name: 'dateFrom',
		type: 'dateTime',
		default: '',
		required: true,
		description: 'First day of the discount (UTC). A discount dated today starts at once, otherwise at 00:01.',
	},
	{
		displayName: 'Date To',
		name: 'dateTo',
		type: 'dateTime',
		default: '',
		description: 'Last day of the discount (UTC; it ends at 23:59). Leave empty for a clearance sale.',
	},
	{
		displayName: 'Discount Type',
		name: 'discountType',
		type: 'options',
		options: discountTypeOptions,
		default: 'SALE',
	},
];

const BULK_INPUT = discountBulkInput({
	operation: OPERATION,
	entries: 'discounts',
	rowsName: 'discountsUi',
	rowDisplayName: 'Discount',
	rowFields,
	jsonDescription:
		'each with merchantInventoryId, discountPrice, dateFrom and dateTo (dd/MM/yyyy or ISO dates; no dateTo for CLEARANCE_SALE), discountType (SALE, SEASONAL_SALE or CLEARANCE_SALE) and optionally discountPriceCurrency (default RSD)',
	jsonPlaceholder: '[{"merchantInventoryId": 1042, "discountPrice": 899.99, "dateFrom": "01/07/2025", "dateTo": "15/07/2025", "discountType": "SALE"}]',
});

export const scheduleDiscounts: INodePropertyOptions = {
	name: 'Schedule',
	value: OPERATION,
	action: 'Schedule discounts',
	description:
		'Schedule discount prices for products in bulk. Each discount needs merchantInventoryId, discountPrice (at least 5% below the regular price), dateFrom, dateTo (none for CLEARANCE_SALE) and discountType. Outputs one item per discount with success, discountId or error.',
	routing: bulkDiscountRouting('POST', ANSWERS.discountSchedule, BULK_INPUT, scheduleEntries),
};

export const scheduleDiscountsFields: INodeProperties[] = [...bulkInputFields(BULK_INPUT), failOnItemErrorsOptions(RESOURCE, OPERATION)];

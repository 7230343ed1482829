import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteSingleFunctions,
	type INodeProperties,
	type INodePropertyOptions,
} from 'n8n-workflow';

import { formatDayMonthYear } from '../../transport/dates';
import { ANSWERS } from '../../transport/schema';
import { DATE_FORMS, MISSING, invalidInput, isBlank, readDay, readPrice } from '../../transport/values';
import { productLocatorField, readProductRef, resolveProductIds } from '../productLocator';
import { PRICE_FORMS, requiredPriceField } from '../productValues';
import { bulkInputFields, simplifyResultsField, type BulkEntries } from '../bulkInput';
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

const OPERATION = 'schedule';

/**
 * Checks every entry and turns it into the service's shape; the first problem stops the item.
 * Products given by EAN are looked up once every entry is checked.
 */
async function scheduleEntries(this: IExecuteSingleFunctions, entries: IDataObject[], label: BulkEntries['label']): Promise<IDataObject[]> {
	const checked = entries.map((entry, index) => {
		const field = (name: string) => label(index, name);
		const product = { field: field('merchantInventoryId'), ref: readProductRef(this, field('merchantInventoryId'), entry.merchantInventoryId) };
		const discountPrice = readPrice(this, field('discountPrice'), entry.discountPrice);
		const discountType = discountTypeOf(this, field('discountType'), entry.discountType);
		const dateFrom = readDay(this, field('dateFrom'), entry.dateFrom);
		const dateTo = isBlank(entry.dateTo) ? undefined : readDay(this, field('dateTo'), entry.dateTo);
		if (!dateTo && discountType !== 'CLEARANCE_SALE') throw invalidInput(this, field('dateTo'), `${MISSING} (only a CLEARANCE_SALE has no end date)`);
		checkDiscountStart(this, discountType, dateFrom, field('dateFrom'));
		checkDiscountPeriod(this, discountType, dateFrom, dateTo, { from: field('dateFrom'), to: field('dateTo') });
		const currencyField = isBlank(entry.discountPriceCurrency) ? 'currency' : 'discountPriceCurrency';
		const terms: IDataObject = {
			discountPrice,
			discountPriceCurrency: currencyOf(this, field(currencyField), entry[currencyField]),
			dateFrom: formatDayMonthYear(dateFrom),
			discountType,
		};
		if (dateTo) terms.dateTo = formatDayMonthYear(dateTo);
		return { product, terms };
	});
	const ids = await resolveProductIds(this, checked.map(({ product }) => product));
	return checked.map(({ terms }, index) => ({ merchantInventoryId: ids[index], ...terms }));
}

const rowFields: INodeProperties[] = [
	productLocatorField({
		name: 'merchantInventoryId',
		description:
			'The product the discount applies to: pick it from the list (search by name, SKU or EAN), give its ID (the API calls it merchantInventoryId), or give its EAN',
	}),
	requiredPriceField(
		'discountPrice',
		'Discount Price',
		`Price with VAT during the discount; must be at least 5% below the regular price. ${PRICE_FORMS}.`,
	),
	currencyField('currency', 'Currency', 'Currency of the discount price; the service takes RSD'),
	{
		displayName: 'Date From',
		name: 'dateFrom',
		type: 'dateTime',
		default: '',
		required: true,
		description: `First day of the discount: today or later. A discount dated today starts at once, otherwise at 00:01. Accepts ${DATE_FORMS}.`,
	},
	{
		displayName: 'Date To',
		name: 'dateTo',
		type: 'dateTime',
		default: '',
		description: `Last day of the discount (it ends at 23:59). Leave empty for a clearance sale. Accepts ${DATE_FORMS}.`,
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
	entries: 'discounts',
	rowsName: 'discountsUi',
	rowDisplayName: 'Discount',
	rowFields,
	jsonDescription:
		'each with merchantInventoryId, discountPrice, dateFrom and dateTo (dd/MM/yyyy or ISO 8601 dates; no dateTo for CLEARANCE_SALE), discountType (SALE, SEASONAL_SALE or CLEARANCE_SALE) and optionally discountPriceCurrency (default RSD)',
	jsonLabels: { discountPriceCurrency: 'Currency' },
	jsonPlaceholder: '[{"merchantInventoryId": 100001, "discountPrice": 899.99, "dateFrom": "01/07/2025", "dateTo": "15/07/2025", "discountType": "SALE"}]',
});

export const scheduleDiscounts: INodePropertyOptions = {
	name: 'Schedule',
	value: OPERATION,
	action: 'Schedule discounts',
	description:
		'Schedule discount prices for products in bulk. Each discount needs merchantInventoryId, discountPrice (at least 5% below the regular price), dateFrom, dateTo (none for CLEARANCE_SALE) and discountType. Outputs one item per discount, in the order given, with the new discount ID, success, error and the input sent.',
	routing: bulkDiscountRouting('POST', ANSWERS.discountSchedule, BULK_INPUT, scheduleEntries),
};

const displayOptions = { show: { resource: [RESOURCE], operation: [OPERATION] } };

export const scheduleDiscountsFields = updateDisplayOptions(displayOptions, [
	...bulkInputFields(BULK_INPUT),
	simplifyResultsField(),
	failOnItemErrorsOptions(),
]);

import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { DAY_MS, formatDayMonthYear } from '../../values/dates';
import { invalidInput, isBlank, MISSING } from '../../values/labels';
import { PRICE_FORMS, readNumberFormat, readPrice } from '../../values/numbers';
import { DATE_FORMS, readDay, readEntryField, type EntryField } from '../../values/values';
import { requiredPriceField } from '../catalogue/fields';
import { foundBy, productLocatorField, productNamedBy, readProductRef, resolveEntryProducts, type NamedProductRef } from '../catalogue/locator';
import type { BulkEntry } from '../bulk/entries';
import { bulkDiscountOperation, checkDiscountPeriod, checkDiscountStart, dayField, discountTypeOf, discountTypeOptions } from './shared';
import { currencyField, currencyOf, settleCurrencies } from './currency';
import type { OperationModule } from '../contract';

/**
 * A schedule entry checked: its product as the user named it (an EAN is looked up before sending),
 * its terms, and the currency it gives (undefined: the account's), which its terms get once the
 * account's is known (currency.ts).
 */
type CheckedSchedule = { product: NamedProductRef; terms: IDataObject; productId?: number; currency: { given: string | undefined; key: string }; matchedEan?: string };

/** A date some days from today, for examples: a discount example dated in the past would be refused by the node showing it. */
function exampleDay(daysFromToday: number): string {
	return formatDayMonthYear(new Date(Date.now() + daysFromToday * DAY_MS));
}

/** A schedule row's fields, in the panel's order: each its key, its panel field and its reader. */
const FIELDS = {
	product: {
		key: 'merchantInventoryId',
		field: productLocatorField({ name: 'merchantInventoryId', product: 'The product the discount applies to' }),
		read: readProductRef,
	},
	discountPrice: {
		key: 'discountPrice',
		field: requiredPriceField(
			'discountPrice',
			'Discount Price',
			`Price with VAT during the discount; must be at least 5% below the regular price. ${PRICE_FORMS}.`,
		),
		read: readPrice,
	},
	currency: { key: 'currency', field: currencyField('currency', 'Currency', "Currency of the discount price: the account's own"), read: currencyOf },
	dateFrom: {
		key: 'dateFrom',
		field: dayField(
			'Date From',
			'dateFrom',
			`First day of the discount: today or later. A discount dated today starts at once, otherwise at 00:01. Accepts ${DATE_FORMS}.`,
			true,
		),
		read: readDay,
	},
	dateTo: {
		key: 'dateTo',
		field: dayField('Date To', 'dateTo', `Last day of the discount (it ends at 23:59). Leave empty for a clearance sale. Accepts ${DATE_FORMS}.`),
		read: readDay,
	},
	discountType: {
		key: 'discountType',
		field: { displayName: 'Discount Type', name: 'discountType', type: 'options', options: discountTypeOptions, default: 'SALE' },
		read: discountTypeOf,
	},
} satisfies Record<string, EntryField<unknown>>;

function checkSchedule(entry: BulkEntry<CheckedSchedule>): CheckedSchedule {
	const { ctx, raw, label, reader } = entry;
	// The API's `merchantInventoryId`, or `productId` / `id` as the node's own outputs carry it.
	const productKey = ['merchantInventoryId', 'productId', 'id'].find((key) => !isBlank(raw[key])) ?? 'merchantInventoryId';
	const product = { field: label(productKey), ref: FIELDS.product.read(reader(productKey), label(productKey), raw[productKey]) };
	const format = readNumberFormat(ctx);
	const discountPrice = readEntryField(entry, FIELDS.discountPrice, format);
	const discountType = readEntryField(entry, FIELDS.discountType, format);
	const dateFrom = readEntryField(entry, FIELDS.dateFrom, format);
	const dateTo = isBlank(raw.dateTo) ? undefined : readEntryField(entry, FIELDS.dateTo, format);
	if (!dateTo && discountType !== 'CLEARANCE_SALE') throw invalidInput(reader('dateTo'), label('dateTo'), `${MISSING} (only a CLEARANCE_SALE has no end date)`);
	checkDiscountStart(reader('dateFrom'), discountType, dateFrom, label('dateFrom'));
	checkDiscountPeriod(reader('dateTo'), label('dateTo'), discountType, dateFrom, dateTo);
	// JSON entries name the currency as the API does.
	const currencyKey = isBlank(raw.discountPriceCurrency) ? 'currency' : 'discountPriceCurrency';
	const given = readEntryField(entry, FIELDS.currency, format, currencyKey);
	// Its currency is set (settleCurrencies) once the account's is known; the key keeps its place.
	const terms: IDataObject = { discountPrice, discountPriceCurrency: undefined, dateFrom: formatDayMonthYear(dateFrom), discountType };
	if (dateTo) terms.dateTo = formatDayMonthYear(dateTo);
	return { product, terms, currency: { given, key: currencyKey } };
}

/** The account's currency (one look-up for the run), then the products named by EAN. */
async function resolveSchedules(exec: IExecuteFunctions, entries: Array<BulkEntry<CheckedSchedule>>): Promise<void> {
	await settleCurrencies(exec, entries, (value) => value.currency, (value, currency) => (value.terms.discountPriceCurrency = currency));
	await resolveEntryProducts(exec, entries.filter((entry) => entry.problem === undefined));
}

const rowFields: INodeProperties[] = Object.values(FIELDS).map(({ field }) => field);

const bulkModule = bulkDiscountOperation<CheckedSchedule>({
	option: {
		name: 'Schedule',
		value: 'schedule',
		action: 'Schedule discounts',
		description:
			'Schedule discount prices for products in bulk: one discount per input item (a sheet row) or a list. Each discount needs the product (merchantInventoryId, or the ID key that Product Get Many outputs), discountPrice (at least 5% below the regular price), dateFrom, dateTo (none for CLEARANCE_SALE) and discountType. Outputs one item per discount, in the order given, with the new discount ID, success, error and the input sent.',
	},
	method: 'POST',
	entries: 'discounts',
	entry: 'Discount',
	nameEntry: (ctx, entry) => productNamedBy(ctx, entry.merchantInventoryId),
	rowsName: 'discountsUi',
	rowFields,
	jsonDescription:
		'each with merchantInventoryId (or id, as Product Get Many gives it), discountPrice, dateFrom and dateTo (dd/MM/yyyy or ISO 8601 dates; no dateTo for CLEARANCE_SALE), discountType (SALE, SEASONAL_SALE or CLEARANCE_SALE) and optionally discountPriceCurrency (default: the currency of the account; KM is BAM)',
	jsonLabels: { discountPriceCurrency: 'Currency' },
	jsonPlaceholder: `[{"merchantInventoryId": 100001, "discountPrice": 899.99, "dateFrom": "${exampleDay(7)}", "dateTo": "${exampleDay(21)}", "discountType": "SALE"}]`,
	check: checkSchedule,
	resolve: resolveSchedules,
	body: ({ productId, terms }) => ({ merchantInventoryId: productId, ...terms }),
	foundOf: foundBy,
});

export const operation: OperationModule = {
	...bulkModule,
	tool: { agents: 'schedule one discount per call (one input item: the product, its price and dates), never a list; look the product and its price up first, and tell the user what was scheduled' },
};

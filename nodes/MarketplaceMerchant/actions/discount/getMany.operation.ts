import {
	updateDisplayOptions,
	type IDataObject,
	type IHttpRequestOptions,
	type INodeExecutionData,
} from 'n8n-workflow';

import { DAY_MS, formatDayMonthYear } from '../../values/dates';
import { ANSWERS } from '../../answers/schemas';
import { decodedNumber, type Shaping } from '../../answers/read';
import { PATHS } from '../../transport/endpoints';
import { resultLimit } from '../../transport/batches';
import { sendRequest, type RequestData, type ItemFunctions } from '../../transport/send';
import { isBlank, readParameter } from '../../values/labels';
import { DATE_FORMS, readDay, readOutput, shapeOutput, today } from '../../values/values';
import { outputFields, pacedRouting, returnAllAndLimit, simplifyField } from '../common';
import { RESOURCE, checkDiscountPeriod, dayField, discountProducts, listedDay, listedDiscountDays, typeByRules, type ListedDiscountDays } from './shared';
import { REFERENCE_CURRENCY, accountCurrency } from './currency';
import type { OperationModule } from '../contract';

const OPERATION = 'getMany';

/** An empty Date To: this many days after Date From (a month of discounts ahead from today by default). */
const DEFAULT_RANGE_DAYS = 30;

/**
 * Both range days are required by the service, as dd/MM/yyyy. Empty fields mean today (in the workflow's time zone) and
 * 30 days after Date From: a node saved without dates could not run before (both were required),
 * so no saved workflow changes meaning (docs/versioning.md).
 */
async function setDateRange(this: ItemFunctions, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	// Only a field left empty takes the default: an expression that gives nothing is an error naming it (never a guess).
	const leftEmpty = (name: string) => isBlank(this.getNodeParameter(name, '', { rawExpressions: true }));
	const from = leftEmpty('dateFrom') ? today(this) : readParameter(this, 'dateFrom', 'Date From', readDay);
	const to = leftEmpty('dateTo') ? new Date(from.getTime() + DEFAULT_RANGE_DAYS * DAY_MS) : readParameter(this, 'dateTo', 'Date To', readDay);
	checkDiscountPeriod(this, 'Date To', undefined, from, to);
	return { ...requestOptions, qs: { ...requestOptions.qs, dateFrom: formatDayMonthYear(from), dateTo: formatDayMonthYear(to) } };
}

/** The endpoint answers the whole range at once (no paging): Limit keeps the first results. */
async function sendAndKeepLimit(this: ItemFunctions, requestData: RequestData): Promise<INodeExecutionData[]> {
	return (await sendRequest(this, requestData)).slice(0, resultLimit(this));
}

/** Where a discount stands, in the words of the Discount ID list: a pending one is upcoming. */
const STATE_NAMES = { pending: 'upcoming', running: 'running', ended: 'ended' } as const;

/**
 * The type the service gives (none of the sources shows it in the list), else the one its days
 * leave under the service's rules (`typeByRules`: no end is a CLEARANCE_SALE, a start outside the
 * seasonal windows a SALE, longer than 31 days a SEASONAL_SALE); null where they leave it open.
 */
function typeOf(discount: IDataObject, days: ListedDiscountDays): string | null {
	if (!isBlank(discount.discountType)) return String(discount.discountType);
	if (!days.from) return null;
	return typeByRules(days.from, days.to) ?? null;
}

/**
 * Simplify: what the Discount ID list shows, as data. The price a number with its currency beside
 * it (never text with separators a Serbian reader may misread); the product's name and regular
 * price from the catalogue (`discountProducts`: the answer carries neither), null for a product the
 * catalogue does not list.
 */
const simplifyDiscountsIfAsked: Shaping = async function (items) {
	const output = readOutput(this, this.getNode().typeVersion >= 3);
	if (output.mode === 'raw') return items;
	const now = new Date();
	// Only the Simplified form shows a currency and the products' names: Raw and Selected Fields read nothing more.
	const simplified = output.mode === 'simplified';
	// The list need not carry a currency: the account's stands for it (learned once per run, RSD where unknown).
	const unsaid = simplified && items.some(({ json }) => isBlank(json.discountPriceCurrency));
	const currency = unsaid ? ((await accountCurrency(this))?.code ?? REFERENCE_CURRENCY) : REFERENCE_CURRENCY;
	const products = simplified ? await discountProducts(this, items.map(({ json }) => json)) : new Map<number, IDataObject>();
	const daysOf = listedDiscountDays(items.map(({ json }) => json), now);
	return items.map(({ json }) => ({ json: shapeOutput(output, json, (discount) => simplifyDiscount(discount, daysOf(discount), currency, products)) }));
};

function simplifyDiscount(json: IDataObject, days: ListedDiscountDays, currencyOfAccount: string, products: Map<number, IDataObject>): IDataObject {
	const { state } = days;
	const product = products.get(Number(json.merchantInventoryId));
	const name = isBlank(json.productName) ? product?.name : json.productName;
	return {
		discountId: json.discountId ?? null,
		productId: json.merchantInventoryId ?? null,
		productName: isBlank(name) ? null : name,
		price: decodedNumber(json.discountPrice),
		currency: isBlank(json.discountPriceCurrency) ? currencyOfAccount : json.discountPriceCurrency,
		regularPrice: product === undefined ? null : decodedNumber(product.basePrice),
		type: typeOf(json, days),
		dateFrom: listedDay(json.dateFrom, days.from),
		dateTo: listedDay(json.dateTo, days.to),
		state: state === undefined ? null : STATE_NAMES[state],
	};
}

const SIMPLIFY_DESCRIPTION =
	"Whether to return each discount as the Discount ID list shows it: discountId, productId, productName and regularPrice (the product's base price, in the same currency; read from the catalogue: a few more requests, see the README), price (a number) and currency (the discount's where the service gives it, else the account's), type (the service's, or the one its dates leave under the rules; null where they leave SALE or SEASONAL_SALE open), dateFrom and dateTo (dd/MM/yyyy), and state: running, upcoming or ended";

export const operation: OperationModule = {
	steps: pacedRouting({
		group: 'payments',
		idempotent: true,
		request: { method: 'GET', url: PATHS.discounts },
		preSend: [setDateRange],
		strategy: sendAndKeepLimit,
		answer: ANSWERS.discounts, shape: [simplifyDiscountsIfAsked],
	}),
	option: {
		name: 'Get Many',
		value: OPERATION,
		action: 'Get many discounts',
		description:
			'List the discounts that run during a date range (ISO 8601 or dd/MM/yyyy days; empty: today to 30 days ahead): one item per discount with discountId, merchantInventoryId (the product ID), discountPrice (in the currency of the account, VAT included), dateFrom and dateTo; with Simplify as the Discount ID list shows them: discountId, productId, productName and regularPrice (from the catalogue), price and currency, type, dateFrom and dateTo (dd/MM/yyyy), state (running, upcoming or ended)',
	},
	fields: updateDisplayOptions({ show: { resource: [RESOURCE], operation: [OPERATION] } }, [
		dayField('Date From', 'dateFrom', `First day of the range; empty: today in the workflow's time zone. Accepts ${DATE_FORMS}.`),
		dayField('Date To', 'dateTo', `Last day of the range; empty: ${DEFAULT_RANGE_DAYS} days after Date From. Accepts ${DATE_FORMS}.`),
		...returnAllAndLimit(),
		// On as on every Get Many for a node created now (version 3 on; Output from version 4); saved
		// nodes of versions 1 and 2 keep the service's fields (docs/versioning.md).
		...outputFields(SIMPLIFY_DESCRIPTION, ANSWERS.discounts, [3]),
		{ ...simplifyField(SIMPLIFY_DESCRIPTION), default: false, displayOptions: { show: { '@version': [1, 2] } } },
	]),
};

/** The product fields Import and Update both offer, and the product readers built on values.ts. */
import type { INodeProperties } from 'n8n-workflow';

import type { Route } from '../transport/send';
import { textField } from './common';
import { VAT_RATES, readChoice, readEan, readList, readNumber, type ValueContext } from '../values/values';

/**
 * The route of every product request. Each is safe to repeat: reads (Check EANs is a POST that only
 * reads), updates set absolute values, and Import creates or edits by EAN.
 */
export const CATALOGUE: Route = { group: 'catalogue', idempotent: true };

/** How every price comparison is made (Sync, the trigger's Product Changed): 1299.00 and a float's 1299.9999999 are one price. */
export function priceInCents(price: number): number {
	return Math.round(price * 100);
}

export const PRICE_FORMS = 'Plain digits with at most 2 decimals, e.g. 1299 or 1299.50; thousands separators and decimal commas are rejected';

/** A text field, not a number defaulting to 0: n8n (2.41) flags an empty required field before a run only for text types. */
export function requiredPriceField(name: string, displayName: string, description: string): INodeProperties {
	return textField(displayName, name, description, { required: true, placeholder: 'e.g. 1299.99' });
}

/**
 * Base Price, Package Weight Value and Stock Level are text fields that start empty: an n8n number
 * field added to a collection holds 0, a value the merchant never typed (a stock of 0 would empty
 * the shelf). The readers take text as they take numbers, so older workflows' numbers still read.
 */
export const PRODUCT_FIELDS = {
	basePrice: textField('Base Price', 'basePrice', `Price with VAT included; above 0. ${PRICE_FORMS}.`, { placeholder: 'e.g. 1299.99' }),
	packageWeightUnit: {
		displayName: 'Package Weight Unit',
		name: 'packageWeightUnit',
		type: 'options',
		options: [
			{ name: 'Grams (G)', value: 'G' },
			{ name: 'Kilograms (KG)', value: 'KG' },
		],
		default: 'KG',
		description: 'Unit of the package weight',
	},
	packageWeightValue: textField(
		'Package Weight Value',
		'packageWeightValue',
		'Package weight; above 0, plain digits with at most 3 decimals (e.g. 1.25)',
		{ placeholder: 'e.g. 1.25' },
	),
	sku: textField('SKU', 'sku', 'Stock keeping unit'),
	stockLevel: textField('Stock Level', 'stockLevel', 'Available stock; a whole number of 0 or more, plain digits (e.g. 1000)', {
		placeholder: 'e.g. 1000',
	}),
	vat: {
		displayName: 'VAT',
		name: 'vat',
		type: 'options',
		options: VAT_RATES.map((rate) => ({ name: `${rate}%`, value: rate })),
		default: 20,
		description: 'VAT rate in percent; the service accepts 0, 10 and 20',
	},
} satisfies Record<string, INodeProperties>;

/** Above 0, at most 3 decimal places (grams of a kilogram). */
export function readWeight(ctx: ValueContext, field: string, value: unknown): number {
	return readNumber(ctx, field, value, { min: 0, minExclusive: true, maxDecimals: 3, kind: 'a weight' });
}

export function readWeightUnit(ctx: ValueContext, field: string, value: unknown): string {
	return readChoice(ctx, field, value, ['KG', 'G'] as const);
}

/** An EAN for comparing: 0740617304350 and 740617304350 are the same GTIN, and the service may answer either. */
export function eanKey(ean: unknown): string {
	return String(ean ?? '').trim().replace(/^0+(?=\d)/, '');
}

export function readEanList(ctx: ValueContext, field: string, value: unknown): string[] {
	return readList(ctx, field, value, {
		empty: { problem: 'the list is empty', hint: 'Give at least one EAN' },
		readEntry: (ean, eanField) => readEan(ctx, eanField, ean),
	});
}

/**
 * The product fields and their readers, shared by the product operations, Price › Get Many and the
 * discount operations: the route of every product request, the panel fields (`PRODUCT_FIELDS`),
 * the readers of weights and dimensions, and the writers' rules for what goes out for a value read
 * (`packageWeightInKg`, `stockLevelToSend`).
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { Route } from '../../transport/send';
import { fieldPath, invalidInput, readChoice, type SettingsContext, type ValueContext } from '../../values/labels';
import { PRICE_FORMS, readNumber, type NumberFormat, type NumberReader } from '../../values/numbers';
import { textField } from '../common';

/**
 * The route of every product request. Each is safe to repeat: reads (Check EANs is a POST that only
 * reads), updates set absolute values, and Import creates or edits by EAN.
 */
export const CATALOGUE: Route = { group: 'catalogue', idempotent: true };

/** A text field, not a number defaulting to 0: n8n (2.41) flags an empty required field before a run only for text types. */
export function requiredPriceField(name: string, displayName: string, description: string): INodeProperties {
	return textField(displayName, name, description, { required: true, placeholder: 'e.g. 1299.99' });
}

const DIMENSION_FORMS = 'above 0, plain digits with at most 2 decimals (e.g. 12.5)';

/** A length in centimetres: the unit the service's answers give dimensions in (`packageDimensionUnit: "cm"`, platform facts). */
function dimensionField(displayName: string, name: string, what: string): INodeProperties {
	return textField(`${displayName} (cm)`, name, `${what} in centimetres; ${DIMENSION_FORMS}`, { placeholder: 'e.g. 12.5' });
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
	packageHeightValue: dimensionField('Package Height', 'packageHeightValue', 'Package height'),
	packageLengthValue: dimensionField('Package Length', 'packageLengthValue', 'Package length'),
	packageWidthValue: dimensionField('Package Width', 'packageWidthValue', 'Package width'),
	productHeightValue: dimensionField('Product Height', 'productHeightValue', 'Height of the product itself'),
	productLengthValue: dimensionField('Product Length', 'productLengthValue', 'Length of the product itself'),
	productWidthValue: dimensionField('Product Width', 'productWidthValue', 'Width of the product itself'),
	productWeightValue: textField(
		'Product Weight (kg)',
		'productWeightValue',
		'Weight of the product itself in kilograms (the service stores weights in kilograms); above 0, plain digits with at most 3 decimals (e.g. 1.25)',
		{ placeholder: 'e.g. 1.25' },
	),
	serviceable: {
		displayName: 'Serviceable',
		name: 'serviceable',
		type: 'boolean',
		default: false,
		description:
			"Whether the product is serviceable: the service's `serviceable` flag, which its current pages list for updates without defining it further (a production client sends true for every product)",
	},
	sku: textField('SKU', 'sku', 'Stock keeping unit'),
	stockLevel: textField('Stock Level', 'stockLevel', 'Available stock; a whole number of 0 or more, plain digits (e.g. 1000)', {
		placeholder: 'e.g. 1000',
	}),
	vat: {
		displayName: 'VAT',
		name: 'vat',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: 100, numberPrecision: 2 },
		default: 20,
		description:
			"VAT rate in percent, your market's: Serbia 0, 10 or 20; Bosnia and Herzegovina 17 (or 0); North Macedonia 18, 5 or 0. The service judges it: a rate your account does not take comes back as that product's error.",
	},
} satisfies Record<string, INodeProperties>;

/** Above 0, at most 3 decimal places (grams of a kilogram). */
export function readWeight(ctx: ValueContext, field: string, value: unknown, format?: NumberFormat): number {
	return readNumber(ctx, field, value, { min: 0, minExclusive: true, maxDecimals: 3, kind: 'a weight', format, data: true });
}

export type WeightUnit = 'KG' | 'G';

export function readWeightUnit(ctx: ValueContext, field: string, value: unknown): WeightUnit {
	return readChoice(ctx, field, value, ['KG', 'G'] as const);
}

/** A package or product dimension in centimetres. */
export function readDimension(ctx: ValueContext, field: string, value: unknown, format?: NumberFormat): number {
	return readNumber(ctx, field, value, { min: 0, minExclusive: true, maxDecimals: 2, kind: 'a length in centimetres', format, data: true });
}

/** The product's own dimensions, for Import (platform facts: import takes them; product/bulk is not said to). */
export const PRODUCT_DIMENSION_READERS = {
	productWidthValue: readDimension,
	productLengthValue: readDimension,
	productHeightValue: readDimension,
	productWeightValue: readWeight,
} satisfies Record<string, NumberReader>;

export const PRODUCT_DIMENSION_FIELDS: INodeProperties[] = [
	PRODUCT_FIELDS.productHeightValue,
	PRODUCT_FIELDS.productLengthValue,
	PRODUCT_FIELDS.productWeightValue,
	PRODUCT_FIELDS.productWidthValue,
];

/**
 * Every weight goes out in kilograms, and this is the one place that says how: each writer of a
 * package weight (Update, Update Many, Import) passes the fields it read (`packageWeightValue` as
 * readWeight reads it, `packageWeightUnit` as readWeightUnit does) and sends what this leaves in
 * them. Platform facts: the live service stores the number as kilograms whatever unit is sent
 * ("hard-coded KG"), so `500 G` would become 500 kg; where the service honours the unit (the
 * interface reference), 0.5 KG is the same 500 g. Grams (at most 3 decimals) are counted in whole
 * milligrams and divided once, so the kilograms are exact: 300 G is 0.3 KG, not 0.30000000000000004.
 * Returns what the output should tell the merchant: the conversion, or a unit given without a value
 * (not sent: it only says what a value is in, and a service that honours units would re-read the
 * stored number in it).
 */
export function packageWeightInKg(fields: IDataObject): string | undefined {
	const { packageWeightValue: value, packageWeightUnit: unit } = fields;
	if (value === undefined) {
		if (unit === undefined) return undefined;
		delete fields.packageWeightUnit;
		return `Package Weight Unit ${String(unit)} not sent: no Package Weight Value was given`;
	}
	fields.packageWeightUnit = 'KG';
	if (unit !== 'G') return undefined;
	const kilograms = Math.round((value as number) * 1000) / 1_000_000;
	fields.packageWeightValue = kilograms;
	return `Package Weight ${String(value)} G sent as ${kilograms} KG, as the service stores kilograms`;
}

/** Options › Negative Stock, of Update, Update Many and Sync Stock and Prices (read by `readNegativeStock` only). */
export const NEGATIVE_STOCK_OPTION: INodeProperties = {
	displayName: 'Negative Stock',
	name: 'negativeStock',
	type: 'options',
	options: [
		{
			name: 'Send as 0',
			value: 'zero',
			description: 'A stock below 0 (an item oversold in the ERP) goes out as 0, as the service stores it; the entry says so in notes',
		},
		{
			name: 'Treat as Invalid',
			value: 'invalid',
			description: 'A stock below 0 makes its entry invalid (Invalid Entries decides what happens to the run; Update fails the item)',
		},
	],
	default: 'zero',
	description: 'What to do with a Stock Level below 0',
};

const NEGATIVE_STOCK_LABEL = fieldPath('Options', NEGATIVE_STOCK_OPTION.displayName);
type NegativeStock = 'zero' | 'invalid';

function readNegativeStock(settings: SettingsContext): NegativeStock {
	const choice = settings.getNodeParameter(`options.${NEGATIVE_STOCK_OPTION.name}`, NEGATIVE_STOCK_OPTION.default);
	return readChoice(settings, NEGATIVE_STOCK_LABEL, choice, ['zero', 'invalid'] as const, 'Pick Send as 0 or Treat as Invalid');
}

/**
 * The stock every writer sends for a stock level read with readSignedStockLevel: as given from 0
 * up; below 0 (an ERP's oversold item), 0 with a note by default, since the service stores a
 * negative stock as 0 (platform facts) and one such row used to stop a whole run; or invalid, as
 * Options › Negative Stock says (read only for a negative stock: long lists have none).
 */
export function stockLevelToSend(
	settings: SettingsContext,
	ctx: ValueContext,
	field: string,
	stock: number,
	/** Sync says "taken": an unchanged entry sends nothing. */
	verb: 'sent' | 'taken' = 'sent',
): { stockLevel: number; note?: string } {
	if (stock >= 0) return { stockLevel: stock === 0 ? 0 : stock };
	if (readNegativeStock(settings) === 'invalid') {
		throw invalidInput(ctx, field, `must be at least 0, got ${stock}`, `${NEGATIVE_STOCK_LABEL} is Treat as Invalid; choose Send as 0 to send a stock below 0 as 0`);
	}
	return { stockLevel: 0, note: `Stock Level ${stock} ${verb} as 0, as the service stores it` };
}

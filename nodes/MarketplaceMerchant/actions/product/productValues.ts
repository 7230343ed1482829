/**
 * The values a product request carries: the fields Import and Update both offer, and the readers
 * that check them. Each reader checks one business rule the service would otherwise reject
 * (platform facts, "Business rules") and names the field on failure, so Import, Update and
 * Update Many validate the same way before anything is sent.
 */
import type { IExecuteSingleFunctions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import {
	VAT_RATES,
	describeValue,
	invalidInput,
	isValidEan,
	listInput,
	toNumber,
	toPositiveInteger,
} from '../../transport/validation';

export const WEIGHT_UNITS = ['KG', 'G'] as const;

const VAT_OPTIONS: INodePropertyOptions[] = VAT_RATES.map((rate) => ({ name: `${rate}%`, value: rate }));

const WEIGHT_UNIT_OPTIONS: INodePropertyOptions[] = [
	{ name: 'Grams (G)', value: 'G' },
	{ name: 'Kilograms (KG)', value: 'KG' },
];

/**
 * The product fields Import and Update both offer, with the bounds the service applies. An
 * operation that has more to say about a field overrides its description.
 */
export const PRODUCT_FIELDS = {
	basePrice: {
		displayName: 'Base Price',
		name: 'basePrice',
		type: 'number',
		typeOptions: { minValue: 0, numberPrecision: 2 },
		default: 0,
		description: 'Price with VAT included; must be greater than 0',
	},
	packageWeightUnit: {
		displayName: 'Package Weight Unit',
		name: 'packageWeightUnit',
		type: 'options',
		options: WEIGHT_UNIT_OPTIONS,
		default: 'KG',
		description: 'Unit of the package weight',
	},
	packageWeightValue: {
		displayName: 'Package Weight Value',
		name: 'packageWeightValue',
		type: 'number',
		typeOptions: { minValue: 0, numberPrecision: 3 },
		default: 0,
		description: 'Package weight; must be greater than 0',
	},
	sku: {
		displayName: 'SKU',
		name: 'sku',
		type: 'string',
		default: '',
		description: 'Stock keeping unit',
	},
	stockLevel: {
		displayName: 'Stock Level',
		name: 'stockLevel',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 0,
		description: 'Available stock; a whole number of 0 or more',
	},
	vat: {
		displayName: 'VAT',
		name: 'vat',
		type: 'options',
		options: VAT_OPTIONS,
		default: 20,
		description: 'VAT rate in percent; the service accepts 0, 10 and 20',
	},
} satisfies Record<string, INodeProperties>;

export function readProductId(ctx: IExecuteSingleFunctions, value: unknown, field: string): number {
	const id = toPositiveInteger(value);
	if (id === undefined) {
		throw invalidInput(ctx, field, `must be a positive whole number (a product ID), got ${describeValue(value)}`);
	}
	return id;
}

export function readPositiveNumber(ctx: IExecuteSingleFunctions, value: unknown, field: string): number {
	const number = toNumber(value);
	if (number === undefined || number <= 0) {
		throw invalidInput(ctx, field, `must be a number greater than 0, got ${describeValue(value)}`);
	}
	return number;
}

export function readVat(ctx: IExecuteSingleFunctions, value: unknown, field: string): number {
	const vat = toNumber(value);
	if (vat === undefined || !(VAT_RATES as readonly number[]).includes(vat)) {
		throw invalidInput(ctx, field, `must be one of ${VAT_RATES.join(', ')}, got ${describeValue(value)}`);
	}
	return vat;
}

export function readStockLevel(ctx: IExecuteSingleFunctions, value: unknown, field: string): number {
	const stockLevel = toNumber(value);
	if (stockLevel === undefined || !Number.isInteger(stockLevel) || stockLevel < 0) {
		throw invalidInput(ctx, field, `must be a whole number of 0 or more, got ${describeValue(value)}`);
	}
	return stockLevel;
}

export function readWeightUnit(ctx: IExecuteSingleFunctions, value: unknown, field: string): string {
	const unit = String(value).trim().toUpperCase();
	if (!(WEIGHT_UNITS as readonly string[]).includes(unit)) {
		throw invalidInput(ctx, field, `must be ${WEIGHT_UNITS.join(' or ')}, got ${describeValue(value)}`);
	}
	return unit;
}

export function readEan(ctx: IExecuteSingleFunctions, value: unknown, field: string): string {
	const ean = String(value ?? '').trim();
	if (!isValidEan(ean)) {
		throw invalidInput(
			ctx,
			field,
			`${describeValue(value)} is not a valid EAN`,
			'An EAN has 8, 12, 13 or 14 digits and ends with a check digit computed from the others',
		);
	}
	return ean;
}

export function readText(value: unknown): string {
	return String(value).trim();
}

/** A list of EANs from an array or text separated by commas, semicolons or new lines; each checked. */
export function readEanList(ctx: IExecuteSingleFunctions, value: unknown, field: string): string[] {
	return listInput(ctx, field, value, { problem: 'the list is empty', hint: 'Give at least one EAN' }, (ean, eanField) =>
		readEan(ctx, ean, eanField),
	);
}

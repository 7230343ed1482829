/**
 * Import as node versions 1 and 2 show it: one product per input item, from top-level fields
 * (Name, EAN, ..., Additional Fields), every one of Name, Description, Cover Image URL, EAN, Base
 * Price, VAT and Stock Level required. Saved workflows keep these parameters and this meaning
 * (docs/versioning.md); the products of all items go out together (import.operation.ts), each
 * item read here as one entry of that run.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { fieldPath, invalidInput, isBlank, isPlainObject, listEntry, readParameter, type ValueContext } from '../../values/labels';
import { readPrice, readStockLevel, readVat, type NumberFormat } from '../../values/numbers';
import { readEan, readJson, readList, readText, readUrl, toList } from '../../values/values';
import type { ItemContext } from '../bulk/entries';
import { panelLabels, textField } from '../common';
import { PRODUCT_TYPES_METHOD, productTypeLanguageField } from './getTypes.operation';
import { PRODUCT_FIELDS, readWeight, readWeightUnit } from '../catalogue/fields';

export const ATTRIBUTES_HINT = 'An object mapping each attribute name to its values, e.g. {"color": ["red", "blue"], "size": ["M"]}';

/** Attribute values are split at commas and new lines only: spaces belong to values ("dark blue"). */
export const ATTRIBUTE_VALUE_SEPARATORS = /[,\n]/;

/** Attributes from the JSON field and the rows, merged by name. */
function readAttributes(ctx: ValueContext, additionalFields: IDataObject): Record<string, string[]> | undefined {
	const given = additionalFields.attributesJson;
	const json = isBlank(given) ? undefined : readJson(ctx, FIELD_LABELS.attributesJson, given, ATTRIBUTES_HINT);
	if (!isBlank(json) && !isPlainObject(json)) {
		throw invalidInput(ctx, FIELD_LABELS.attributesJson, 'must be an object', ATTRIBUTES_HINT);
	}
	const pairs: Array<[string, unknown]> = isBlank(json) ? [] : Object.entries(json as IDataObject);
	const rows = ((additionalFields.attributes as IDataObject | undefined)?.attribute ?? []) as IDataObject[];
	rows.forEach((row, index) => {
		pairs.push([readText(ctx, fieldPath(listEntry(FIELD_LABELS.attributes, index, 'row'), 'Name'), row.name), row.values]);
	});
	if (pairs.length === 0) return undefined;
	const attributes: Record<string, string[]> = {};
	for (const [name, values] of pairs) {
		attributes[name] = [...new Set([...(attributes[name] ?? []), ...toList(values, ATTRIBUTE_VALUE_SEPARATORS)])];
	}
	return attributes;
}

/** Gallery URLs: a list, or text with the URLs separated by commas or new lines. */
export function readGallery(ctx: ValueContext, field: string, value: unknown): string[] {
	return readList(ctx, field, value, {
		empty: { problem: 'the list is empty', hint: 'Give image URLs separated by commas or new lines' },
		readEntry: (url, urlField) => readUrl(ctx, urlField, url),
	});
}

/** `format`: Options › Number Format (node version 3); versions 1 and 2 read plain numbers. */
export type FieldReader = (ctx: ValueContext, field: string, value: unknown, format?: NumberFormat) => string | number | string[];

/**
 * Checked before sending: the live service fails a new product without them later, asynchronously,
 * where nobody sees it. Required also when the EAN exists, so that the rule is simple to state.
 */
const REQUIRED_FIELD_READERS: Record<string, FieldReader> = {
	name: readText,
	description: readText,
	coverImage: readUrl,
	ean: readEan,
	basePrice: readPrice,
	vat: readVat,
	stockLevel: readStockLevel,
};

const ADDITIONAL_FIELD_READERS: Record<string, FieldReader> = {
	brand: readText,
	gallery: readGallery,
	parentEan: readEan,
	packageWeightValue: readWeight,
	packageWeightUnit: readWeightUnit,
	sku: readText,
	externalId: readText,
};

/** One item's product, read as version 2 read it (the same readers, labels and "gave no value" messages). */
export function readLegacyImport(ctx: ItemContext): IDataObject {
	const parameter = (name: string) => ctx.getNodeParameter(name, '');
	const body: IDataObject = {};
	for (const [name, read] of Object.entries(REQUIRED_FIELD_READERS)) body[name] = readParameter(ctx, name, FIELD_LABELS[name], read);
	for (const name of ['category', 'productType']) {
		if (!isBlank(parameter(name))) body[name] = readText(ctx, FIELD_LABELS[name], parameter(name));
	}
	const additionalFields = ctx.getNodeParameter('additionalFields', {}) as IDataObject;
	for (const [name, read] of Object.entries(ADDITIONAL_FIELD_READERS)) {
		const value = additionalFields[name];
		if (!isBlank(value)) body[name] = read(ctx, FIELD_LABELS[name], value);
	}
	const attributes = readAttributes(ctx, additionalFields);
	if (attributes) body.attributes = attributes;
	return body;
}

const additionalFieldOptions: INodeProperties[] = [
	{
		displayName: 'Attributes',
		name: 'attributes',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Attribute',
		default: {},
		description: 'Product attributes such as color, size or material',
		options: [
			{
				displayName: 'Attribute',
				name: 'attribute',
				values: [
					textField('Name', 'name', 'Attribute name', { placeholder: 'e.g. color' }),
					textField('Values', 'values', 'Attribute values, separated by commas', { placeholder: 'e.g. red, dark blue' }),
				],
			},
		],
	},
	{
		displayName: 'Attributes (JSON)',
		name: 'attributesJson',
		type: 'json',
		default: '{}',
		description: `Attributes as JSON, merged with the Attributes rows. ${ATTRIBUTES_HINT}.`,
	},
	textField('Brand', 'brand', 'Brand name'),
	textField('External ID', 'externalId', "The product's ID in your own system"),
	textField('Gallery URLs', 'gallery', 'URLs of further product images: a list, or text with the URLs separated by commas or new lines', {
		placeholder: 'e.g. https://example.com/1.jpg, https://example.com/2.jpg',
	}),
	{ ...PRODUCT_FIELDS.packageWeightUnit, description: 'Unit of the package weight; the service assumes KG when not given' },
	PRODUCT_FIELDS.packageWeightValue,
	textField('Parent EAN', 'parentEan', 'EAN of an existing product this one becomes a variation of (e.g. another size or color)'),
	PRODUCT_FIELDS.sku,
];

/** Shown for versions 1 and 2 only (the operation file adds resource and operation). */
export const legacyImportFields: INodeProperties[] = ([
	{
		displayName:
			'The service applies an import asynchronously: the node outputs the import progress ID, not the product, and the service may still reject the import later. Name, Description, Cover Image URL, EAN, Base Price and VAT are required for every import.',
		name: 'importNotice',
		type: 'notice',
		default: '',
	},
	textField('Name', 'name', 'Product name', { required: true }),
	textField('EAN', 'ean', 'European Article Number: 8 to 14 digits; an existing product with this EAN is edited', {
		required: true,
		placeholder: 'e.g. 4006381333931',
	}),
	textField('Description', 'description', 'Product description', { typeOptions: { rows: 4 }, required: true }),
	textField('Cover Image URL', 'coverImage', 'URL (http or https) of the main product image', {
		required: true,
		placeholder: 'e.g. https://example.com/images/cover.jpg',
	}),
	{ ...PRODUCT_FIELDS.basePrice, required: true },
	PRODUCT_FIELDS.vat,
	{
		// Required and read for every import: a top-level number keeps its default of 0 (a new
		// product without stock is a real choice), and workflows saved without it still run.
		displayName: PRODUCT_FIELDS.stockLevel.displayName,
		name: PRODUCT_FIELDS.stockLevel.name,
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 0,
		description: PRODUCT_FIELDS.stockLevel.description,
	},
	textField('Category', 'category', 'Main category of the product'),
	{
		...productTypeLanguageField,
		displayName: 'Product Type Language',
		description: 'Language of the names in the Product Type list; the name is sent as shown',
	},
	{
		displayName: 'Product Type Name or ID',
		name: 'productType',
		type: 'options',
		typeOptions: { loadOptionsMethod: PRODUCT_TYPES_METHOD, loadOptionsDependsOn: ['language'] },
		default: '',
		description:
			'Type of product, from the names Get Types lists. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: additionalFieldOptions,
	},
] satisfies INodeProperties[]).map((field) => ({ ...field, displayOptions: { show: { '@version': [1, 2] } } }));

const FIELD_LABELS = panelLabels(legacyImportFields);

import type {
	IDataObject,
	IExecutePaginationFunctions,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import { readAnswer } from '../../transport/decode';
import { PATHS } from '../../transport/endpoints';
import { ANSWERS } from '../../transport/schema';
import { sendRequest, type RequestData } from '../../transport/send';
import { invalidInput, isBlank, toList } from '../../transport/validation';
import { engineRouting, showFor } from '../common';
import {
	PRODUCT_FIELDS,
	readEan,
	readPositiveNumber,
	readStockLevel,
	readText,
	readVat,
	readWeightUnit,
} from './productValues';

const ATTRIBUTES_HINT = 'An object mapping each attribute name to its values, e.g. {"color": ["red", "blue"], "size": ["M"]}';

function readRequiredText(ctx: IExecuteSingleFunctions, value: unknown, field: string): string {
	if (isBlank(value)) throw invalidInput(ctx, field, 'is required');
	return readText(value);
}

function readUrl(ctx: IExecuteSingleFunctions, value: unknown, field: string): string {
	const text = readText(value);
	let url: URL | undefined;
	try {
		url = new URL(text);
	} catch {
		url = undefined;
	}
	if (!url || !['http:', 'https:'].includes(url.protocol)) {
		throw invalidInput(ctx, field, `"${text}" is not an http(s) URL`);
	}
	return text;
}

/** Attribute values from a list or from text separated by commas or new lines (spaces belong to values). */
function attributeValues(value: unknown): string[] {
	const values = Array.isArray(value) ? value : isBlank(value) ? [] : String(value).split(/[,\n]/);
	return values.map((entry) => String(entry).trim()).filter((entry) => entry !== '');
}

/** Attributes from the JSON field and the rows, merged by name (values of both kept, once each). */
function readAttributes(ctx: IExecuteSingleFunctions, additionalFields: IDataObject): Record<string, string[]> | undefined {
	const pairs: Array<[string, unknown]> = [];
	let json = additionalFields.attributesJson;
	if (typeof json === 'string' && json.trim() !== '') {
		try {
			json = JSON.parse(json);
		} catch {
			throw invalidInput(ctx, 'Additional Fields > Attributes (JSON)', 'is not valid JSON', ATTRIBUTES_HINT);
		}
	}
	if (!isBlank(json)) {
		if (typeof json !== 'object' || Array.isArray(json)) {
			throw invalidInput(ctx, 'Additional Fields > Attributes (JSON)', 'must be an object', ATTRIBUTES_HINT);
		}
		pairs.push(...Object.entries(json as IDataObject));
	}
	const rows = ((additionalFields.attributes as IDataObject | undefined)?.attribute ?? []) as IDataObject[];
	rows.forEach((row, index) => {
		if (isBlank(row.name)) throw invalidInput(ctx, `Additional Fields > Attributes[${index}] > Name`, 'is required');
		pairs.push([readText(row.name), row.values]);
	});
	if (pairs.length === 0) return undefined;
	const attributes: Record<string, string[]> = {};
	for (const [name, values] of pairs) {
		attributes[name] = [...new Set([...(attributes[name] ?? []), ...attributeValues(values)])];
	}
	return attributes;
}

type AdditionalFieldReader = (ctx: IExecuteSingleFunctions, value: unknown, field: string) => string | number | string[];

const ADDITIONAL_FIELD_READERS: Record<string, AdditionalFieldReader> = {
	description: (_ctx, value) => readText(value),
	coverImage: readUrl,
	brand: (_ctx, value) => readText(value),
	gallery: (ctx, value, field) => toList(value).map((url, index) => readUrl(ctx, url, `${field}[${index}]`)),
	parentEan: readEan,
	packageWeightValue: readPositiveNumber,
	packageWeightUnit: readWeightUnit,
	sku: (_ctx, value) => readText(value),
	externalId: (_ctx, value) => readText(value),
};

async function buildImportBody(this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	const parameter = (name: string) => this.getNodeParameter(name, '');
	const body: IDataObject = {
		name: readRequiredText(this, parameter('name'), 'Name'),
		ean: readEan(this, parameter('ean'), 'EAN'),
		basePrice: readPositiveNumber(this, parameter('basePrice'), 'Base Price'),
		vat: readVat(this, parameter('vat'), 'VAT'),
		stockLevel: readStockLevel(this, parameter('stockLevel'), 'Stock Level'),
	};
	for (const name of ['category', 'productType']) {
		if (!isBlank(parameter(name))) body[name] = readText(parameter(name));
	}
	const additionalFields = this.getNodeParameter('additionalFields', {}) as IDataObject;
	for (const [name, read] of Object.entries(ADDITIONAL_FIELD_READERS)) {
		const value = additionalFields[name];
		if (!isBlank(value)) body[name] = read(this, value, `Additional Fields > ${ADDITIONAL_FIELD_LABELS[name]}`);
	}
	const attributes = readAttributes(this, additionalFields);
	if (attributes) body.attributes = attributes;
	requestOptions.body = body;
	return requestOptions;
}

/** Sends the import and tells which product each progress ID belongs to. */
async function sendImport(this: IExecutePaginationFunctions, requestData: RequestData): Promise<INodeExecutionData[]> {
	const sent = requestData.options.body as IDataObject;
	const answers = await sendRequest(this, requestData);
	const identity: IDataObject = { ean: sent.ean, name: sent.name };
	for (const name of ['sku', 'externalId']) if (sent[name] !== undefined) identity[name] = sent[name];
	return answers.map(({ json }) => ({ json: { ...json, ...identity } }));
}

export const importProduct: INodePropertyOptions = {
	name: 'Import',
	value: 'import',
	action: 'Import a product',
	description:
		'Create a product, or edit the product with the same EAN, from one input item. Outputs the import progress ID with the EAN; the import itself runs later on the marketplace.',
	routing: engineRouting({
		request: { method: 'POST', url: PATHS.import },
		preSend: [buildImportBody],
		strategy: sendImport,
		postReceive: [readAnswer(ANSWERS.import)],
	}),
};

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
					{
						displayName: 'Name',
						name: 'name',
						type: 'string',
						default: '',
						placeholder: 'e.g. color',
						description: 'Attribute name',
					},
					{
						displayName: 'Values',
						name: 'values',
						type: 'string',
						default: '',
						placeholder: 'e.g. red, dark blue',
						description: 'Attribute values, separated by commas',
					},
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
	{
		displayName: 'Brand',
		name: 'brand',
		type: 'string',
		default: '',
		description: 'Brand name',
	},
	{
		displayName: 'Cover Image URL',
		name: 'coverImage',
		type: 'string',
		default: '',
		placeholder: 'e.g. https://example.com/images/cover.jpg',
		description: 'URL of the main product image',
	},
	{
		displayName: 'Description',
		name: 'description',
		type: 'string',
		typeOptions: { rows: 4 },
		default: '',
		description: 'Product description',
	},
	{
		displayName: 'External ID',
		name: 'externalId',
		type: 'string',
		default: '',
		description: "The product's ID in your own system",
	},
	{
		displayName: 'Gallery URLs',
		name: 'gallery',
		type: 'string',
		default: '',
		placeholder: 'e.g. https://example.com/1.jpg, https://example.com/2.jpg',
		description: 'URLs of further product images: a list, or text with the URLs separated by commas or new lines',
	},
	{ ...PRODUCT_FIELDS.packageWeightUnit, description: 'Unit of the package weight; the service assumes KG when not given' },
	PRODUCT_FIELDS.packageWeightValue,
	{
		displayName: 'Parent EAN',
		name: 'parentEan',
		type: 'string',
		default: '',
		description: 'EAN of an existing product this one becomes a variation of (e.g. another size or color)',
	},
	PRODUCT_FIELDS.sku,
];

const ADDITIONAL_FIELD_LABELS: Record<string, string> = Object.fromEntries(
	additionalFieldOptions.map(({ name, displayName }) => [name, displayName]),
);

export const importProductFields: INodeProperties[] = [
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		description: 'Product name',
		displayOptions: showFor('product', 'import'),
	},
	{
		displayName: 'EAN',
		name: 'ean',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 4006381333931',
		description: 'European Article Number with a valid check digit; an existing product with this EAN is edited',
		displayOptions: showFor('product', 'import'),
	},
	{ ...PRODUCT_FIELDS.basePrice, required: true, displayOptions: showFor('product', 'import') },
	{ ...PRODUCT_FIELDS.vat, displayOptions: showFor('product', 'import') },
	{ ...PRODUCT_FIELDS.stockLevel, displayOptions: showFor('product', 'import') },
	{
		displayName: 'Category',
		name: 'category',
		type: 'string',
		default: '',
		description: 'Main category of the product',
		displayOptions: showFor('product', 'import'),
	},
	{
		displayName: 'Product Type',
		name: 'productType',
		type: 'string',
		default: '',
		description: 'Type of product, one of the names Get Types lists',
		displayOptions: showFor('product', 'import'),
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: showFor('product', 'import'),
		options: additionalFieldOptions,
	},
];

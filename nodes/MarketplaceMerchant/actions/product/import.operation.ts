import { updateDisplayOptions, type IDataObject, type INodeProperties, type PreSendAction } from 'n8n-workflow';

import { ANSWERS, readAnswer } from '../../answers/answers';
import { PATHS } from '../../transport/endpoints';
import { sendRequest, type PaginationFunction } from '../../transport/engine';
import {
	fieldPath,
	invalidInput,
	isBlank,
	isPlainObject,
	listEntry,
	readEan,
	readJson,
	readList,
	readPrice,
	readStockLevel,
	readText,
	readUrl,
	readVat,
	readParameter,
	toList,
	type ValueContext,
} from '../../values/values';
import { pacedRouting, panelLabels, textField } from '../common';
import { PRODUCT_TYPES_METHOD, productTypeLanguageField } from './getTypes.operation';
import { CATALOGUE, PRODUCT_FIELDS, readWeight, readWeightUnit } from '../products';
import type { OperationModule } from '../contract';

const ATTRIBUTES_HINT = 'An object mapping each attribute name to its values, e.g. {"color": ["red", "blue"], "size": ["M"]}';

/** Attribute values are split at commas and new lines only: spaces belong to values ("dark blue"). */
const ATTRIBUTE_VALUE_SEPARATORS = /[,\n]/;

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

type FieldReader = (ctx: ValueContext, field: string, value: unknown) => string | number | string[];

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
	gallery: (ctx, field, value) =>
		readList(ctx, field, value, {
			empty: { problem: 'the list is empty', hint: 'Give image URLs separated by commas or new lines' },
			readEntry: (url, urlField) => readUrl(ctx, urlField, url),
		}),
	parentEan: readEan,
	packageWeightValue: readWeight,
	packageWeightUnit: readWeightUnit,
	sku: readText,
	externalId: readText,
};

const buildImportBody: PreSendAction = async function (requestOptions) {
	const parameter = (name: string) => this.getNodeParameter(name, '');
	const body: IDataObject = {};
	for (const [name, read] of Object.entries(REQUIRED_FIELD_READERS)) body[name] = readParameter(this, name, FIELD_LABELS[name], read);
	for (const name of ['category', 'productType']) {
		if (!isBlank(parameter(name))) body[name] = readText(this, FIELD_LABELS[name], parameter(name));
	}
	const additionalFields = this.getNodeParameter('additionalFields', {}) as IDataObject;
	for (const [name, read] of Object.entries(ADDITIONAL_FIELD_READERS)) {
		const value = additionalFields[name];
		if (!isBlank(value)) body[name] = read(this, FIELD_LABELS[name], value);
	}
	const attributes = readAttributes(this, additionalFields);
	if (attributes) body.attributes = attributes;
	requestOptions.body = body;
	return requestOptions;
};

const IMPORT_NOTICE =
	'The service applies an import asynchronously: it answered with the import progress ID (id), not a product. The product appears only once the service has applied the import, and the service may still reject it then.';

/** Tells which product each progress ID belongs to, and that it is only a receipt. */
const sendImport: PaginationFunction = async function (requestData) {
	const sent = requestData.options.body as IDataObject;
	const answers = await sendRequest(this, requestData);
	const identity: IDataObject = { ean: sent.ean, name: sent.name };
	for (const name of ['sku', 'externalId']) if (sent[name] !== undefined) identity[name] = sent[name];
	return answers.map(({ json }) => ({ json: { ...json, ...identity, notice: IMPORT_NOTICE } }));
};

const importProduct = {
	name: 'Import',
	value: 'import',
	action: 'Import a product',
	description:
		'Create a product, or edit the product with the same EAN, from one input item. The service applies imports asynchronously: the output is the import progress ID with the EAN, not the product.',
	routing: pacedRouting({
		...CATALOGUE,
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

const importProductFields = updateDisplayOptions({ show: { resource: ['product'], operation: ['import'] } }, [
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
]);

const FIELD_LABELS = panelLabels(importProductFields);

export const operation: OperationModule = { option: importProduct, fields: importProductFields };

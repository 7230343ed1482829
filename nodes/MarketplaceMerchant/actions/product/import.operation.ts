/**
 * Product › Import: create products, or edit the products with the same EANs, in bulk. From node
 * version 3 a bulk operation with an Input Mode (One Item per Product by default) whose fields are
 * the table IMPORT_FIELDS; versions 1 and 2 keep their top-level fields (importLegacy.ts), one
 * product per item. All products of a run go out together (importRequests.ts: a list, or one
 * object each where the service binds no list), each output item paired with its input item.
 */
import { updateDisplayOptions, type IDataObject, type IExecuteFunctions, type INodeProperties } from 'n8n-workflow';

import { ANSWERS } from '../../answers/schemas';
import { decodedList } from '../../answers/read';
import { LIMITS, PATHS } from '../../transport/endpoints';
import { asNodeError } from '../../transport/errors';
import { chunkBySize } from '../../transport/batches';
import { sendAuthenticated, sendSettingsOf } from '../../transport/send';
import { describeValue, FIELD_SEPARATOR, invalidInput, isBlank, isPlainObject, type ValueContext } from '../../values/labels';
import { readNumberFormat, readPrice, readSignedStockLevel, readVat } from '../../values/numbers';
import { readEan, readEntryField, readJson, readText, readUrl, toList, type EntryField } from '../../values/values';
import { ItemContext, type Batch, type BulkEntry } from '../bulk/entries';
import { bulkInputFields, type BulkInput } from '../bulk/fields';
import { problemText, runBulkOperation, type BatchOutput, type BulkOperation } from '../bulk/run';
import { NUMBER_FORMAT_OPTION, optionsCollection, textField } from '../common';
import type { OperationModule } from '../contract';
import { addEanAnswers, eanKey } from '../products/eans';
import {
	CATALOGUE,
	NEGATIVE_STOCK_OPTION,
	packageWeightInKg,
	PRODUCT_DIMENSION_FIELDS,
	PRODUCT_DIMENSION_READERS,
	PRODUCT_FIELDS,
	readDimension,
	readWeight,
	readWeightUnit,
	stockLevelToSend,
} from '../products/fields';
import { ATTRIBUTES_HINT, ATTRIBUTE_VALUE_SEPARATORS, legacyImportFields, readGallery, readLegacyImport, type FieldReader } from './importLegacy';
import { sendImports, type ImportOutcome } from './importRequests';

// ─── Fields ──────────────────────────────────────────────────────────────────────────────────────────
/**
 * Which products need a field (platform facts, "Required to add a new product"): `always` the four
 * an edit needs too; `new` also those the service needs to add a product whose EAN is not linked
 * to the merchant yet; otherwise optional. A field left out keeps its value on a linked product.
 */
type Requirement = 'always' | 'new' | 'optional';

interface ImportField extends EntryField<ReturnType<FieldReader> | IDataObject> {
	required: Requirement;
}

/** Attributes (JSON): an object of name → values (a list, or text split at commas and new lines). */
function readAttributesObject(ctx: ValueContext, field: string, value: unknown): IDataObject {
	const json = readJson(ctx, field, value, ATTRIBUTES_HINT);
	if (!isPlainObject(json)) throw invalidInput(ctx, field, `must be an object, got ${describeValue(json)}`, ATTRIBUTES_HINT);
	return Object.fromEntries(Object.entries(json).map(([name, values]) => [name, toList(values, ATTRIBUTE_VALUE_SEPARATORS)]));
}

/** One line per field: its key (the body's and the JSON entries'), its panel field, its reader and when it is required. */
const IMPORT_FIELDS: ImportField[] = [
	{ key: 'name', field: textField('Name', 'name', 'Product name'), read: readText, required: 'always' },
	{ key: 'ean', field: textField('EAN', 'ean', 'European Article Number, 8 to 14 digits; a product with this EAN is edited', { placeholder: 'e.g. 4006381333931' }), read: readEan, required: 'always' },
	{ key: 'description', field: textField('Description', 'description', 'Product description; the service allows <br>, <ul>, <ol> and <li>', { typeOptions: { rows: 4 } }), read: readText, required: 'always' },
	{ key: 'coverImage', field: textField('Cover Image URL', 'coverImage', 'URL (http or https) of the main product image', { placeholder: 'e.g. https://example.com/images/cover.jpg' }), read: readUrl, required: 'always' },
	{ key: 'basePrice', field: { ...PRODUCT_FIELDS.basePrice, description: `${PRODUCT_FIELDS.basePrice.description} A changed price applies from the next day.` }, read: readPrice, required: 'new' },
	{ key: 'brand', field: textField('Brand', 'brand', 'Brand name'), read: readText, required: 'new' },
	{ key: 'gallery', field: textField('Gallery URLs', 'gallery', 'URLs of further product images: a list, or text with the URLs separated by commas or new lines', { placeholder: 'e.g. https://example.com/1.jpg, https://example.com/2.jpg' }), read: readGallery, required: 'new' },
	{ key: 'packageWeightUnit', field: { ...PRODUCT_FIELDS.packageWeightUnit, description: 'Unit of Package Weight Value; grams are sent converted to kilograms, the unit the service stores' }, read: readWeightUnit, required: 'new' },
	{ key: 'packageWeightValue', field: PRODUCT_FIELDS.packageWeightValue, read: readWeight, required: 'new' },
	{ key: 'sku', field: PRODUCT_FIELDS.sku, read: readText, required: 'new' },
	{ key: 'stockLevel', field: { ...PRODUCT_FIELDS.stockLevel, description: 'Available stock; a whole number, plain digits (e.g. 1000). Below 0 (oversold) goes out as 0, as the service stores it, unless Options › Negative Stock says otherwise.' }, read: readSignedStockLevel, required: 'new' },
	{ key: 'vat', field: PRODUCT_FIELDS.vat, read: readVat, required: 'new' },
	{ key: 'attributes', field: { displayName: 'Attributes (JSON)', name: 'attributes', type: 'json', default: '{}', description: `${ATTRIBUTES_HINT}` }, read: readAttributesObject, required: 'optional' },
	{ key: 'category', field: textField('Category', 'category', 'Main category of the product'), read: readText, required: 'optional' },
	{ key: 'externalId', field: textField('External ID', 'externalId', "The product's ID in your own system"), read: readText, required: 'optional' },
	{ key: 'parentEan', field: textField('Parent EAN', 'parentEan', 'EAN of an existing product this one becomes a variation of (e.g. another size or color)'), read: readEan, required: 'optional' },
	{ key: 'productType', field: textField('Product Type', 'productType', 'Type of product, by a name Get Types lists'), read: readText, required: 'optional' },
	{ key: 'packageHeightValue', field: PRODUCT_FIELDS.packageHeightValue, read: readDimension, required: 'optional' },
	{ key: 'packageLengthValue', field: PRODUCT_FIELDS.packageLengthValue, read: readDimension, required: 'optional' },
	{ key: 'packageWidthValue', field: PRODUCT_FIELDS.packageWidthValue, read: readDimension, required: 'optional' },
	...PRODUCT_DIMENSION_FIELDS.map((field): ImportField => ({ key: field.name, field, read: PRODUCT_DIMENSION_READERS[field.name as keyof typeof PRODUCT_DIMENSION_READERS], required: 'optional' })),
];

const FOR_NEW = IMPORT_FIELDS.filter(({ required }) => required === 'new');

/** The panel words of what a new EAN needs, for hints: `Product Fields › Base Price (basePrice), …`. */
const NEEDED_FOR_NEW = FOR_NEW.map(({ key, field }) => `${field.displayName} (${key})`).join(', ');

const PRODUCT_FIELDS_NAME = 'productFields';

/** A row: the four always required, then the rest in one collection, as Update Many's Update Fields. */
const ROW_VALUES: INodeProperties[] = [
	...IMPORT_FIELDS.filter(({ required }) => required === 'always').map(({ field }) => ({ ...field, required: true })),
	{
		displayName: 'Product Fields',
		name: PRODUCT_FIELDS_NAME,
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		description: `A product whose EAN is not linked to your account yet needs ${NEEDED_FOR_NEW}; a linked one needs none of them (a field left out keeps its value)`,
		options: IMPORT_FIELDS.filter(({ required }) => required !== 'always')
			.map(({ field }) => field)
			.sort((a, b) => a.displayName.localeCompare(b.displayName)),
	},
];

const JSON_EXAMPLE =
	'[{"ean": "4006381333931", "name": "Pan 28 cm", "description": "Cast iron", "coverImage": "https://example.com/pan.jpg", "brand": "Tefal", "gallery": ["https://example.com/pan-2.jpg"], "basePrice": 2499.9, "vat": 20, "stockLevel": 7, "sku": "PAN-28", "packageWeightValue": 1.2, "packageWeightUnit": "KG"}]';

const JSON_HINT = `An array of products, each with ${IMPORT_FIELDS.filter(({ required }) => required === 'always').map(({ key }) => key).join(', ')}; a new EAN also needs ${FOR_NEW.map(({ key }) => key).join(', ')}`;

const BULK_INPUT: BulkInput = {
	entries: 'products to import',
	entry: 'Product',
	json: {
		name: 'productsJson',
		displayName: 'Products (JSON)',
		itemProperty: 'products',
		description: `List of products. ${JSON_HINT}. Numbers may be given as text.`,
		placeholder: JSON_EXAMPLE,
		hint: JSON_HINT,
	},
	rows: {
		name: 'productRows',
		displayName: 'Products',
		row: { name: 'product', displayName: 'Product', values: ROW_VALUES },
		toEntry: ({ [PRODUCT_FIELDS_NAME]: more, ...row }) => ({ ...((more as IDataObject | undefined) ?? {}), ...row }),
	},
	nameEntry: (_ctx, entry) => (isBlank(entry.ean) ? undefined : `EAN ${String(entry.ean).trim()}`),
};

// ─── Check and resolve ───────────────────────────────────────────────────────────────────────────────
interface CheckedImport {
	body: IDataObject;
	/** The fields a new EAN needs that the entry left out (keys). */
	missingForNew: string[];
	/** Whether the EAN is linked to the merchant (from version 3, by `ean/exists`); undefined when not asked. */
	linked?: boolean;
	/** How a value went out (a weight converted to kilograms, a stock below 0 sent as 0). */
	notes: string[];
}

const isLegacy = (ctx: ItemContext) => ctx.getNode().typeVersion < 3;

/** From the panel (rows, mapped items) a field added but left empty is missing; in JSON a blank value is "not given". */
function checkImport(entry: BulkEntry<CheckedImport>): CheckedImport {
	if (isLegacy(entry.ctx)) return asSent(entry, { body: readLegacyImport(entry.ctx), missingForNew: [], notes: [] });
	const { raw, fromPanel } = entry;
	const body: IDataObject = {};
	const missingForNew: string[] = [];
	const format = readNumberFormat(entry.ctx);
	for (const field of IMPORT_FIELDS) {
		const { key, required } = field;
		const given = fromPanel ? Object.prototype.hasOwnProperty.call(raw, key) : !isBlank(raw[key]);
		if (given || required === 'always') body[key] = readEntryField(entry, field, format);
		else if (required === 'new') missingForNew.push(key);
	}
	return asSent(entry, { body, missingForNew, notes: [] });
}

/** The writers' rules of products/fields.ts, as Update and Update Many apply them: a stock below 0 as Options › Negative Stock says, every weight in kilograms. */
function asSent(entry: BulkEntry<CheckedImport>, checked: CheckedImport): CheckedImport {
	const { body, notes } = checked;
	if (typeof body.stockLevel === 'number' && body.stockLevel < 0) {
		const { stockLevel, note } = stockLevelToSend(entry.ctx, entry.reader('stockLevel'), entry.label('stockLevel'), body.stockLevel);
		body.stockLevel = stockLevel;
		if (note) notes.push(note);
	}
	const weightNote = packageWeightInKg(body);
	if (weightNote) notes.push(weightNote);
	return checked;
}

/** Which EANs `ean/exists` says exist, by `eanKey` (the answer may drop leading zeros), one request per 30,000. */
async function existingEans(exec: IExecuteFunctions, eans: string[]): Promise<Map<string, unknown>> {
	const known = new Map<string, unknown>();
	const settings = sendSettingsOf(new ItemContext(exec, 0));
	for (const chunk of chunkBySize(eans, LIMITS.productsPerBulkRequest, LIMITS.bulkRequestBytes)) {
		const response = await sendAuthenticated(exec, CATALOGUE, { method: 'POST', url: PATHS.eanExists, body: chunk, json: true }, settings);
		addEanAnswers(known, decodedList(exec, response, ANSWERS.eanExists));
	}
	return known;
}

/**
 * From version 3: one `ean/exists` request for the EANs of the run; an entry whose EAN is not
 * linked yet and leaves out a field a new product needs is invalid, named in the panel's words.
 */
async function resolveNewEans(exec: IExecuteFunctions, entries: Array<BulkEntry<CheckedImport>>): Promise<void> {
	const current = entries.filter((entry) => !isLegacy(entry.ctx));
	if (current.length === 0) return;
	const known = await existingEans(exec, [...new Set(current.map((entry) => String(entry.value?.body.ean)))]);
	for (const entry of current) {
		const checked = entry.value as CheckedImport;
		const ean = String(checked.body.ean);
		const exists = known.get(eanKey(ean));
		if (typeof exists !== 'boolean') {
			entry.problem = invalidInput(entry.ctx, entry.label('ean'), `the EAN check answered nothing readable about "${ean}"`, 'Nothing is guessed: run the import again, or check the EAN with Check EANs');
			continue;
		}
		checked.linked = exists;
		const [missing] = checked.missingForNew;
		if (!exists && missing !== undefined) {
			const labels = checked.missingForNew.map((key) => entry.label(key).split(FIELD_SEPARATOR).pop()).join(', ');
			entry.problem = invalidInput(
				entry.ctx,
				entry.label(missing),
				`is required to add a product: EAN ${ean} is not linked to your account yet (missing: ${labels})`,
				`A new EAN needs ${NEEDED_FOR_NEW}; an EAN already linked needs only Name, EAN, Description and Cover Image URL`,
			);
		}
	}
}

// ─── Send ────────────────────────────────────────────────────────────────────────────────────────────
const ASYNC_NOTICE =
	'The service applies an import asynchronously: id is the progress ID of the request that carried this product, not a product ID. The product changes only once the service has applied the import, and the service may still reject it then.';

/** What happens next, for this product. */
function noticeOf(checked: CheckedImport, outcome: ImportOutcome & { ok: true }): string {
	const parts = [ASYNC_NOTICE];
	if (checked.linked === true) parts.push('Its EAN is linked to your account: the product is edited, and the fields left out keep their values.');
	else if (checked.linked === false) {
		parts.push('Its EAN is new to your account: an EAN the platform knows is linked at once; one it does not know is added by the marketplace by hand (onboarding, by e-mail) before it appears.');
	} else parts.push('A new EAN the platform knows is linked at once; one it does not know is added by the marketplace by hand (onboarding, by e-mail) before it appears.');
	if (checked.body.basePrice !== undefined) parts.push('A changed base price applies from the next day.');
	if (outcome.sentAs === 'object') parts.push('The service takes one product per request, not a list: this run sent each product in a request of its own.');
	return parts.join(' ');
}

function importOutput(checked: CheckedImport, outcome: ImportOutcome & { ok: true }): IDataObject {
	const { body } = checked;
	const json: IDataObject = { id: outcome.progressId, success: true, ean: body.ean, name: body.name };
	for (const name of ['sku', 'externalId']) if (body[name] !== undefined) json[name] = body[name];
	if (checked.linked !== undefined) json.newProduct = !checked.linked;
	json.sentAs = outcome.sentAs === 'list' ? 'list' : 'one object per request';
	if (checked.notes.length > 0) json.notes = checked.notes;
	json.notice = noticeOf(checked, outcome);
	return json;
}

/** The valid entries sent together; an invalid or failed one comes out with success false. When every request failed, the run fails with that error. */
async function sendBatch(exec: IExecuteFunctions, batch: Batch<CheckedImport>): Promise<BatchOutput[]> {
	const valid = batch.entries.filter((entry) => entry.problem === undefined);
	const outcomes = await sendImports(exec, valid.map((entry) => (entry.value as CheckedImport).body), sendSettingsOf(batch.entries[0].ctx));
	const [first] = outcomes;
	if (first && !first.ok && outcomes.every((outcome) => !outcome.ok)) throw asNodeError(exec.getNode(), first.error);
	let next = 0;
	return batch.entries.map((entry, position): BatchOutput => {
		if (entry.problem) {
			const ean = isBlank(entry.raw.ean) ? null : entry.raw.ean;
			return { json: { id: null, success: false, ean, name: entry.raw.name ?? null, error: problemText(entry.problem), input: entry.raw }, entry: position };
		}
		const checked = entry.value as CheckedImport;
		const outcome = outcomes[next++];
		if (!outcome.ok) {
			const json = { id: null, success: false, ean: checked.body.ean, name: checked.body.name, error: `The import request failed: ${outcome.message}`, input: checked.body };
			return { json, entry: position, rejected: true };
		}
		return { json: importOutput(checked, outcome), entry: position };
	});
}

// ─── Operation ───────────────────────────────────────────────────────────────────────────────────────
/** Versions 1 and 2: every input item is one product, read from the top-level fields, all of them one batch. */
function collectLegacy(exec: IExecuteFunctions): Array<Batch<CheckedImport>> | undefined {
	const items = exec.getInputData();
	if (items.length === 0 || !isLegacy(new ItemContext(exec, 0))) return undefined;
	const entries = items.map((_, index): BulkEntry<CheckedImport> => {
		const ctx = new ItemContext(exec, index);
		const raw: IDataObject = {};
		for (const name of ['name', 'ean']) {
			const value = ctx.getNodeParameter(name, undefined);
			if (!isBlank(value)) raw[name] = value as string;
		}
		return { ctx, position: index, raw, label: (key) => key ?? `item ${index}`, reader: () => ctx, fromPanel: true };
	});
	return [{ items: items.map((_, index) => index), source: { list: '', unit: 'row' }, entries }];
}

const IMPORT: BulkOperation<CheckedImport> = {
	input: BULK_INPUT,
	collect: collectLegacy,
	check: checkImport,
	resolve: resolveNewEans,
	send: sendBatch,
};

/** Version 3's bulk fields: Input Mode (One Item per Product by default), the inputs, Invalid Entries. */
const bulkFields = bulkInputFields(BULK_INPUT)
	.filter((field) => !(field.name === 'inputMode' && field.default !== 'items'))
	.map((field) => ({ ...field, displayOptions: { show: { ...field.displayOptions?.show, '@version': [3, 4] } } }));

export const operation: OperationModule = {
	tool: { keepOut: 'it creates or links many products from one list, and the service applies it later (a progress id); run it in a workflow from a checked source' },
	option: {
		name: 'Import',
		value: 'import',
		action: 'Import products',
		description:
			'Create products, or edit the products with the same EANs, in bulk: one product per input item (a sheet row) or a list, sent in as few requests as the service allows (up to 30,000 each). The service applies imports asynchronously: each output item carries the progress ID of its request with the EAN, not the product.',
	},
	fields: updateDisplayOptions({ show: { resource: ['product'], operation: ['import'] } }, [
		...legacyImportFields,
		...bulkFields,
		{ ...optionsCollection([NEGATIVE_STOCK_OPTION, NUMBER_FORMAT_OPTION]), displayOptions: { show: { '@version': [3, 4] } } },
	]),
	run: async function (this: IExecuteFunctions) {
		return await runBulkOperation(this, IMPORT);
	},
};

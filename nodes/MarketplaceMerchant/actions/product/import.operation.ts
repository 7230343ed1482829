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
import { bulkSteps, problemText, type BatchOutput, type BulkOperation } from '../bulk/run';
import { NUMBER_FORMAT_OPTION, optionsCollection, textField } from '../common';
import type { OperationModule } from '../contract';
import { EanAnswers, eanExistsBody } from '../catalogue/eans';
import { yourProductsByEan } from '../catalogue/catalogue';
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
} from '../catalogue/fields';
import { ATTRIBUTES_HINT, ATTRIBUTE_VALUE_SEPARATORS, legacyImportFields, readGallery, readLegacyImport, type FieldReader } from './importLegacy';
import { sendImports, type ImportOutcome } from './importRequests';

// ─── Fields ──────────────────────────────────────────────────────────────────────────────────────────
/**
 * Which products need a field (platform facts, "Required to add a new product"): `always` the four
 * an edit needs too; `new` also those the service needs to add a product that is not one of the
 * merchant's yet (`EanState` catalogue or onboarding); otherwise optional. A field left out keeps its
 * value on a product of the merchant's.
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
	{ key: 'ean', field: textField('EAN', 'ean', 'European Article Number, 8 to 14 digits; your product with this EAN (in any form of the code, with or without leading zeros) is edited', { placeholder: 'e.g. 4006381333931' }), read: readEan, required: 'always' },
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
		description: `A product that is not one of yours yet (its EAN known to the marketplace's catalogue or new to it) needs ${NEEDED_FOR_NEW}; one of yours needs none of them (a field left out keeps its value)`,
		options: IMPORT_FIELDS.filter(({ required }) => required !== 'always')
			.map(({ field }) => field)
			.sort((a, b) => a.displayName.localeCompare(b.displayName)),
	},
];

const JSON_EXAMPLE =
	'[{"ean": "4006381333931", "name": "Pan 28 cm", "description": "Cast iron", "coverImage": "https://example.com/pan.jpg", "brand": "Tefal", "gallery": ["https://example.com/pan-2.jpg"], "basePrice": 2499.9, "vat": 20, "stockLevel": 7, "sku": "PAN-28", "packageWeightValue": 1.2, "packageWeightUnit": "KG"}]';

const JSON_HINT = `An array of products, each with ${IMPORT_FIELDS.filter(({ required }) => required === 'always').map(({ key }) => key).join(', ')}; a product that is not one of yours yet also needs ${FOR_NEW.map(({ key }) => key).join(', ')}`;

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
	/** From version 3, which of the three EAN states the run found (`EanState`); undefined when not asked (versions 1 and 2). */
	eanState?: EanState;
	/** The form of the EAN the merchant's product or the catalogue has (sent in place of the form given); null when the catalogue does not know it or its answer does not say. */
	matchedEan?: string | null;
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

/** The writers' rules of catalogue/fields.ts, as Update and Update Many apply them: a stock below 0 as Options › Negative Stock says, every weight in kilograms. */
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

/**
 * What an EAN is to the merchant (platform facts, "What a second merchant's production client
 * relies on"): `yours` (a product look-up finds a product of yours with it: the import edits it),
 * `catalogue` (`ean/exists` says the marketplace's master catalogue knows it, from another
 * merchant: the import adds a new listing of yours), or `onboarding` (the catalogue does not know
 * it: the marketplace adds it by hand once the merchant asks its onboarding team by e-mail).
 */
type EanState = 'yours' | 'catalogue' | 'onboarding';

/** What `ean/exists` says of the EANs (every form of each, catalogue/eans.ts), one request per 30,000 forms. */
async function catalogueAnswers(exec: IExecuteFunctions, eans: string[]): Promise<EanAnswers> {
	const answers = new EanAnswers();
	const settings = sendSettingsOf(new ItemContext(exec, 0));
	for (const chunk of chunkBySize(eanExistsBody(eans), LIMITS.productsPerBulkRequest, LIMITS.bulkRequestBytes)) {
		const response = await sendAuthenticated(exec, CATALOGUE, { method: 'POST', url: PATHS.eanExists, body: chunk, json: true }, settings);
		answers.add(decodedList(exec, response, ANSWERS.eanExists));
	}
	return answers;
}

/** The entry's EAN goes out in the form found (another form of the same code than given), said in its notes. */
function sendInFormFound(checked: CheckedImport, form: string | null, whose: string): void {
	checked.matchedEan = form;
	const given = String(checked.body.ean);
	if (form === null || form === given) return;
	checked.body.ean = form;
	checked.notes.push(`EAN ${given} went out as ${form}, the same code as ${whose} has it`);
}

const NEW_LISTING_PROBLEM: Record<Exclude<EanState, 'yours'>, string> = {
	catalogue: "is known to the marketplace's catalogue but is not one of your products, so the import adds a new listing of yours",
	onboarding: "is new to the marketplace's catalogue, so the import adds a new product (onboarding)",
};

/**
 * From version 3, the EAN state of every entry (`EanState`): one product look-up for the EANs of
 * the run (catalogue/eans.ts: up to 100 EANs per request, every form of each code), then one
 * `ean/exists` request for those that are not yours. An entry whose EAN is not yours and that
 * leaves out a field a new product needs is invalid, named in the panel's words.
 */
async function resolveEanStates(exec: IExecuteFunctions, entries: Array<BulkEntry<CheckedImport>>): Promise<void> {
	const current = entries.filter((entry) => !isLegacy(entry.ctx));
	if (current.length === 0) return;
	const eans = [...new Set(current.map((entry) => String(entry.value?.body.ean)))];
	const yours = await yourProductsByEan(exec, eans, sendSettingsOf(new ItemContext(exec, 0)));
	const others = eans.filter((ean) => (yours.get(ean) ?? []).length === 0);
	const known = others.length === 0 ? new EanAnswers() : await catalogueAnswers(exec, others);
	for (const entry of current) {
		const checked = entry.value as CheckedImport;
		const ean = String(checked.body.ean);
		const products = yours.get(ean) ?? [];
		if (products.length > 0) {
			checked.eanState = 'yours';
			const forms = new Set(products.map((product) => product.ean));
			sendInFormFound(checked, forms.size === 1 ? products[0].ean : null, 'your product');
			continue;
		}
		const existence = known.of(ean);
		if (existence === undefined) {
			entry.problem = invalidInput(entry.ctx, entry.label('ean'), `the EAN check answered nothing readable about "${ean}"`, 'Nothing is guessed: run the import again, or check the EAN with Check EANs');
			continue;
		}
		const state = existence.exists ? 'catalogue' : 'onboarding';
		checked.eanState = state;
		sendInFormFound(checked, existence.matchedEan, "the marketplace's catalogue");
		const [missing] = checked.missingForNew;
		if (missing !== undefined) {
			const labels = checked.missingForNew.map((key) => entry.label(key).split(FIELD_SEPARATOR).pop()).join(', ');
			entry.problem = invalidInput(
				entry.ctx,
				entry.label(missing),
				`is required to add a product: EAN ${ean} ${NEW_LISTING_PROBLEM[state]} (missing: ${labels})`,
				`A product that is not one of yours yet needs ${NEEDED_FOR_NEW}; the EAN of one of your products needs only Name, EAN, Description and Cover Image URL`,
			);
		}
	}
}

// ─── Send ────────────────────────────────────────────────────────────────────────────────────────────
const ASYNC_NOTICE =
	'The service applies an import asynchronously: id is the progress ID of the request that carried this product, not a product ID. The product changes only once the service has applied the import, and the service may still reject it then.';

/** What the merchant must do for a product the catalogue does not know: the progress ID is what the onboarding team needs. */
function onboardingStep(checked: CheckedImport, progressId: string | number | null): string {
	return `E-mail the marketplace's onboarding team to add EAN ${String(checked.body.ean)}, giving the progress ID ${String(progressId)}: the catalogue does not know this EAN, so the product appears only once they have added it.`;
}

/** What happens next, for this product. */
function noticeOf(checked: CheckedImport, outcome: ImportOutcome & { ok: true }): string {
	const parts = [ASYNC_NOTICE];
	if (checked.eanState === 'yours') parts.push('Its EAN is one of your products (a product look-up found it): the product is edited, and the fields left out keep their values.');
	else if (checked.eanState === 'catalogue') {
		parts.push("The marketplace's catalogue knows its EAN, but it is not one of your products: the import adds a new listing of yours.");
	} else if (checked.eanState === 'onboarding') parts.push(`The marketplace's catalogue does not know its EAN (onboarding): ${onboardingStep(checked, outcome.progressId)}`);
	else parts.push('A new EAN the platform knows is linked at once; one it does not know is added by the marketplace by hand (onboarding, by e-mail) before it appears.');
	if (checked.body.basePrice !== undefined) parts.push('A changed base price applies from the next day.');
	if (outcome.sentAs === 'object') parts.push('The service takes one product per request, not a list: this run sent each product in a request of its own.');
	return parts.join(' ');
}

function importOutput(checked: CheckedImport, outcome: ImportOutcome & { ok: true }): IDataObject {
	const { body } = checked;
	const json: IDataObject = { id: outcome.progressId, success: true, ean: body.ean, name: body.name };
	for (const name of ['sku', 'externalId']) if (body[name] !== undefined) json[name] = body[name];
	if (checked.eanState !== undefined) {
		json.eanState = checked.eanState;
		json.newProduct = checked.eanState !== 'yours';
		json.matchedEan = checked.matchedEan ?? null;
		if (checked.eanState === 'onboarding') json.nextStep = onboardingStep(checked, outcome.progressId);
	}
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
	resolve: resolveEanStates,
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
	steps: bulkSteps(IMPORT),
};

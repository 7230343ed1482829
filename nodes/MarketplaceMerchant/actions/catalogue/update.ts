/**
 * The update entry of Update and Update Many: its fields as data (`UPDATE_FIELDS`: key, panel
 * field, reader, in the order they are read), and `buildProductUpdate`, which reads an entry by
 * them and applies the writers' rules (fields.ts).
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { invalidInput, isBlank, type SettingsContext } from '../../values/labels';
import { PRICE_FORMS, readNumberFormat, readPrice, readSignedStockLevel, readVat } from '../../values/numbers';
import { readBoolean, readEntryField, readText, type EntryField } from '../../values/values';
import type { EntryRead } from '../bulk/entries';
import { PRODUCT_FIELDS, packageWeightInKg, readDimension, readWeight, readWeightUnit, stockLevelToSend } from './fields';
import { readProductRef, type NamedProductRef } from './locator';

/**
 * The fields of an update, in the order they are read (the first invalid one is the one named):
 * each its key (in a row, a JSON entry and the body sent), its panel field (whose label path errors
 * name: `Update Fields › Base Price`) and its reader; a stock level below 0 and a weight in grams
 * then go out by the writers' rules (`stockLevelToSend`, `packageWeightInKg`). Platform facts:
 * product/bulk and product/{id} also take `serviceable` and package dimensions (product dimensions
 * only Import). No `packageDimensionUnit` is sent: the sources name it only in answers, as `cm`,
 * not among what a write takes, so the fields are in centimetres.
 */
export const UPDATE_FIELDS: Array<EntryField<string | number | boolean>> = [
	{
		key: 'basePrice',
		field: { ...PRODUCT_FIELDS.basePrice, description: `New price with VAT included; above 0. The service applies it from the next day. ${PRICE_FORMS}.` },
		read: readPrice,
	},
	{ key: 'vat', field: PRODUCT_FIELDS.vat, read: readVat },
	{
		key: 'stockLevel',
		field: {
			...PRODUCT_FIELDS.stockLevel,
			description: 'Available stock; a whole number, plain digits (e.g. 1000). Below 0 (oversold) goes out as 0, as the service stores it, unless Options › Negative Stock says otherwise.',
		},
		read: readSignedStockLevel,
	},
	{ key: 'sku', field: PRODUCT_FIELDS.sku, read: readText },
	{ key: 'packageWeightValue', field: PRODUCT_FIELDS.packageWeightValue, read: readWeight },
	{
		key: 'packageWeightUnit',
		field: { ...PRODUCT_FIELDS.packageWeightUnit, description: 'Unit of Package Weight Value; grams are sent converted to kilograms, the unit the service stores' },
		read: readWeightUnit,
	},
	{ key: 'serviceable', field: PRODUCT_FIELDS.serviceable, read: readBoolean },
	{ key: 'packageHeightValue', field: PRODUCT_FIELDS.packageHeightValue, read: readDimension },
	{ key: 'packageWidthValue', field: PRODUCT_FIELDS.packageWidthValue, read: readDimension },
	{ key: 'packageLengthValue', field: PRODUCT_FIELDS.packageLengthValue, read: readDimension },
];

/** The panel's Update Fields, by name as n8n lists a collection's options. */
export const productUpdateFieldOptions: INodeProperties[] = UPDATE_FIELDS.map(({ field }) => field).sort((a, b) => (a.name < b.name ? -1 : 1));

/** Update Fields, of Update and of an Update Many row. */
export function updateFieldsCollection(description: string): INodeProperties {
	const options = productUpdateFieldOptions;
	return { displayName: 'Update Fields', name: 'updateFields', type: 'collection', placeholder: 'Add Field', default: {}, description, options };
}

export const UPDATE_FIELD_NAMES = UPDATE_FIELDS.map(({ key }) => key);

/** For hints that serve the panel's fields and JSON keys alike: `Base Price (basePrice)`. */
const UPDATE_FIELDS_NAMED = productUpdateFieldOptions.map(({ name, displayName }) => `${displayName} (${name})`).join(', ');

/** An update entry checked, its product still as the user named it (an EAN is looked up before sending). */
export interface CheckedProductUpdate {
	product: NamedProductRef;
	/** As they go out: the stock from 0 up, the weight in kilograms. */
	fields: IDataObject;
	/** What the output tells about how a value went out (a weight converted, a stock below 0 sent as 0). */
	notes?: string[];
	/** Update Many's, once the product is resolved. */
	productId?: number;
	/** The EAN form the product was found by, when named By EAN (locator.ts). */
	matchedEan?: string;
}

/** An entry of Update Many, or Update's parameters as one. */
type UpdateEntry = Pick<EntryRead, 'raw' | 'label' | 'reader' | 'fromPanel'> & { ctx: SettingsContext };

/**
 * Other properties of the entry are not sent, so items from Get Many pass as they are. From the
 * panel (`fromPanel`), a field added but left empty fails as missing rather than being dropped
 * unseen; in a JSON entry a blank value means "not given" (a sheet's empty cell).
 */
export function buildProductUpdate(entry: UpdateEntry): CheckedProductUpdate {
	const { ctx, raw, label, reader, fromPanel } = entry;
	const product = { field: label('id'), ref: readProductRef(reader('id'), label('id'), raw.id) };
	const fields: IDataObject = {};
	const format = readNumberFormat(ctx);
	for (const field of UPDATE_FIELDS) {
		const given = fromPanel ? Object.prototype.hasOwnProperty.call(raw, field.key) : !isBlank(raw[field.key]);
		if (given) fields[field.key] = readEntryField(entry, field, format);
	}
	const notes: string[] = [];
	if (fields.stockLevel !== undefined) {
		const { stockLevel, note } = stockLevelToSend(ctx, reader('stockLevel'), label('stockLevel'), fields.stockLevel as number);
		fields.stockLevel = stockLevel;
		if (note) notes.push(note);
	}
	const weightNote = packageWeightInKg(fields);
	if (weightNote) notes.push(weightNote);
	if (Object.keys(fields).length === 0) {
		throw invalidInput(ctx, label(), 'nothing to update', `Give at least one of: ${UPDATE_FIELDS_NAMED}`);
	}
	return notes.length > 0 ? { product, fields, notes } : { product, fields };
}

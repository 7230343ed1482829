/**
 * Product type names in a language: the Language field (Get Types, and Import's list of types),
 * the header that asks for it, and Import's option list loaded from Get Types.
 */
import type { IDataObject, ILoadOptionsFunctions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { decodedList } from '../../answers/decode';
import { PATHS } from '../../transport/endpoints';
import { ANSWERS } from '../../answers/schema';
import { sendAuthenticated } from '../../transport/send';
import { isBlank } from '../../values/values';

/** Name of the option list method on the node (`methods.loadOptions`). */
export const PRODUCT_TYPES_METHOD = 'getProductTypes';

/** The service's own language: no Accept-Language header. */
const SERVICE_DEFAULT = 'default';

export const productTypeLanguageField: INodeProperties = {
	displayName: 'Language',
	name: 'language',
	type: 'options',
	options: [
		{ name: 'English', value: 'en', description: 'Type names translated to English' },
		{ name: 'Service Default', value: SERVICE_DEFAULT, description: "Type names in the marketplace's own language, as products carry them" },
	],
	default: SERVICE_DEFAULT,
	description: 'Language of the type names',
};

/** The headers that ask for type names in `language` (the field above). */
export function languageHeaders(language: unknown): IDataObject {
	return isBlank(language) || language === SERVICE_DEFAULT ? {} : { 'Accept-Language': String(language) };
}

/** Import's Product Type list: the names Get Types answers in the chosen language, in alphabetical order. */
export async function getProductTypes(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const response = await sendAuthenticated(
		this,
		{ group: 'catalogue', idempotent: true },
		{ method: 'GET', url: PATHS.productTypes, headers: { Accept: 'application/json', ...languageHeaders(this.getCurrentNodeParameter('language')) } },
	);
	return decodedList<unknown>(this, response, ANSWERS.productTypes)
		.filter((name) => !isBlank(name))
		.map((name) => ({ name: String(name), value: String(name) }))
		.sort((a, b) => a.name.localeCompare(b.name));
}

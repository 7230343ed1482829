/** Product › Get Types, and the same names in a language as Import's Product Type list. */
import { updateDisplayOptions, type IDataObject, type ILoadOptionsFunctions, type INodeProperties } from 'n8n-workflow';

import { ANSWERS } from '../../answers/schemas';
import { decodeAnswer, elementsOf, type Shaping } from '../../answers/read';
import { PATHS } from '../../transport/endpoints';
import { sendAuthenticated, type RequestStep } from '../../transport/send';
import { isBlank, isPlainObject } from '../../values/labels';
import { pacedRouting } from '../common';
import { CATALOGUE } from '../catalogue/fields';
import type { OperationModule } from '../contract';

/** On the node's `methods.loadOptions`. */
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

function languageHeaders(language: unknown): IDataObject {
	return isBlank(language) || language === SERVICE_DEFAULT ? {} : { 'Accept-Language': String(language) };
}

/**
 * The type names of a Product Types answer, read one way for Get Types' items and Import's list:
 * the service lists plain strings, one `{ name }` each.
 */
function typeNamesIn(body: unknown): IDataObject[] {
	return elementsOf(body, ANSWERS.productTypes).map((name) => (isPlainObject(name) ? name : { name: name as string }));
}

/** Import's Product Type list, in alphabetical order. */
export async function getProductTypes(this: ILoadOptionsFunctions) {
	const headers = { Accept: 'application/json', ...languageHeaders(this.getCurrentNodeParameter('language')) };
	const answer = await sendAuthenticated(this, CATALOGUE, { method: 'GET', url: PATHS.productTypes, headers });
	return typeNamesIn(decodeAnswer(this, answer, ANSWERS.productTypes))
		.map(({ name }) => name)
		.filter((name) => !isBlank(name))
		.map((name) => ({ name: String(name), value: String(name) }))
		.sort((a, b) => a.name.localeCompare(b.name));
}

const setLanguage: RequestStep = async function (requestOptions) {
	requestOptions.headers = { ...requestOptions.headers, ...languageHeaders(this.getNodeParameter('language', '')) };
	return requestOptions;
};

const typeNamesAsItems: Shaping = async function (_items, _answer, body) {
	return typeNamesIn(body).map((json) => ({ json }));
};

export const operation: OperationModule = {
	steps: pacedRouting({
		...CATALOGUE,
		request: { method: 'GET', url: PATHS.productTypes },
		preSend: [setLanguage],
		answer: ANSWERS.productTypes, shape: [typeNamesAsItems],
	}),
	option: {
		name: 'Get Types',
		value: 'getTypes',
		action: 'Get product types',
		description: 'List the product type names the marketplace accepts (the Product Type of Import): one item per type',
	},
	fields: updateDisplayOptions({ show: { resource: ['product'], operation: ['getTypes'] } }, [productTypeLanguageField]),
};

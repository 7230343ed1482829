/** Product › Get Types, and the same names in a language as Import's Product Type list. */
import { updateDisplayOptions, type IDataObject, type ILoadOptionsFunctions, type INodeProperties, type PreSendAction } from 'n8n-workflow';

import { ANSWERS, decodedList, readAnswer } from '../../answers/answers';
import { PATHS } from '../../transport/endpoints';
import { sendAuthenticated, type PostReceiveFunction } from '../../transport/engine';
import { isBlank } from '../../values/labels';
import { pacedRouting } from '../common';
import { CATALOGUE } from '../products/fields';
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

/** Import's Product Type list, in alphabetical order. */
export async function getProductTypes(this: ILoadOptionsFunctions) {
	const headers = { Accept: 'application/json', ...languageHeaders(this.getCurrentNodeParameter('language')) };
	const response = await sendAuthenticated(this, CATALOGUE, { method: 'GET', url: PATHS.productTypes, headers });
	return decodedList<unknown>(this, response, ANSWERS.productTypes)
		.filter((name) => !isBlank(name))
		.map((name) => ({ name: String(name), value: String(name) }))
		.sort((a, b) => a.name.localeCompare(b.name));
}

const setLanguage: PreSendAction = async function (requestOptions) {
	requestOptions.headers = { ...requestOptions.headers, ...languageHeaders(this.getNodeParameter('language', '')) };
	return requestOptions;
};

/** The service lists type names as plain strings: one item `{ name }` each. */
const typeNamesAsItems: PostReceiveFunction = async function (items) {
	return items.map(({ json }) => {
		const keys = Object.keys(json);
		return { json: keys.length === 1 && keys[0] === 'value' ? { name: json.value } : json };
	});
};

export const operation: OperationModule = {
	option: {
		name: 'Get Types',
		value: 'getTypes',
		action: 'Get product types',
		description: 'List the product type names the marketplace accepts (the Product Type of Import): one item per type',
		routing: pacedRouting({
			...CATALOGUE,
			request: { method: 'GET', url: PATHS.productTypes },
			preSend: [setLanguage],
			postReceive: [readAnswer(ANSWERS.productTypes), typeNamesAsItems],
		}),
	},
	fields: updateDisplayOptions({ show: { resource: ['product'], operation: ['getTypes'] } }, [productTypeLanguageField]),
};

import {
	updateDisplayOptions,
	type IExecuteSingleFunctions,
	type IHttpRequestOptions,
	type INodeExecutionData,
	type INodePropertyOptions,
} from 'n8n-workflow';

import { readAnswer } from '../../answers/decode';
import { PATHS } from '../../transport/endpoints';
import { ANSWERS } from '../../answers/schema';
import { pacedRouting } from '../common';
import { languageHeaders, productTypeLanguageField } from './productTypes';
import type { OperationModule } from '../contract';

async function setLanguage(this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	requestOptions.headers = { ...requestOptions.headers, ...languageHeaders(this.getNodeParameter('language', '')) };
	return requestOptions;
}

/** The service lists type names as plain strings: one item `{ name }` each. */
async function typeNamesAsItems(
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return items.map(({ json }) => {
		const keys = Object.keys(json);
		return { json: keys.length === 1 && keys[0] === 'value' ? { name: json.value } : json };
	});
}

const getProductTypes: INodePropertyOptions = {
	name: 'Get Types',
	value: 'getTypes',
	action: 'Get product types',
	description: 'List the product type names the marketplace accepts (the Product Type of Import): one item per type',
	routing: pacedRouting({
		group: 'catalogue',
		idempotent: true,
		request: { method: 'GET', url: PATHS.productTypes },
		preSend: [setLanguage],
		postReceive: [readAnswer(ANSWERS.productTypes), typeNamesAsItems],
	}),
};

const displayOptions = { show: { resource: ['product'], operation: ['getTypes'] } };

const getProductTypesFields = updateDisplayOptions(displayOptions, [productTypeLanguageField]);

export const operation: OperationModule = { option: getProductTypes, fields: getProductTypesFields };

import type {
	IDataObject,
	IExecutePaginationFunctions,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import { PATHS } from '../../transport/endpoints';
import { sendRequest, type RequestData } from '../../transport/send';
import { engineRouting, showFor } from '../common';
import { readEanList } from './productValues';

async function buildEanListBody(this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	const eans = readEanList(this, 'EANs', this.getNodeParameter('eans', ''));
	requestOptions.body = [...new Set(eans)];
	return requestOptions;
}

function exists(value: unknown): boolean {
	return value === true || String(value).toLowerCase() === 'true';
}

/** Sends the check and answers one item per requested EAN, in the order given. */
async function sendEanCheck(this: IExecutePaginationFunctions, requestData: RequestData): Promise<INodeExecutionData[]> {
	const eans = requestData.options.body as string[];
	const [answer] = await sendRequest(this, requestData);
	const existsByEan = (answer?.json ?? {}) as IDataObject;
	return eans.map((ean) => ({ json: { ean, exists: exists(existsByEan[ean]) } }));
}

export const checkEans: INodePropertyOptions = {
	name: 'Check EANs',
	value: 'checkEans',
	action: 'Check whether EANs exist',
	description: 'Check which EAN codes already exist on the marketplace; outputs one item per EAN with exists true or false',
	routing: engineRouting({
		request: { method: 'POST', url: PATHS.eanExists },
		preSend: [buildEanListBody],
		strategy: sendEanCheck,
	}),
};

export const checkEansFields: INodeProperties[] = [
	{
		displayName: 'EANs',
		name: 'eans',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 8600000000017, 4006381333931',
		description: 'EAN codes to check, 8 to 14 digits each (the service judges the check digit): a list, or text with the codes separated by commas or new lines',
		displayOptions: showFor('product', 'checkEans'),
	},
];

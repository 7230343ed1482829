import { updateDisplayOptions, type JsonObject, type PreSendAction } from 'n8n-workflow';

import { ANSWERS } from '../../answers/schemas';
import { PATHS } from '../../transport/endpoints';
import { firstOf, serviceError } from '../../transport/errors';
import { sendRequest } from '../../transport/send';
import type { PaginationFunction } from '../../transport/batches';
import { pacedRouting, textField } from '../common';
import { addEanAnswers, eanKey, readEanList } from '../products/eans';
import { CATALOGUE } from '../products/fields';
import type { OperationModule } from '../contract';

const buildEanListBody: PreSendAction = async function (requestOptions) {
	const eans = readEanList(this, 'EANs', this.getNodeParameter('eans', ''));
	requestOptions.body = [...new Set(eans)];
	return requestOptions;
};

/**
 * One item per requested EAN, in the order given, matched to the answer by `eanKey`. An EAN the
 * answer says nothing about fails the item rather than reading as "does not exist".
 */
const sendEanCheck: PaginationFunction = async function (requestData) {
	const eans = requestData.options.body as string[];
	const existsByDigits = new Map<string, unknown>();
	addEanAnswers(existsByDigits, (await sendRequest(this, requestData)).map(({ json }) => json));
	const unanswered = eans.filter((ean) => typeof existsByDigits.get(eanKey(ean)) !== 'boolean');
	if (unanswered.length > 0) {
		throw serviceError(this.getNode(), { unanswered } as unknown as JsonObject, {
			message: `The service's answer says nothing readable about EAN ${firstOf(unanswered, 5)}`,
			description: 'The EAN check answers true or false for each EAN sent; nothing is guessed for the missing ones',
			itemIndex: this.getItemIndex(),
		});
	}
	return eans.map((ean) => ({ json: { ean, exists: existsByDigits.get(eanKey(ean)) as boolean } }));
};

export const operation: OperationModule = {
	option: {
		name: 'Check EANs',
		value: 'checkEans',
		action: 'Check whether EANs exist',
		description: 'Check which EAN codes (8 to 14 digits) already exist on the marketplace, e.g. before an import; outputs one item per EAN with ean and exists true or false',
		routing: pacedRouting({
			...CATALOGUE,
			request: { method: 'POST', url: PATHS.eanExists },
			preSend: [buildEanListBody],
			strategy: sendEanCheck,
			answer: ANSWERS.eanExists,
		}),
	},
	fields: updateDisplayOptions({ show: { resource: ['product'], operation: ['checkEans'] } }, [
		textField(
			'EANs',
			'eans',
			'EAN codes to check, 8 to 14 digits each (the service judges the check digit): a list, or text with the codes separated by commas or new lines',
			{ required: true, placeholder: 'e.g. 8600000000017, 4006381333931' },
		),
	]),
};

import { updateDisplayOptions, type JsonObject } from 'n8n-workflow';

import { ANSWERS } from '../../answers/schemas';
import { PATHS } from '../../transport/endpoints';
import { firstOf, serviceError } from '../../transport/errors';
import { sendRequest, type RequestStep } from '../../transport/send';
import type { PaginationFunction } from '../../transport/batches';
import { pacedRouting, textField } from '../common';
import { EanAnswers, eanExistsBody, readEanList, type EanExistence } from '../catalogue/eans';
import { CATALOGUE } from '../catalogue/fields';
import type { OperationModule } from '../contract';

/** The EANs as given (each once) of a body the preSend built: the body holds every form of each. */
const EANS_OF_BODY = new WeakMap<object, string[]>();

const buildEanListBody: RequestStep = async function (requestOptions) {
	const eans = [...new Set(readEanList(this, 'EANs', this.getNodeParameter('eans', '')))];
	const body = eanExistsBody(eans);
	EANS_OF_BODY.set(body, eans);
	requestOptions.body = body;
	return requestOptions;
};

/**
 * One item per requested EAN, in the order given, each asked with every form of its code (8, 12,
 * 13 and 14 digits): `exists` when the catalogue knows any of them, `matchedEan` the form it knows.
 * An EAN the answer says nothing about fails the item rather than reading as "does not exist".
 */
const sendEanCheck: PaginationFunction = async function (requestData) {
	const body = requestData.options.body as string[];
	const eans = EANS_OF_BODY.get(body) ?? body;
	const answers = new EanAnswers().add((await sendRequest(this, requestData)).map(({ json }) => json));
	const unanswered = eans.filter((ean) => answers.of(ean) === undefined);
	if (unanswered.length > 0) {
		throw serviceError(this.getNode(), { unanswered } as unknown as JsonObject, {
			message: `The service's answer says nothing readable about EAN ${firstOf(unanswered, 5)}`,
			description: 'The EAN check answers true or false for each EAN sent; nothing is guessed for the missing ones',
			itemIndex: this.getItemIndex(),
		});
	}
	return eans.map((ean) => ({ json: { ean, ...(answers.of(ean) as EanExistence) } }));
};

export const operation: OperationModule = {
	steps: pacedRouting({
		...CATALOGUE,
		request: { method: 'POST', url: PATHS.eanExists },
		preSend: [buildEanListBody],
		strategy: sendEanCheck,
		answer: ANSWERS.eanExists,
	}),
	option: {
		name: 'Check EANs',
		value: 'checkEans',
		action: 'Check whether EANs exist',
		description: 'Check which EAN codes (8 to 14 digits) already exist on the marketplace, e.g. before an import; outputs one item per EAN with ean, exists true or false, and matchedEan: the form (8, 12, 13 or 14 digits) the marketplace knows it by',
	},
	fields: updateDisplayOptions({ show: { resource: ['product'], operation: ['checkEans'] } }, [
		textField(
			'EANs',
			'eans',
			'EAN codes to check, 8 to 14 digits each (the service judges the check digit): a list, or text with the codes separated by commas or new lines. Each is checked in every form of its code (with and without leading zeros).',
			{ required: true, placeholder: 'e.g. 8600000000017, 4006381333931' },
		),
	]),
};

/**
 * Whether a write's failure may have left it applied (transport/outcomes.ts), as the errors of
 * n8n's request helpers carry it: a status, or a network code. The engine tests of Confirm and Pack
 * (test/actions/order/confirm.test.ts, test/actions/shipment/pack.test.ts, test/actions/product/publish.test.ts) drive it against the sandbox.
 */
import { NodeApiError, UserError, type INode } from 'n8n-workflow';

import { asNodeError, englishMeaningOf } from '../../nodes/MarketplaceMerchant/transport/errors';
import { isRefusal, markedNotSent, outcomeUnknownText, uncertainOutcome } from '../../nodes/MarketplaceMerchant/transport/outcomes';

describe('uncertainOutcome', () => {
	it.each([
		['a 5xx answer', { httpCode: '503' }, 'the service answered HTTP 503'],
		["a proxy's 504", { cause: { response: { status: 504 } } }, 'the service answered HTTP 504'],
		['a timeout', { cause: { code: 'ECONNABORTED', message: 'timeout of 1000ms exceeded' } }, 'no answer came in time'],
		['a cut connection', { cause: { code: 'ECONNRESET', message: 'socket hang up' } }, 'the connection was cut before the answer came'],
		['an error with neither (an answer that could not be read)', { message: 'Unexpected end of JSON input' }, 'the answer could not be read'],
	])('%s may have been applied', (_, error, words) => {
		expect(uncertainOutcome(error)).toBe(words);
	});

	it.each([
		['a refusal (400)', { httpCode: '400' }],
		['a 404', { cause: { response: { status: 404 } } }],
		['a refused connection', { cause: { code: 'ECONNREFUSED' } }],
		['an unknown host', { code: 'ENOTFOUND' }],
	])('%s was not applied', (_, error) => {
		expect(uncertainOutcome(error)).toBeUndefined();
	});

	it('a request whose token could not be had never went out, also once n8n wrapped the error and the node made it safe', () => {
		const node = { name: 'Node', type: 'test', typeVersion: 1, position: [0, 0], parameters: {} } as INode;
		const tokenFailure = markedNotSent(new UserError('The token request failed (HTTP 400)'));
		const wrapped = new NodeApiError(node, tokenFailure as never);
		expect(uncertainOutcome(wrapped)).toBeUndefined();
		expect(uncertainOutcome(asNodeError(node, wrapped))).toBeUndefined();
		// Without the mark, an error of no status and no code may come from an answer that could not be read.
		expect(uncertainOutcome(new NodeApiError(node, new UserError('The token request failed (HTTP 400)') as never))).toBe('the answer could not be read');
	});

	it('words an unknown outcome: what happened, what was seen, not sent again, what to check', () => {
		expect(outcomeUnknownText('the pack of shipment A-DS-1', 'the service answered HTTP 503', 'It shows nothing packed.', 'Check A-DS-1.')).toEqual({
			message: 'The outcome of the pack of shipment A-DS-1 is unknown: the service answered HTTP 503',
			description: 'It shows nothing packed. It may have been applied all the same, so the node did not send it again. Check A-DS-1.',
		});
	});
});

describe('isRefusal: a refusal the operation words in the merchant\'s words (nothing applied)', () => {
	it.each([
		['a 400', { httpCode: '400' }, true],
		['a 404', { cause: { response: { status: 404 } } }, true],
		['a 409', { httpCode: '409' }, true],
		['a 401 (the credential\'s words)', { httpCode: '401' }, false],
		['a 403 (the credential\'s words)', { httpCode: '403' }, false],
		['a 429 (the pacing\'s words)', { httpCode: '429' }, false],
		['a 503 (may have been applied)', { httpCode: '503' }, false],
		['a cut connection', { cause: { code: 'ECONNRESET', message: 'socket hang up' } }, false],
	])('%s: %s', (_, error, refused) => {
		expect(isRefusal(error)).toBe(refused);
	});
});

describe("englishMeaningOf: the service's Serbian messages from errors.ts's one table", () => {
	it.each([
		['Pošiljka nije u odgovarajućem statusu', 'the shipment is not in the right status'],
		['Greška: POŠILJKA NIJE U ODGOVARAJUĆEM STATUSU.', 'the shipment is not in the right status'],
		['Proizvod ne postoji', 'product does not exist'],
		['Something else', undefined],
	])('%s', (text, meaning) => {
		expect(englishMeaningOf(text)).toBe(meaning);
	});
});

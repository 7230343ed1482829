/**
 * Whether a write's failure may have left it applied (actions/orders/outcomes.ts), as the errors of
 * n8n's request helpers carry it: a status, or a network code. The engine tests of Confirm and Pack
 * (test/actions/order/confirm.test.ts, test/actions/shipment/pack.test.ts) drive it against the sandbox.
 */
import { outcomeUnknownText, uncertainOutcome } from '../../../nodes/MarketplaceMerchant/actions/orders/outcomes';

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

	it('words an unknown outcome: what happened, what was seen, not sent again, what to check', () => {
		expect(outcomeUnknownText('the pack of shipment A-DS-1', 'the service answered HTTP 503', 'It shows nothing packed.', 'Check A-DS-1.')).toEqual({
			message: 'The outcome of the pack of shipment A-DS-1 is unknown: the service answered HTTP 503',
			description: 'It shows nothing packed. It may have been applied all the same, so the node did not send it again. Check A-DS-1.',
		});
	});
});

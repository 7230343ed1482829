/**
 * The writes of the order flow that must not repeat (Order › Confirm, Shipment › Pack): whether a
 * failure may have left the write applied, and the words of an outcome left unknown. The policy
 * never resends such a write (transport/policy.ts: not idempotent); its operation reads back what
 * happened instead.
 */
import { errorCodeOf, isCutOff, isTimeout, statusOf, type ErrorWords } from '../../transport/errors';

/** Failures that prove the request never reached the service: nothing there was applied. */
const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * How a write's failure may have left it applied, in a message's words: a 5xx answer, no answer in
 * time, a cut connection or an answer that could not be read may all come after the service acted.
 * Undefined when it certainly did not act: it refused (4xx) or was never reached.
 */
export function uncertainOutcome(error: unknown): string | undefined {
	const status = statusOf(error);
	if (status !== undefined) return status >= 500 ? `the service answered HTTP ${status}` : undefined;
	if (NEVER_SENT.has(errorCodeOf(error) ?? '')) return undefined;
	if (isTimeout(error)) return 'no answer came in time';
	return isCutOff(error) ? 'the connection was cut before the answer came' : 'the answer could not be read';
}

/** A write whose outcome is unknown (`uncertainOutcome`), what was `seen` of it and where to `check`: it was not sent again. */
export function outcomeUnknownText(what: string, failure: string, seen: string, check: string): ErrorWords {
	return {
		message: `The outcome of ${what} is unknown: ${failure}`,
		description: `${seen} It may have been applied all the same, so the node did not send it again. ${check}`,
	};
}

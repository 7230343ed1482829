/**
 * The writes that must not repeat (Order › Confirm, Shipment › Pack, Product › Publish and
 * Unpublish): whether a failure may have left the write applied, and the words of an outcome left
 * unknown. The policy never resends such a write (policy.ts: a route declared not idempotent); its
 * operation reads back what happened or names what to check.
 */
import { NOT_SENT, errorCodeOf, isCutOff, isTimeout, statusOf, type ErrorWords } from './errors';

/** Failures that prove the request never reached the service: nothing there was applied. */
const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** The error, marked as having come before its request went out (errors.ts `NOT_SENT`). */
export function markedNotSent(error: unknown): unknown {
	if (error !== null && typeof error === 'object') Object.assign(error, { [NOT_SENT]: true });
	return error;
}

/** Whether the error, or one it was made from (n8n wraps the credential's error in `cause`), came before sending. */
function notSent(error: unknown): boolean {
	for (let current = error, depth = 0; current !== null && typeof current === 'object' && depth < 5; current = (current as { cause?: unknown }).cause, depth++) {
		if ((current as Record<string, unknown>)[NOT_SENT] === true) return true;
	}
	return false;
}

/**
 * How a write's failure may have left it applied, in a message's words: a 5xx answer, no answer in
 * time, a cut connection or an answer that could not be read may all come after the service acted.
 * Undefined when it certainly did not act: it refused (4xx), was never reached, or the request never
 * went out (its token could not be had).
 */
export function uncertainOutcome(error: unknown): string | undefined {
	if (notSent(error)) return undefined;
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

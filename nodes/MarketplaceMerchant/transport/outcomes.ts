/**
 * The writes that must not repeat (Order › Confirm, Shipment › Pack, Product › Publish and
 * Unpublish): whether a failure may have left the write applied, and the words of an outcome left
 * unknown. The policy never resends such a write (policy.ts: a route declared not idempotent); its
 * operation reads back what happened or names what to check.
 */
import type { INode } from 'n8n-workflow';

import { NOT_SENT, asNodeError, englishMeaningOf, errorCodeOf, isCutOff, isTimeout, statusOf, type ErrorWords } from './errors';

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

/** Whether the service refused a write as such (a 4xx other than the credential's 401/403 and the rate limit's 429): nothing was applied. */
export function isRefusal(error: unknown): boolean {
	const status = statusOf(error) ?? 0;
	return status >= 400 && status < 500 && ![401, 403, 408, 429].includes(status) && !notSent(error);
}

/** What a refusal names: `subject` ("Shipment H7SRK-Z2IAO-DS-1"), what was not done ("packed"), the status the service reports now, what to do. */
export interface Refused {
	subject: string;
	notDone: string;
	/** What the service shows of the subject's status after the refusal (read back), as a clause: "it is CONFIRMED". */
	status?: string;
	next?: string;
}

/**
 * A write the service refused (`uncertainOutcome` undefined: a 4xx, nothing applied), in the
 * merchant's words: what was refused, what it means in English (errors.ts's one table of the
 * service's Serbian messages), the service's own text beside it, the status it reports and that
 * nothing was applied. n8n's own wording of a 400 ("Bad request - please check your parameters") is
 * replaced; the error keeps its HTTP code.
 */
export function refusalError<E extends Error & { description?: string | null }>(node: INode, error: unknown, refused: Refused): E {
	const failure = asNodeError(node, error) as unknown as E;
	const code = statusOf(error);
	const said = typeof failure.description === 'string' && failure.description.trim() !== '' ? failure.description.trim() : undefined;
	const meaning = said === undefined ? undefined : englishMeaningOf(said);
	const status = refused.status === undefined ? '' : `: ${refused.status}`;
	failure.message = `${refused.subject} was not ${refused.notDone}${meaning === undefined ? `, the service refused it (HTTP ${code ?? 'error'})` : `: ${meaning}`}${status}`;
	const saidText = said === undefined ? `The service refused it (HTTP ${code ?? 'error'}) without a message.` : `The service refused it (HTTP ${code ?? 'error'}) and said: ${said}`;
	failure.description = [saidText.replace(/([^.!?])$/, '$1.'), `Nothing was applied.`, refused.next].filter(Boolean).join(' ');
	return failure;
}

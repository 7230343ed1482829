/**
 * The user's Request Options (actions/requestOptions.ts declares them) as the request engine
 * reads them from an item's parameters: the timeout of one answer and the Requests per Minute cap.
 * Read here, in transport, so that the engine never imports from the operations above it.
 */
import { DEFAULT_TIMEOUT_MS } from './requestPolicy';
import { isBlank, readWholeNumber, type ValueContext } from '../values/values';

/** What the request options are read from: an item's parameters (node, pagination or single-item context). */
export type OptionsContext = ValueContext & { getNodeParameter(name: string, fallback?: unknown): unknown };

/** The request timeout the user chose (default 60 s), in milliseconds; a value that is not a whole number of seconds is refused. */
export function requestTimeoutMs(ctx: OptionsContext): number {
	const seconds = ctx.getNodeParameter('requestOptions.timeoutSeconds', '');
	return isBlank(seconds) ? DEFAULT_TIMEOUT_MS : readWholeNumber(ctx, 'Request Options › Timeout (Seconds)', seconds, 1) * 1000;
}

/** The Requests per Minute option, when the user set it. */
export function requestsPerMinuteOf(ctx: OptionsContext): number | undefined {
	const value = (ctx.getNodeParameter('requestOptions', {}) as { requestsPerMinute?: unknown }).requestsPerMinute;
	return isBlank(value) ? undefined : readWholeNumber(ctx, 'Request Options › Requests per Minute', value, 1);
}

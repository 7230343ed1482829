/** Injected faults' specification (sandbox.injectFault, POST /__sandbox/faults); re-exported by types.ts. */
import type { RouteKey } from './types';

export type FaultBody =
	| 'html'
	| 'malformed-json'
	| 'xml-bomb'
	| 'reset'
	| 'echo-credentials'
	| 'gzip-bomb'
	| 'huge-json'
	| 'trickle';

export interface FaultSpec {
	/** Only requests to this route are affected; any non-control route when omitted. */
	route?: RouteKey;
	/** Status to answer with (500, 502, 503, 429, …). */
	status?: number;
	/** The `{"message"}` of a status fault's JSON body; default: the status's name. */
	message?: string;
	/** How many requests the fault affects. */
	count: number;
	/** Adds a Retry-After header (seconds, may be fractional). */
	retryAfterSeconds?: number;
	/**
	 * Special answers: an HTML 502 page, a 200 with broken JSON, a 200 billion-laughs XML body;
	 * `reset` closes the connection without an answer; `echo-credentials` answers (400 unless
	 * `status` says otherwise) with a message and a field of its own repeating the request's
	 * Authorization and X-API-Key headers and its body, as careless services do; `gzip-bomb` is a
	 * 200 with `Content-Encoding: gzip`, small on the wire and `sizeBytes` (default 1 GiB) inflated;
	 * `huge-json` is a 200 JSON list of `sizeBytes` (default 300 MB), streamed; `trickle` is a 200
	 * JSON list whose `sizeBytes` bytes (default 400) come one every 250 ms, so no idle timeout fires.
	 */
	body?: FaultBody;
	/** Inflated size of `gzip-bomb`, size of `huge-json`, bytes of `trickle`. */
	sizeBytes?: number;
	/** Waits this long first; without status or body the request is then answered normally. */
	delayMs?: number;
	/**
	 * The request is handled (a write is applied) and only then answered with the fault: 503 unless
	 * `status` or `body` say otherwise (`reset`: the connection is cut after applying), after
	 * `delayMs` if given. Such a fault waits for a request that passes the token and rate-limit checks.
	 */
	applyThen?: boolean;
}

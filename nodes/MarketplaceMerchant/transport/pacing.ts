/**
 * Pacing: every request to the service waits at its merchant's and endpoint group's gate, which
 * lets it through at the known limits (endpoints.ts RATE_LIMITS: sliding minute and second
 * windows) with at most the group's in-flight allowance open at once. One process therefore
 * sends at the allowed rate without the service having to answer 429.
 *
 * The clock is this process's: the service counts a request when it arrives, a little later and
 * with some jitter, so each window is kept slightly longer than the service's (a margin), and a
 * 429 while our own requests fill a window doubles the margin: on a busy machine or network the
 * gate learns how much jitter there is.
 *
 * Other processes (n8n queue-mode workers) share the merchant's limits but are invisible here, so
 * the gate is also adaptive: a 429 closes it for the Retry-After (or, without one, until its own
 * windows have room again) and lets one request probe before the rest follow; a 429 while our
 * own requests do not fill any window means somebody else uses the limits too, and the second
 * such 429 within a window cuts this gate's share of them; each quiet half window gives back part of the share. N workers sharing one
 * merchant thus settle near 1/N of the limits each instead of failing items.
 *
 * A service that answers nothing but 429 must still end the run: a request that has waited its
 * retry budget while the gate's requests were answered only 429 gives up (RefusedTooLong) without
 * being sent, so the waiting items end together, not one per Retry-After.
 */
import { sleep } from 'n8n-workflow';

import { RATE_LIMITS, type EndpointGroup, type RateWindow } from './endpoints';

/**
 * Extra length of every window, a share of it plus a fixed part: the service counts a request
 * when it arrives, and the time from our gate to its counter varies (connection set-up, the
 * event loop, the network), so two requests one window apart here may be a little less apart there.
 */
const WINDOW_MARGIN = 0.005;
const WINDOW_MARGIN_MS = 40;
/** The margin's fixed part grows with 429s up to this. */
const MAX_WINDOW_MARGIN_MS = 160;
/** A second 429 within a window that our own traffic does not explain multiplies the gate's share of the limits by this… */
const SHARE_CUT = 0.75;
/** …and every half window of quiet (no 429) after it adds this much back, up to the whole limit. */
const SHARE_STEP = 0.1;
/** The least share: one worker among ten still sends. */
const MIN_SHARE = 0.1;

/** Someone waiting for the gate: `wanted` says whether it still needs to be sent (a page past the end does not). */
interface Waiter {
	perMinute: number;
	wanted?: () => boolean;
	/** When its request first began to wait (a retry waits again, since the same time). */
	since: number;
	/** How long it may wait while the service answers nothing but 429 (its request's retry budget). */
	giveUpAfterMs: number;
	/** Called with the time it was let through, or undefined when it was dropped unsent. */
	resolve: (admittedAt: number | undefined) => void;
	/** Called when it gave up. */
	reject: (error: RefusedTooLong) => void;
}

/**
 * Thrown to a request that waited its request's retry budget for a gate whose requests the
 * service answered only with 429 meanwhile (or would have before the gate reopens): a service
 * that refuses for ever ends every waiting item, not one item per Retry-After.
 */
export class RefusedTooLong extends Error {
	constructor(readonly refusedForMs: number) {
		super(`The service answered only 429 for ${Math.round(refusedForMs / 1000)} s`);
	}
}

interface Gate {
	readonly group: EndpointGroup;
	/** The merchant account whose limits the gate keeps (send.ts, merchantKeyOf). */
	readonly merchantKey: string;
	inFlight: number;
	/**
	 * Requests allowed in flight now. A 429 drops it to 1 so that, when the gate reopens, one
	 * request probes the limit before the rest follow; each success then lets one more through,
	 * up to the group's allowance.
	 */
	allowed: number;
	/**
	 * Whether a request of this gate has been answered yet. Until then the requests let through
	 * may all be waiting for the same token request and reach the service together when it comes,
	 * whatever their spacing here: the first answer therefore counts them all from its time.
	 */
	answered: boolean;
	/** The part of the known limits this process may use (1 alone; less after 429s from the others' traffic). */
	share: number;
	/** When the share last changed or a 429 came: quiet is counted from here. */
	shareChangedAt: number;
	/** When the last 429 came (0: never). */
	rateLimitedAt: number;
	/** When the first 429 came since the last answer that was not one (0: the last answer was not a 429). */
	refusingSince: number;
	/** When the last 429 came that our own traffic did not explain (0: never). */
	unexplainedAt: number;
	/** The fixed part of the windows' margin: grows with each 429 (jitter between us and the service). */
	marginMs: number;
	/** When requests were let through, oldest first (only as far back as the longest window). */
	sent: number[];
	blockedUntil: number;
	waiting: Waiter[];
	/** The earliest time a wake-up is already set for, if any. */
	wakeAt?: number;
}

const gates = new Map<string, Gate>();

function windowsOf(gate: Gate): RateWindow[] {
	return RATE_LIMITS[gate.group].windows.map((window) => ({ ...window, lengthMs: window.lengthMs * (1 + WINDOW_MARGIN) + gate.marginMs }));
}

export function gateFor(merchantKey: string, group: EndpointGroup): Gate {
	const key = `${merchantKey}\u0000${group}`;
	let gate = gates.get(key);
	if (!gate) {
		gate = {
			group,
			merchantKey,
			inFlight: 0,
			allowed: RATE_LIMITS[group].inFlight,
			answered: false,
			share: 1,
			shareChangedAt: 0,
			rateLimitedAt: 0,
			refusingSince: 0,
			unexplainedAt: 0,
			marginMs: WINDOW_MARGIN_MS,
			sent: [],
			blockedUntil: 0,
			waiting: [],
		};
		gates.set(key, gate);
	}
	return gate;
}

/** How many the window lets through for one request: the gate's share of the limit, and the user's per-minute cap. */
function capOf(gate: Gate, window: RateWindow, windows: RateWindow[], perMinute: number): number {
	let cap = Math.max(1, Math.floor(window.limit * gate.share));
	// The per-minute option applies to the group's longest window: the minute of every group that
	// has windows (endpoints.ts).
	const longest = Math.max(...windows.map(({ lengthMs }) => lengthMs));
	if (window.lengthMs === longest) cap = Math.min(cap, perMinute);
	return cap;
}

/** Milliseconds until the windows let one more request through (0: now). */
function windowDelayMs(gate: Gate, perMinute: number, now: number): number {
	const windows = windowsOf(gate);
	if (windows.length === 0) {
		gate.sent.length = 0;
		return 0;
	}
	const longest = Math.max(...windows.map(({ lengthMs }) => lengthMs));
	let expired = 0;
	while (expired < gate.sent.length && gate.sent[expired] <= now - longest) expired++;
	if (expired > 0) gate.sent.splice(0, expired);
	let delay = 0;
	for (const window of windows) {
		const cap = capOf(gate, window, windows, perMinute);
		// The request fits once the cap-th most recent one has left the window.
		const bounding = gate.sent[gate.sent.length - cap];
		if (bounding !== undefined) delay = Math.max(delay, bounding + window.lengthMs - now);
		const last = gate.sent[gate.sent.length - 1];
		if (window.evenly && last !== undefined) delay = Math.max(delay, last + window.lengthMs / cap / 2 - now);
	}
	return delay;
}

/**
 * Ends the waits that cannot end in a send within their budget while the service answers only
 * 429: from when their request began to wait (or the refusals began, if later) to when the gate
 * reopens. Time queued behind other requests counts here: a service that refuses everything for
 * the whole budget ends every waiting item, not one item per Retry-After. Checked whenever the
 * gate moves (each 429 closes it, each reopening sends a probe), so it needs no timer of its own.
 */
function giveUpRefusedWaits(gate: Gate, now: number): void {
	if (gate.refusingSince === 0 || gate.waiting.length === 0) return;
	const reopensAt = Math.max(gate.blockedUntil, now);
	gate.waiting = gate.waiting.filter((waiter) => {
		if (reopensAt - Math.max(gate.refusingSince, waiter.since) < waiter.giveUpAfterMs) return true;
		waiter.reject(new RefusedTooLong(now - gate.refusingSince));
		return false;
	});
}

/** Lets waiting requests through while the gate, the in-flight allowance and the windows allow. */
function admitWaiting(gate: Gate): void {
	giveUpRefusedWaits(gate, Date.now());
	while (gate.waiting.length > 0) {
		const head = gate.waiting[0];
		if (head.wanted && !head.wanted()) {
			gate.waiting.shift();
			head.resolve(undefined);
			continue;
		}
		if (gate.inFlight >= gate.allowed) return; // a release lets the next one in
		const now = Date.now();
		const delay = Math.max(gate.blockedUntil - now, windowDelayMs(gate, head.perMinute, now));
		if (delay > 0) {
			wakeIn(gate, delay);
			return;
		}
		gate.waiting.shift();
		gate.inFlight++;
		gate.sent.push(now);
		head.resolve(now);
	}
}

/** One timer per gate at a time (the earliest needed); a later one that fires early just re-checks. */
function wakeIn(gate: Gate, delayMs: number): void {
	const at = Date.now() + delayMs;
	if (gate.wakeAt !== undefined && gate.wakeAt <= at) return;
	gate.wakeAt = at;
	void sleep(delayMs).then(() => {
		if (gate.wakeAt === at) gate.wakeAt = undefined;
		admitWaiting(gate);
	});
}

/**
 * Waits for the gate. Requests are let through in turn by the gate, never by a timer of their
 * own, so that a burst of items goes out at the windows' pace in the order it came. `atFront`
 * is for a request retried after a 5xx: it already waited its turn once. Resolves to the time it
 * was let through, or undefined, without sending anything, when `wanted` says the request is no
 * longer needed.
 */
export async function acquire(
	gate: Gate,
	options: { atFront?: boolean; perMinute?: number; wanted?: () => boolean; since?: number; giveUpAfterMs?: number } = {},
): Promise<number | undefined> {
	return await new Promise<number | undefined>((resolve, reject) => {
		const waiter: Waiter = {
			perMinute: options.perMinute ?? Infinity,
			wanted: options.wanted,
			since: options.since ?? Date.now(),
			giveUpAfterMs: options.giveUpAfterMs ?? Infinity,
			resolve,
			reject,
		};
		if (options.atFront) gate.waiting.unshift(waiter);
		else gate.waiting.push(waiter);
		admitWaiting(gate);
	});
}

/** A request let through has ended (answered or failed; `rateLimited`: answered 429). */
export function release(gate: Gate, succeeded: boolean, rateLimited = false): void {
	gate.inFlight--;
	if (!rateLimited) gate.refusingSince = 0;
	if (succeeded) {
		if (!gate.answered) gate.sent.fill(Date.now());
		gate.answered = true;
		if (gate.allowed < RATE_LIMITS[gate.group].inFlight) gate.allowed++;
		regainShare(gate, Date.now());
	}
	admitWaiting(gate);
}

/** After a window without 429s, part of the share comes back. */
function regainShare(gate: Gate, now: number): void {
	if (gate.share >= 1) return;
	const windows = windowsOf(gate);
	const quietMs = windows.length === 0 ? 0 : Math.max(...windows.map(({ lengthMs }) => lengthMs)) / 2;
	if (now - Math.max(gate.shareChangedAt, gate.rateLimitedAt) < quietMs) return;
	gate.share = Math.min(1, gate.share + SHARE_STEP);
	gate.shareChangedAt = now;
}

/**
 * The service answered 429 to a request let through at `sentAt`. The gate closes for
 * `retryAfterMs`, or without it until its windows have room again (at least the shortest window,
 * or `fallbackMs` for a group without windows), and the whole group waits: the limit is the
 * merchant's, not one request's.
 *
 * Why it came decides what the gate learns. When this process's own requests fill a window (as
 * the service may see them, a margin later), the 429 is the jitter between us and the service:
 * the margin doubles. When they do not, somebody else uses the same limits: at the second such
 * 429 within a window the gate's share of them is cut. Only a request let through after the gate's last 429 tells something new; those
 * in flight then were answered 429 for the same reason. Returns how long the gate closed.
 */
export function closeAfterRateLimit(gate: Gate, sentAt: number, retryAfterMs: number | undefined, fallbackMs: number): number {
	const now = Date.now();
	if (gate.refusingSince === 0) gate.refusingSince = now;
	// The service did not count the rejected request; neither do we.
	const index = gate.sent.lastIndexOf(sentAt);
	if (index >= 0) gate.sent.splice(index, 1);
	const windows = windowsOf(gate);
	if (sentAt > gate.rateLimitedAt) {
		gate.rateLimitedAt = now;
		// The service counted it on arrival, somewhere between sentAt and now; its window then held
		// those of ours that arrived up to a window before, each up to a round trip after we sent it.
		const roundTripMs = now - sentAt;
		const ownTrafficFillsAWindow = windows.some((window) => {
			const since = sentAt - window.lengthMs - roundTripMs;
			return gate.sent.filter((at) => at > since).length >= capOf(gate, window, windows, Infinity);
		});
		const longestMs = windows.length === 0 ? 0 : Math.max(...windows.map(({ lengthMs }) => lengthMs));
		if (ownTrafficFillsAWindow) {
			gate.marginMs = Math.min(MAX_WINDOW_MARGIN_MS, gate.marginMs * 2);
		} else if (now - gate.unexplainedAt < longestMs) {
			// Twice within a window: one stray 429 (a late arrival) does not halve a lone process's pace.
			gate.share = Math.max(MIN_SHARE, gate.share * SHARE_CUT);
			gate.shareChangedAt = now;
		}
		if (!ownTrafficFillsAWindow) gate.unexplainedAt = now;
	}
	gate.allowed = 1;
	let waitMs = retryAfterMs;
	if (waitMs === undefined) {
		waitMs =
			windows.length === 0
				? fallbackMs
				: Math.max(Math.min(...windows.map(({ lengthMs }) => lengthMs)), windowDelayMs(gate, Infinity, now));
	}
	gate.blockedUntil = Math.max(gate.blockedUntil, now + waitMs);
	return waitMs;
}

/** How long the service has answered the gate's requests only with 429 (0: its last answer was not a 429). */
export function refusingForMs(gate: Gate): number {
	return gate.refusingSince === 0 ? 0 : Date.now() - gate.refusingSince;
}

/** Thrown instead of sending a request whose `wanted` turned false while it waited (e.g. a page past the list's end). */
export class RequestNotNeeded extends Error {
	constructor() {
		super('The request was no longer needed and was not sent');
	}
}

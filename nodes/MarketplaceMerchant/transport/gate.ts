/**
 * The pacing gate: one per merchant and endpoint group, letting requests through at the known
 * limits (endpoints.ts) with at most the group's in-flight allowance open, so the service need not
 * answer 429 (RoutingNode starts every item at once, 1,000 items against 60 a minute).
 *
 * The service counts a request when it arrives, and a request reaches it some time after the gate
 * let it go (n8n's request helper and a busy event loop: up to ~150 ms measured), so a window
 * counted from when requests left the gate runs ahead of the service's. The gate counts each
 * request from the latest moment it may have arrived instead: its answer (the service counted it
 * before answering), less most of the quickest round trip of the group's last answers (the
 * service's own time and the way back, measured: without it a window would cost a whole round
 * trip, a second with a slow service; QUICKER_ANSWER_MS). Until answered it is counted in every window. So when the
 * gate lets a request go at t, the request the window is bounded by reached the service at least a
 * window before t, and the new one arrives after t: the service's window holds no more than the
 * gate's, however late requests leave this process. A 429 is therefore not of the gate's own making
 * (unless an answer comes 200 ms quicker than any of the last 20; what a window costs is the rest
 * of a round trip).
 *
 * Other processes (queue-mode workers) share the limits unseen. What the service's answers tell
 * (platform-facts: 429, sometimes Retry-After; no header with the counts) is learned: a 429 closes
 * the gate for its Retry-After (or until the windows have room) and lets one request probe before
 * the rest follow, and cuts this gate's share of the limits: above half to half (two workers that
 * meet settle at half each, which together fill the limits without a 429), at half or below by a
 * step (another worker may have outgrown its half). The share grows back only by probes: while
 * its share of the longest window alone holds the gate back, one request may go beyond it now and
 * then; if the service accepts it the share grows a step and the probes' wait halves (at least an
 * eighth of the window: room now may be another worker's share not used yet this minute); if it
 * answers 429 the wait doubles (from a quarter of the window up to PROBE_MAX_WINDOWS, each wait
 * ±20 % at random so that workers do not probe in step) and a share above half gives a step back
 * (workers settle near even shares, and so finish together). So a worker left alone takes the
 * limits back step by step, and two busy ones meet a 429 about once per probe interval each. A
 * request that waited its retry budget while the service
 * answered only 429 gives up unsent (RefusedTooLong), all waiting items together. policy.ts decides
 * what a request does at the gate.
 */
import { sleep } from 'n8n-workflow';

import { RATE_LIMITS, type EndpointGroup, type RateWindow } from './endpoints';
import { processWide } from './state';

/**
 * Each window is kept this much longer than the service's: a share for the two clocks' rates and a
 * fixed part for their millisecond rounding (the gate reads Date.now; not for travel time, which the
 * answer bounds).
 */
const WINDOW_MARGIN = 0.001;
const WINDOW_MARGIN_MS = 2;
/**
 * An answer counts its request from the answer less the quickest recent round trip (the service's
 * own time and the way back, measured) but for this much: a window costs the gate no full round
 * trip against a far or slow service, and on a quick one (round trips under this) a request counts
 * from its answer itself. Generous: on a loaded machine the quickest round trip is mostly this
 * process's own delay (with 50 ms here the two-worker bench met 429s of its own), not the service's.
 */
const QUICKER_ANSWER_MS = 200;
const ROUND_TRIPS_KEPT = 20;
/** A 429 the gate did not ask for multiplies a share above FAIR_SHARE by this. */
const SHARE_CUT = 0.5;
/** One worker among ten still sends. */
const MIN_SHARE = 0.1;
/** An accepted probe adds this much of the limits to the share (at least one request of the longest window). */
const PROBE_STEP = 0.05;
/** After a 429, the next probe waits this part of the longest window, doubled by each probe answered 429, up to the max. */
const PROBE_FIRST_WINDOWS = 0.25;
const PROBE_MAX_WINDOWS = 1.5;
/** After an accepted probe the next one waits this part of the longest window. */
const PROBE_AFTER_ACCEPTED_WINDOWS = 0.125;
/** Each probe's wait is this part longer or shorter, at random. */
const PROBE_JITTER = 0.2;
/** A 429 cuts a share above this to it (and no further); a refused probe takes a step off a share above it. */
const FAIR_SHARE = 0.5;

/** `since`: when its request first began to wait (a retry waits again, since then); `giveUpAfterMs`: its retry budget. */
export interface Waiter {
	perMinute: number;
	wanted?: () => boolean;
	since: number;
	giveUpAfterMs: number;
	/** With the admission, or undefined when no longer `wanted`. */
	resolve: (admitted: Admission | undefined) => void;
	reject: (error: RefusedTooLong) => void;
}

/** A request the gate let through: when, and whether beyond the gate's share, to learn whether the service has room. */
export interface Admission {
	at: number;
	probe: boolean;
}

/** A request that waited its retry budget while the service answered the gate's requests only with 429. */
class RefusedTooLongError extends Error {
	constructor(readonly refusedForMs: number) {
		super(`The service answered only 429 for ${Math.round(refusedForMs / 1000)} s`);
	}
}
// One class per process (state.ts): a gate may give up a wait for another bundle's request, which tests it with instanceof.
export const RefusedTooLong = processWide('RefusedTooLong', () => RefusedTooLongError);
export type RefusedTooLong = RefusedTooLongError;

export class Gate {
	/** Let through and not answered yet: counted in every window (they may arrive at any time). */
	inFlight = 0;
	/** In flight allowed now: 1 after a 429 (one request probes), one more per success up to the group's allowance. */
	allowed: number;
	/** The part of the known limits this process may use: halved by a 429, grown by accepted probes. */
	share = 1;
	/** When the last 429 came (0: never); only a request let through after it tells something new. */
	rateLimitedAt = 0;
	/** The first 429 since the last answer that was not one (0: none). */
	refusingSince = 0;
	/** The latest each answered request can have reached the service (its answer, less the service's measured time), oldest first, as far back as the longest window. */
	reached: number[] = [];
	/** The round trips of the last answers (ROUND_TRIPS_KEPT), oldest first. */
	roundTrips: number[] = [];
	/** When the last request was let through (evenly spaced windows). */
	lastSentAt = -Infinity;
	/** A probe beyond the share may go from then on, when none is in flight. */
	probeAt = 0;
	probeInFlight = false;
	/** The wait before the next probe: doubled by a refused probe, halved by an accepted one (0: none yet). */
	probeWaitMs = 0;
	blockedUntil = 0;
	waiting: Waiter[] = [];
	wakeAt?: number;

	constructor(readonly group: EndpointGroup) {
		this.allowed = RATE_LIMITS[group].inFlight;
	}
}

const gates = processWide('gates', () => new Map<string, Gate>());

function windowsOf(gate: Gate): RateWindow[] {
	return RATE_LIMITS[gate.group].windows.map((window) => ({ ...window, lengthMs: window.lengthMs * (1 + WINDOW_MARGIN) + WINDOW_MARGIN_MS }));
}

function longestOf(windows: RateWindow[]): number {
	return windows.length === 0 ? 0 : Math.max(...windows.map(({ lengthMs }) => lengthMs));
}

export function gateFor(merchantKey: string, group: EndpointGroup): Gate {
	const key = `${merchantKey}\u0000${group}`;
	const gate = gates.get(key) ?? new Gate(group);
	gates.set(key, gate);
	return gate;
}

/** `share` of the window's limit; the per-minute option caps the longest window, the minute. */
function capOf(share: number, window: RateWindow, longestMs: number, perMinute: number): number {
	const cap = Math.max(1, Math.floor(window.limit * share));
	return window.lengthMs === longestMs ? Math.min(cap, perMinute) : cap;
}

function forgetOld(gate: Gate, windows: RateWindow[], now: number): void {
	const longest = longestOf(windows);
	let expired = 0;
	while (expired < gate.reached.length && gate.reached[expired] <= now - longest) expired++;
	if (expired > 0) gate.reached.splice(0, expired);
}

/** How long until a request fits every window at `share` (Infinity: not before an answer comes). */
function windowDelayMs(gate: Gate, windows: RateWindow[], share: number, perMinute: number, now: number, leaving = 0): number {
	forgetOld(gate, windows, now);
	const longest = longestOf(windows);
	// `leaving`: in flight, but refused (the service did not count it).
	const counted = gate.reached.length + gate.inFlight - leaving;
	let delay = 0;
	for (const window of windows) {
		const cap = capOf(share, window, longest, perMinute);
		// The request fits once the cap-th most recent one has left the window; those in flight are the most recent.
		if (counted >= cap) {
			const bounding = gate.reached[counted - cap];
			if (bounding === undefined) return Infinity;
			delay = Math.max(delay, bounding + window.lengthMs - now);
		}
		if (window.evenly) delay = Math.max(delay, gate.lastSentAt + window.lengthMs / cap / 2 - now);
	}
	return delay;
}

/**
 * Whether the share of the longest window holds the request back. Only then does a probe tell
 * something: a shorter window (a second) has room again and again while the minute fills, so a
 * probe accepted there would grow the share past what the minute holds for both workers.
 */
function heldByLongestShare(gate: Gate, windows: RateWindow[], perMinute: number, now: number): boolean {
	const longest = longestOf(windows);
	return windowDelayMs(gate, windows.filter(({ lengthMs }) => lengthMs === longest), gate.share, perMinute, now) > 0;
}

/** Ends the waits refused too long (time queued behind others counts); checked whenever the gate moves, no timer of its own. */
function giveUpRefusedWaits(gate: Gate, now: number): void {
	if (gate.refusingSince === 0 || gate.waiting.length === 0) return;
	const reopensAt = Math.max(gate.blockedUntil, now);
	gate.waiting = gate.waiting.filter((waiter) => {
		if (reopensAt - Math.max(gate.refusingSince, waiter.since) < waiter.giveUpAfterMs) return true;
		waiter.reject(new RefusedTooLong(now - gate.refusingSince));
		return false;
	});
}

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
		const windows = windowsOf(gate);
		const blockedMs = gate.blockedUntil - now;
		let delay = Math.max(blockedMs, windowDelayMs(gate, windows, gate.share, head.perMinute, now));
		let probe = false;
		if (delay > 0 && gate.share < 1 && !gate.probeInFlight && heldByLongestShare(gate, windows, head.perMinute, now)) {
			// Held back by its share of the longest window: one probe at a time may go as far as the known limits, to learn whether the service has room.
			const probeDelay = Math.max(blockedMs, gate.probeAt - now, windowDelayMs(gate, windows, 1, head.perMinute, now));
			probe = probeDelay <= 0;
			delay = probe ? 0 : Math.min(delay, probeDelay);
		}
		if (delay > 0) {
			// Infinity: only an answer (a release) lets it in.
			if (Number.isFinite(delay)) wakeIn(gate, delay);
			return;
		}
		gate.waiting.shift();
		gate.inFlight++;
		gate.lastSentAt = now;
		if (probe) gate.probeInFlight = true;
		head.resolve({ at: now, probe });
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

/** The request's admission, in turn, or undefined if no longer `wanted`; `atFront`: a 5xx retry. */
export async function acquire(gate: Gate, atFront: boolean, request: Omit<Waiter, 'resolve' | 'reject'>): Promise<Admission | undefined> {
	return await new Promise<Admission | undefined>((resolve, reject) => {
		if (atFront) gate.waiting.unshift({ ...request, resolve, reject });
		else gate.waiting.push({ ...request, resolve, reject });
		admitWaiting(gate);
	});
}

/**
 * The request let through as `admission` has its answer (or failed): from now on it is counted from
 * the latest it can have reached the service (now, less the service's measured time), unless the
 * service refused it (429), which the service does not count either.
 */
export function release(gate: Gate, admission: Admission, succeeded: boolean, rateLimited: boolean): void {
	const now = Date.now();
	gate.inFlight--;
	if (!rateLimited) {
		gate.refusingSince = 0;
		const reachedBy = now - Math.max(0, quickestAnswerMs(gate, now - admission.at) - QUICKER_ANSWER_MS);
		let index = gate.reached.length;
		while (index > 0 && gate.reached[index - 1] > reachedBy) index--;
		gate.reached.splice(index, 0, reachedBy);
	}
	if (admission.probe) {
		gate.probeInFlight = false;
		// The service had room beyond the share: take it, and probe again when held back.
		if (succeeded) {
			const windows = windowsOf(gate);
			const largest = windows.reduce((limit, window) => Math.max(limit, window.limit), 1);
			gate.share = Math.min(1, gate.share + Math.max(PROBE_STEP, 1 / largest));
			// Room now may be another worker's share not used yet this minute: one step at a time, and
			// the wait refusals built up only halves (two busy workers would otherwise probe ever more often).
			gate.probeWaitMs /= 2;
			gate.probeAt = now + Math.max(longestOf(windows) * PROBE_AFTER_ACCEPTED_WINDOWS, gate.probeWaitMs);
		}
	}
	if (succeeded && gate.allowed < RATE_LIMITS[gate.group].inFlight) gate.allowed++;
	admitWaiting(gate);
}

/**
 * The quickest of the group's last answers, this one's (`roundTripMs`) included: the service's own
 * time and the way back take at least about that long (a far service, a slow route), so a request
 * answered now reached the service that long before, however late it left this process.
 */
function quickestAnswerMs(gate: Gate, roundTripMs: number): number {
	gate.roundTrips.push(Math.max(0, roundTripMs));
	if (gate.roundTrips.length > ROUND_TRIPS_KEPT) gate.roundTrips.shift();
	// Not before there are enough: the first answers may all have waited for one token request.
	return gate.roundTrips.length < ROUND_TRIPS_KEPT ? 0 : Math.min(...gate.roundTrips);
}

/** The next probe's wait after a 429: the first wait, doubled by each probe answered 429 since, up to the max. */
function nextProbeWaitMs(gate: Gate, windows: RateWindow[], probeRefused: boolean): number {
	const longest = longestOf(windows);
	const first = longest * PROBE_FIRST_WINDOWS;
	gate.probeWaitMs = probeRefused ? Math.min(Math.max(first, gate.probeWaitMs * 2), longest * PROBE_MAX_WINDOWS) : Math.max(first, gate.probeWaitMs);
	// Workers that met the same 429 would probe together and be refused together: each waits a random part more or less.
	return gate.probeWaitMs * (1 - PROBE_JITTER + 2 * PROBE_JITTER * Math.random());
}

/**
 * The service answered 429 to a request let through as `admission`: the whole group waits for
 * `retryAfterMs`, or until its windows have room (at least the shortest window; `fallbackMs`
 * without windows). Only a request let through after the last 429 tells something new: another
 * client uses the limits too (the gate's own traffic never fills a window, see above), so the share
 * halves, unless the request was a probe beyond it, which only spaces the probes out. Returns how
 * long the gate closed.
 */
export function closeAfterRateLimit(gate: Gate, admission: Admission, retryAfterMs: number | undefined, fallbackMs: number): number {
	const now = Date.now();
	if (gate.refusingSince === 0) gate.refusingSince = now;
	const windows = windowsOf(gate);
	if (admission.at > gate.rateLimitedAt) {
		gate.rateLimitedAt = now;
		// Above half, back to half at most (two workers that meet settle there); at half or below another
		// worker may have outgrown its share meanwhile: a step only, so that the shares meet again.
		if (!admission.probe) gate.share = gate.share > FAIR_SHARE ? Math.max(FAIR_SHARE, gate.share * SHARE_CUT) : Math.max(MIN_SHARE, gate.share - PROBE_STEP);
		// A probe refused while this gate holds more than half: give a step back (workers sharing
		// the limits settle near even shares, and so finish together instead of one waiting for the other).
		else if (gate.share > FAIR_SHARE) gate.share = Math.max(FAIR_SHARE, gate.share - PROBE_STEP);
		gate.probeAt = now + nextProbeWaitMs(gate, windows, admission.probe);
	}
	gate.allowed = 1;
	let waitMs = retryAfterMs;
	if (waitMs === undefined && windows.length === 0) waitMs = fallbackMs;
	// Else until the windows (at the share as it is now) have room, at least the shortest window.
	const shortest = Math.min(...windows.map(({ lengthMs }) => lengthMs));
	const roomMs = windowDelayMs(gate, windows, gate.share, Infinity, now, 1);
	waitMs ??= Math.max(shortest, Number.isFinite(roomMs) ? roomMs : 0);
	gate.blockedUntil = Math.max(gate.blockedUntil, now + waitMs);
	return waitMs;
}

/**
 * The pacing gate: one per merchant and endpoint group, letting requests through at the known
 * limits (endpoints.ts) with at most the group's in-flight allowance open, so the service need not
 * answer 429 (RoutingNode starts every item at once, 1,000 items against 60 a minute). The service
 * counts a request on arrival, a little later and with jitter, so each window is kept a margin
 * longer, doubled by a 429 our own requests explain and halved again after quiet (a busy moment's
 * jitter must not slow the rest of the day: a doubled margin kept for good cost the merchant's day
 * of bench/rows/merchant-day.ts 16 % on the per-second window). Other processes (queue-mode workers) share the
 * limits unseen: a 429 closes the gate for its Retry-After and lets one request probe before the
 * rest follow; a second 429 within a window that our traffic does not explain cuts this gate's share
 * (one stray 429, a late arrival, does not), and quiet gives it back, so N workers settle near 1/N
 * each. A request that waited its retry budget while the service answered only 429 gives up unsent
 * (RefusedTooLong), all waiting items together. policy.ts decides what a request does at the gate.
 */
import { sleep } from 'n8n-workflow';

import { RATE_LIMITS, type EndpointGroup, type RateWindow } from './endpoints';
import { processWide } from './state';

/** The window margin: a share of the window plus a fixed part (up to the max) for the gate-to-counter jitter. */
const WINDOW_MARGIN = 0.005;
const WINDOW_MARGIN_MS = 40;
const MAX_WINDOW_MARGIN_MS = 160;
/** A raised margin halves after this many of the group's shortest windows without a 429. */
const MARGIN_QUIET_WINDOWS = 10;
/** The share after an unexplained 429 is multiplied by SHARE_CUT; each quiet half window adds SHARE_STEP back. */
const SHARE_CUT = 0.75;
const SHARE_STEP = 0.1;
/** One worker among ten still sends. */
const MIN_SHARE = 0.1;

/** `since`: when its request first began to wait (a retry waits again, since then); `giveUpAfterMs`: its retry budget. */
export interface Waiter {
	perMinute: number;
	wanted?: () => boolean;
	since: number;
	giveUpAfterMs: number;
	/** With the time it was let through, or undefined when no longer `wanted`. */
	resolve: (admittedAt: number | undefined) => void;
	reject: (error: RefusedTooLong) => void;
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
	inFlight = 0;
	/** In flight allowed now: 1 after a 429 (one request probes), one more per success up to the group's allowance. */
	allowed: number;
	/** Until a first answer, those let through may all wait for one token request: the first answer counts them all from then. */
	answered = false;
	/** The part of the known limits this process may use. */
	share = 1;
	/** Quiet is counted from here, or from the last 429. */
	shareChangedAt = 0;
	rateLimitedAt = 0;
	/** The first 429 since the last answer that was not one (0: none). */
	refusingSince = 0;
	/** The last 429 our own traffic did not explain (0: never). */
	unexplainedAt = 0;
	marginMs = WINDOW_MARGIN_MS;
	/** Quiet for the margin is counted from here, or from the last 429. */
	marginChangedAt = 0;
	/** When requests were let through, oldest first, as far back as the longest window. */
	sent: number[] = [];
	blockedUntil = 0;
	waiting: Waiter[] = [];
	wakeAt?: number;

	constructor(readonly group: EndpointGroup) {
		this.allowed = RATE_LIMITS[group].inFlight;
	}
}

const gates = processWide('gates', () => new Map<string, Gate>());

function windowsOf(gate: Gate): RateWindow[] {
	return RATE_LIMITS[gate.group].windows.map((window) => ({ ...window, lengthMs: window.lengthMs * (1 + WINDOW_MARGIN) + gate.marginMs }));
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

/** The gate's share of the window's limit; the per-minute option caps the longest window, the minute. */
function capOf(gate: Gate, window: RateWindow, longestMs: number, perMinute: number): number {
	const cap = Math.max(1, Math.floor(window.limit * gate.share));
	return window.lengthMs === longestMs ? Math.min(cap, perMinute) : cap;
}

function windowDelayMs(gate: Gate, windows: RateWindow[], perMinute: number, now: number): number {
	const longest = longestOf(windows);
	let expired = 0;
	while (expired < gate.sent.length && gate.sent[expired] <= now - longest) expired++;
	if (expired > 0) gate.sent.splice(0, expired);
	let delay = 0;
	for (const window of windows) {
		const cap = capOf(gate, window, longest, perMinute);
		// The request fits once the cap-th most recent one has left the window.
		const bounding = gate.sent[gate.sent.length - cap];
		if (bounding !== undefined) delay = Math.max(delay, bounding + window.lengthMs - now);
		const last = gate.sent[gate.sent.length - 1];
		if (window.evenly && last !== undefined) delay = Math.max(delay, last + window.lengthMs / cap / 2 - now);
	}
	return delay;
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
		const delay = Math.max(gate.blockedUntil - now, windowDelayMs(gate, windowsOf(gate), head.perMinute, now));
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

/** The time the gate let the request through, in turn, or undefined if no longer `wanted`; `atFront`: a 5xx retry. */
export async function acquire(gate: Gate, atFront: boolean, request: Omit<Waiter, 'resolve' | 'reject'>): Promise<number | undefined> {
	return await new Promise<number | undefined>((resolve, reject) => {
		if (atFront) gate.waiting.unshift({ ...request, resolve, reject });
		else gate.waiting.push({ ...request, resolve, reject });
		admitWaiting(gate);
	});
}

export function release(gate: Gate, succeeded: boolean, rateLimited: boolean): void {
	gate.inFlight--;
	if (!rateLimited) gate.refusingSince = 0;
	if (succeeded) {
		const now = Date.now();
		if (!gate.answered) gate.sent.fill(now);
		gate.answered = true;
		if (gate.allowed < RATE_LIMITS[gate.group].inFlight) gate.allowed++;
		const windows = windowsOf(gate);
		const quietMs = longestOf(windows) / 2;
		if (gate.share < 1 && now - Math.max(gate.shareChangedAt, gate.rateLimitedAt) >= quietMs) {
			gate.share = Math.min(1, gate.share + SHARE_STEP);
			gate.shareChangedAt = now;
		}
		const marginQuietMs = MARGIN_QUIET_WINDOWS * Math.min(...windows.map(({ lengthMs }) => lengthMs));
		if (gate.marginMs > WINDOW_MARGIN_MS && now - Math.max(gate.marginChangedAt, gate.rateLimitedAt) >= marginQuietMs) {
			gate.marginMs = Math.max(WINDOW_MARGIN_MS, gate.marginMs / 2);
			gate.marginChangedAt = now;
		}
	}
	admitWaiting(gate);
}

/**
 * The service answered 429 to a request let through at `sentAt`: the whole group waits for
 * `retryAfterMs`, or until its windows have room (at least the shortest window; `fallbackMs`
 * without windows). Only a request let through after the last 429 tells something new (the
 * margin, the share). Returns how long the gate closed.
 */
export function closeAfterRateLimit(gate: Gate, sentAt: number, retryAfterMs: number | undefined, fallbackMs: number): number {
	const now = Date.now();
	if (gate.refusingSince === 0) gate.refusingSince = now;
	// The service did not count the rejected request; neither do we.
	const index = gate.sent.lastIndexOf(sentAt);
	if (index >= 0) gate.sent.splice(index, 1);
	const windows = windowsOf(gate);
	const longest = longestOf(windows);
	if (sentAt > gate.rateLimitedAt) {
		gate.rateLimitedAt = now;
		// Counted on arrival (before now), its window held ours sent up to a window and a round trip before.
		const roundTripMs = now - sentAt;
		const ownTrafficFillsAWindow = windows.some((window) => {
			const since = sentAt - window.lengthMs - roundTripMs;
			return gate.sent.filter((at) => at > since).length >= capOf(gate, window, longest, Infinity);
		});
		if (ownTrafficFillsAWindow) {
			gate.marginMs = Math.min(MAX_WINDOW_MARGIN_MS, gate.marginMs * 2);
			gate.marginChangedAt = now;
		} else if (now - gate.unexplainedAt < longest) {
			gate.share = Math.max(MIN_SHARE, gate.share * SHARE_CUT);
			gate.shareChangedAt = now;
		}
		if (!ownTrafficFillsAWindow) gate.unexplainedAt = now;
	}
	gate.allowed = 1;
	let waitMs = retryAfterMs;
	if (waitMs === undefined && windows.length === 0) waitMs = fallbackMs;
	// Else until the windows (their margin as it is now) have room, at least the shortest window.
	waitMs ??= Math.max(Math.min(...windows.map(({ lengthMs }) => lengthMs)), windowDelayMs(gate, windowsOf(gate), Infinity, now));
	gate.blockedUntil = Math.max(gate.blockedUntil, now + waitMs);
	return waitMs;
}


/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code, run by jest and never loaded by n8n: it may use process and timers (docs/architecture.md, Toolchain). */
/**
 * The pacing gate (transport/gate.ts). Through the real engine against the sandbox: a request that
 * reaches the service late (the sandbox holds it before counting it, as n8n's helper and a busy
 * event loop do) does not make the next requests meet a 429, since the gate counts a request from
 * its answer, the latest it can have arrived (less the service's measured time, when it is slow). The windows hold on the service's own clock, whatever
 * the travel time. Then what the gate learns from the service's answers when another client shares
 * the limits (its share halves on a 429, probes beyond it find the room again), step by step on a
 * held clock: no claim here depends on how fast the machine is.
 */
import type { INodeParameters } from 'n8n-workflow';

import { startSandbox, type Sandbox } from '../../sandbox';
import { acquire, closeAfterRateLimit, gateFor, release, type Admission, type Gate } from '../../nodes/MarketplaceMerchant/transport/gate';
import { runNode, sandboxCredential } from '../harness';

const FIRST_PRODUCT_ID = 100_001;

const UPDATE_FROM_ITEM: INodeParameters = {
	resource: 'product',
	operation: 'update',
	productId: '={{ $json.id }}',
	updateFields: { stockLevel: '={{ $json.stock }}' },
};

describe('Pacing by when a request can have reached the service', () => {
	let sandbox: Sandbox | undefined;

	afterEach(async () => {
		await sandbox?.close();
		sandbox = undefined;
	});

	it('a window of requests, each held a while before the service counts it, still gets no 429', async () => {
		// The live limits (5 a second). Each of the first 10 reaches the service late by a different
		// amount. Counted from when they left the gate, requests a second later met windows the
		// service still counted full (20 answers 429 before this gate); counted from their answers, none.
		const service = await startSandbox({ now: '2025-06-15T10:00:00Z', products: 100, rateLimits: { scale: 1 } });
		sandbox = service;
		for (const delayMs of [250, 0, 150, 0, 200, 100, 0, 250, 50, 200]) service.injectFault({ route: 'productUpdate', delayMs: delayMs || 1, count: 1 });
		const inputItems = Array.from({ length: 16 }, (_, index) => ({ id: FIRST_PRODUCT_ID + index, stock: index + 2 }));

		const result = await runNode('marketplaceMerchant', UPDATE_FROM_ITEM, inputItems, { credentials: { marketplaceMerchantApi: sandboxCredential(service) } });

		expect(result.json('Node').filter((json) => json.success !== true)).toEqual([]);
		expect(service.log.filter((entry) => entry.route === 'productUpdate' && entry.status !== 200)).toEqual([]);
	}, 30_000);
});

describe('What the gate learns from the service’s answers when another client shares the limits', () => {
	const START = 1_800_000_000_000;

	beforeEach(() => {
		// The gate's clock and its timers held: nothing moves unless the test moves it.
		jest.useFakeTimers({ now: START, doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
		// The middle of each probe wait's random ±20 %.
		jest.spyOn(Math, 'random').mockReturnValue(0.5);
	});

	afterEach(() => {
		jest.useRealTimers();
		jest.restoreAllMocks();
	});

	const now = () => Date.now();
	const moveTo = (ms: number) => jest.setSystemTime(ms);

	/** The request's admission if the gate lets it through now, else undefined (and it leaves the queue). */
	async function goesNow(gate: Gate): Promise<Admission | undefined> {
		const waiting = gate.waiting.length;
		let admitted: Admission | undefined;
		void acquire(gate, false, { perMinute: Infinity, since: now(), giveUpAfterMs: 180_000 }).then((admission) => (admitted = admission));
		await new Promise(setImmediate);
		if (admitted) return admitted;
		gate.waiting.splice(waiting);
		return undefined;
	}

	async function letThrough(gate: Gate): Promise<Admission> {
		const admission = await goesNow(gate);
		if (!admission) throw new Error('held back');
		return admission;
	}

	/** 32 requests of the catalogue group (60 a minute, 5 a second) answered, 250 ms apart; then one answered 429 (Retry-After 1 ms). */
	async function fillThenRefused(gate: Gate): Promise<void> {
		for (let index = 0; index < 32; index++) {
			release(gate, await letThrough(gate), true, false);
			moveTo(now() + 250);
		}
		const refused = await letThrough(gate);
		closeAfterRateLimit(gate, refused, 1, 1_000);
		release(gate, refused, false, true);
	}

	it('counts an answered request from its answer, less the quickest of the last 20 round trips but 200 ms, once there are 20', async () => {
		const gate = gateFor('gate-test|round-trips', 'orders');
		const reachedBy: number[] = [];
		for (let index = 0; index < 21; index++) {
			const admission = await letThrough(gate);
			// A slow service: every answer takes 400 ms or more.
			moveTo(now() + 400 + (index % 3) * 100);
			release(gate, admission, true, false);
			reachedBy.push(now() - gate.reached[gate.reached.length - 1]);
			moveTo(now() + 1_000);
		}
		// From the answer itself while fewer than 20 were seen (the first ones may all have waited for a token).
		expect(reachedBy.slice(0, 19)).toEqual(Array.from({ length: 19 }, () => 0));
		expect(reachedBy.slice(19)).toEqual([200, 200]);
	});

	it('halves a share above half on a 429 (once for the requests sent before it), and takes a step off one at half', async () => {
		const gate = gateFor('gate-test|halve', 'catalogue');
		const first = await letThrough(gate);
		moveTo(now() + 200);
		const second = await letThrough(gate);
		moveTo(now() + 10);
		closeAfterRateLimit(gate, first, 1_000, 1_000);
		release(gate, first, false, true);
		expect(gate.share).toBe(0.5);
		// Sent before that 429: the same news, not a second halving.
		closeAfterRateLimit(gate, second, 1_000, 1_000);
		release(gate, second, false, true);
		expect(gate.share).toBe(0.5);
		// A later one, at half: a step only (another worker may have outgrown its half).
		moveTo(now() + 2_000);
		const third = await letThrough(gate);
		closeAfterRateLimit(gate, third, 1_000, 1_000);
		release(gate, third, false, true);
		expect(gate.share).toBeCloseTo(0.45);
	});

	it('holds to its share, lets one probe beyond it a quarter of the longest window after the 429, and grows a step when the service accepts it', async () => {
		const gate = gateFor('gate-test|probe', 'catalogue');
		await fillThenRefused(gate);
		const refusedAt = now();
		// 32 counted in the minute, the half share is 30.
		moveTo(refusedAt + 14_000);
		expect(await goesNow(gate)).toBeUndefined();
		moveTo(refusedAt + 15_100);
		const probe = await goesNow(gate);
		expect(probe).toEqual({ at: now(), probe: true });
		// One probe at a time.
		expect(await goesNow(gate)).toBeUndefined();
		release(gate, probe!, true, false);
		expect(gate.share).toBeCloseTo(0.55);
		// Accepted: the share is 33 a minute, all taken; the next probe waits an eighth of the minute.
		const acceptedAt = now();
		moveTo(acceptedAt + 7_000);
		expect(await goesNow(gate)).toBeUndefined();
		moveTo(acceptedAt + 7_600);
		expect(await goesNow(gate)).toEqual({ at: now(), probe: true });
	});

	it('gives a step back from a share above half when a probe is refused, not below half', async () => {
		const gate = gateFor('gate-test|fair', 'catalogue');
		gate.share = 0.62;
		for (const expected of [0.57, 0.52, 0.5, 0.5]) {
			moveTo(now() + 100_000);
			const probe: Admission = { at: now(), probe: true };
			gate.inFlight++;
			gate.probeInFlight = true;
			closeAfterRateLimit(gate, probe, 1, 1_000);
			release(gate, probe, false, true);
			expect(gate.share).toBeCloseTo(expected);
		}
	});

	it('spaces the probes out while the service refuses them, without cutting the share again', async () => {
		const gate = gateFor('gate-test|refused-probes', 'catalogue');
		await fillThenRefused(gate);
		const waits = [gate.probeAt - now()];
		for (let round = 0; round < 4; round++) {
			moveTo(gate.probeAt + 10);
			const probe: Admission = { at: now(), probe: true };
			gate.inFlight++;
			gate.probeInFlight = true;
			closeAfterRateLimit(gate, probe, 1, 1_000);
			release(gate, probe, false, true);
			waits.push(gate.probeAt - now());
		}
		expect(gate.share).toBe(0.5);
		// A quarter of the longest window (with its 0.1 % + 2 ms margin), doubled by each refused probe, up to 1.5 windows.
		expect(waits.map((ms) => Math.round(ms / 1_000))).toEqual([15, 30, 60, 90, 90]);
	});
});

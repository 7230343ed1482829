/**
 * The gate's window margin (transport/gate.ts): doubled by a 429 our own traffic explains (a
 * request that reached the service later than the gate let it through), and halved again after
 * quiet, so that one busy moment does not slow the rest of the day (bench row merchant-day).
 */
import { closeAfterRateLimit, gateFor, release } from '../../nodes/MarketplaceMerchant/transport/gate';

const START = 1_800_000_000_000;

function at(ms: number): void {
	jest.spyOn(Date, 'now').mockReturnValue(START + ms);
}

/** A 429 to the sixth request of a second the gate kept to five: our own traffic explains it. */
function ownTraffic429(gate: ReturnType<typeof gateFor>, ms: number): void {
	at(ms);
	gate.sent.push(...[-1_100, -1_000, -900, -800, -700].map((offset) => START + ms + offset), START + ms - 50);
	gate.inFlight = 1;
	closeAfterRateLimit(gate, START + ms - 50, 0, 1_000);
	gate.inFlight = 0;
}

function answered(gate: ReturnType<typeof gateFor>, ms: number): void {
	at(ms);
	gate.inFlight = 1;
	release(gate, true, false);
}

afterEach(() => jest.restoreAllMocks());

describe('The window margin', () => {
	it('doubles on a 429 our traffic explains, up to 160 ms', () => {
		const gate = gateFor('gate-test|double', 'orders');
		expect(gate.marginMs).toBe(40);
		ownTraffic429(gate, 0);
		expect(gate.marginMs).toBe(80);
		ownTraffic429(gate, 2_000);
		ownTraffic429(gate, 4_000);
		ownTraffic429(gate, 6_000);
		expect(gate.marginMs).toBe(160);
	});

	it('halves after ten of the shortest windows without a 429, back to 40 ms, not before', () => {
		const gate = gateFor('gate-test|quiet', 'orders');
		ownTraffic429(gate, 0);
		ownTraffic429(gate, 2_000);
		expect(gate.marginMs).toBe(160);
		answered(gate, 2_000 + 9_000);
		expect(gate.marginMs).toBe(160);
		answered(gate, 2_000 + 12_000);
		expect(gate.marginMs).toBe(80);
		// Quiet is counted again from the halving.
		answered(gate, 2_000 + 13_000);
		expect(gate.marginMs).toBe(80);
		answered(gate, 2_000 + 24_000);
		expect(gate.marginMs).toBe(40);
		answered(gate, 2_000 + 60_000);
		expect(gate.marginMs).toBe(40);
	});
});

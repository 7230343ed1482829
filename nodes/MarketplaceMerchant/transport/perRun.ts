/**
 * What the items of one node run ask for, handled together. RoutingNode starts every item of a run
 * in one synchronous loop (n8n 1.123 to 2.41), so what the items ask before the next turn of the
 * event loop can go out as one request; a run is known by its execute data (routing.ts `runOf`), the
 * same object for every item of one run, and what is kept for it goes with it (WeakMap). Outside a
 * run (no execute data) each item asks alone.
 */
import { sleep } from 'n8n-workflow';

import { runOf } from './routing';

export interface Gathering<Ask, Result> {
	/** What each item asked, in the order the items asked. */
	readonly asked: Ask[];
	readonly result: Promise<Result>;
}

/**
 * Gathers the asks of one run's items under a key (items asking under different keys, such as
 * other dates, go apart): the first item opens the gathering, which waits one turn of the event
 * loop and then sends everything asked with the first item's `send`; every item gets the gathering
 * (the EAN look-ups, actions/products/eans.ts; the document links of suborders, getDocumentLinks.operation.ts).
 */
export class PerRunGathering<Ask, Result> {
	private readonly runs = new WeakMap<object, Map<string, Gathering<Ask, Result>>>();

	join(ctx: object, key: string, ask: Ask, send: (asked: Ask[]) => Promise<Result>): Gathering<Ask, Result> {
		const run = runOf(ctx);
		if (!run) return { asked: [ask], result: send([ask]) };
		const open = this.runs.get(run) ?? new Map<string, Gathering<Ask, Result>>();
		this.runs.set(run, open);
		let gathering = open.get(key);
		if (!gathering) {
			const asked: Ask[] = [];
			const result = (async () => {
				await sleep(0);
				// Closed once sent: an item asking later (not in RoutingNode's loop) opens a new one.
				open.delete(key);
				return await send(asked);
			})();
			gathering = { asked, result };
			open.set(key, gathering);
		}
		gathering.asked.push(ask);
		return gathering;
	}
}

/**
 * The one outcome of a key for the whole run: the first item to ask sends, the later ones get its
 * outcome (Discount › Cancel: a discount named by 9 items is cancelled once). A later run asks again.
 */
export class OncePerRun<Result> {
	private readonly runs = new WeakMap<object, Map<string, Promise<Result>>>();

	/** `first`: whether this item sent (and owns the outcome) rather than shares another's. */
	ask(ctx: object, key: string, send: () => Promise<Result>): { first: boolean; result: Promise<Result> } {
		const run = runOf(ctx);
		if (!run) return { first: true, result: send() };
		const outcomes = this.runs.get(run) ?? new Map<string, Promise<Result>>();
		this.runs.set(run, outcomes);
		const known = outcomes.get(key);
		if (known) return { first: false, result: known };
		const result = send();
		outcomes.set(key, result);
		return { first: true, result };
	}
}

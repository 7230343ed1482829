/**
 * What the trigger remembers between polls, per event type, so that every document fires exactly
 * once. The service filters on the invoiced date (bounds inclusive), but a document can become
 * visible after that date: each poll asks for [cursor − look-back, now], drops the documents it
 * emitted before, emits the rest, and only then moves the cursor to now.
 * - At least once: for a document that shows up less than one look-back window late.
 * - At most once: an emitted id is kept while its invoiced date is not before the next query's
 *   start (cursor − look-back), so the state holds one look-back window of documents, not all ever seen.
 * - Atomic: the state changes only once every request of the poll succeeded (poll.ts).
 */
import type { IDataObject, INodeProperties, IPollFunctions } from 'n8n-workflow';

import { optionsCollection } from '../MarketplaceMerchant/shared/fields';
import { LIMITS } from '../MarketplaceMerchant/transport/endpoints';
import { splitIntoWindows } from '../MarketplaceMerchant/values/dates';
import { fieldPath, isBlank } from '../MarketplaceMerchant/values/labels';
import { readWholeNumber } from '../MarketplaceMerchant/values/numbers';
import { readDate } from '../MarketplaceMerchant/values/values';

export const DEFAULT_LOOK_BACK_MINUTES = 60;
const LOOK_BACK = fieldPath('Options', 'Look-Back Window (Minutes)');
const START_FROM = fieldPath('Options', 'Start From');

/** Options › Look-Back Window and Start From of an event kept by a cursor, their descriptions worded for what it lists. */
export function cursorOptions(descriptions: { lookBack: string; startFrom: string }, displayOptions: INodeProperties['displayOptions']): INodeProperties {
	return {
		...optionsCollection([
			{
				displayName: 'Look-Back Window (Minutes)',
				name: 'lookBackMinutes',
				type: 'number',
				typeOptions: { minValue: 0, maxValue: 10080 },
				default: DEFAULT_LOOK_BACK_MINUTES,
				description: descriptions.lookBack,
			},
			{ displayName: 'Start From', name: 'startFrom', type: 'dateTime', default: '', description: descriptions.startFrom },
		]),
		displayOptions,
	};
}

/** The two options as the cursor takes them. */
export function readCursorOptions(ctx: IPollFunctions): { lookBackMs: number; startFrom?: Date } {
	const options = ctx.getNodeParameter('options', {}) as IDataObject;
	const lookBackMinutes = isBlank(options.lookBackMinutes) ? DEFAULT_LOOK_BACK_MINUTES : readWholeNumber(ctx, LOOK_BACK, options.lookBackMinutes, 0);
	return { lookBackMs: lookBackMinutes * 60_000, startFrom: isBlank(options.startFrom) ? undefined : readDate(ctx, START_FROM, options.startFrom) };
}

/** Stored under the event type's key in the node's static data. Kept small: it is saved after every poll. */
export interface EventState {
	/** The Start From date (ISO) this state started from, or `now`. A new Start From date starts over. */
	origin: string;
	/** End (ISO, inclusive) of the last range that was fully queried and emitted. */
	cursor?: string;
	/** Documents emitted that a later query can still return: id → invoiced date, epoch seconds. */
	seen: Record<string, number>;
}

type CursorSettings = { lookBackMs: number; startFrom?: Date; now: Date };

export type DateWindow = ReturnType<typeof splitIntoWindows>[number];

const ORIGIN_NOW = 'now';
const EARLIEST_MS = Date.parse(LIMITS.earliestInvoiceDate);

function isEventState(value: unknown): value is EventState {
	const state = (value ?? {}) as Partial<EventState>;
	return (
		typeof state.origin === 'string' &&
		(state.cursor === undefined || !Number.isNaN(Date.parse(state.cursor))) &&
		!!state.seen &&
		typeof state.seen === 'object' &&
		Object.values(state.seen).every((seconds) => typeof seconds === 'number')
	);
}

/** The state of one event type during a poll, written back only when the caller commits it. */
export class EventCursor {
	private constructor(
		private readonly state: EventState,
		/** Whether documents found now are emitted; false while seeding the first poll from "now". */
		readonly emits: boolean,
		private readonly settings: CursorSettings,
	) {}

	/**
	 * Without a stored state (first activation, a new Start From date): from Start From, emitting; by
	 * default it seeds, remembering the look-back window before now unemitted, older than the activation.
	 */
	static open(stored: unknown, settings: CursorSettings): EventCursor {
		const startOrigin = settings.startFrom?.toISOString();
		if (isEventState(stored) && (startOrigin === undefined || stored.origin === startOrigin)) {
			return new EventCursor({ origin: stored.origin, cursor: stored.cursor, seen: { ...stored.seen } }, true, settings);
		}
		return new EventCursor({ origin: startOrigin ?? ORIGIN_NOW, seen: {} }, startOrigin !== undefined, settings);
	}

	/** The ranges still to query up to now, oldest first, never before the earliest date the service serves. */
	pendingWindows(): DateWindow[] {
		const { lookBackMs, now } = this.settings;
		const { cursor, origin } = this.state;
		const startMs = origin === ORIGIN_NOW ? now.getTime() - lookBackMs : Date.parse(origin);
		const fromMs = Math.max(cursor === undefined ? startMs : Date.parse(cursor) - lookBackMs, EARLIEST_MS);
		return fromMs > now.getTime() ? [] : splitIntoWindows(new Date(fromMs), now, LIMITS.invoiceWindowMonths);
	}

	/** Whether the document was not emitted before; remembers it when it is new. */
	admit(id: string, invoicedAt: Date | undefined, window: DateWindow): boolean {
		if (Object.prototype.hasOwnProperty.call(this.state.seen, id)) return false;
		// A document whose date is not inside the range that returned it is kept as long as the
		// range's end would be: the service may filter on a date we cannot read.
		const ms = invoicedAt?.getTime();
		const inside = ms !== undefined && ms >= window.from.getTime() && ms <= window.to.getTime();
		this.state.seen[id] = Math.floor((inside ? ms : window.to.getTime()) / 1000);
		return true;
	}

	/** Every document invoiced up to `end` (inclusive) was handled; ids whose whole second lies before the next query's start go. */
	completeUpTo(end: Date): void {
		this.state.cursor = end.toISOString();
		const nextQueryStartMs = end.getTime() - this.settings.lookBackMs;
		for (const [id, seconds] of Object.entries(this.state.seen)) {
			if (seconds * 1000 + 999 < nextQueryStartMs) delete this.state.seen[id];
		}
	}

	toJSON(): EventState {
		return { origin: this.state.origin, ...(this.state.cursor ? { cursor: this.state.cursor } : {}), seen: this.state.seen };
	}
}


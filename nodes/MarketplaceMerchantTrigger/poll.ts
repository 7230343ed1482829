/**
 * One poll of New Invoice / New Invoice Correction: the documents since the cursor (or, for "Fetch
 * Test Event", the newest one), the new ones emitted with their PDFs, then the cursor moved.
 */
import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { DOCUMENTS, dedupeKeyOf, documentsIn, invoicedDateOf, oldestFirst, simplifyDocument, type DocumentKind } from '../MarketplaceMerchant/shared/documents/documents';
import { binaryPropertyOf, readInvoiceType } from '../MarketplaceMerchant/shared/documents/fields';
import { attachPdfsOfDocuments } from '../MarketplaceMerchant/shared/documents/pdfs';
import { endpointReader, type ReadEndpoint } from '../MarketplaceMerchant/shared/read';
import { DAY_MS, addMonths, formatIsoUtc } from '../MarketplaceMerchant/values/dates';
import { joinSentences, nodeError } from '../MarketplaceMerchant/transport/errors';
import { readChoice } from '../MarketplaceMerchant/values/labels';
import { readSimplify, readFlag } from '../MarketplaceMerchant/values/values';
import { EventCursor, readCursorOptions, type DateWindow } from './cursor';

/** The events the trigger fires on; each keeps its own state under this key in static data. */
type TriggerEvent = 'invoice' | 'invoiceCorrection';

const KIND_OF_EVENT: Record<TriggerEvent, DocumentKind> = { invoice: 'invoice', invoiceCorrection: 'correction' };

/** Catching up after a long pause: at most this many 3-month windows per event and poll (3 years). */
const MAX_WINDOWS_PER_POLL = 12;
/** With PDFs, documents handled between two looks at the time left (each needs a download). */
const DOCUMENTS_PER_PDF_STEP = 50;
/** A poll starts no new window or step once this share of n8n's poll budget is spent. */
const BUDGET_SHARE = 0.5;
/** Used where n8n does not state a poll budget (before n8n 2.x). */
const DEFAULT_POLL_BUDGET_MS = 5 * 60_000;
/** "Fetch Test Event" looks this far back first (documents: then up to 3 months; products: after yesterday). */
export const TEST_EVENT_DAYS = 30;
/** Month-long ranges are slow on the live service; a request that hangs must still end. */
const REQUEST_TIMEOUT_MS = 180_000;

type TriggerSettings = ReturnType<typeof readSettings>;
export type PollResult = INodeExecutionData[][] | null;

function readSettings(ctx: IPollFunctions) {
	const event = readChoice(ctx, 'Trigger On', ctx.getNodeParameter('event', 'invoice'), ['invoice', 'invoiceCorrection', 'any'] satisfies Array<TriggerEvent | 'any'>);
	const { lookBackMs, startFrom } = readCursorOptions(ctx);
	const downloadPdfs = readFlag(ctx, 'downloadPdfs', 'Download PDFs', false);
	return {
		events: event === 'any' ? (['invoice', 'invoiceCorrection'] as const) : [event],
		type: readInvoiceType(ctx, ctx.getNodeParameter('invoiceType', 'all')),
		simplify: readSimplify(ctx),
		downloadPdfs,
		binaryProperty: downloadPdfs ? binaryPropertyOf(ctx, 'binaryPropertyName') : 'data',
		lookBackMs,
		startFrom,
	};
}

/**
 * How the trigger reads the service (documents through shared/documents/, products): a failure
 * says what was being read and that the next poll asks for the same period again.
 */
export function pollReader(ctx: IPollFunctions): ReadEndpoint {
	return endpointReader(ctx, { timeoutMs: REQUEST_TIMEOUT_MS }, (failure, what, status) => {
		failure.message = `Could not read ${what}${status === undefined ? '' : ` (HTTP ${status})`}: ${failure.message}`;
		failure.description = joinSentences(failure.description, 'Nothing was skipped: the next poll asks for the same period again.');
		return failure;
	});
}

/** `at`, the sort key: the invoiced date, or the end of the window that returned the document. */
type Emission = { document: IDataObject; item: INodeExecutionData; at: number };

/**
 * Links are asked for by suborder id (the window narrows the search) and downloaded at once: they
 * expire after about 10 minutes. A document without a link says so in `pdfError`; the files are
 * named as the node names them (shared/documents/pdfs.ts).
 */
async function attachPdfs(ctx: IPollFunctions, kind: DocumentKind, window: DateWindow, entries: Emission[], binaryProperty: string): Promise<void> {
	await attachPdfsOfDocuments(ctx, kind, entries, { windows: [window], wholeRange: false }, pollReader(ctx), binaryProperty);
}

function toItem(document: IDataObject, event: TriggerEvent, settings: TriggerSettings): INodeExecutionData {
	const json = settings.simplify ? simplifyDocument(document, KIND_OF_EVENT[event]) : document;
	return { json: { event, ...json } };
}

function inInvoicedOrder(emissions: Emission[]): INodeExecutionData[][] {
	return [emissions.sort((a, b) => a.at - b.at).map(({ item }) => item)];
}

/**
 * Whether the poll's time is spent. n8n gives a poll a budget and abandons it when it runs out; a
 * poll catching up stops early instead, emits what it has, and leaves the rest to the next poll.
 */
function budgetOf(ctx: IPollFunctions): () => boolean {
	const startedAt = Date.now();
	const budgetMs = typeof ctx.getPollBudgetMs === 'function' ? ctx.getPollBudgetMs() : DEFAULT_POLL_BUDGET_MS;
	return () => Date.now() - startedAt > budgetMs * BUDGET_SHARE;
}

/**
 * Scheduled polls still running in this process. n8n starts a tick even when the previous one has
 * not finished; two polls from the same cursor would emit the same items, so the later one skips.
 */
const runningPolls = new Set<string>();

export async function withoutOverlap(ctx: IPollFunctions, poll: () => Promise<PollResult>): Promise<PollResult> {
	const pollKey = `${ctx.getWorkflow().id ?? ''}\u0000${ctx.getNode().id}`;
	if (runningPolls.has(pollKey)) {
		ctx.logger.warn('The previous poll of this trigger is still running: this poll is skipped');
		return null;
	}
	runningPolls.add(pollKey);
	try {
		return await poll();
	} finally {
		runningPolls.delete(pollKey);
	}
}

export async function pollForNewDocuments(ctx: IPollFunctions): Promise<PollResult> {
	const settings = readSettings(ctx);
	const staticData = ctx.getWorkflowStaticData('node');
	const spent = budgetOf(ctx);
	const cursorSettings = { lookBackMs: settings.lookBackMs, startFrom: settings.startFrom, now: new Date() };
	const cursors = settings.events.map((event) => [event, EventCursor.open(staticData[event], cursorSettings)] as const);
	const emissions: Emission[] = [];

	for (const [event, cursor] of cursors) {
		const windows = cursor.pendingWindows().slice(0, MAX_WINDOWS_PER_POLL);
		for (const [index, window] of windows.entries()) {
			// Every event moves on by at least one step per poll, so catching up always progresses.
			if (index > 0 && spent()) break;
			const step = await newDocumentsIn(ctx, event, window, cursor, settings, spent);
			cursor.completeUpTo(step.handledUpTo);
			emissions.push(...step.emissions);
			if (step.handledUpTo.getTime() < window.to.getTime()) break;
		}
	}

	// Only now, with every request done, does the stored state change (cursor.ts: atomic).
	for (const [event, cursor] of cursors) staticData[event] = cursor.toJSON() as unknown as IDataObject;
	return emissions.length === 0 ? null : inInvoicedOrder(emissions);
}

/**
 * The new documents of one window, oldest first. With PDFs (slow: a download each) they are
 * handled in steps; when the budget runs out between two steps, the window counts as handled up
 * to just before the first document left over.
 */
async function newDocumentsIn(
	ctx: IPollFunctions,
	event: TriggerEvent,
	window: DateWindow,
	cursor: EventCursor,
	settings: TriggerSettings,
	spent: () => boolean,
): Promise<{ emissions: Emission[]; handledUpTo: Date }> {
	const kind = KIND_OF_EVENT[event];
	// Undated documents first: a step boundary needs the date of the first document left over.
	const documents = oldestFirst(await documentsIn(pollReader(ctx), ctx.getNode(), kind, window, settings.type));
	const dated = documents.map((document) => ({ document, invoicedAt: invoicedDateOf(document) }));
	const stepSize = settings.downloadPdfs ? DOCUMENTS_PER_PDF_STEP : Math.max(dated.length, 1);
	const emissions: Emission[] = [];
	for (let start = 0; start < dated.length; start += stepSize) {
		const firstLeft = dated[start].invoicedAt;
		if (start > 0 && firstLeft && spent()) {
			return { emissions, handledUpTo: new Date(Math.max(firstLeft.getTime(), window.from.getTime()) - 1) };
		}
		const fresh: Emission[] = [];
		for (const { document, invoicedAt } of dated.slice(start, start + stepSize)) {
			if (!cursor.admit(dedupeKeyOf(document, kind), invoicedAt, window) || !cursor.emits) continue;
			fresh.push({ document, item: toItem(document, event, settings), at: (invoicedAt ?? window.to).getTime() });
		}
		if (settings.downloadPdfs && fresh.length > 0) await attachPdfs(ctx, kind, window, fresh, settings.binaryProperty);
		emissions.push(...fresh);
	}
	return { emissions, handledUpTo: window.to };
}

/** "Fetch Test Event": the newest document of each chosen event; the stored state is neither read nor changed. */
export async function fetchTestEvent(ctx: IPollFunctions): Promise<INodeExecutionData[][]> {
	const settings = readSettings(ctx);
	const now = new Date();
	const periods: DateWindow[] = [
		{ from: new Date(now.getTime() - TEST_EVENT_DAYS * DAY_MS), to: now },
		{ from: new Date(addMonths(now, -3).getTime() + 1), to: now },
	];
	const emissions: Emission[] = [];
	for (const event of settings.events) {
		const kind = KIND_OF_EVENT[event];
		for (const period of periods) {
			const newest = oldestFirst(await documentsIn(pollReader(ctx), ctx.getNode(), kind, period, settings.type)).at(-1);
			if (!newest) continue;
			const emission: Emission = { document: newest, item: toItem(newest, event, settings), at: invoicedDateOf(newest)?.getTime() ?? 0 };
			if (settings.downloadPdfs) await attachPdfs(ctx, kind, period, [emission], settings.binaryProperty);
			emissions.push(emission);
			break;
		}
	}
	if (emissions.length === 0) {
		const what = settings.events.map((event) => `${DOCUMENTS[KIND_OF_EVENT[event]].label}s`).join(' or ');
		const type = settings.type ? ` of type ${settings.type}` : '';
		throw nodeError(ctx.getNode(), `No ${what}${type} found in the last 3 months`, {
			description: `Searched ${formatIsoUtc(periods[1].from)} to ${formatIsoUtc(now)}. Once the workflow is active, the trigger fires for each new document.`,
		});
	}
	return inInvoicedOrder(emissions);
}

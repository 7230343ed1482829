/**
 * The trigger's running costs: requests per poll when nothing is new, and the size of what it
 * stores between polls (workflow static data, saved after every poll) once it has seen 10,000
 * invoices. Polls go through n8n-core's real poll path (test/harness `runPoll`).
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runPoll, type PollRunResult } from '../../test/harness';
import { MERCHANT_TRIGGER, credentialsFor, type TokenRecordingCredentialsHelper } from '../merchant-node';
import { RemoteSandbox } from '../remote-sandbox';
import type { Row } from '../report';
import { formatCount, listOf, median } from '../stats';

const INVOICES = 10_000;
const DAYS = 10;
const DAY_MS = 86_400_000;
const STATE_TARGET_BYTES = 16_384;
/** Invoices added at once through the sandbox's control endpoint. */
const ADD_CONCURRENCY = 50;

async function poll(
	credentialsHelper: TokenRecordingCredentialsHelper,
	parameters: INodeParameters,
	staticData: IDataObject,
): Promise<PollRunResult> {
	const result = await runPoll(MERCHANT_TRIGGER, parameters, { credentialsHelper, staticData });
	if (result.error) throw new Error(`trigger poll failed: ${result.error.message}`);
	return result;
}

/** 10,000 invoices spread evenly over the last 10 days (invoiced dates without a zone, as live). */
async function addInvoices(sandbox: RemoteSandbox, endMs: number): Promise<void> {
	const spacingMs = (DAYS * DAY_MS) / INVOICES;
	const startMs = endMs - DAYS * DAY_MS;
	for (let first = 0; first < INVOICES; first += ADD_CONCURRENCY) {
		const batch = Array.from({ length: Math.min(ADD_CONCURRENCY, INVOICES - first) }, (_, offset) => {
			const invoicedDate = new Date(startMs + (first + offset) * spacingMs).toISOString().slice(0, 19);
			return sandbox.addInvoice({ invoiceHeader: { orderDetails: { invoicedDate } } });
		});
		await Promise.all(batch);
	}
}

const stateBytes = (staticData: IDataObject) => Buffer.byteLength(JSON.stringify(staticData));

export async function measureTriggerCosts(runs: number): Promise<Row[]> {
	const sandbox = await RemoteSandbox.start({ rateLimits: false, clients: runs });
	try {
		const addedUpTo = Date.now() - 60_000;
		await addInvoices(sandbox, addedUpTo);

		const idleRequestsPerEvent: number[] = [];
		const idleDetails = new Set<string>();
		const bytesAfterCatchUp: number[] = [];
		const bytesAfterIdle: number[] = [];
		const emittedCounts: number[] = [];
		for (let run = 0; run < runs; run++) {
			const credentialsHelper = credentialsFor(sandbox, sandbox.freshClient());

			// Activation seeds the state; the next poll finds nothing new.
			const anyEvent = { event: 'any' };
			const seeded = await poll(credentialsHelper, anyEvent, {});
			await sandbox.clearLog();
			const idle = await poll(credentialsHelper, anyEvent, seeded.staticData);
			if (idle.emitted !== null) throw new Error('the idle poll emitted documents');
			const invoices = (await sandbox.log('invoices')).length;
			const corrections = (await sandbox.log('invoiceCorrections')).length;
			const total = (await sandbox.log()).filter((entry) => entry.route !== 'token').length;
			idleRequestsPerEvent.push(Math.max(invoices, corrections));
			idleDetails.add(`invoices ${invoices}, corrections ${corrections}, all routes ${total}`);

			// Catching up from 10 days ago sees all 10,000 invoices in one poll.
			const catchUp = { event: 'invoice', options: { startFrom: new Date(addedUpTo - DAYS * DAY_MS - 60_000).toISOString() } };
			const first = await poll(credentialsHelper, catchUp, {});
			const emitted = first.emitted?.[0]?.length ?? 0;
			if (emitted < INVOICES) throw new Error(`the catch-up poll emitted ${emitted} invoices, expected at least ${INVOICES}`);
			emittedCounts.push(emitted);
			bytesAfterCatchUp.push(stateBytes(first.staticData));
			const next = await poll(credentialsHelper, catchUp, first.staticData);
			bytesAfterIdle.push(stateBytes(next.staticData));
		}

		const requestsFigure = median(idleRequestsPerEvent);
		const worstBytes = bytesAfterCatchUp.map((bytes, run) => Math.max(bytes, bytesAfterIdle[run]));
		const bytesFigure = median(worstBytes);
		return [
			{
				measure: 'Trigger: requests per poll with nothing new',
				figure: `${requestsFigure} per event type`,
				target: '1 per event type',
				met: Math.max(...idleRequestsPerEvent) <= 1,
				runs: String(runs),
				details: `New Invoice or Invoice Correction (2 event types), after activation: ${[...idleDetails].join('; ')}`,
			},
			{
				measure: `Trigger: static data bytes after ${formatCount(INVOICES)} invoices seen`,
				figure: formatCount(bytesFigure),
				target: `≤ ${formatCount(STATE_TARGET_BYTES)}`,
				met: Math.max(...worstBytes) <= STATE_TARGET_BYTES,
				runs: String(runs),
				details:
					`Start From ${DAYS} days back, ${formatCount(INVOICES)} invoices added over those days; emitted ${listOf(emittedCounts, formatCount)}; ` +
					`bytes after that poll ${listOf(bytesAfterCatchUp, formatCount)}, after the next poll ${listOf(bytesAfterIdle, formatCount)} ` +
					'(ids are kept only while the look-back window can still return them)',
			},
		];
	} finally {
		await sandbox.close();
	}
}

/**
 * The writes of the bulk operations: `sendInBulk` (chunks within the service's item and byte
 * limits, overlapped within the group's in-flight allowance, results paired with the bodies sent)
 * and `bulkWrite`, the `send` of Update Many and the discount operations on top of it.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { decodedList } from '../../answers/read';
import { idOrNull, shapeBulkResult } from '../../answers/bulkResults';
import type { AnswerSchema } from '../../answers/schemas';
import { LIMITS, RATE_LIMITS } from '../../transport/endpoints';
import { asNodeError } from '../../transport/errors';
import { chunkBySize, sendEachChunk } from '../../transport/batches';
import { sendAuthenticated, sendSettingsOf, type Route, type SendSettings } from '../../transport/send';
import { readSimplify } from '../../values/values';
import { problemText, type BatchOutput, type BulkOperation } from './run';

export interface BulkRequests {
	route: Route;
	request: { method: 'PUT' | 'POST'; url: string };
	/** Where the list goes in the body; the body is the list itself without one. */
	listKey?: string;
	/** Each body alone, as one object: a service that takes one entry per request (Import, where it binds no list). */
	oneObject?: boolean;
	maxItems: number;
	answer: AnswerSchema;
	/** The results paired with the bodies sent: one per body, in the order sent, then any results beyond them. */
	pairResults: (results: INodeExecutionData[], sent: IDataObject[]) => INodeExecutionData[];
	/**
	 * The id the service's results name an entry by: entries with the same id go in separate
	 * requests, in the user's order (`requestsOfBodies`).
	 */
	idOf?: (body: IDataObject) => string | undefined;
}

/** One body's result, or the failure of its request (the same for all the request's bodies). */
type BulkOutcome = { ok: true; result: IDataObject } | { ok: false; error: unknown; message: string };

/**
 * The requests of `bodies`, as the positions of the bodies each carries: within the service's item
 * and size limits, and with `idOf` one id at most once per request, so that every result names its
 * entry beyond doubt (answers/bulkResults.ts pairs by that id). The n-th body of an id goes in the
 * n-th round of requests, and the rounds go out in order (sendEachChunk sends one by one when an
 * id repeats across requests): the later entry of an id still arrives later, as the user gave them.
 */
function requestsOfBodies(requests: BulkRequests, bodies: IDataObject[]): number[][] {
	const rounds: number[][] = [];
	const seen = new Map<string, number>();
	bodies.forEach((body, index) => {
		const id = requests.idOf?.(body);
		const round = id === undefined ? 0 : (seen.get(id) ?? -1) + 1;
		if (id !== undefined) seen.set(id, round);
		(rounds[round] ??= []).push(index);
	});
	return rounds.flatMap((positions) => {
		let next = 0;
		return chunkBySize(
			positions.map((position) => bodies[position]),
			requests.oneObject ? 1 : requests.maxItems,
			LIMITS.bulkRequestBytes,
		).map((chunk) => positions.slice(next, (next += chunk.length)));
	});
}

/**
 * Sends `bodies` in requests within the service's item and size limits (`requestsOfBodies`),
 * overlapped within the group's in-flight allowance. One outcome per body, in the order of
 * `bodies`: a request that fails after its retries fails its own bodies while the others stand.
 */
export async function sendInBulk(
	exec: IExecuteFunctions,
	requests: BulkRequests,
	bodies: IDataObject[],
	settings: SendSettings,
): Promise<BulkOutcome[]> {
	const chunks = requestsOfBodies(requests, bodies);
	const sent = await sendEachChunk(
		chunks.map((positions) => positions.map((position) => bodies[position])),
		RATE_LIMITS[requests.route.group].inFlight,
		async (chunk) => {
			const body = requests.oneObject ? chunk[0] : requests.listKey ? { [requests.listKey]: chunk } : chunk;
			const response = await sendAuthenticated(exec, requests.route, { ...requests.request, body, json: true }, settings);
			return requests.pairResults(
				decodedList(exec, response, requests.answer).map((json) => ({ json })),
				chunk,
			);
		},
		requests.idOf,
	);
	const outcomes: BulkOutcome[] = new Array<BulkOutcome>(bodies.length);
	sent.forEach((outcome, index) => {
		const positions = chunks[index];
		// A request's results beyond its bodies (an answer that repeats one) name no body sent: dropped
		// here, so that they cannot take the place of another request's results.
		if (outcome.ok) positions.forEach((position, at) => (outcomes[position] = { ok: true, result: outcome.value[at].json }));
		else {
			const failure: BulkOutcome = { ok: false, error: outcome.error, message: asNodeError(exec.getNode(), outcome.error).message };
			for (const position of positions) outcomes[position] = failure;
		}
	});
	return outcomes;
}

export interface BulkWrite<Checked> extends BulkRequests {
	body: (value: Checked) => IDataObject;
	/** The id an invalid entry comes out with (it was never sent); none for a new discount, which has no id of its own. */
	idOfInvalid?: (raw: IDataObject) => unknown;
	/** What the output says about how an entry went out (a value converted), beside its result. */
	notesOf?: (value: Checked) => string[] | undefined;
	/** What the output says about how the entry's product was found (catalogue/locator.ts `foundBy`: the EAN form that matched). */
	foundOf?: (value: Checked) => IDataObject;
}

/**
 * The `send` of Update Many, Discount Schedule and Discount Update: the valid entries sent with
 * `sendInBulk`, invalid entries reported in their place. When every request failed, the batch fails
 * with that error (nothing was written: an error, not rows).
 */
export function bulkWrite<Checked>(write: BulkWrite<Checked>): BulkOperation<Checked>['send'] {
	return async (exec, batch) => {
		const first = batch.entries[0].ctx;
		const simplify = readSimplify(first);
		const valid = batch.entries.filter((entry) => entry.problem === undefined);
		const bodies = valid.map((entry) => write.body(entry.value as Checked));
		const outcomes = await sendInBulk(exec, write, bodies, sendSettingsOf(first));
		const firstOutcome = outcomes[0];
		if (firstOutcome && !firstOutcome.ok && outcomes.every((outcome) => !outcome.ok)) throw asNodeError(exec.getNode(), firstOutcome.error);
		const results = outcomes.map((outcome, index): IDataObject =>
			outcome.ok
				? outcome.result
				: { id: idOrNull(write.idOfInvalid?.(bodies[index])), success: false, error: `The bulk request failed: ${outcome.message}`, input: bodies[index] },
		);
		let next = 0;
		return batch.entries.map((entry, position): BatchOutput => {
			if (entry.problem) {
				const json = { id: idOrNull(write.idOfInvalid?.(entry.raw)), success: false, error: problemText(entry.problem), input: entry.raw };
				return { json, entry: position };
			}
			const result = results[next++];
			const json = shapeBulkResult(result as Parameters<typeof shapeBulkResult>[0], simplify);
			const notes = write.notesOf?.(entry.value as Checked);
			if (notes) json.notes = notes;
			Object.assign(json, write.foundOf?.(entry.value as Checked));
			return { json, entry: position, rejected: result.success === false };
		});
	};
}

/**
 * How Import's products go out: as a list, up to 30,000 products and 5 MiB per request (the current
 * pages), or one object per request (the interface reference), learnt from the service. Nobody can
 * ask the live service which it binds (platform facts, "Import is bulk"); a Spring service answers
 * the shape it does not take with its JSON binder's 400, which `refusedBodyShape` reads. The shape
 * that worked is remembered for the process, per Base URL, so that later runs pay nothing.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { ANSWERS } from '../../answers/schemas';
import { idOrNull, refusedBodyShape } from '../../answers/bulkResults';
import { LIMITS, PATHS } from '../../transport/endpoints';
import { CREDENTIAL_TYPE, type SendSettings } from '../../transport/send';
import { chunkBySize } from '../../transport/batches';
import { normalizeBaseUrl } from '../../transport/hosts';
import { sendInBulk, type BulkRequests } from '../bulk/write';
import { CATALOGUE } from '../catalogue/fields';
import { processWide } from '../../transport/state';

export type ImportShape = 'list' | 'object';

/** The shape each service (by Base URL) took last in this process. */
const shapeOfService = processWide('shapeOfService', () => new Map<string, ImportShape>());

/** One progress id per request, given to every product the request carried. */
function pairProgressId(results: INodeExecutionData[], sent: IDataObject[]): INodeExecutionData[] {
	const progressId = idOrNull(results[0]?.json.id);
	return sent.map(() => ({ json: { progressId } }));
}

function requestsOf(shape: ImportShape): BulkRequests {
	return {
		route: CATALOGUE,
		request: { method: 'POST', url: PATHS.import },
		maxItems: LIMITS.productsPerBulkRequest,
		oneObject: shape === 'object',
		answer: ANSWERS.import,
		pairResults: pairProgressId,
	};
}

/** What became of one product: the progress id of its request, or the failure of that request. */
export type ImportOutcome = { ok: true; progressId: string | number | null; sentAs: ImportShape } | { ok: false; error: unknown; message: string; sentAs: ImportShape };

async function sendAs(exec: IExecuteFunctions, shape: ImportShape, bodies: IDataObject[], settings: SendSettings): Promise<ImportOutcome[]> {
	if (bodies.length === 0) return [];
	const outcomes = await sendInBulk(exec, requestsOf(shape), bodies, settings);
	return outcomes.map((outcome): ImportOutcome =>
		outcome.ok
			? { ok: true, progressId: idOrNull(outcome.result.progressId), sentAs: shape }
			: { ok: false, error: outcome.error, message: outcome.message, sentAs: shape },
	);
}

/** The bodies of the first request in a shape: the first chunk of a list, or the first product. */
function firstRequest(shape: ImportShape, bodies: IDataObject[]): IDataObject[] {
	return shape === 'object' ? bodies.slice(0, 1) : (chunkBySize(bodies, LIMITS.productsPerBulkRequest, LIMITS.bulkRequestBytes)[0] ?? []);
}

const otherShape = (shape: ImportShape): ImportShape => (shape === 'list' ? 'object' : 'list');

/**
 * Sends every body, in the shape known for the service (a list when none is known yet). The first
 * request goes alone: when the service's answer says it wanted the other shape, everything is sent
 * in that shape instead (the one extra request), and that shape is remembered. Any other failure
 * is the outcome of the products its request carried.
 */
export async function sendImports(exec: IExecuteFunctions, bodies: IDataObject[], settings: SendSettings): Promise<ImportOutcome[]> {
	const { baseUrl } = await exec.getCredentials(CREDENTIAL_TYPE);
	const service = normalizeBaseUrl(baseUrl);
	let shape = shapeOfService.get(service) ?? 'list';
	const first = firstRequest(shape, bodies);
	let outcomes = await sendAs(exec, shape, first, settings);
	const refused = outcomes[0] && !outcomes[0].ok ? refusedBodyShape(outcomes[0].error) : undefined;
	if (refused === shape) {
		shape = otherShape(shape);
		outcomes = [];
	}
	const rest = await sendAs(exec, shape, bodies.slice(outcomes.length), settings);
	const all = [...outcomes, ...rest];
	if (all.some((outcome) => outcome.ok)) shapeOfService.set(service, shape);
	return all;
}

/**
 * One GET outside routing, read by its schema: how the shared clients (documents for the node
 * and the trigger, the trigger's products) fetch. The caller brings what differs between them:
 * its pacing and timeout (the node's Request Options, the trigger's long timeout) and the words
 * of a failure (the trigger says what it was reading and that the next poll asks again).
 */
import type { IDataObject, INode, JsonObject, NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { AnswerSchema } from '../answers/schemas';
import { decodeAnswer } from '../answers/read';
import type { EndpointGroup } from '../transport/endpoints';
import { asNodeError, isNothingFound, serviceError, statusOf } from '../transport/errors';
import { normalizeBaseUrl } from '../transport/hosts';
import { CREDENTIAL_TYPE, sendAuthenticated, type Answer, type AuthenticatedContext, type SendSettings } from '../transport/send';

/** The caller's words for a failed request; `what` names what was being read. */
export type FailureWording = (failure: NodeApiError | NodeOperationError, what: string, status: number | undefined) => Error;

/**
 * One GET of `path` (after the base URL) with `qs`, its answer read by `answer`; with
 * `notFoundIsEmpty`, a 404 (the link endpoints' "no such document") is no answer (undefined).
 */
export type ReadEndpoint = ((group: EndpointGroup, path: string, qs: IDataObject, what: string, answer: AnswerSchema, notFoundIsEmpty?: boolean) => Promise<unknown>) & {
	/** The service read (the credential's Base URL): what is learned of a service is kept per service (shared/orders/orders.ts). */
	service?: () => Promise<string>;
};

export function endpointReader(ctx: AuthenticatedContext, settings: SendSettings, wording?: FailureWording): ReadEndpoint {
	const read: ReadEndpoint = async (group, path, qs, what, answer, notFoundIsEmpty = false) => {
		let response: Answer;
		try {
			response = await sendAuthenticated(ctx, { group, idempotent: true }, { method: 'GET', url: path, qs }, settings);
		} catch (error) {
			const status = statusOf(error);
			if (notFoundIsEmpty && isNothingFound(error)) return undefined;
			const failure = asNodeError(ctx.getNode(), error);
			throw wording ? wording(failure, what, status) : failure;
		}
		return decodeAnswer(ctx, response, answer);
	};
	read.service = async () => normalizeBaseUrl((await ctx.getCredentials(CREDENTIAL_TYPE)).baseUrl);
	return read;
}

/** A list answer (none is empty), or an error when it is something else. */
export function listOf(node: INode, answer: unknown, what: string): unknown[] {
	if (answer === undefined || answer === null) return [];
	if (Array.isArray(answer)) return answer;
	const message = `The service answered the request for ${what} with something that is not a list`;
	throw serviceError(node, { body: JSON.stringify(answer).slice(0, 200) } as JsonObject, { message });
}

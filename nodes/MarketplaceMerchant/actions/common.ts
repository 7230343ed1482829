/**
 * Pieces of operation descriptions that several operations share. They carry no displayOptions of
 * their own: each operation file shows its fields with one `updateDisplayOptions` call.
 */
import type {
	DeclarativeRestApiSettings,
	INodeProperties,
	INodePropertyRouting,
	PostReceiveAction,
	PreSendAction,
} from 'n8n-workflow';

import { readAnswerBody, sendSingle, type Route } from '../transport/send';
import { forInputItem, recordingInputFailures, type PaginationFunction } from '../transport/pagination';
import { readBoolean, type ValueContext } from '../values/values';

/** Return All and Limit, for every list operation. The operation's strategy reads them. */
export function returnAllAndLimit(): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 50,
			description: 'Max number of results to return',
			displayOptions: { show: { returnAll: [false] } },
		},
	];
}

/** The default of Simplify (simplifyField's): the flat summary is what a no-code user wants; the full answer is one click away. */
const SIMPLIFY_DEFAULT = true;

/**
 * The Simplify toggle of every list that has one: top level, on by default. `description` says
 * what stays.
 */
export function simplifyField(description: string): INodeProperties {
	// n8n's lint reads the default from a literal.
	return { displayName: 'Simplify', name: 'simplify', type: 'boolean', default: true, description };
}

/**
 * The one reader of Simplify (node operations and trigger alike): the field's own default when a
 * workflow does not set it (one made through n8n's API or by a tool), and true or false only, also
 * as the text an expression may give; anything else is an error naming the field.
 */
export function readSimplify(ctx: ValueContext & { getNodeParameter(name: string, fallback?: unknown): unknown }): boolean {
	return readBoolean(ctx, 'Simplify', ctx.getNodeParameter('simplify', SIMPLIFY_DEFAULT));
}

/** An operation's "Options" collection: settings of the node rather than fields of the request. */
export function optionsCollection(options: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options,
	};
}

/** Options of the operations whose answer reports failures per entry (read by `finishBulkResults`). */
export function failOnItemErrorsOptions(): INodeProperties {
	return optionsCollection([
		{
			displayName: 'Fail on Item Errors',
			name: 'failOnItemErrors',
			type: 'boolean',
			default: false,
			description:
				'Whether to fail the input item when the service rejects any entry. When off, rejected entries come out as items with success false, the error and the input, in the order of the entries.',
		},
	]);
}

interface PacedRouting extends Route {
	/** Method and URL; a preSend may set the URL. */
	request: DeclarativeRestApiSettings.HttpRequestOptions;
	/** Checks the item's input and builds the request; an error here fails the item before anything is sent. */
	preSend?: PreSendAction[];
	/** How one item becomes requests (pages, chunks, windows): one request by default. */
	strategy?: PaginationFunction;
	/**
	 * Turns each answer into items; starts with `readAnswer(ANSWERS.x)` (decode.ts), which names
	 * the schema of the operation's answer.
	 */
	postReceive: PostReceiveAction[];
}

/**
 * The routing of every operation. `paginate` is always on so that RoutingNode hands every request
 * to a strategy, and every strategy sends through the shared pacing and retry policy: RoutingNode
 * starts all items' requests at once, and only the engine keeps them within the rate limits.
 * A preSend's failure holds back every item of the run when the node stops on errors (inputChecks.ts).
 */
export function pacedRouting({ group, idempotent, request, preSend = [], strategy = sendSingle, postReceive }: PacedRouting): INodePropertyRouting {
	return {
		request,
		send: { paginate: true, preSend: preSend.map(recordingInputFailures) },
		operations: { pagination: forInputItem(strategy, { group, idempotent }) },
		// The answer arrives as a stream, read within its size cap before the operation's own actions.
		output: { postReceive: [readAnswerBody, ...postReceive] },
	};
}

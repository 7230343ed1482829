/**
 * Pieces of operation descriptions that several operations share, and the steps of every operation
 * that sends one built request per item (`pacedRouting`). Fields carry no displayOptions: each
 * operation file sets them with `updateDisplayOptions`.
 */
import type { IExecuteFunctions, IHttpRequestOptions, INodeProperties, INodePropertyMode } from 'n8n-workflow';

import { RETRY_BUDGET_TIMEOUTS } from '../transport/policy';
import type { RequestData, RequestStep, Route } from '../transport/send';
import { assertWithinItemCap, sendSingle, type PaginationFunction } from '../transport/batches';
import type { AnswerSchema } from '../answers/schemas';
import { readInto, type Shaping } from '../answers/read';
import { fieldPath } from '../values/labels';
import { NUMBER_FORMAT_OPTION_NAME } from '../values/numbers';
import { readOutput } from '../values/values';
import { steps, type ItemContext, type ReadItem, type Steps } from './run';
import { booleanField, optionsCollection, outputFields, simplifyField } from '../shared/fields';
// Shared with the trigger, so defined below actions/ (shared/fields.ts); the operations take them from here.
export { booleanField, optionsCollection, outputFields, simplifyField };

/**
 * "Request Options", shown for every operation. RoutingNode itself reads `requestOptions` for
 * `timeout`, `batching`, `proxy` and `allowUnauthorizedCerts`: the options here use other names,
 * so only the request engine reads them (transport/send.ts, `sendSettingsOf`).
 */
export const requestOptionsProperty: INodeProperties = {
	displayName: 'Request Options',
	name: 'requestOptions',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		{
			displayName: 'Requests per Minute',
			name: 'requestsPerMinute',
			type: 'number',
			typeOptions: { minValue: 1, numberPrecision: 0 },
			default: 60,
			description:
				"Most requests per minute this node sends to the operation's group of endpoints for this account. Without it the node paces itself to the service's limits (60 a minute for products, prices and discounts, 300 for warehouses, orders, shipments, labels and invoices, 500 for discount cancellations); set a lower value when other tools use the same account or your contract allows less. A higher value than the service's limit has no effect.",
		},
		{
			// The default is DEFAULT_TIMEOUT_MS (transport/policy.ts) in seconds, written out as n8n's lint asks.
			displayName: 'Timeout (Seconds)',
			name: 'timeoutSeconds',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 600 },
			default: 60,
			description: `How long one answer may take before the request counts as failed. Retries of one request together stop after ${RETRY_BUDGET_TIMEOUTS} times this.`,
		},
	],
};

/** A text field that starts empty; `more` holds what else it has (required, placeholder). */
export function textField(displayName: string, name: string, description: string, more: Partial<INodeProperties> = {}): INodeProperties {
	return { displayName, name, type: 'string', default: '', description, ...more };
}

export function returnAllAndLimit(): INodeProperties[] {
	return [
		booleanField('Return All', 'returnAll', 'Whether to return all results or only up to a given limit'),
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

/** A resource locator (product, discount): From List first, then the modes that take a typed value. */
export function locatorField(
	displayName: string,
	name: string,
	description: string,
	{ list, modes }: { list: { placeholder: string; searchListMethod: string }; modes: INodePropertyMode[] },
): INodeProperties {
	const { placeholder, searchListMethod } = list;
	return {
		displayName,
		name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description,
		modes: [
			{ displayName: 'From List', name: 'list', type: 'list', placeholder, typeOptions: { searchListMethod, searchable: true } },
			...modes,
		],
	};
}

/**
 * Options › Number Format, of every operation that reads prices, stock or weights from the user's
 * data (read by values/numbers.ts `readNumberFormat` only). Plain by default, as the node always read.
 */
export const NUMBER_FORMAT_OPTION: INodeProperties = {
	displayName: 'Number Format',
	name: NUMBER_FORMAT_OPTION_NAME,
	type: 'options',
	options: [
		{ name: 'English (1,299.50)', value: 'english', description: 'A comma groups thousands, a point marks decimals: 1,299.50 is 1299.5' },
		{ name: 'Plain (1299.50)', value: 'plain', description: 'Digits with an optional decimal point; 1,299 and 1.299,50 are refused' },
		{ name: 'Serbian (1.299,50)', value: 'serbian', description: 'A dot groups thousands, a comma marks decimals: 2.729,00 is 2729, 1.299 is 1299, 1,5 is 1.5' },
	],
	default: 'plain',
	description:
		'How the numbers of your data (prices, stock, weights) are written where they come as text, as in a CSV export. Stated, never guessed: 1,299 could be either. A value that does not fit is refused; numbers that are already numbers are taken as they are.',
};

/** Simplify and Fail on Item Errors of the bulk writes (read by answers/bulkResults.ts, `finishBulkResults`), and an operation's own `options`. */
export function bulkResultFields(options: INodeProperties[] = []): INodeProperties[] {
	return [
		simplifyField(
			"Whether to return one flat item per entry: ID, success, error (null on success; a known Serbian message with its English meaning beside it), the product's name and EAN where the service returns them, and the input sent. Off: the service's own result fields with the input.",
		),
		optionsCollection([
			booleanField(
				'Fail on Item Errors',
				'failOnItemErrors',
				'With Settings › On Error set to "Continue": whether an entry the service rejects fails its whole input item, instead of coming out as an item with success false, the error and the input. Under the default On Error a rejected entry fails the run anyway (once the others are written); under "Continue (using error output)" it leaves through the error output.',
			),
			...options,
		]),
	];
}

/**
 * Each field's chain of `key` (displayName: its label; name: its path), by parameter name, a
 * collection's options under the collection: `{ basePrice: ['Update Fields', 'Base Price'] }`.
 */
export function fieldChains(fields: INodeProperties[], key: 'displayName' | 'name', parents: string[] = []): Map<string, string[]> {
	const chains = new Map<string, string[]>();
	for (const field of fields) {
		const chain = [...parents, field[key]];
		chains.set(field.name, chain);
		if (field.type === 'collection') {
			for (const [name, nested] of fieldChains((field.options ?? []) as INodeProperties[], key, chain)) chains.set(name, nested);
		}
	}
	return chains;
}

/** Each field's label as the panel shows it, for error messages: `{ basePrice: 'Update Fields › Base Price' }`. */
export function panelLabels(fields: INodeProperties[]): Record<string, string> {
	return Object.fromEntries([...fieldChains(fields, 'displayName')].map(([name, chain]) => [name, fieldPath(...chain)]));
}

export interface PacedRouting extends Route {
	/** The method and, unless a preSend sets it, the path. */
	request: Pick<IHttpRequestOptions, 'method'> & { url?: string };
	/** Checks the item's input and builds the request; an error here fails the item before anything is sent. */
	preSend?: RequestStep[];
	/** What the run's items look up together once every item is read (products by EAN, suborders' links): the strategy's `requestData.plan`. */
	plan?: (exec: IExecuteFunctions, requests: Array<ReadItem<RequestData>>) => Promise<unknown>;
	/** The item's request completed by the plan (a product's ID from its EAN); an error fails the item before anything is sent. */
	complete?: (ctx: ItemContext, options: IHttpRequestOptions, plan: unknown) => IHttpRequestOptions;
	/** How one item becomes requests (pages, chunks, windows): one request by default. */
	strategy?: PaginationFunction;
	/** The schema of the answer (`ANSWERS.x`, answers/schemas.ts), read where the answer is received (answers/read.ts). */
	answer: AnswerSchema;
	/** What the operation makes of the answer's items (simplify, pair with the entries sent), in order. */
	shape?: Shaping[];
}

/** What every request of an item starts from (the node's `requestDefaults` but the base URL, which is the credential's host: send.ts). */
const REQUEST_DEFAULTS = { headers: { Accept: 'application/json', 'Content-Type': 'application/json' }, json: true };

/** One item's request as read (and completed), with the run's plan. */
interface PacedEntry {
	options: IHttpRequestOptions;
	plan?: unknown;
}

/**
 * The steps (actions/run.ts) of an operation that builds one request per item and sends it by a
 * strategy: `read` runs its preSends (every user value checked, Output › Selected Fields too) and
 * sends nothing; `plan` and `complete` (where given) look up for the run's items together; `act`
 * hands the request to the strategy, which sends through send.ts and reads each answer by its
 * schema, then shapes it.
 */
export function pacedRouting(operation: PacedRouting): Steps {
	const { group, idempotent, host, request, preSend = [], plan, complete, strategy = sendSingle, answer, shape } = operation;
	const read = readInto(answer, shape);
	const route = { group, idempotent, host };
	return steps<PacedEntry, unknown>({
		async read(ctx) {
			let options = { qs: {}, body: {}, ...REQUEST_DEFAULTS, headers: { ...REQUEST_DEFAULTS.headers }, ...request } as IHttpRequestOptions;
			for (const step of preSend) options = await step.call(ctx, options);
			// Output › Selected Fields without fields fails the item before anything is sent, though the answer is shaped only after.
			readOutput(ctx);
			return { options };
		},
		...(plan && {
			plan: async (exec, items) => await plan(exec, items.map(({ ctx, entry }) => ({ ctx, entry: { options: entry.options, route, read } }))),
			complete: (ctx, entry, found) => ({ options: complete ? complete(ctx, entry.options, found) : entry.options, plan: found }),
		}),
		async act(ctx, { options, plan: found }) {
			const items = await strategy.call(ctx, { options, route, read, plan: found });
			assertWithinItemCap(ctx, items.length);
			return items;
		},
	});
}

/**
 * "Request Options", shown for every operation. RoutingNode itself reads `requestOptions` for
 * `timeout`, `batching`, `proxy` and `allowUnauthorizedCerts`: the options here use other names,
 * so only the request engine reads them (transport/requestSettings.ts).
 */
import type { INodeProperties } from 'n8n-workflow';

import { RETRY_BUDGET_TIMEOUTS } from '../transport/requestPolicy';

/** The default is DEFAULT_TIMEOUT_MS (requestPolicy.ts) in seconds, written out as n8n's lint asks. */
const timeoutSecondsOption: INodeProperties = {
	displayName: 'Timeout (Seconds)',
	name: 'timeoutSeconds',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: 600 },
	default: 60,
	description: `How long one answer may take before the request counts as failed. Retries of one request together stop after ${RETRY_BUDGET_TIMEOUTS} times this.`,
};

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
				"Most requests per minute this node sends to the operation's group of endpoints for this account. Without it the node paces itself to the service's limits (60 a minute for products, prices and discounts, 300 for warehouses and invoices, 500 for discount cancellations); set a lower value when other tools use the same account or your contract allows less. A higher value than the service's limit has no effect.",
		},
		timeoutSecondsOption,
	],
};

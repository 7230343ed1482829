/**
 * What the editor's lists of both nodes share: waiting for the credential on a new node, and the
 * status names (Shipment › Get Many's filter, Shipment Status Changed's New Status Names).
 */
import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { ANSWERS } from '../answers/schemas';
import { decodedList } from '../answers/read';
import { PATHS } from '../transport/endpoints';
import { CREDENTIAL_TYPE, sendAuthenticated } from '../transport/send';
import { isBlank } from '../values/labels';
import { ORDER_READS, SHIPMENT_ONLY_STATUSES } from './orders/orders';

/**
 * An editor list (`methods.loadOptions` / `listSearch`) that waits for the credential: on a new
 * node n8n's editor may ask for the list before it has set the credential on the node, and
 * n8n-core then fails the call ("Node does not have any credentials set"), which the panel shows as
 * "Error fetching options" until it is reopened. Without the credential the list answers
 * `fallback` at once (nothing is sent; the field's default keeps working and its entry says why the
 * list is short), and n8n's editor asks again as soon as the node's credentials change.
 */
export function onceCredentialSet<A extends unknown[], R>(
	method: (this: ILoadOptionsFunctions, ...args: A) => Promise<R>,
	fallback: () => R,
): (this: ILoadOptionsFunctions, ...args: A) => Promise<R> {
	return async function (this: ILoadOptionsFunctions, ...args: A): Promise<R> {
		if (!this.getNode().credentials?.[CREDENTIAL_TYPE]) return fallback();
		return await method.apply(this, args);
	};
}

/** On the nodes' `methods.loadOptions`. */
export const STATUSES_METHOD = 'getOrderStatuses';

/**
 * Every status a suborder can have: the statuses endpoint's names and the packed ones only the
 * shipments' filter names (goods in transit or at customs), alphabetical.
 */
export async function getOrderStatuses(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const answer = await sendAuthenticated(this, ORDER_READS, { method: 'GET', url: PATHS.orderStatuses });
	const names = decodedList<unknown>(this, answer, ANSWERS.orderStatuses).filter((name) => !isBlank(name)).map(String);
	return [...new Set([...names, ...SHIPMENT_ONLY_STATUSES])].sort().map((name) => ({ name, value: name }));
}

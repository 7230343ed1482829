/**
 * The credential's hosts and which one an endpoint lives on: its Base URL, or the environment's
 * service host (endpoints.ts, HostChoice), learned per process for a `baseFirst` endpoint.
 */
import type { INode } from 'n8n-workflow';

import type { HostChoice } from './endpoints';
import { nodeError, notServedText, statusOf, type HostName } from './errors';
import { settle } from './policy';
import { processWide } from './state';

export function normalizeBaseUrl(baseUrl: unknown): string {
	return String(baseUrl ?? '').trim().replace(/\/+$/, '');
}

/** `normalizeBaseUrl` for the node's request defaults, which n8n resolves and which cannot call code. */
export const BASE_URL_EXPRESSION = '={{ String($credentials.baseUrl ?? "").trim().replace(/\\/+$/, "") }}';

export function merchantKeyOf(baseUrl: string, clientId: unknown): string {
	return `${baseUrl}|${String(clientId ?? '')}`;
}

/**
 * The credential's hosts: its Base URL and the environment's service host (`serviceUrl`, empty
 * when not given: credentials saved before the field existed have none).
 */
export function hostsOf(credentials: { baseUrl?: unknown; serviceUrl?: unknown }): { baseUrl: string; serviceUrl: string } {
	return { baseUrl: normalizeBaseUrl(credentials.baseUrl), serviceUrl: normalizeBaseUrl(credentials.serviceUrl) };
}

export type Hosts = ReturnType<typeof hostsOf>;

/** Where a `baseFirst` endpoint answered, per merchant, service host and endpoint; `learning` while the first request finds out. */
const learnedHosts = processWide('learnedHosts', () => new Map<string, { onService?: boolean; learning?: Promise<void> }>());

/**
 * Sends to the host the route's endpoint lives on (endpoints.ts, HostChoice): the Base URL, the
 * service host, or for `baseFirst` the Base URL until it answers "No static resource" and then,
 * when a service host is given, the service host, for the rest of the process: at most one extra
 * request, one at a time while it is being learned. An answer saying a host does not serve the
 * endpoint becomes an error that says what to enter (`notServedText`), never "nothing found".
 */
export async function onItsHost<T>(node: INode, choice: HostChoice | undefined, merchantKey: string, hosts: Hosts, send: (url: string) => Promise<T>): Promise<T> {
	if (choice === undefined) return await send(hosts.baseUrl);
	const hasService = hosts.serviceUrl !== '';
	if (choice.where === 'service' || !hasService) return await sendExplained(node, choice, hasService ? 'service' : 'base', hosts, send);
	const key = `${merchantKey}\u0000${hosts.serviceUrl}\u0000${choice.what}`;
	const learned = learnedHosts.get(key) ?? {};
	learnedHosts.set(key, learned);
	while (learned.learning) await learned.learning;
	if (learned.onService) return await sendExplained(node, choice, 'service', hosts, send);
	let learnt: (() => void) | undefined;
	if (learned.onService === undefined) learned.learning = new Promise<void>((resolve) => (learnt = resolve));
	const atBase = await settle(send(hosts.baseUrl));
	const notServed = !atBase.ok && isNotServedAnswer(atBase.error);
	if (atBase.ok || notServed) learned.onService = notServed;
	if (learnt) {
		learned.learning = undefined;
		learnt();
	}
	if (atBase.ok) return atBase.value;
	if (!notServed) throw atBase.error;
	return await sendExplained(node, choice, 'service', hosts, send);
}

async function sendExplained<T>(node: INode, choice: HostChoice, at: HostName, hosts: Hosts, send: (url: string) => Promise<T>): Promise<T> {
	const outcome = await settle(send(at === 'service' ? hosts.serviceUrl : hosts.baseUrl));
	if (outcome.ok) return outcome.value;
	const status = statusOf(outcome.error);
	// Warehouses have no "nothing found": any 404 there means the host does not serve them.
	const notServed = isNotServedAnswer(outcome.error) || (choice.where === 'service' && status === 404);
	if (!notServed || status === undefined) throw outcome.error;
	// A NodeOperationError, without the status: a 404 of prices would otherwise read as "no prices" (splitQueryList).
	const { message, description } = notServedText(choice.what, at, status);
	throw nodeError(node, message, { description });
}

/** Spring's answer for a path a host does not map: 404 "No static resource …", or 500 behind a catch-all handler. */
function isNotServedAnswer(error: unknown): boolean {
	const status = statusOf(error);
	if (status !== 404 && status !== 500) return false;
	const { context, description, message } = (error ?? {}) as { context?: { data?: unknown }; description?: unknown; message?: unknown };
	return [context?.data, description, message].some((part) => isNotServedBody(part));
}

/** Whether an answer's body (or a message taken from it) is Spring's "No static resource". */
export function isNotServedBody(body: unknown): boolean {
	const text = typeof body === 'string' ? body : Buffer.isBuffer(body) ? body.toString('utf8') : JSON.stringify(body ?? '');
	return /No static resource/i.test(text);
}


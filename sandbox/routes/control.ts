/* eslint-disable @n8n/community-nodes/require-node-api-error -- sandbox code (the service twin tests and the bench run) and never loaded by n8n: it may use plain errors (docs/architecture.md, Toolchain). */
/**
 * Controls under /__sandbox/ for processes that cannot call the sandbox in process (the CLI's
 * users, the end-to-end suite). No token, no rate limit, no faults.
 */
import type { SandboxCore } from '../core';
import { HttpError, badRequest, notFound, requireBody } from '../http';
import type { RouteContext, RouteDefinition, RouteResult } from '../route';
import type { FaultSpec, RateLimitConfig, RouteKey } from '../types';
import { isRecord, toNumber } from '../values';

export const ROUTE_KEYS: RouteKey[] = [
	'token', 'products', 'basicProducts', 'import', 'productBulk', 'productUpdate', 'productTypes', 'eanExists',
	'warehouses', 'invoices', 'invoiceCorrections', 'invoiceUrls', 'invoiceCorrectionUrls', 'discountSchedule',
	'discountUpdate', 'discountList', 'discountCancel', 'prices', 'document', 'orderStatuses', 'orderStatusGroups', 'orders',
	'orderConfirm', 'shipments', 'shipmentPack', 'labelV1', 'labelV2', 'labelFile', 'productPublish', 'productUnpublish', 'control',
];

function objectBody(context: RouteContext): Record<string, unknown> {
	const value = context.body.format === 'none' ? {} : requireBody(context.body);
	if (!isRecord(value)) throw badRequest('Request body must be a JSON object');
	return value;
}

function faultFrom(value: unknown): FaultSpec {
	if (!isRecord(value)) throw badRequest('A fault must be an object');
	if (value.route !== undefined && !ROUTE_KEYS.includes(value.route as RouteKey)) {
		throw badRequest(`Unknown route key: ${String(value.route)}`);
	}
	return value as unknown as FaultSpec;
}

function rateLimitsFrom(context: RouteContext): RateLimitConfig {
	const value = requireBody(context.body);
	if (value === false || (isRecord(value) && value.enabled === false)) return false;
	const scale = isRecord(value) ? (value.scale === undefined ? 1 : toNumber(value.scale)) : undefined;
	if (scale === undefined) throw badRequest('Send false, {"enabled": false} or {"scale": N, "retryAfter"?: false}');
	return isRecord(value) && value.retryAfter === false ? { scale, retryAfter: false } : { scale };
}

/** Body `{overrides?, visibleAt?}`; a body with neither key is taken as the overrides themselves. */
function documentRequest(context: RouteContext): { overrides: Record<string, unknown>; visibleAt?: string } {
	const body = objectBody(context);
	if (!('overrides' in body) && !('visibleAt' in body)) return { overrides: body };
	const overrides = body.overrides ?? {};
	if (!isRecord(overrides)) throw badRequest('overrides must be an object');
	return { overrides, visibleAt: body.visibleAt === undefined ? undefined : String(body.visibleAt) };
}

function stateCollection(core: SandboxCore, name: string): unknown {
	switch (name) {
		case 'products':
			return core.state.products;
		case 'productTypes':
			return core.state.productTypes;
		case 'warehouses':
			return core.state.warehouses;
		case 'invoices':
			return core.state.invoices;
		case 'corrections':
		case 'invoiceCorrections':
			return core.state.corrections;
		case 'discounts':
			return core.state.discounts;
		case 'orders':
			return core.state.orders;
		case 'shipments':
			return core.state.shipments;
		case 'publications':
			return core.state.publications;
		default:
			throw notFound(`Unknown state collection: ${name}`);
	}
}

type ControlHandler = (context: RouteContext) => RouteResult;

const message = (text: string): RouteResult => ({ json: { message: text } });

const CONTROLS: Record<string, ControlHandler> = {
	'GET log': ({ core, query }) => {
		const route = query.get('route');
		const entries = route ? core.log.entries.filter((entry) => entry.route === route) : core.log.entries;
		return { json: entries, skipLog: true };
	},
	'DELETE log': ({ core }) => {
		core.log.clear();
		return { ...message('Log cleared'), skipLog: true };
	},
	'POST faults': (context) => {
		const value = requireBody(context.body);
		const faults = Array.isArray(value) ? value.map(faultFrom) : [faultFrom(value)];
		for (const fault of faults) context.core.faults.add(fault);
		return message(`${faults.length} fault(s) queued`);
	},
	'POST variants': (context) => {
		try {
			return { json: { variants: context.core.variants.set(objectBody(context)) } };
		} catch (error) {
			throw badRequest((error as Error).message);
		}
	},
	'GET variants': ({ core }) => ({ json: { variants: core.variants.current } }),
	'DELETE variants': ({ core }) => {
		core.variants.reset();
		return message('Variants reset');
	},
	'DELETE faults': ({ core }) => {
		core.faults.clear();
		return message('Faults cleared');
	},
	'GET rate-limits': ({ core }) => ({ json: { rateLimits: core.rateLimiter.config } }),
	'POST rate-limits': (context) => {
		context.core.rateLimiter.configure(rateLimitsFrom(context));
		return { json: { rateLimits: context.core.rateLimiter.config } };
	},
	'POST token-lifetime': (context) => {
		const seconds = toNumber(objectBody(context).seconds);
		if (seconds === undefined) throw badRequest('seconds is required');
		context.core.tokens.setLifetime(seconds);
		return message(`Tokens issued from now on live ${seconds} s`);
	},
	'POST expire-tokens': ({ core }) => {
		core.tokens.expireAll();
		return message('All tokens expired');
	},
	'GET clock': ({ core }) => ({ json: { now: core.clock.now().toISOString() } }),
	'POST clock': (context) => {
		const { core } = context;
		const body = objectBody(context);
		if (body.set !== undefined) core.clock.set(body.set as string | number);
		else if (body.advanceMs !== undefined) core.clock.advance(toNumber(body.advanceMs) ?? Number.NaN);
		else throw badRequest('Send {"set": "<ISO date>"} or {"advanceMs": N}');
		return { json: { now: core.clock.now().toISOString() } };
	},
	'POST invoices': (context) => {
		const { overrides, visibleAt } = documentRequest(context);
		return { json: context.core.addInvoice(overrides, { visibleAt }) };
	},
	'POST invoice-corrections': (context) => {
		const { overrides, visibleAt } = documentRequest(context);
		return { json: context.core.addInvoiceCorrection(overrides, { visibleAt }) };
	},
	'GET info': ({ core }) => ({
		json: {
			url: core.baseUrl,
			serviceUrl: core.serviceUrl,
			clientId: core.clients[0].clientId,
			now: core.clock.now().toISOString(),
			products: core.catalog.size,
			orders: core.state.orders.length,
			rateLimits: core.rateLimiter.config,
			tokenLifetimeSeconds: core.tokens.lifetime,
		},
	}),
};

export const controlRoute: RouteDefinition = {
	key: 'control',
	method: '*',
	pattern: /^\/__sandbox\/(?<action>.+)$/,
	authenticated: false,
	handle(context) {
		const { action } = context.params;
		const stateMatch = /^state\/(?<collection>[\w-]+)$/.exec(action);
		if (context.method === 'GET' && stateMatch?.groups) {
			return { json: stateCollection(context.core, stateMatch.groups.collection) };
		}
		const handler = CONTROLS[`${context.method} ${action}`];
		if (!handler) throw notFound(`Unknown sandbox control: ${context.method} /__sandbox/${action}`);
		try {
			return handler(context);
		} catch (error) {
			// Invalid values caught by the sandbox's own checks are the caller's mistake.
			if (error instanceof HttpError) throw error;
			throw badRequest((error as Error).message);
		}
	},
};

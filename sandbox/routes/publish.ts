/**
 * Publish / unpublish (orders-and-shipments.md): one request for a batch of merchant inventory
 * ids, answered `{id}` (a progress id). The live service applies it asynchronously and e-mails a
 * report; the sandbox applies it at once and keeps the report (`state.publications`): ids it does
 * not know are reported there, not refused, as the answer cannot say anything about them.
 */
import { randomUUID } from 'node:crypto';
import type { SandboxCore } from '../core';
import { badRequest, requireBody } from '../http';
import type { PublicationRecord } from '../order-types';
import type { RouteContext, RouteDefinition, RouteResult } from '../route';
import { toNumber } from '../values';
import { xmlList } from '../xml';

const PRODUCT_BASE = '/product/api/v1/merchant-integration';
const MAX_IDS = 30_000;

function idsOf({ body }: RouteContext): number[] {
	const value = requireBody(body);
	const list = body.format === 'xml' ? xmlList(value) : value;
	if (!Array.isArray(list) || list.length === 0) throw badRequest('Request body must be a non-empty array of merchant inventory ids');
	if (list.length > MAX_IDS) throw badRequest(`At most ${MAX_IDS} ids per request`);
	return list.map((entry, index) => {
		const id = toNumber(entry);
		if (id === undefined || !Number.isInteger(id)) throw badRequest(`[${index}] must be an integer merchant inventory id`);
		return id;
	});
}

export function applyPublication(core: SandboxCore, action: PublicationRecord['action'], ids: number[]): PublicationRecord {
	const at = new Date(core.clock.nowMs()).toISOString();
	const status = action === 'publish' ? 'PUBLISHED' : 'UNPUBLISHED';
	const results = ids.map((merchantInventoryId) => {
		const product = core.catalog.getById(merchantInventoryId);
		if (!product) return { merchantInventoryId, applied: false, error: 'Proizvod ne postoji' };
		if (product.status !== status) core.catalog.save({ ...product, status, dateModified: at });
		return { merchantInventoryId, applied: true };
	});
	const record: PublicationRecord = { id: randomUUID(), action, at, results };
	core.publications.push(record);
	return record;
}

function publication(action: PublicationRecord['action']) {
	return (context: RouteContext): RouteResult => ({ json: { id: applyPublication(context.core, action, idsOf(context)).id } });
}

const idCount = ({ body }: Pick<RouteContext, 'body'>) => (Array.isArray(body.value) ? body.value.length : undefined);

export const publishRoutes: RouteDefinition[] = [
	{
		key: 'productPublish',
		method: 'POST',
		pattern: new RegExp(`^${PRODUCT_BASE}/product/publish$`),
		authenticated: true,
		handle: publication('publish'),
		itemCount: idCount,
	},
	{
		key: 'productUnpublish',
		method: 'POST',
		pattern: new RegExp(`^${PRODUCT_BASE}/product/unpublish$`),
		authenticated: true,
		handle: publication('unpublish'),
		itemCount: idCount,
	},
];

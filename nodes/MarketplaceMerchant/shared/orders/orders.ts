/**
 * Orders and shipments as the node and the trigger read them (orders-and-shipments.md): every rule
 * in one home. Lists are Spring pages read through `content` and stopped on `last`, 100 per request
 * (the first page says how many there are, so the rest go out together and none past the end); the
 * group names the service takes are learned at run time (`withGroupNames`); the documentation's
 * variants read alike (`paymentMethodsOf`, `simplifyOrder`); one order or shipment by its id.
 */
import type { IDataObject, INode } from 'n8n-workflow';

import { ANSWERS, type AnswerSchema } from '../../answers/schemas';
import { evenPageSize, readAllPages } from '../../transport/batches';
import { LIMITS, PATHS, RATE_LIMITS } from '../../transport/endpoints';
import { asNodeError, serviceError, statusOf } from '../../transport/errors';
import type { Route } from '../../transport/send';
import { processWide } from '../../transport/state';
import { formatIsoUtc, parseServiceTimestamp } from '../../values/dates';
import { isBlank, isPlainObject } from '../../values/labels';
import { isMarketplaceFulfilled, orderFromShipments, ordersFromShipments } from './outputs';
import type { ReadEndpoint } from '../read';

/** Every order and shipment read: the orders group (300 a minute, 5 a second), safe to repeat. */
export const ORDER_READS: Route = { group: 'orders', idempotent: true };

export type OrderGroup = 'forConfirmation' | 'processed';
export type ShipmentGroup = 'forPackaging' | 'onDelivery' | 'completed';

/**
 * The three sets of group names of the documentation: each endpoint's own (`endpoint`, tried
 * first: the sections of the two endpoints show them), or the status-groups endpoint's four
 * (`statusGroups`), which some pages name for both.
 */
export type GroupNaming = 'endpoint' | 'statusGroups';

/** One request's query for a group, and the statuses the group keeps when the names are wider than it (`statuses`, intersected). */
interface GroupQuery {
	statusGroup: string;
	statuses?: readonly string[];
}

/** The statuses of a suborder that can still be packed (SG_FOR_PACKAGING's subgroups), and those packed but not yet collected. */
export const PACKABLE_STATUSES = ['PARTIALLY_CONFIRMED', 'PENDING', 'CONFIRMED', 'PACKING_INITIATED'] as const;
/** Statuses only the shipments' filter names, not the statuses endpoint: packed goods in transit or at customs. */
export const SHIPMENT_ONLY_STATUSES = ['PARTIALLY_PACKED_IN_TRANSIT', 'PARTIALLY_PACKED_ON_THE_BORDER', 'PACKED_IN_TRANSIT', 'PACKED_ON_THE_BORDER'] as const;
const PACKED_STATUSES = ['PARTIALLY_PACKED', 'PACKED', 'READY_FOR_COLLECTION', ...SHIPMENT_ONLY_STATUSES] as const;

/** A shipment's stage on its way to a label, one reading for Pack and Get Label: order not confirmed, to pack, packed, or off that path (on its way, cancelled). */
export function packingStage(status: string): 'unconfirmed' | 'packable' | 'packed' | 'other' {
	if (status === 'CREATED') return 'unconfirmed';
	if ((PACKABLE_STATUSES as readonly string[]).includes(status)) return 'packable';
	return /PACKED|READY_FOR_COLLECTION/.test(status) ? 'packed' : 'other';
}

/** What a shipment before packing needs first, in the words Pack and Get Label both use. */
export const BEFORE_PACKING = {
	unconfirmed: 'Its order is not confirmed yet: confirm it first (Order › Confirm).',
	packable: 'It is not packed yet: pack it first (Shipment › Pack).',
} as const;

/**
 * Each group in each naming. With the status-groups endpoint's names an order still for confirmation
 * is SG_ON_HOLD (every suborder CREATED) and a processed one is in any other group; a shipment to pack
 * or on its way is part of SG_PROCESSING (told apart by status) and the parcels of SG_ON_DELIVERY.
 */
const GROUP_QUERIES: Record<GroupNaming, Record<OrderGroup | ShipmentGroup, GroupQuery[]>> = {
	endpoint: {
		forConfirmation: [{ statusGroup: 'SG_FOR_CONFIRMATION' }],
		processed: [{ statusGroup: 'SG_PROCESSED' }],
		forPackaging: [{ statusGroup: 'SG_FOR_PACKAGING' }],
		onDelivery: [{ statusGroup: 'SG_SHIPMENT_ON_DELIVERY' }],
		completed: [{ statusGroup: 'SG_COMPLETED' }],
	},
	statusGroups: {
		forConfirmation: [{ statusGroup: 'SG_ON_HOLD' }],
		processed: [{ statusGroup: 'SG_PROCESSING' }, { statusGroup: 'SG_ON_DELIVERY' }, { statusGroup: 'SG_COMPLETED' }],
		forPackaging: [{ statusGroup: 'SG_PROCESSING', statuses: PACKABLE_STATUSES }],
		onDelivery: [{ statusGroup: 'SG_PROCESSING', statuses: PACKED_STATUSES }, { statusGroup: 'SG_ON_DELIVERY' }],
		completed: [{ statusGroup: 'SG_COMPLETED' }],
	},
};

type GroupedEndpoint = 'orders' | 'shipments';

/**
 * What this process knows of one endpoint's group names: the names in use, `settled` once an answer
 * proved them, `exhausted` once both sets were refused (a 400 for another reason: no more retries
 * with the other names), and `probing` while the first request with a group is out: the others
 * wait for it, so that a process spends one extra request per service on learning.
 */
interface NamingState {
	naming: GroupNaming;
	settled: boolean;
	exhausted: boolean;
	probing?: Promise<void>;
}

/** Per service (Base URL) and endpoint: production and staging may differ. */
const NAMING = processWide('orderGroupNaming', () => new Map<string, NamingState>());

async function namingOf(read: ReadEndpoint, endpoint: GroupedEndpoint): Promise<NamingState> {
	const key = `${(await read.service?.()) ?? ''}|${endpoint}`;
	let state = NAMING.get(key);
	if (!state) NAMING.set(key, (state = { naming: 'endpoint', settled: false, exhausted: false }));
	return state;
}

/** For tests: forget what was learned (a new process). */
export function forgetGroupNaming(): void {
	NAMING.clear();
}

/**
 * Runs `attempt` with the group names the endpoint takes: the endpoint's own names until an answer
 * says otherwise. A 400 to the names in use (the service names the values it takes) is retried once
 * with the other set, and the set that succeeds is kept for the process, also when the service
 * changes its mind later. When the retry is refused too, the first refusal is the error (a 400 for
 * another reason) and no request is retried with other names again in this process.
 */
export async function withGroupNames<T>(read: ReadEndpoint, node: INode, endpoint: GroupedEndpoint, attempt: (naming: GroupNaming) => Promise<T>): Promise<T> {
	const state = await namingOf(read, endpoint);
	while (!state.settled && state.probing) await state.probing;
	let finish: (() => void) | undefined;
	if (!state.settled) state.probing = new Promise<void>((resolve) => (finish = resolve));
	const tried = state.naming;
	try {
		try {
			const result = await attempt(tried);
			state.settled = true;
			return result;
		} catch (error) {
			if (statusOf(error) !== 400 || state.exhausted) throw asNodeError(node, error);
			const other: GroupNaming = tried === 'endpoint' ? 'statusGroups' : 'endpoint';
			try {
				const result = await attempt(other);
				Object.assign(state, { naming: other, settled: true });
				return result;
			} catch (second) {
				if (statusOf(second) === 400) Object.assign(state, { settled: true, exhausted: true });
				throw asNodeError(node, error);
			}
		}
	} finally {
		if (finish) {
			state.probing = undefined;
			finish();
		}
	}
}

/** Called with each page's running count (the node's cap on one item's results). */
export type OnPage = (count: number) => void;

type SpringPage = { content: IDataObject[]; last?: boolean; totalElements?: number };

function pageOf(node: INode, answer: unknown, what: string): SpringPage {
	if (!isPlainObject(answer) || !Array.isArray(answer.content)) {
		const message = `The service answered the request for ${what} with something that is not a page of results`;
		throw serviceError(node, { body: JSON.stringify(answer ?? null).slice(0, 200) }, { message });
	}
	const { content, last, totalElements } = answer;
	return {
		content: content as IDataObject[],
		last: typeof last === 'boolean' ? last : undefined,
		totalElements: typeof totalElements === 'number' ? totalElements : undefined,
	};
}

interface ListRequest {
	read: ReadEndpoint;
	node: INode;
	path: string;
	answer: AnswerSchema;
	what: string;
	qs: IDataObject;
	limit: number;
	/** An entry's id: an entry read twice (the list moved while it was read) is kept once. */
	idOf: (entry: IDataObject) => unknown;
	onPage?: OnPage;
	/**
	 * The list is newest first and nothing older than this is wanted: pages are read one at a time
	 * and the reading stops after the first page that reaches past it.
	 */
	since?: Date;
}

/** The entries of `lists` in order, each id once. */
function uniqueEntries(lists: IDataObject[][], idOf: (entry: IDataObject) => unknown): IDataObject[] {
	const seen = new Set<string>();
	const unique: IDataObject[] = [];
	for (const entry of lists.flat()) {
		const id = String(idOf(entry));
		if (seen.has(id)) continue;
		seen.add(id);
		unique.push(entry);
	}
	return unique;
}

/**
 * Up to `limit` results of a paged list, newest first. The first page alone; when it is not `last`,
 * the pages its total calls for together (the gate paces them), none past the end. The list moves
 * while it is read: an entry added meanwhile pushes the others one place back, so a later page
 * repeats one (kept once) and the tail moves past the pages asked for. So when the last page read
 * reports a larger total than the first, and when pages come without a total, the next pages
 * follow one at a time until `last`, a short page or the limit.
 */
async function readPages({ read, node, path, answer, what, qs, limit, idOf, onPage, since }: ListRequest): Promise<IDataObject[]> {
	const size = evenPageSize(limit, LIMITS.ordersPageSize);
	let latest = 0;
	const pagesRead = new Map<number, SpringPage>();
	const page = async (index: number) => {
		const next = pageOf(node, await read('orders', path, { ...qs, page: index, size }, what, answer), what);
		pagesRead.set(index, next);
		latest = Math.max(latest, index);
		return next;
	};
	const lists: IDataObject[][] = [];
	const count = () => uniqueEntries(lists, idOf).length;
	const first = await page(0);
	lists.push(first.content);
	onPage?.(count());
	const reachedSince = (seen: SpringPage) => since !== undefined && seen.content.some((entry) => (parseServiceTimestamp(entry.createdDate)?.getTime() ?? Infinity) < since.getTime());
	const ended = (seen: SpringPage) => seen.last === true || seen.content.length < size || reachedSince(seen);
	/** The next pages one at a time, while the last read is not the end and `more` says so. */
	const readOnWhile = async (more: (last: SpringPage) => boolean): Promise<IDataObject[]> => {
		for (let last = pagesRead.get(latest) as SpringPage; !ended(last) && count() < limit && more(last); ) {
			last = await page(latest + 1);
			lists.push(last.content);
			onPage?.(count());
		}
		return uniqueEntries(lists, idOf).slice(0, limit);
	};
	if (since !== undefined) return await readOnWhile(() => true);
	if (!ended(first) && count() < limit && first.totalElements !== undefined) {
		const pagesWanted = Math.ceil((Math.min(limit, first.totalElements) - first.content.length) / size);
		const width = RATE_LIMITS.orders.inFlight;
		const rest = await readAllPages(1, width, async (index) => [(await page(index + 1)).content], (pages) => onPage?.(first.content.length + pages * size), Math.max(pagesWanted, 0));
		lists.push(...rest);
	}
	const grew = (last: SpringPage) => first.totalElements !== undefined && last.totalElements !== undefined && last.totalElements > first.totalElements;
	return await readOnWhile((last) => first.totalElements === undefined || grew(last));
}

/** Newest first: the order of the service's lists (creation, or purchase for shipments). */
function timeOf(entry: IDataObject): number {
	return parseServiceTimestamp(entry.createdDate)?.getTime() ?? 0;
}

/**
 * The results of several queries as one list, newest first as the service sorts each, every entry
 * once (an order with suborders in two groups).
 */
async function readUnion(request: Omit<ListRequest, 'qs'>, queries: IDataObject[]): Promise<IDataObject[]> {
	const lists: IDataObject[][] = [];
	for (const qs of queries) lists.push(await readPages({ ...request, qs }));
	const all = lists.length === 1 ? lists : [lists.flat().sort((a, b) => timeOf(b) - timeOf(a))];
	return uniqueEntries(all, request.idOf).slice(0, request.limit);
}

/** A group's queries, the caller's `statuses` intersected with the group's where it names some; a query left with none is dropped. */
function groupQueries(naming: GroupNaming, group: OrderGroup | ShipmentGroup, statuses: string[] | undefined): IDataObject[] {
	const queries: IDataObject[] = [];
	for (const query of GROUP_QUERIES[naming][group]) {
		const kept = query.statuses ? (statuses ?? [...query.statuses]).filter((status) => query.statuses?.includes(status)) : statuses;
		if (kept !== undefined && kept.length === 0) continue;
		queries.push({ statusGroup: query.statusGroup, ...(kept === undefined ? {} : { statuses: kept.join(',') }) });
	}
	return queries;
}

export interface OrderFilter {
	/** Absent: every order. */
	group?: OrderGroup;
	createdFrom?: Date;
	createdTo?: Date;
}

/** Up to `limit` orders (Infinity: all), newest first. */
export async function listOrders(read: ReadEndpoint, node: INode, filter: OrderFilter, limit: number, onPage?: OnPage): Promise<IDataObject[]> {
	const dates: IDataObject = {};
	if (filter.createdFrom) dates.dateFrom = formatIsoUtc(filter.createdFrom);
	if (filter.createdTo) dates.dateTo = formatIsoUtc(filter.createdTo);
	const request = { read, node, path: PATHS.orders, answer: ANSWERS.orders, what: 'orders', limit, onPage, idOf: (order: IDataObject) => order.id };
	const { group } = filter;
	if (group === undefined) return await readUnion(request, [dates]);
	return await withGroupNames(read, node, 'orders', async (naming) =>
		readUnion(request, groupQueries(naming, group, undefined).map((query) => ({ ...query, ...dates }))),
	);
}

export interface ShipmentFilter {
	/** One of the two is needed: a group, or a suborder id or order id to search for (then the group is not sent). */
	group?: ShipmentGroup;
	search?: string;
	statuses?: string[];
	warehouseIds?: number[];
	paymentMethods?: string[];
	carriers?: string[];
	/** DS (the merchant's own delivery), FBA (fulfilled by the marketplace), or another type the service names. */
	suborderTypes?: string[];
	confirmedFrom?: Date;
	confirmedTo?: Date;
	/**
	 * The shipment's creation (purchase) time: the query has no such filter, so it is applied to the
	 * answers; newest purchase first, the pages stop once they are older than `createdFrom`. This
	 * keeps cancellations never confirmed, which Confirmed From leaves out.
	 */
	createdFrom?: Date;
	createdTo?: Date;
}

/** Whether an entry's `createdDate` lies in the range; an entry without a readable one is kept (nothing is dropped on a guess). */
function createdWithin(entry: IDataObject, from: Date | undefined, to: Date | undefined): boolean {
	const created = parseServiceTimestamp(entry.createdDate);
	if (!created) return true;
	return (from === undefined || created >= from) && (to === undefined || created <= to);
}

/** Up to `limit` shipments (Infinity: all), newest purchase first. */
export async function listShipments(read: ReadEndpoint, node: INode, filter: ShipmentFilter, limit: number, onPage?: OnPage): Promise<IDataObject[]> {
	const { createdFrom, createdTo } = filter;
	if (createdFrom === undefined && createdTo === undefined) return await listShipmentPages(read, node, filter, limit, onPage);
	// Created range: read until the answers are older than its start (all of them with no start), keep those in it.
	const all = await listShipmentPages(read, node, filter, Infinity, onPage, createdFrom);
	return all.filter((shipment) => createdWithin(shipment, createdFrom, createdTo)).slice(0, limit);
}

async function listShipmentPages(read: ReadEndpoint, node: INode, filter: ShipmentFilter, limit: number, onPage?: OnPage, since?: Date): Promise<IDataObject[]> {
	const qs: IDataObject = {};
	const list = (name: string, values: unknown[] | undefined) => {
		if (values && values.length > 0) qs[name] = values.join(',');
	};
	list('warehouseIds', filter.warehouseIds);
	list('paymentMethods', filter.paymentMethods);
	list('carriers', filter.carriers);
	list('suborderTypes', filter.suborderTypes);
	if (filter.confirmedFrom) qs.confirmedFrom = formatIsoUtc(filter.confirmedFrom);
	if (filter.confirmedTo) qs.confirmedTo = formatIsoUtc(filter.confirmedTo);
	const request = { read, node, path: PATHS.shipments, answer: ANSWERS.shipments, what: 'shipments', limit, onPage, since, idOf: (shipment: IDataObject) => shipment.suborderId };
	const statuses = filter.statuses && filter.statuses.length > 0 ? filter.statuses : undefined;
	const { group, search } = filter;
	if (group === undefined || !isBlank(search)) {
		return await readUnion(request, [{ ...qs, search, ...(statuses ? { statuses: statuses.join(',') } : {}) }]);
	}
	return await withGroupNames(read, node, 'shipments', async (naming) =>
		readUnion(request, groupQueries(naming, group, statuses).map((query) => ({ ...qs, ...query }))),
	);
}

/** One order by its id, or undefined when the service has none with it. */
export async function readOrder(read: ReadEndpoint, node: INode, orderId: string): Promise<IDataObject | undefined> {
	const answer = await read('orders', PATHS.orders, { orderId, page: 0, size: 1 }, `order ${orderId}`, ANSWERS.orders);
	return pageOf(node, answer, `order ${orderId}`).content.find((order) => String(order.id) === orderId);
}

/** What the shipments search finds for `search` (a suborder id, or an order id: all its shipments). */
async function searchShipments(read: ReadEndpoint, node: INode, search: string, what: string): Promise<IDataObject[]> {
	const answer = await read('orders', PATHS.shipments, { search, page: 0, size: LIMITS.ordersPageSize }, what, ANSWERS.shipments);
	return pageOf(node, answer, what).content;
}

/** One shipment by its suborder id (the search also finds an order's), or undefined when there is none. */
export async function readShipment(read: ReadEndpoint, node: INode, suborderId: string): Promise<IDataObject | undefined> {
	return (await searchShipments(read, node, suborderId, `shipment ${suborderId}`)).find((shipment) => String(shipment.suborderId) === suborderId);
}

/** The shipments `id` names: the one suborder it is, or every shipment of the order it is, newest purchase first. */
export async function shipmentsOf(read: ReadEndpoint, node: INode, id: string): Promise<IDataObject[]> {
	const found = await searchShipments(read, node, id, `the shipments of ${id}`);
	const suborder = found.filter((shipment) => String(shipment.suborderId) === id);
	return suborder.length > 0 ? suborder : found.filter((shipment) => String(shipment.orderId) === id);
}

/** An order the orders endpoint does not list, found through the shipments' search by order id (one read), or undefined. */
export async function readOrderThroughShipments(read: ReadEndpoint, node: INode, orderId: string): Promise<IDataObject | undefined> {
	const shipments = (await listShipments(read, node, { search: orderId }, Infinity)).filter((shipment) => String(shipment.orderId) === orderId);
	return shipments.length > 0 ? orderFromShipments(orderId, shipments) : undefined;
}

/** The shipment groups (For Packaging, On Delivery, Completed): together every shipment the merchant has. */
export const SHIPMENT_GROUPS: readonly ShipmentGroup[] = ['forPackaging', 'onDelivery', 'completed'];

/**
 * Up to `limit` orders the marketplace fulfils (FBA), newest first, created in the range: rebuilt
 * from the FBA shipments of the three shipment groups (three reads, or more with many of them).
 */
export async function listMarketplaceOrders(read: ReadEndpoint, node: INode, range: { createdFrom?: Date; createdTo?: Date }, limit: number, onPage?: OnPage): Promise<IDataObject[]> {
	const shipments: IDataObject[] = [];
	for (const group of SHIPMENT_GROUPS) shipments.push(...(await listShipments(read, node, { group, suborderTypes: ['FBA'], ...range }, limit, onPage)));
	const fba = shipments.filter(isMarketplaceFulfilled).sort((a, b) => timeOf(b) - timeOf(a));
	return ordersFromShipments(fba).slice(0, limit);
}

/** Orders of two lists as one, newest first, each id once. */
export function newestOrders(lists: IDataObject[][], limit: number): IDataObject[] {
	const all = lists.flat().sort((a, b) => timeOf(b) - timeOf(a));
	return uniqueEntries([all], (order) => order.id).slice(0, limit);
}

/**
 * What the Order and Shipment resources share: the route of their reads, the steps that read
 * through shared/orders/orders.ts (the trigger's rules for paging and group names), and the editor's
 * list of warehouses.
 */
import type { IDataObject, ILoadOptionsFunctions, INodeExecutionData, INodePropertyOptions } from 'n8n-workflow';

import { ANSWERS } from '../answers/schemas';
import { decodedList } from '../answers/read';
import { assertWithinItemCap } from '../transport/batches';
import { PATHS, SERVICE_HOST_ENDPOINTS } from '../transport/endpoints';
import { asNodeError, nodeError } from '../transport/errors';
import { sendAuthenticated, sendSettingsOf, type AuthenticatedContext, type SendSettings, type ItemFunctions } from '../transport/send';
import { endpointReader, type ReadEndpoint } from '../shared/read';
import { ORDER_READS } from '../shared/orders/orders';
import { isBlank, type ValueContext } from '../values/labels';
import { readNumber } from '../values/numbers';
import { checkRangeOrder, readDate, readOutput, readRangeEnd, shapeOutput, type Output } from '../values/values';
import { steps, type Steps } from './run';

// Their homes are shared/ (the trigger reads and lists statuses too); the operations import them from here.
export { ORDER_READS };
export { STATUSES_METHOD } from '../shared/editorLists';


/**
 * The steps (actions/run.ts) of a read of orders or shipments: `read` checks the item's Output
 * (Selected Fields without fields fails it before anything is sent); `act` reads through
 * shared/orders/orders.ts (paging, group names; the answers read by their schemas there) with the
 * item's Request Options, and shapes each entry by the Output (`simplify` for Simplified).
 */
export function readingOrders(
	list: (this: ItemFunctions, read: ReadEndpoint, onPage: (count: number) => void) => Promise<IDataObject[]>,
	simplify: (entry: IDataObject) => IDataObject,
): Steps {
	return steps<Output, undefined>({
		read: (ctx) => readOutput(ctx),
		async act(ctx, output) {
			const read = endpointReader(ctx, sendSettingsOf(ctx));
			let entries: IDataObject[];
			try {
				entries = await list.call(ctx, read, (count) => assertWithinItemCap(ctx, count));
			} catch (error) {
				throw asNodeError(ctx.getNode(), error);
			}
			assertWithinItemCap(ctx, entries.length);
			return entries.map((entry): INodeExecutionData => ({ json: shapeOutput(output, entry, simplify) }));
		},
	});
}

/** One bound of a range as its filter names it: the field, its value, the filter's key. */
interface RangeBound<K extends string> {
	field: string;
	value: unknown;
	key: K;
}

/**
 * A range of two optional times (Created, Confirmed) as the filter's keys, each only where given:
 * a bare day as its end means the whole day (as the documents' ranges read it); an end before the
 * start is refused, naming both fields (checkRangeOrder).
 */
export function readTimeRange<F extends string, T extends string>(ctx: ValueContext, from: RangeBound<F>, to: RangeBound<T>): Partial<Record<F | T, Date>> {
	const start = isBlank(from.value) ? undefined : readDate(ctx, from.field, from.value);
	const end = isBlank(to.value) ? undefined : readRangeEnd(ctx, to.field, to.value);
	if (start && end) checkRangeOrder(ctx, { field: from.field, date: start }, { field: to.field, date: end });
	const range: Partial<Record<F | T, Date>> = {};
	if (start) range[from.key] = start;
	if (end) range[to.key] = end;
	return range;
}

/** On the node's `methods.loadOptions`. */
export const WAREHOUSES_METHOD = 'getWarehouses';
export const CONFIRM_WAREHOUSES_METHOD = 'getConfirmWarehouses';

/** The value of the default warehouse in a Warehouse list: no id, so the workflow keeps working when the default changes. */
export const DEFAULT_WAREHOUSE = '';

/**
 * A warehouse as a Warehouse list's value gives it, the one reading of it (Order › Confirm's
 * Warehouse, Shipment › Get Many's Filters › Warehouses): Default Address (`DEFAULT_WAREHOUSE`, or
 * empty) is undefined, to be looked up when the node runs (`defaultWarehouseId`); anything else is
 * a warehouse ID, a whole number from 1.
 */
export function readWarehouseId(ctx: ValueContext, field: string, value: unknown): number | undefined {
	if (isBlank(value)) return undefined;
	return readNumber(ctx, field, value, { whole: true, min: 1, kind: 'a warehouse ID (a whole number)', hint: 'Use the IDs Warehouse › Get Many lists' });
}

/** Order › Confirm's Warehouse value for each line's own warehouse, the one it was ordered from (`suborderWarehouseAddressId`). */
export const AS_ORDERED = 'asOrdered';

/**
 * The warehouses' read, declared once for Warehouse › Get Many and the Warehouse lists: the orders
 * group, safe to repeat, on the service host where the credential gives one.
 */
export const WAREHOUSES_READ = { ...ORDER_READS, host: SERVICE_HOST_ENDPOINTS.warehouses };

/** The merchant's warehouses as the service lists them (one page: a merchant has a few). */
async function readWarehouses(ctx: AuthenticatedContext, settings: SendSettings = {}): Promise<IDataObject[]> {
	const answer = await sendAuthenticated(ctx, WAREHOUSES_READ, { method: 'GET', url: PATHS.warehouses }, settings);
	return decodedList(ctx, answer, ANSWERS.warehouses).filter((warehouse) => !isBlank(warehouse.id));
}

/** The id of the warehouse marked as the default outbound address now (one read), or an error saying none is. */
export async function defaultWarehouseId(ctx: AuthenticatedContext, settings: SendSettings): Promise<number> {
	const warehouses = await readWarehouses(ctx, settings);
	const marked = warehouses.filter((warehouse) => warehouse.defaultAddress === true);
	if (marked.length !== 1) {
		throw nodeError(ctx.getNode(), `The service lists ${marked.length === 0 ? 'no warehouse' : `${marked.length} warehouses`} as the default address`, {
			description: 'Pick the warehouse in the Warehouse list instead of Default Address, or mark one default address in the merchant portal.',
		});
	}
	return Number(marked[0].id);
}

/** The Warehouse list before the node has its credential: Default Address alone, which works as it is, saying why the rest is missing. */
export const WAREHOUSES_BEFORE_CREDENTIAL: INodePropertyOptions[] = [
	{
		name: 'Default Address',
		value: DEFAULT_WAREHOUSE,
		description: 'The warehouse marked as the default outbound address when the node runs. Your other warehouses are listed once the node has its credential (choose it above; the list reloads).',
	},
];

/** The merchant's warehouses, the default address first as "Default Address (…)", then by name. */
export async function getWarehouses(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const warehouses = await readWarehouses(this);
	const named = warehouses
		.map((warehouse) => ({ name: `${String(warehouse.warehouseName ?? warehouse.id)} (${String(warehouse.id)})`, value: String(warehouse.id), isDefault: warehouse.defaultAddress === true }))
		.sort((a, b) => a.name.localeCompare(b.name));
	const fallback = named.find(({ isDefault }) => isDefault);
	return [
		{ name: `Default Address${fallback ? ` (now ${fallback.name})` : ''}`, value: DEFAULT_WAREHOUSE, description: 'The warehouse marked as the default outbound address when the node runs' },
		...named.map(({ name, value }) => ({ name, value })),
	];
}

const AS_ORDERED_OPTION: INodePropertyOptions = { name: 'As Ordered', value: AS_ORDERED, description: 'Each line from the warehouse it was ordered from (the Default Address where the order names none)' };

/** Order › Confirm's Warehouse list: As Ordered (each line's own warehouse) first, then the list above. */
export async function getConfirmWarehouses(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return [
		AS_ORDERED_OPTION,
		...(await getWarehouses.call(this)),
	];
}

/** Confirm's Warehouse list before the node has its credential: As Ordered and Default Address, which work as they are. */
export const CONFIRM_WAREHOUSES_BEFORE_CREDENTIAL: INodePropertyOptions[] = [
	AS_ORDERED_OPTION,
	...WAREHOUSES_BEFORE_CREDENTIAL,
];

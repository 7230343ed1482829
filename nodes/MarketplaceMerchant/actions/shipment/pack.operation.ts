/**
 * Shipment › Pack: report a suborder packed (number of boxes, quantities; by default everything
 * confirmed), or every shipment of an order that can be packed, given its Order ID (Order › Confirm's
 * output, dragged: one output item per shipment packed, with its `suborderId` for Get Label). The
 * shipment is read first (its confirmed quantities, whether it can be packed). A
 * pack is not idempotent (a repeated one is refused, and a partial one may be followed by another):
 * it is never sent twice. When its answer is lost (5xx, timeout, cut connection) the shipment is
 * read back once: packed as asked is reported as applied; anything else is an error saying what
 * to check, never a resend. A pack the service refuses (4xx) says what it means in English, the
 * service's own text beside it, the shipment's status read back, and that nothing was packed.
 */
import {
	updateDisplayOptions,
	type IDataObject,
	type IHttpRequestOptions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { ANSWERS } from '../../answers/schemas';
import { PATHS } from '../../transport/endpoints';
import { asNodeError, joinSentences, nodeError } from '../../transport/errors';
import { sendRequest, sendSettingsOf, type RequestData, type ItemFunctions } from '../../transport/send';
import { endpointReader } from '../../shared/read';
import { BEFORE_PACKING, PACKABLE_STATUSES, packingStage, readShipment, shipmentsOf } from '../../shared/orders/orders';
import type { ReadEndpoint } from '../../shared/read';
import { fieldPath, invalidInput, isBlank, listEntry, readChoice, readParameter, type ParameterContext } from '../../values/labels';
import { readId, readWholeNumber } from '../../values/numbers';
import { readText } from '../../values/values';
import { pacedRouting, textField } from '../common';
import { onceInRun } from '../run';
import { isRefusal, outcomeUnknownText, refusalError, uncertainOutcome } from '../../transport/outcomes';
import type { OperationModule } from '../contract';

const RESOURCE = 'shipment';
const OPERATION = 'pack';

const LABELS = {
	suborderId: 'Suborder or Order ID',
	numberOfBoxes: 'Number of Boxes',
	packWhat: 'Pack',
	quantities: 'Quantities',
	merchantInventoryId: 'Merchant Inventory ID',
	quantity: 'Quantity',
} as const;

type PackContext = ParameterContext & { getItemIndex(): number };

interface PackAsk {
	suborderId: string;
	numberOfBoxes: number;
	/** Quantities: the lines given, with the label errors name each by; undefined: everything confirmed. */
	lines?: Array<{ merchantInventoryId: number; quantity: number; label: string }>;
}

/** The item's values; one that cannot be sent throws its `InputError` (before anything is sent). */
function readPackAsk(ctx: PackContext): PackAsk {
	const suborderId = readParameter(ctx, 'suborderId', LABELS.suborderId, readText);
	const numberOfBoxes = readParameter(ctx, 'numberOfBoxes', LABELS.numberOfBoxes, (reader, field, value) => readWholeNumber(reader, field, value, 1));
	if (readChoice(ctx, LABELS.packWhat, ctx.getNodeParameter('packWhat', 'allConfirmed'), ['allConfirmed', 'quantities']) === 'allConfirmed') return { suborderId, numberOfBoxes };
	const rows = ((ctx.getNodeParameter('quantities', {}) as IDataObject).line ?? []) as IDataObject[];
	if (rows.length === 0) throw invalidInput(ctx, LABELS.quantities, 'has no line', 'Add a line per product packed, or set Pack to All Confirmed');
	const lines = rows.map((row, index) => {
		const label = listEntry(LABELS.quantities, index, 'line');
		const merchantInventoryId = readId(ctx, fieldPath(label, LABELS.merchantInventoryId), row.merchantInventoryId);
		const quantity = readWholeNumber(ctx, fieldPath(label, LABELS.quantity), row.quantity, 0);
		return { merchantInventoryId, quantity, label };
	});
	return { suborderId, numberOfBoxes, lines };
}

const checkValues = async function (this: ItemFunctions, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	// The suborder's path is set per shipment packed (an Order ID packs each of its shipments).
	readPackAsk(this);
	return requestOptions;
};

/** A shipment line as the service lists it. */
interface ShipmentLine {
	merchantInventoryId: number;
	name: IDataObject[string];
	confirmed: number;
	packed: number;
}

function linesOf(shipment: IDataObject): ShipmentLine[] {
	const items = Array.isArray(shipment.items) ? (shipment.items as IDataObject[]) : [];
	const count = (value: unknown) => (typeof value === 'number' ? value : 0);
	return items.map((item) => ({
		merchantInventoryId: Number(item.merchantInventoryId),
		name: item.productName ?? null,
		confirmed: count(item.confirmedQuantity),
		packed: count(item.packedQuantity),
	}));
}

const packedText = (lines: ShipmentLine[]) => lines.map((line) => `${line.merchantInventoryId} × ${line.packed}`).join(', ');

/** Why a status cannot be packed, and what to do instead. */
function notPackableAdvice(status: string): string {
	const stage = packingStage(status);
	if (stage === 'unconfirmed') return BEFORE_PACKING.unconfirmed;
	if (stage === 'packed') return 'It is packed already: nothing was sent. Get Label gives its label once it is READY_FOR_COLLECTION.';
	return `Only a shipment for packaging (${PACKABLE_STATUSES.join(', ')}) can be packed; nothing was sent.`;
}

/** The products to pack, checked against the shipment: all confirmed, or the lines given, none above its confirmed quantity. */
function productsToPack(ctx: PackContext, shipment: IDataObject, ask: PackAsk): Array<{ line: ShipmentLine; quantity: number }> {
	const { suborderId } = ask;
	const status = String(shipment.status ?? '');
	if (packingStage(status) !== 'packable') {
		throw nodeError(ctx.getNode(), `Shipment ${suborderId} cannot be packed: its status is ${status || 'not given'}`, {
			itemIndex: ctx.getItemIndex(),
			description: notPackableAdvice(status),
		});
	}
	const lines = linesOf(shipment);
	if (!ask.lines) {
		const confirmed = lines.filter((line) => line.confirmed > 0).map((line) => ({ line, quantity: line.confirmed }));
		if (confirmed.length === 0) throw nodeError(ctx.getNode(), `Shipment ${suborderId} has nothing confirmed to pack`, { itemIndex: ctx.getItemIndex() });
		return confirmed;
	}
	const picked = new Map<number, { line: ShipmentLine; quantity: number }>();
	const known = lines.map((line) => `${line.merchantInventoryId}${isBlank(line.name) ? '' : ` (${String(line.name)})`} × ${line.confirmed}`).join(', ');
	for (const { merchantInventoryId, quantity, label } of ask.lines) {
		const line = lines.find((candidate) => candidate.merchantInventoryId === merchantInventoryId);
		const idField = fieldPath(label, LABELS.merchantInventoryId);
		if (!line) throw invalidInput(ctx, idField, `${merchantInventoryId} is not a line of shipment ${suborderId}`, `Its lines (confirmed): ${known}`);
		if (picked.has(merchantInventoryId)) throw invalidInput(ctx, idField, `${merchantInventoryId} is given twice`, 'Give each line once, with its whole quantity');
		if (quantity > line.confirmed) {
			throw invalidInput(ctx, fieldPath(label, LABELS.quantity), `${quantity} is more than the ${line.confirmed} confirmed of line ${merchantInventoryId}`);
		}
		picked.set(merchantInventoryId, { line, quantity });
	}
	const products = [...picked.values()];
	if (products.every(({ quantity }) => quantity === 0)) throw invalidInput(ctx, LABELS.quantities, 'packs nothing: every quantity is 0');
	return products;
}

type Seen = 'asSent' | 'none' | 'other';

/** What the shipment read back shows: packed as sent, nothing packed, or packed otherwise. */
function packingSeen(lines: ShipmentLine[], sent: Map<number, number>): Seen {
	if (lines.every((line) => line.packed === 0)) return 'none';
	return lines.every((line) => line.packed === (sent.get(line.merchantInventoryId) ?? 0)) ? 'asSent' : 'other';
}

/** The status of a shipment read back after a refusal, or why it is not known. */
async function statusAfter(read: ReadEndpoint, ctx: ItemFunctions, suborderId: string): Promise<string> {
	try {
		const after = await readShipment(read, ctx.getNode(), suborderId);
		return after ? `it is ${String(after.status ?? 'without a status')}` : 'it was not found when read back';
	} catch (error) {
		return `its status is unknown (it could not be read back: ${asNodeError(ctx.getNode(), error).message})`;
	}
}

/**
 * The shipments an item packs: the suborder its ID names, or each shipment of the order it names
 * that can be packed, one after the other; one output per shipment packed. A failure after one of an
 * order's shipments was packed names those packed.
 */
async function packItem(ctx: ItemFunctions, requestData: RequestData, ask: PackAsk): Promise<IDataObject[]> {
	const node = ctx.getNode();
	const itemIndex = ctx.getItemIndex();
	const id = ask.suborderId;
	const read = endpointReader(ctx, sendSettingsOf(ctx));
	const found = await shipmentsOf(read, node, id);
	if (found.length === 0) {
		throw nodeError(node, `No shipment or order ${id} was found`, {
			itemIndex,
			description: `Check the ${LABELS.suborderId}: Order › Confirm and Shipment › Get Many give them (e.g. H7SRK-Z2IAO-DS-1, or the order's HPGUJ-1SQQI for all its shipments); an order confirmed from two warehouses has one shipment per warehouse.`,
		});
	}
	if (found.some((shipment) => String(shipment.suborderId) === id)) return [await packShipment(ctx, read, requestData, ask, found[0])];
	const packable = found.filter((shipment) => packingStage(String(shipment.status ?? '')) === 'packable');
	const listed = found.map((shipment) => `${String(shipment.suborderId)} is ${String(shipment.status ?? 'without a status')}`).join(', ');
	if (packable.length === 0) {
		throw nodeError(node, `Order ${id} has no shipment that can be packed`, {
			itemIndex,
			description: `${listed}. ${notPackableAdvice(String(found[0].status ?? ''))}`,
		});
	}
	if (ask.lines && packable.length > 1) {
		throw invalidInput(ctx, LABELS.suborderId, `order ${id} has ${packable.length} shipments to pack (${listed})`, 'Quantities are given per shipment: enter its Suborder ID, or set Pack to All Confirmed');
	}
	const outputs: IDataObject[] = [];
	for (const shipment of packable) {
		try {
			outputs.push(await packShipment(ctx, read, requestData, { ...ask, suborderId: String(shipment.suborderId) }, shipment));
		} catch (error) {
			const failure = asNodeError(node, error);
			if (outputs.length > 0) failure.description = joinSentences(failure.description, `Packed by this item all the same: ${outputs.map((json) => String(json.suborderId)).join(', ')}.`);
			throw failure;
		}
	}
	return outputs;
}

/** One pack of a shipment as read: the pack sent once; a refusal worded; a lost answer read back (see the file's comment). Its output. */
async function packShipment(ctx: ItemFunctions, read: ReadEndpoint, requestData: RequestData, ask: PackAsk, shipment: IDataObject): Promise<IDataObject> {
	const node = ctx.getNode();
	const itemIndex = ctx.getItemIndex();
	const { suborderId, numberOfBoxes } = ask;
	const products = productsToPack(ctx, shipment, ask);
	const body = { numberOfBoxes, products: products.map(({ line, quantity }) => ({ id: line.merchantInventoryId, quantity })) };
	const packing = new Map(body.products.map(({ id, quantity }) => [id, quantity]));
	const json: IDataObject = {
		suborderId,
		orderId: shipment.orderId ?? null,
		packed: true,
		numberOfBoxes,
		products: products.map(({ line, quantity }) => ({ merchantInventoryId: line.merchantInventoryId, name: line.name, quantity })),
		// All confirmed packed: the service makes it PACKED, else PARTIALLY_PACKED.
		packedAllConfirmed: linesOf(shipment).every((line) => line.confirmed === (packing.get(line.merchantInventoryId) ?? 0)),
	};
	try {
		await sendRequest(ctx, requestData, { url: PATHS.shipmentPack(suborderId), body });
		return json;
	} catch (error) {
		const failure = uncertainOutcome(error);
		if (failure === undefined) {
			if (!isRefusal(error)) throw asNodeError(node, error);
			throw refusalError(node, error, {
				subject: `Shipment ${suborderId}`,
				notDone: 'packed',
				status: await statusAfter(read, ctx, suborderId),
				next: `Shipment › Get Many (by order or suborder ID) shows its status; ${notPackableAdvice(String(shipment.status ?? ''))}`,
			});
		}
		const what = `the pack of shipment ${suborderId}`;
		const check = `Check shipment ${suborderId} (Shipment › Get Many by order or suborder ID: its status and packedQuantity, or the merchant portal) before packing it again.`;
		let after: IDataObject | undefined;
		try {
			after = await readShipment(read, node, suborderId);
		} catch (readError) {
			const words = outcomeUnknownText(what, failure, `The shipment could not be read back either (${asNodeError(node, readError).message}).`, check);
			throw nodeError(node, words.message, { itemIndex, description: words.description });
		}
		const lines = after ? linesOf(after) : [];
		const status = String(after?.status ?? 'not found');
		const seen = after ? packingSeen(lines, packing) : 'none';
		if (seen === 'asSent') {
			return { ...json, status, note: `${failure}, but the shipment read back shows this packing (${status}): it was applied (not sent again)` };
		}
		if (seen === 'other') {
			throw nodeError(node, `Shipment ${suborderId} shows a packing other than this one after ${failure}`, {
				itemIndex,
				description: `It is ${status}, packed: ${packedText(lines)}; this item sent: ${body.products.map(({ id, quantity }) => `${id} × ${quantity}`).join(', ')}. Nothing was sent again. ${check}`,
			});
		}
		const words = outcomeUnknownText(what, failure, `The shipment read back is ${status}, with nothing packed yet.`, check);
		throw nodeError(node, words.message, { itemIndex, description: words.description });
	}
}

/**
 * The packs of one node run, by suborder (actions/run.ts `onceInRun`): items naming the same suborder with
 * the same boxes and quantities (Confirm's one output per line, fed to Pack) pack it once and each
 * get the outcome, where a second pack would be refused or pack part of a shipment twice. Other
 * boxes or quantities for a suborder an earlier item of the run packs are an error, nothing sent.
 */
async function packOncePerRun(this: ItemFunctions, requestData: RequestData): Promise<INodeExecutionData[]> {
	const ask = readPackAsk(this);
	const itemIndex = this.getItemIndex();
	const askKey = JSON.stringify([ask.numberOfBoxes, ask.lines?.map(({ merchantInventoryId, quantity }) => [merchantInventoryId, quantity]) ?? 'allConfirmed']);
	const { first, result } = onceInRun(this, `pack|${ask.suborderId}`, async () => ({ askKey, itemIndex, json: await packItem(this, requestData, ask) }));
	const packed = await result;
	if (first) return packed.json.map((json) => ({ json }));
	if (packed.askKey !== askKey) {
		throw nodeError(this.getNode(), `Shipment ${ask.suborderId} is packed by item ${packed.itemIndex} of this run, with other boxes or quantities`, {
			itemIndex,
			description: 'Nothing was sent for this item: a shipment is packed once. Give each shipment one item, or the same Number of Boxes and quantities on each.',
		});
	}
	// Each item its own copy: the skeleton pairs it with this item.
	return packed.json.map((json) => ({ json: JSON.parse(JSON.stringify(json)) as IDataObject }));
}

const quantitiesOnly = { show: { packWhat: ['quantities'] } };

const fields: INodeProperties[] = [
	textField(
		LABELS.suborderId,
		'suborderId',
		"The shipment (suborder) packed, as Shipment › Get Many and Order › Confirm give it; or an order's ID (Order › Confirm's orderId) to pack each of its shipments that can be packed, one output item per shipment",
		{ required: true, placeholder: 'e.g. H7SRK-Z2IAO-DS-1 or HPGUJ-1SQQI' },
	),
	{
		displayName: LABELS.numberOfBoxes,
		name: 'numberOfBoxes',
		type: 'number',
		typeOptions: { minValue: 1, numberPrecision: 0 },
		default: 1,
		description: 'How many boxes the shipment is packed in: the carrier gets one label per box',
	},
	{
		displayName: LABELS.packWhat,
		name: 'packWhat',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'All Confirmed', value: 'allConfirmed', description: 'Every line with the quantity confirmed for this shipment' },
			{ name: 'Quantities', value: 'quantities', description: 'The quantities below; lines left out are not packed' },
		],
		default: 'allConfirmed',
		description: 'What was packed. The shipment is read first: quantities above the confirmed ones are refused before anything is sent.',
	},
	{
		displayName: LABELS.quantities,
		name: 'quantities',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Line',
		default: {},
		description: 'One line per product packed',
		displayOptions: quantitiesOnly,
		options: [
			{
				name: 'line',
				displayName: 'Line',
				values: [
					textField(LABELS.merchantInventoryId, 'merchantInventoryId', "The line's product ID (merchantInventoryId)", { required: true, placeholder: 'e.g. 100001' }),
					textField(LABELS.quantity, 'quantity', 'How many were packed: a whole number up to the confirmed quantity', { required: true, placeholder: 'e.g. 2' }),
				],
			},
		],
	},
];

export const operation: OperationModule = {
	steps: pacedRouting({
		group: 'orders',
		// A repeated pack is refused, and a partial one may be followed by another: never resent blindly.
		idempotent: false,
		request: { method: 'POST' },
		preSend: [checkValues],
		strategy: packOncePerRun,
		answer: ANSWERS.written,
	}),
	option: {
		name: 'Pack',
		value: OPERATION,
		action: 'Pack a shipment',
		description:
			'Report a shipment (suborder) packed, or every shipment of an order: number of boxes and quantities, by default everything confirmed. The service then allocates a carrier. Never sent twice: the same suborder on several input items is packed once, and an answer lost after sending is checked by reading the shipment back.',
	},
	fields: updateDisplayOptions({ show: { resource: [RESOURCE], operation: [OPERATION] } }, fields),
};

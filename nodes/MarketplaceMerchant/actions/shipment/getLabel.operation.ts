/**
 * Shipment › Get Label: the shipping label of a suborder (v2: PDF or ZPL; v1: a ZIP holding the
 * PDF), downloaded at once into binary data named `<suborderId>.<format>` (the link the service
 * gives expires after 10 minutes). A label exists once the carrier is allocated
 * (READY_FOR_COLLECTION); before, the service answers 404, 400 or a null link (the sources differ):
 * the shipment is then read once, and the error names its status. With Wait for Label, a packed
 * shipment whose carrier is still being allocated is asked again (2 s, then twice as long each
 * time, at most 30 s apart, every request through the pacing gate as any other) until the label
 * comes or the time set (at most 10 minutes) has passed; stopping the execution stops the wait
 * (`getExecutionCancelSignal`).
 */
import {
	sleep,
	updateDisplayOptions,
	type IDataObject,
	type IHttpRequestOptions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { ANSWERS } from '../../answers/schemas';
import { PATHS } from '../../transport/endpoints';
import { asNodeError, downloadFailureDescription, nodeError, statusOf } from '../../transport/errors';
import { downloadPresigned, sendRequest, sendSettingsOf, type RequestData, type ItemFunctions } from '../../transport/send';
import { endpointReader } from '../../shared/read';
import { BEFORE_PACKING, packingStage, readShipment } from '../../shared/orders/orders';
import { binaryPropertyOf, outputFileField } from '../../shared/documents/fields';
import { isBlank, readChoice, readParameter } from '../../values/labels';
import { readNumber } from '../../values/numbers';
import { readText } from '../../values/values';
import { pacedRouting, textField } from '../common';
import { onceInRun } from '../run';
import type { OperationModule } from '../contract';

const RESOURCE = 'shipment';
const OPERATION = 'getLabel';

type LabelFormat = 'pdf' | 'zpl' | 'zip';

/** Where each format comes from and how its file is recognised. */
const FORMATS: Record<LabelFormat, { path: string; qs: IDataObject; mimeType: string; name: string; looksRight: (file: Buffer) => boolean }> = {
	pdf: { path: PATHS.labelsV2, qs: { format: 'PDF' }, mimeType: 'application/pdf', name: 'a PDF', looksRight: (file) => file.subarray(0, 4).toString('latin1') === '%PDF' },
	zpl: { path: PATHS.labelsV2, qs: { format: 'ZPL' }, mimeType: 'application/zpl', name: 'a ZPL label', looksRight: (file) => file.includes('^XA') },
	zip: { path: PATHS.labelsV1, qs: {}, mimeType: 'application/zip', name: 'a ZIP archive', looksRight: (file) => file.subarray(0, 4).equals(Buffer.from('PK\u0003\u0004', 'latin1')) },
};

/** Pre-signed links: the file is fetched right after the link (they expire after 10 minutes). */
const DOWNLOAD_TIMEOUT_MS = 120_000;

const WAIT_LABEL = 'Wait for Label (Minutes)';
const MAX_WAIT_MINUTES = 10;
/** Wait for Label: the first check again after 2 s, then twice as long each time, at most 30 s apart. */
const FIRST_CHECK_MS = 2_000;
const MAX_CHECK_MS = 30_000;

/** How long the item may wait for its label, in milliseconds (0: not at all). */
function waitOf(ctx: ItemFunctions): number {
	const minutes = readParameter(ctx, 'waitMinutes', WAIT_LABEL, (reader, field, value) =>
		isBlank(value) ? 0 : readNumber(reader, field, value, { min: 0, max: MAX_WAIT_MINUTES, kind: `a number of minutes from 0 to ${MAX_WAIT_MINUTES}` }),
	);
	return Math.round(minutes * 60_000);
}

/** `2 min 5 s`: a wait as errors name it. */
function waitedText(ms: number): string {
	const seconds = Math.round(ms / 1000);
	const minutes = Math.floor(seconds / 60);
	return [minutes > 0 ? `${minutes} min` : '', seconds % 60 > 0 || minutes === 0 ? `${seconds % 60} s` : ''].filter(Boolean).join(' ');
}

function suborderIdOf(ctx: ItemFunctions): string {
	return readParameter(ctx, 'suborderId', 'Suborder ID', readText);
}

function formatOf(ctx: ItemFunctions): LabelFormat {
	return readChoice(ctx, 'Label Format', ctx.getNodeParameter('labelFormat', 'pdf'), Object.keys(FORMATS) as LabelFormat[]);
}

/**
 * The request of the item's format. The pages name the parameter `reference` in every example and
 * `referenceId` in one table: both are sent, so that one request works whichever the service reads
 * (a Spring service ignores a parameter it does not declare).
 */
const setLabelRequest = async function (this: ItemFunctions, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	const suborderId = suborderIdOf(this);
	const { path, qs } = FORMATS[formatOf(this)];
	return { ...requestOptions, url: path, qs: { ...requestOptions.qs, reference: suborderId, referenceId: suborderId, ...qs } };
};

/** Statuses before the carrier is allocated: the label is not made yet. */
function labelPending(status: string): boolean {
	const stage = packingStage(status);
	return stage === 'unconfirmed' || stage === 'packable' || status.includes('PACKED') || status === 'ON_THE_BORDER';
}

/**
 * The service gave no label (404, 400, or no link): one read of the shipment says why, in an error
 * naming its status; `awaitingCarrier` when it is packed and its carrier not allocated yet (a wait
 * may bring the label). `waitedMs`: how long the item waited already.
 */
async function noLabelError(ctx: ItemFunctions, suborderId: string, answered: string, waitedMs: number): Promise<{ error: Error; awaitingCarrier: boolean }> {
	const node = ctx.getNode();
	const itemIndex = ctx.getItemIndex();
	const shipment = await readShipment(endpointReader(ctx, sendSettingsOf(ctx)), node, suborderId);
	if (!shipment) {
		const error = nodeError(node, `Shipment ${suborderId} was not found`, {
			itemIndex,
			description: `Check the Suborder ID: Shipment › Get Many and Shipment › Pack give it (e.g. H7SRK-Z2IAO-DS-1). The label service answered: ${answered}.`,
		});
		return { error, awaitingCarrier: false };
	}
	const status = String(shipment.status ?? 'not given');
	if (!labelPending(status)) {
		return { error: nodeError(node, `The service gave no label for shipment ${suborderId}, which is ${status}`, { itemIndex, description: `The label service answered: ${answered}.` }), awaitingCarrier: false };
	}
	const stage = packingStage(status);
	const waited = waitedMs > 0 ? ` after waiting ${waitedText(waitedMs)}` : '';
	const next =
		stage === 'unconfirmed' || stage === 'packable'
			? BEFORE_PACKING[stage]
			: waitedMs > 0
			? `The carrier is still being allocated: set a longer ${WAIT_LABEL} (up to ${MAX_WAIT_MINUTES}), or get the label when the trigger reports the shipment READY_FOR_COLLECTION.`
			: `The carrier is being allocated after packing, which usually takes minutes: set ${WAIT_LABEL} to wait for it, or get the label later (when the trigger reports the shipment READY_FOR_COLLECTION).`;
	const error = nodeError(node, `The label of shipment ${suborderId} is not ready yet${waited}: the shipment is ${status}`, {
		itemIndex,
		description: `A label exists once the carrier is allocated (READY_FOR_COLLECTION). ${next} The label service answered: ${answered}.`,
	});
	return { error, awaitingCarrier: stage !== 'unconfirmed' && stage !== 'packable' };
}

/** The label's link, or what the service answered instead (404, 400, no link). */
async function askLink(ctx: ItemFunctions, requestData: RequestData): Promise<{ link: string } | { answered: string }> {
	let link: unknown;
	try {
		[link] = (await sendRequest(ctx, requestData)).map(({ json }) => json.link);
	} catch (error) {
		const status = statusOf(error);
		if (status !== 404 && status !== 400) throw asNodeError(ctx.getNode(), error);
		const failure = asNodeError(ctx.getNode(), error);
		return { answered: `HTTP ${status}${isBlank(failure.description) ? '' : `, ${String(failure.description)}`}` };
	}
	return typeof link !== 'string' || isBlank(link) ? { answered: 'no link' } : { link };
}

/** The label's link; with Wait for Label, asked again while the carrier is being allocated, up to the time set (see the file's comment). */
async function linkWhenReady(ctx: ItemFunctions, requestData: RequestData, suborderId: string): Promise<string> {
	const waitMs = waitOf(ctx);
	const signal = ctx.getExecutionCancelSignal?.();
	const startedAt = Date.now();
	let checkMs = FIRST_CHECK_MS;
	for (let round = 0; ; round++) {
		const asked = await askLink(ctx, requestData);
		if ('link' in asked) return asked.link;
		const why = await noLabelError(ctx, suborderId, asked.answered, round > 0 ? Date.now() - startedAt : 0);
		const leftMs = waitMs - (Date.now() - startedAt);
		if (!why.awaitingCarrier || leftMs <= 0 || signal?.aborted) throw why.error;
		await sleep(Math.min(checkMs, leftMs), signal);
		checkMs = Math.min(checkMs * 2, MAX_CHECK_MS);
	}
}

async function downloadLabel(this: ItemFunctions, requestData: RequestData): Promise<INodeExecutionData[]> {
	const node = this.getNode();
	const itemIndex = this.getItemIndex();
	const suborderId = suborderIdOf(this);
	const labelFormat = formatOf(this);
	const link = await linkWhenReady(this, requestData, suborderId);
	const format = FORMATS[labelFormat];
	let file: Buffer;
	try {
		file = await downloadPresigned(this, link, DOWNLOAD_TIMEOUT_MS);
	} catch (error) {
		const status = statusOf(error);
		throw nodeError(node, `Could not download the label of shipment ${suborderId}${status ? `: HTTP ${status}` : ''}`, {
			itemIndex,
			description:
				status === 403 || status === 410
					? 'Label links expire 10 minutes after they are issued and this one was refused: run Get Label again, which asks for a new link and downloads it at once'
					: downloadFailureDescription(error),
		});
	}
	if (!format.looksRight(file)) {
		throw nodeError(node, `The label link of shipment ${suborderId} did not return ${format.name}`, {
			itemIndex,
			description: `The answer starts with: ${file.subarray(0, 60).toString('utf8')}`,
		});
	}
	const fileName = `${suborderId.replace(/[^\w.-]+/g, '_')}.${labelFormat}`;
	const binary = await this.helpers.prepareBinaryData(file, fileName, format.mimeType);
	return [{ json: { suborderId, labelFormat, fileName }, binary: { [binaryPropertyOf(this, 'binaryPropertyName')]: binary } }];
}

/**
 * The labels of one node run, by suborder, format and binary field (actions/run.ts `onceInRun`):
 * items naming the same suborder (Confirm's one output per line, through Pack) fetch its label
 * once and each get a copy; a later run asks again (a new link).
 */
async function getLabel(this: ItemFunctions, requestData: RequestData): Promise<INodeExecutionData[]> {
	const key = JSON.stringify([suborderIdOf(this), formatOf(this), binaryPropertyOf(this, 'binaryPropertyName')]);
	const { first, result } = onceInRun(this, `label|${key}`, async () => await downloadLabel.call(this, requestData));
	const items = await result;
	return first ? items : items.map(({ json, binary }) => ({ json: { ...json }, binary: { ...binary } }));
}

const fields: INodeProperties[] = [
	textField('Suborder ID', 'suborderId', 'The shipment (suborder) whose label to get, as Shipment › Get Many gives it', { required: true, placeholder: 'e.g. H7SRK-Z2IAO-DS-1' }),
	{
		displayName: 'Label Format',
		name: 'labelFormat',
		type: 'options',
		options: [
			{ name: 'PDF', value: 'pdf', description: 'A PDF to print on paper' },
			{ name: 'ZPL', value: 'zpl', description: 'A print job for a thermal label printer (Zebra ZPL II)' },
			{ name: 'ZIP (V1)', value: 'zip', description: "The older (v1) endpoint's ZIP archive holding the PDF" },
		],
		default: 'pdf',
	},
	{
		displayName: WAIT_LABEL,
		name: 'waitMinutes',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: MAX_WAIT_MINUTES, numberPrecision: 2 },
		default: 0,
		description: `When the shipment is packed but its carrier not allocated yet, ask again for up to this many minutes (at most ${MAX_WAIT_MINUTES}) before failing; 0: fail at once. A workflow from packing to the label then needs no Wait node. Stopping the execution stops the wait.`,
	},
	outputFileField('The binary field the label goes in; the file is named after the suborder (e.g. H7SRK-Z2IAO-DS-1.pdf)', undefined, {
		name: 'binaryPropertyName',
		displayName: 'Binary Property',
		hint: 'The name of the output binary field to put the label in',
	}),
];

export const operation: OperationModule = {
	steps: pacedRouting({
		group: 'labels',
		idempotent: true,
		request: { method: 'GET' },
		preSend: [setLabelRequest],
		strategy: getLabel,
		answer: ANSWERS.labelLink,
	}),
	option: {
		name: 'Get Label',
		value: OPERATION,
		action: 'Get a shipping label',
		description:
			"Download a shipment's shipping label (PDF, ZPL or the older ZIP) as binary data, named after the suborder. Labels exist once the carrier is allocated (READY_FOR_COLLECTION): the node can wait for it, up to 10 minutes; else the error names the shipment's status.",
	},
	fields: updateDisplayOptions({ show: { resource: [RESOURCE], operation: [OPERATION] } }, fields),
};

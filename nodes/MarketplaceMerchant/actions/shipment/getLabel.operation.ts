/**
 * Shipment › Get Label: the shipping label of a suborder (v2: PDF or ZPL; v1: a ZIP holding the
 * PDF), downloaded at once into binary data named `<suborderId>.<format>` (the link the service
 * gives expires after 10 minutes). A label exists once the carrier is allocated
 * (READY_FOR_COLLECTION); before, the service answers 404, 400 or a null link (the sources differ):
 * the shipment is then read once, and the error names its status.
 */
import {
	updateDisplayOptions,
	type IDataObject,
	type IExecutePaginationFunctions,
	type IExecuteSingleFunctions,
	type IHttpRequestOptions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { ANSWERS } from '../../answers/schemas';
import { PATHS } from '../../transport/endpoints';
import { asNodeError, downloadFailureDescription, nodeError, statusOf } from '../../transport/errors';
import { downloadPresigned, sendRequest, sendSettingsOf, type RequestData } from '../../transport/send';
import { OncePerRun } from '../../transport/perRun';
import { endpointReader } from '../../families/read';
import { PACKABLE_STATUSES, readShipment } from '../../families/orders';
import { binaryPropertyOf, outputFileField } from '../../families/documents/fields';
import { isBlank, readParameter } from '../../values/labels';
import { readText } from '../../values/values';
import { pacedRouting, textField } from '../common';
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

function suborderIdOf(ctx: IExecuteSingleFunctions | IExecutePaginationFunctions): string {
	return readParameter(ctx, 'suborderId', 'Suborder ID', readText);
}

function formatOf(ctx: IExecuteSingleFunctions | IExecutePaginationFunctions): LabelFormat {
	const format = ctx.getNodeParameter('labelFormat', 'pdf');
	return Object.prototype.hasOwnProperty.call(FORMATS, String(format)) ? (format as LabelFormat) : 'pdf';
}

/**
 * The request of the item's format. The pages name the parameter `reference` in every example and
 * `referenceId` in one table: both are sent, so that one request works whichever the service reads
 * (a Spring service ignores a parameter it does not declare).
 */
const setLabelRequest = async function (this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	const suborderId = suborderIdOf(this);
	const { path, qs } = FORMATS[formatOf(this)];
	return { ...requestOptions, url: path, qs: { ...requestOptions.qs, reference: suborderId, referenceId: suborderId, ...qs } };
};

/** Statuses before the carrier is allocated: the label is not made yet. */
function labelPending(status: string): boolean {
	return status === 'CREATED' || (PACKABLE_STATUSES as readonly string[]).includes(status) || status.includes('PACKED') || status === 'ON_THE_BORDER';
}

/** The service gave no label (404, 400, or no link): one read of the shipment says why, in an error naming its status. */
async function noLabelError(ctx: IExecutePaginationFunctions, suborderId: string, answered: string): Promise<Error> {
	const node = ctx.getNode();
	const itemIndex = ctx.getItemIndex();
	const shipment = await readShipment(endpointReader(ctx, sendSettingsOf(ctx)), node, suborderId);
	if (!shipment) {
		return nodeError(node, `Shipment ${suborderId} was not found`, {
			itemIndex,
			description: `Check the Suborder ID: Shipment › Get Many gives it (e.g. H7SRK-Z2IAO-DS-1). The label service answered: ${answered}.`,
		});
	}
	const status = String(shipment.status ?? 'not given');
	if (!labelPending(status)) {
		return nodeError(node, `The service gave no label for shipment ${suborderId}, which is ${status}`, { itemIndex, description: `The label service answered: ${answered}.` });
	}
	const packable = (PACKABLE_STATUSES as readonly string[]).includes(status) || status === 'CREATED';
	const next = packable
		? 'It is not packed yet: pack it first (Shipment › Pack).'
		: 'The carrier is being allocated after packing, which usually takes minutes: get the label later (after a Wait node, or when the trigger reports the shipment READY_FOR_COLLECTION).';
	return nodeError(node, `The label of shipment ${suborderId} is not ready yet: the shipment is ${status}`, {
		itemIndex,
		description: `A label exists once the carrier is allocated (READY_FOR_COLLECTION). ${next} The label service answered: ${answered}.`,
	});
}

async function downloadLabel(this: IExecutePaginationFunctions, requestData: RequestData): Promise<INodeExecutionData[]> {
	const node = this.getNode();
	const itemIndex = this.getItemIndex();
	const suborderId = suborderIdOf(this);
	const labelFormat = formatOf(this);
	let link: unknown;
	try {
		[link] = (await sendRequest(this, requestData)).map(({ json }) => json.link);
	} catch (error) {
		const status = statusOf(error);
		if (status !== 404 && status !== 400) throw asNodeError(node, error);
		const failure = asNodeError(node, error);
		throw await noLabelError(this, suborderId, `HTTP ${status}${isBlank(failure.description) ? '' : `, ${String(failure.description)}`}`);
	}
	if (typeof link !== 'string' || isBlank(link)) throw await noLabelError(this, suborderId, 'no link');
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
 * The labels of one node run, by suborder, format and binary field (transport/perRun.ts): items
 * naming the same suborder (Confirm's one output per line, through Pack) fetch its label once and
 * each get a copy; a later run asks again (a new link).
 */
const labels = new OncePerRun<INodeExecutionData[]>();

async function getLabel(this: IExecutePaginationFunctions, requestData: RequestData): Promise<INodeExecutionData[]> {
	const key = JSON.stringify([suborderIdOf(this), formatOf(this), binaryPropertyOf(this, 'binaryPropertyName')]);
	const { first, result } = labels.ask(this, key, async () => await downloadLabel.call(this, requestData));
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
	outputFileField('The binary field the label goes in; the file is named after the suborder (e.g. H7SRK-Z2IAO-DS-1.pdf)', undefined, {
		name: 'binaryPropertyName',
		displayName: 'Binary Property',
		hint: 'The name of the output binary field to put the label in',
	}),
];

export const operation: OperationModule = {
	option: {
		name: 'Get Label',
		value: OPERATION,
		action: 'Get a shipping label',
		description:
			"Download a shipment's shipping label (PDF, ZPL or the older ZIP) as binary data, named after the suborder. Labels exist once the carrier is allocated (READY_FOR_COLLECTION); before, the error names the shipment's status.",
		routing: pacedRouting({
			group: 'labels',
			idempotent: true,
			request: { method: 'GET' },
			preSend: [setLabelRequest],
			strategy: getLabel,
			answer: ANSWERS.labelLink,
		}),
	},
	fields: updateDisplayOptions({ show: { resource: [RESOURCE], operation: [OPERATION] } }, fields),
};

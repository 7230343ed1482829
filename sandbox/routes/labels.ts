/**
 * Shipping labels (orders-and-shipments.md, "Labels"): v1 answers `{link}` to a ZIP, v2 to a PDF
 * (default) or ZPL file; links are pre-signed and expire after 10 minutes, as document links do.
 * A label exists once its suborder is READY_FOR_COLLECTION; before, the answer is the variant
 * `labelNotReady`'s (the pages do not say). The query parameter is the variant `labelReferenceParam`'s.
 */
import { HttpError, badRequest, notFound } from '../http';
import { type LabelFormat, labelFile } from '../label-files';
import { labelAvailable } from '../order-statuses';
import type { RouteContext, RouteDefinition, RouteResult } from '../route';

const LMD_BASE = '/lmd/api';
const LABEL_PATH_PREFIX = '/__labels/';
const FORMATS: Record<string, LabelFormat> = { PDF: 'pdf', ZPL: 'zpl' };

function referenceOf({ core, query }: RouteContext): string {
	const honoured = core.variants.current.labelReferenceParam;
	const names = honoured === 'both' ? ['reference', 'referenceId'] : [honoured];
	for (const name of names) {
		const value = query.get(name);
		if (value) return value;
	}
	throw badRequest(`Required request parameter '${names[0]}' for method parameter type String is not present`);
}

function labelLink(context: RouteContext, format: LabelFormat): RouteResult {
	const { core } = context;
	const reference = referenceOf(context);
	const shipment = core.orders.shipment(reference);
	if (!shipment) throw notFound(`Consignment for reference ${reference} not found`);
	if (!labelAvailable(shipment.status)) {
		const message = `Label for reference ${reference} is not available yet`;
		switch (core.variants.current.labelNotReady) {
			case 'bad-request':
				throw badRequest(message);
			case 'null-link':
				return { json: { link: null } };
			default:
				throw notFound(message);
		}
	}
	const link = core.links.signedUrl(core.baseUrl, LABEL_PATH_PREFIX, reference, format, `label:${reference}.${format}`, core.clock.nowMs());
	return { json: { link } };
}

export const labelRoutes: RouteDefinition[] = [
	{
		key: 'labelV1',
		method: 'GET',
		pattern: new RegExp(`^${LMD_BASE}/v1/merchant-integration/consignment/labels$`),
		authenticated: true,
		handle: (context) => labelLink(context, 'zip'),
	},
	{
		key: 'labelV2',
		method: 'GET',
		pattern: new RegExp(`^${LMD_BASE}/v2/merchant-integration/consignment/labels$`),
		authenticated: true,
		handle(context) {
			const raw = context.query.get('format') || 'PDF';
			const format = FORMATS[raw.toUpperCase()];
			if (!format) throw badRequest('format must be PDF or ZPL');
			return labelLink(context, format);
		},
	},
	{
		// The file behind a label link: no bearer token, like the live pre-signed links.
		key: 'labelFile',
		method: 'GET',
		pattern: /^\/__labels\/(?<suborderId>[^/]+)\.(?<format>pdf|zpl|zip)$/,
		authenticated: false,
		handle({ core, params, query }) {
			const { suborderId } = params;
			const format = params.format as LabelFormat;
			const check = core.links.check(`label:${suborderId}.${format}`, query.get('expires'), query.get('signature'), core.clock.nowMs());
			if (!check.ok) throw new HttpError(403, check.reason);
			const shipment = core.orders.shipment(suborderId);
			if (!shipment) throw notFound(`Label ${suborderId} does not exist`);
			const { body, contentType } = labelFile(shipment, format);
			return { body, contentType, headers: { 'Content-Disposition': `attachment; filename="${suborderId}.${format}"` } };
		},
	},
];

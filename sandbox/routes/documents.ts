/** Downloads behind the pre-signed links of the /urls routes (no bearer token, like the live links). */
import type { SandboxCore } from '../core';
import { renderPdf } from '../document-links';
import { HttpError, notFound } from '../http';
import type { RouteDefinition } from '../route';
import type { Invoice, InvoiceCorrection } from '../types';

function documentLines(core: SandboxCore, documentId: string): string[] | undefined {
	const invoice: Invoice | undefined = core.invoices.find(documentId);
	const correction: InvoiceCorrection | undefined = invoice ? undefined : core.corrections.find(documentId);
	const document = invoice ?? correction;
	if (!document) return undefined;
	const { invoiceHeader, taxRateSpecification } = document;
	return [
		invoiceHeader.merchantDetails.name,
		`${invoice ? 'Invoice' : 'Invoice correction'} ${documentId}`,
		`Type: ${invoiceHeader.invoiceType}`,
		`Order: ${invoiceHeader.orderDetails.orderid}, suborder ${invoiceHeader.orderDetails.suborderId}`,
		`Invoiced: ${invoiceHeader.orderDetails.invoicedDate}`,
		`Customer: ${invoiceHeader.customerDetails.firstName} ${invoiceHeader.customerDetails.lastName}`,
		`Total: ${taxRateSpecification.grandTotal.toFixed(2)} ${core.variants.current.market.currency}`,
		'Marketplace sandbox document',
	];
}

export const documentRoute: RouteDefinition = {
	key: 'document',
	method: 'GET',
	pattern: /^\/__documents\/(?<documentId>[^/]+)\.pdf$/,
	authenticated: false,
	handle({ core, params, query }) {
		const documentId = params.documentId;
		const check = core.links.check(documentId, query.get('expires'), query.get('signature'), core.clock.nowMs());
		if (!check.ok) throw new HttpError(403, check.reason);
		const lines = documentLines(core, documentId);
		if (!lines) throw notFound(`Document ${documentId} does not exist`);
		const fileName = documentId.replace(/[^\w.-]/g, '_');
		return {
			body: renderPdf(lines),
			contentType: 'application/pdf',
			headers: { 'Content-Disposition': `inline; filename="${fileName}.pdf"` },
		};
	},
};

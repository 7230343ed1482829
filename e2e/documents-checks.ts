/* eslint-disable @n8n/community-nodes/no-restricted-imports -- end-to-end suite code, run by tsx against a real n8n and never loaded by n8n: it may use Node modules (docs/architecture.md, Toolchain). */
/**
 * Issue 29, point 7, in a real n8n (e2e/workflows/invoice-pdfs-month.json): last month's invoices
 * from Invoice › Get Many (66, Limit) into Get Document Links with the suborder IDs mapped and the
 * dates left at their defaults: 66 PDFs named by invoice number in one link request; then Get Many
 * with Download PDFs: every fiscal PDF of last month, one link request by the range.
 */
import assert from 'node:assert/strict';

import type { Invoice, Sandbox } from '../sandbox';
import { check, type Json } from './checks';
import { executeWorkflow, type CliExecutionResult, type N8nInstallation } from './n8n';

export const INVOICE_PDFS_WORKFLOW_ID = 'e2eInvoicePdfs01';
const INVOICES = 66;

type Item = { json: Json; binary?: Record<string, Json>; pairedItem?: { item: number } };

function itemsOf(execution: CliExecutionResult, nodeName: string): Item[] {
	const runs = execution.data.resultData.runData[nodeName] ?? [];
	return runs.flatMap((run) => (run.data?.main?.[0] ?? []) as Item[]);
}

/** Last month in UTC, as the workflow's expressions compute it. */
function lastMonth(): { from: number; to: number } {
	const now = new Date();
	return { from: Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1), to: Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1) - 1 };
}

const invoicedMs = (invoice: Invoice) => Date.parse(`${invoice.invoiceHeader.orderDetails.invoicedDate}Z`);

export async function checkInvoicePdfsOfMonth(installation: N8nInstallation, userFolder: string, sandbox: Sandbox): Promise<void> {
	const month = lastMonth();
	const inMonth = () => sandbox.state.invoices.filter((invoice) => invoicedMs(invoice) >= month.from && invoicedMs(invoice) <= month.to);
	// At least 66 invoices last month, whatever the seed left there.
	for (let added = inMonth().length; added < INVOICES; added++) {
		const at = new Date(month.from + Math.floor(((added + 1) * (month.to - month.from)) / (INVOICES + 1)));
		sandbox.addInvoice({ invoiceHeader: { orderDetails: { invoicedDate: at.toISOString().slice(0, 19) } } });
	}
	sandbox.clearLog();
	let execution: CliExecutionResult | undefined;
	const ran = await check('execute: a month of invoice PDFs (Invoice Get Many 66 > Get Document Links; Get Many with Download PDFs)', async () => {
		execution = await executeWorkflow(installation, userFolder, INVOICE_PDFS_WORKFLOW_ID);
		assert.equal(execution.status, 'success', `execution ${execution.status}: ${execution.data.resultData.error?.message ?? ''}`);
	});
	if (!ran || !execution) return;
	const run = execution;
	const urls = sandbox.log.filter((entry) => entry.route === 'invoiceUrls');

	await check('issue 29: last month\'s 66 invoices > Get Document Links, dates at their defaults: 66 PDFs named by invoice number, one request', async () => {
		const invoices = itemsOf(run, 'Invoices Of Last Month');
		const pdfs = itemsOf(run, 'PDFs Of Last Month');
		assert.equal(invoices.length, INVOICES);
		assert.equal(pdfs.length, INVOICES, `PDF items: ${pdfs.length}`);
		for (const [index, pdf] of pdfs.entries()) {
			assert.equal(pdf.json.documentCorrelationId, invoices[index].json.invoiceId, `item ${index}`);
			assert.equal(pdf.binary?.data?.mimeType, 'application/pdf');
			assert.equal(pdf.binary?.data?.fileName, `${String(invoices[index].json.invoiceNumber)}.pdf`, `item ${index}`);
		}
		const byIds = urls.filter((entry) => entry.query.suborderIds !== undefined);
		assert.ok(byIds.length >= 1 && byIds.length <= 3, `link requests by suborder IDs: ${byIds.length}`);
		assert.ok(byIds.every((entry) => entry.query.dateFrom === undefined && entry.status === 200), 'the default dates were sent, or a request failed');
		return `${pdfs.length} PDFs (${String(pdfs[0].binary?.data?.fileName)} …) in ${byIds.length} link request(s)`;
	});

	await check('issue 29: Invoice > Get Many, Fiscal, Download PDFs: every fiscal PDF of last month, named by invoice number, one link request', async () => {
		const fiscal = inMonth().filter((invoice) => invoice.invoiceHeader.invoiceType === 'FISCAL');
		const items = itemsOf(run, 'Fiscal PDFs Of Last Month');
		assert.equal(items.length, fiscal.length);
		for (const item of items) {
			assert.equal(item.binary?.data?.fileName, `${String(item.json.invoiceNumber)}.pdf`);
		}
		const byRange = urls.filter((entry) => entry.query.suborderIds === undefined);
		assert.equal(byRange.length, 1, `link requests by range: ${byRange.length}`);
		assert.equal(byRange[0].query.type, 'FISCAL');
		return `${items.length} PDFs after ${byRange.length} link request`;
	});
}

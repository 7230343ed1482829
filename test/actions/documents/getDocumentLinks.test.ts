/**
 * Invoice and Invoice Correction › Get Document Links when the answer keys the links by the schema
 * name instead of the suborder (a live variant, sandbox switch urlsKeyedBySchemaName): the links
 * still belong to the suborder asked for.
 */
import { NODE_UNDER_TEST_NAME } from '../../harness';
import { NOW, runner, sandbox, sandboxPerFile } from '../helpers';

const run = runner();

describe('Invoice › Get Document Links, answer keyed by the schema name', () => {
	sandboxPerFile({ now: NOW, seed: 3, products: 1_400 });
	beforeEach(() => sandbox.resetVariants());

	const FROM = '2025-05-01T00:00:00';
	const TO = '2025-06-15T00:00:00';

	function invoicesWithSuborders(count: number) {
		const invoices = sandbox.state.invoices.filter((invoice) => invoice.invoiceHeader.orderDetails.invoicedDate >= '2025-05-02').slice(0, count);
		expect(invoices).toHaveLength(count);
		return invoices.map((invoice) => ({
			suborderId: invoice.invoiceHeader.orderDetails.suborderId,
			documentCorrelationId: invoice.invoiceHeader.orderDetails.invoiceId,
		}));
	}

	const links = (resource: string, suborderIds: string[]) =>
		run({ resource, operation: 'getDocumentLinks', suborderIds: suborderIds.join(','), dateFrom: FROM, dateTo: TO });

	it('takes the suborder from the request when one was asked, and leaves it null when several were', async () => {
		const [one, two] = invoicesWithSuborders(2);
		sandbox.setVariants({ urlsKeyedBySchemaName: true });

		const single = await links('invoice', [one.suborderId]);
		const several = await links('invoice', [one.suborderId, two.suborderId]);

		expect(single.error).toBeUndefined();
		expect(single.json(NODE_UNDER_TEST_NAME).map(({ suborderId, documentCorrelationId }) => ({ suborderId, documentCorrelationId }))).toEqual([one]);
		expect(several.json(NODE_UNDER_TEST_NAME).map(({ suborderId, documentCorrelationId }) => ({ suborderId, documentCorrelationId }))).toEqual([
			{ suborderId: null, documentCorrelationId: one.documentCorrelationId },
			{ suborderId: null, documentCorrelationId: two.documentCorrelationId },
		]);
	});

	it('does the same for invoice corrections', async () => {
		const corrections = sandbox.state.corrections.filter((document) => document.invoiceHeader.orderDetails.invoicedDate >= '2025-05-02').slice(0, 2);
		expect(corrections).toHaveLength(2);
		const suborderIds = corrections.map((correction) => correction.invoiceHeader.orderDetails.suborderId);
		sandbox.setVariants({ urlsKeyedBySchemaName: true });

		const single = await links('invoiceCorrection', suborderIds.slice(0, 1));
		const several = await links('invoiceCorrection', suborderIds);

		const numbers = corrections.map((correction) => correction.invoiceHeader.orderDetails.invoiceNumber);
		expect(single.json(NODE_UNDER_TEST_NAME).map(({ suborderId, documentCorrelationId }) => [suborderId, documentCorrelationId])).toEqual([
			[suborderIds[0], numbers[0]],
		]);
		expect(several.json(NODE_UNDER_TEST_NAME).map(({ suborderId, documentCorrelationId }) => [suborderId, documentCorrelationId])).toEqual([
			[null, numbers[0]],
			[null, numbers[1]],
		]);
	});
});

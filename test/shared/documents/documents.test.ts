/**
 * The documents family's kinds, ids and Simplify (shared/documents/documents.ts) on variant
 * answers. Its fields: fields.test.ts, its links: links.test.ts beside this file; each operation:
 * test/actions/documents/; the trigger: test/trigger/.
 */
import type { IDataObject } from 'n8n-workflow';

import { decodeText } from '../../../nodes/MarketplaceMerchant/answers/read';
import { DOCUMENTS, documentIdOf, simplifyDocument, type DocumentKind } from '../../../nodes/MarketplaceMerchant/shared/documents/documents';

/** A document as the node reads it: through answers/read.ts against the kind's schema. */
function asRead(document: object, kind: DocumentKind): IDataObject {
	const [read] = decodeText(JSON.stringify([document]), 'application/json', DOCUMENTS[kind].answer) as IDataObject[];
	return read;
}

describe('invoice helpers: reading variant answers', () => {
	it('finds the document id under either spelling', () => {
		expect(documentIdOf(asRead({ invoiceHeader: { orderDetails: { invoiceid: 'a-1' } } }, 'invoice'), 'invoice')).toBe('a-1');
		expect(documentIdOf(asRead({ invoiceHeader: { orderDetails: { invoiceId: 'b-2', invoiceNumber: 'X' } } }, 'invoice'), 'invoice')).toBe('b-2');
		expect(documentIdOf(asRead({ invoiceHeader: { orderDetails: { invoiceNumber: 'NF-1' } } }, 'correction'), 'correction')).toBe('NF-1');
		expect(documentIdOf(asRead({ unexpected: true }, 'invoice'), 'invoice')).toBeUndefined();
	});

	it('simplifies variant spellings, string numbers, string fba and a stringified payment method list', () => {
		const document = {
			invoiceHeader: {
				invoiceType: 'NON_FISCAL',
				invoiceCorrectionReason: 'Reklamacija',
				orderDetails: { invoiceNumber: 'NF-7', orderId: 77, suborderId: '77-1', fba: 'false', paymentMethods: '[PBC, VOUCHER]', invoicedDate: '2025-01-02T03:04:05' },
				fiscalDetails: { referentDocumentNumber: 'NF-6', fiscalInvoiceDate: null },
			},
			productSpecification: { totalDetails: { basePrice: '-120.50', chargedPrice: -120.5 } },
			taxRateSpecification: { taxRateSpecification: [{ vat: '20' }, { vat: 20 }, { vat: 10 }], grandTotal: '-120.5' },
			somethingNew: { kept: 'in the full document' },
		};

		expect(simplifyDocument(asRead(document, 'correction'), 'correction')).toEqual({
			invoiceNumber: 'NF-7',
			referentDocumentNumber: 'NF-6',
			invoiceType: 'NON_FISCAL',
			suborderId: '77-1',
			orderId: '77',
			invoicedDate: '2025-01-02T03:04:05.000Z',
			basePrice: -120.5,
			chargedPrice: -120.5,
			grandTotal: -120.5,
			vatRates: [20, 10],
			paymentMethods: ['PBC', 'VOUCHER'],
			fba: false,
			correctionReason: 'Reklamacija',
		});
	});
});

/**
 * The documents family's shared pieces (actions/documents/documents.ts and fields.ts): the fields as
 * the editor shows them, in the node and the trigger, and the family's helpers on variant answers.
 * Each operation: getMany.test.ts and getDocumentLinks.test.ts beside this file.
 */
import {
	NodeHelpers,
	type IDataObject,
	type INode,
	type INodeParameters,
	type INodeProperties,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { decodeText } from '../../../nodes/MarketplaceMerchant/answers/read';
import {
	DOCUMENTS,
	documentIdOf,
	flattenDocumentLinks,
	simplifyDocument,
	type DocumentKind,
} from '../../../nodes/MarketplaceMerchant/actions/documents/documents';
import { readDocumentRange } from '../../../nodes/MarketplaceMerchant/actions/documents/fields';
import { TestNodeTypes, packageNodeTypeName } from '../../harness';

const NODE = 'marketplaceMerchant';

describe('documents fields as the editor shows them', () => {
	const nodeTypes = new TestNodeTypes();
	const descriptionOf = (type: string) => nodeTypes.getByNameAndVersion(packageNodeTypeName(type), 1).description;
	const node = descriptionOf(NODE);
	const trigger = descriptionOf('marketplaceMerchantTrigger');

	/** The properties n8n shows for these parameters (n8n's own displayOptions check, as the panel does). */
	function shown(description: INodeTypeDescription, parameters: INodeParameters): INodeProperties[] {
		return description.properties.filter((property) => NodeHelpers.displayParameter(parameters, property, { typeVersion: 1 }, description));
	}

	function shownNamed(description: INodeTypeDescription, parameters: INodeParameters, name: string): INodeProperties {
		const matches = shown(description, parameters).filter((property) => property.name === name);
		expect(matches).toHaveLength(1);
		return matches[0];
	}

	/** The options of a collection n8n offers under "Add Option", given the values already set in it. */
	function offeredOptions(collection: INodeProperties, values: IDataObject): string[] {
		return (collection.options as INodeProperties[])
			.filter((option) => NodeHelpers.displayParameterPath({ options: values } as INodeParameters, option, 'options', { typeVersion: 1 }, node))
			.map((option) => option.name);
	}

	it.each(['invoice', 'invoiceCorrection'])('%s Get Many: range, type, Return All / Limit and Simplify (on) at the top level', (resource) => {
		const parameters = { resource, operation: 'getMany', returnAll: false };
		expect(shown(node, parameters).map((property) => property.name)).toEqual([
			'resource',
			'operation',
			'dateFrom',
			'dateTo',
			'invoiceType',
			'returnAll',
			'limit',
			'simplify',
			'options',
			'requestOptions',
		]);
		expect(shownNamed(node, parameters, 'simplify').default).toBe(true);
		expect(shownNamed(node, parameters, 'returnAll').default).toBe(false);
		expect(shown(node, { ...parameters, returnAll: true }).map((property) => property.name)).not.toContain('limit');
		expect(shownNamed(node, parameters, 'dateFrom').default).toBe('={{ $now.minus({ days: 7 }).startOf("day").toISO() }}');
		expect(shownNamed(node, parameters, 'dateTo').default).toBe('={{ $now.toISO() }}');
	});

	it('offers "Put Output File in Field" only with Attach Raw XML (Get Many) or Download PDFs (Get Document Links)', () => {
		const getManyOptions = shownNamed(node, { resource: 'invoice', operation: 'getMany' }, 'options');
		expect(offeredOptions(getManyOptions, {})).toEqual(['attachRawXml', 'downloadPdfs', 'responseFormat']);
		expect(offeredOptions(getManyOptions, { attachRawXml: false })).toEqual(['attachRawXml', 'downloadPdfs', 'responseFormat']);
		expect(offeredOptions(getManyOptions, { attachRawXml: true })).toEqual(['attachRawXml', 'binaryPropertyName', 'downloadPdfs', 'responseFormat']);
		expect(offeredOptions(getManyOptions, { downloadPdfs: true })).toEqual(['attachRawXml', 'downloadPdfs', 'pdfBinaryPropertyName', 'responseFormat']);

		const linkOptions = shownNamed(node, { resource: 'invoiceCorrection', operation: 'getDocumentLinks' }, 'options');
		expect(offeredOptions(linkOptions, {})).toEqual(['downloadPdfs']);
		expect(offeredOptions(linkOptions, { downloadPdfs: true })).toEqual(['downloadPdfs', 'binaryPropertyName']);
	});

	it('has one Invoice Type field, with one value for all, in the node and the trigger', () => {
		const typeFields = [
			shownNamed(node, { resource: 'invoice', operation: 'getMany' }, 'invoiceType'),
			shownNamed(node, { resource: 'invoiceCorrection', operation: 'getDocumentLinks' }, 'invoiceType'),
			shownNamed(trigger, { event: 'any' }, 'invoiceType'),
		];
		for (const field of typeFields) {
			expect(field.displayName).toBe('Invoice Type');
			expect(field.default).toBe('all');
			expect(field.options).toEqual(typeFields[0].options);
		}
	});

	it.each(['invoice', 'invoiceCorrection', 'any', 'productChanged'])('trigger on %s: Simplify at the top level, on by default', (event) => {
		expect(shownNamed(trigger, { event }, 'simplify').default).toBe(true);
	});
});

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

	it('flattens link answers keyed by suborder, also with extra fields, single objects and the spec placeholder key', () => {
		expect(
			flattenDocumentLinks({
				'1-1': [{ documentCorrelationId: 'd1', link: 'https://x/1', expiresIn: 600 }, { documentCorrelationId: 'd2', link: 'https://x/2' }],
				'2-1': { documentCorrelationId: 'd3', link: 'https://x/3' },
				'3-1': [],
			}),
		).toEqual([
			{ suborderId: '1-1', documentCorrelationId: 'd1', link: 'https://x/1', expiresIn: 600 },
			{ suborderId: '1-1', documentCorrelationId: 'd2', link: 'https://x/2' },
			{ suborderId: '2-1', documentCorrelationId: 'd3', link: 'https://x/3' },
		]);
		expect(flattenDocumentLinks({ suborderIdNumberValue: [{ documentCorrelationId: 'd4', link: 'https://x/4' }] }, ['9-2'])).toEqual([
			{ suborderId: '9-2', documentCorrelationId: 'd4', link: 'https://x/4' },
		]);
		expect(flattenDocumentLinks(undefined)).toEqual([]);
	});

	it('reads a bare To day as the whole day', () => {
		const ctx = { getNode: () => ({ name: 'Node' }) as INode };
		expect(readDocumentRange(ctx, '01/03/2025', '31/03/2025')).toEqual({
			from: new Date('2025-03-01T00:00:00.000Z'),
			to: new Date('2025-03-31T23:59:59.999Z'),
		});
	});
});

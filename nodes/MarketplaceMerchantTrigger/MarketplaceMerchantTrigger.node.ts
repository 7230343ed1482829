import { NodeConnectionTypes, type INodeExecutionData, type INodeType, type INodeTypeDescription, type IPollFunctions } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from '../MarketplaceMerchant/transport/send';
import { booleanField, optionsCollection, simplifyField } from '../MarketplaceMerchant/families/fields';
import { invoiceTypeField, outputFileField } from '../MarketplaceMerchant/families/documents/fields';
import { testMerchantCredential } from '../MarketplaceMerchant/families/credential';
import { DEFAULT_LOOK_BACK_MINUTES, fetchTestEvent, pollForNewDocuments, withoutOverlap } from './poll';
import { PRODUCT_CHANGED, fetchTestProductChange, pollProductChanges } from './productChanges';

const DOCUMENTS_ONLY = { hide: { event: [PRODUCT_CHANGED] } };

/** Polls documents (poll.ts; cursor.ts says why each fires exactly once) or product changes (productChanges.ts). */
export class MarketplaceMerchantTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Marketplace Merchant Trigger',
		name: 'marketplaceMerchantTrigger',
		icon: { light: 'file:../../icons/marketplace.svg', dark: 'file:../../icons/marketplace.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{"On " + {"invoice": "new invoice", "invoiceCorrection": "new invoice correction", "any": "new invoice or correction", "productChanged": "product changed"}[$parameter["event"]]}}',
		description: 'Starts the workflow when a marketplace merchant account gets a new invoice or invoice correction, or when a product\'s stock or price changes',
		defaults: { name: 'Marketplace Merchant Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL_TYPE, required: true, testedBy: 'testMerchantCredential' }],
		properties: [
			{
				displayName: 'Trigger On',
				name: 'event',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'New Invoice', value: 'invoice', description: 'A new invoice was issued' },
					{ name: 'New Invoice Correction', value: 'invoiceCorrection', description: 'A new invoice correction was issued' },
					{ name: 'New Invoice or Invoice Correction', value: 'any', description: 'Either; the output field "event" tells which' },
					{
						name: 'Product Changed',
						value: PRODUCT_CHANGED,
						description: 'The stock or price of a product changed on the marketplace (e.g. a sale from the platform warehouse)',
					},
				],
				default: 'invoice',
			},
			{
				displayName: 'Changes to Watch',
				name: 'watchFields',
				type: 'options',
				options: [
					{ name: 'Stock or Price', value: 'both' },
					{ name: 'Stock Only', value: 'stock' },
					{ name: 'Price Only', value: 'price', description: 'The price the merchant set (newBasePrice), which applies from the next day' },
				],
				default: 'both',
				description:
					'Which changes fire: only a change of the watched values, compared with what the trigger read of the catalogue on activation (a sale is no price event). A product created after activation fires from its second change on.',
				displayOptions: { show: { event: [PRODUCT_CHANGED] } },
			},
			{ ...invoiceTypeField('Fire only for fiscal or only for non-fiscal documents'), displayOptions: DOCUMENTS_ONLY },
			simplifyField(
				'Whether to return a flat summary: of a document its IDs, dates, customer and totals instead of the full nested document; of a product its ID, EAN, SKU, stock, prices and previous values',
			),
			{
				...booleanField('Download PDFs', 'downloadPdfs', 'Whether to attach the PDF of each document as binary data'),
				displayOptions: DOCUMENTS_ONLY,
			},
			{
				...outputFileField('Binary field for the PDF of each document', { show: { downloadPdfs: [true] }, ...DOCUMENTS_ONLY }),
				required: true,
			},
			{
				...optionsCollection([
					{
						displayName: 'Look-Back Window (Minutes)',
						name: 'lookBackMinutes',
						type: 'number',
						typeOptions: { minValue: 0, maxValue: 10080 },
						default: DEFAULT_LOOK_BACK_MINUTES,
						description:
							'How far before the last poll each poll looks again, for documents the service shows late (their invoiced date already past). Documents already emitted are not emitted again.',
					},
					{
						displayName: 'Start From',
						name: 'startFrom',
						type: 'dateTime',
						default: '',
						description:
							'Emit the documents invoiced since this date on the first poll (a date from the picker or an expression, ISO 8601 or dd/MM/yyyy; without a zone it is UTC), then the new ones. Empty: start with the documents that arrive after activation. Setting a new date later starts over from that date.',
					},
				]),
				displayOptions: DOCUMENTS_ONLY,
			},
		],
	};

	// The credential's Test button, as the action node has it: n8n uses the first node it finds with `testedBy`.
	methods = { credentialTest: { testMerchantCredential } };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const productChanged = this.getNodeParameter('event', 'invoice') === PRODUCT_CHANGED;
		if (this.getMode() === 'manual') return productChanged ? await fetchTestProductChange(this) : await fetchTestEvent(this);
		return await withoutOverlap(this, async () => (productChanged ? await pollProductChanges(this) : await pollForNewDocuments(this)));
	}
}

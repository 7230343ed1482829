import { NodeConnectionTypes, type INodeExecutionData, type INodeType, type INodeTypeDescription, type IPollFunctions } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from '../MarketplaceMerchant/transport/send';
import { booleanField, simplifyField } from '../MarketplaceMerchant/shared/fields';
import { invoiceTypeField, outputFileField } from '../MarketplaceMerchant/shared/documents/fields';
import { testMerchantCredential } from '../MarketplaceMerchant/shared/credential';
import { fetchTestEvent, pollForNewDocuments, withoutOverlap } from './poll';
import { cursorOptions } from './cursor';
import { PRODUCT_CHANGED, fetchTestProductChange, pollProductChanges } from './productChanges';
import { NEW_ORDER_TO_CONFIRM, fetchTestOrder, orderTriggerFields, pollNewOrders } from './orders';
import { SHIPMENT_STATUS_CHANGED, fetchTestShipmentChange, pollShipmentChanges, shipmentTriggerFields } from './shipments';
import { getOrderStatuses, onceCredentialSet } from '../MarketplaceMerchant/shared/editorLists';

const DOCUMENTS_ONLY = { hide: { event: [PRODUCT_CHANGED, NEW_ORDER_TO_CONFIRM, SHIPMENT_STATUS_CHANGED] } };

type Poll = (ctx: IPollFunctions) => Promise<INodeExecutionData[][] | null>;

/** The events with a module of their own: the scheduled poll and "Fetch Test Event". Documents: poll.ts. */
const EVENT_MODULES: Record<string, { poll: Poll; fetchTest: Poll }> = {
	[PRODUCT_CHANGED]: { poll: pollProductChanges, fetchTest: fetchTestProductChange },
	[NEW_ORDER_TO_CONFIRM]: { poll: pollNewOrders, fetchTest: fetchTestOrder },
	[SHIPMENT_STATUS_CHANGED]: { poll: pollShipmentChanges, fetchTest: fetchTestShipmentChange },
};

/**
 * Polls documents (poll.ts; cursor.ts says why each fires exactly once), product changes
 * (productChanges.ts), orders to confirm (orders.ts) or shipment status changes (shipments.ts).
 */
export class MarketplaceMerchantTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Marketplace Merchant Trigger',
		name: 'marketplaceMerchantTrigger',
		icon: { light: 'file:../../icons/marketplace.svg', dark: 'file:../../icons/marketplace.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle:
			'={{"On " + {"invoice": "new invoice", "invoiceCorrection": "new invoice correction", "any": "new invoice or correction", "productChanged": "product changed", "newOrderToConfirm": "new order to confirm", "shipmentStatusChanged": "shipment status changed"}[$parameter["event"]]}}',
		description:
			'Starts the workflow when a marketplace merchant account gets a new order to confirm, a shipment changes status, a new invoice or invoice correction is issued, or a product\'s stock or price changes',
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
						name: 'New Order to Confirm',
						value: NEW_ORDER_TO_CONFIRM,
						description: 'A new order waits for the merchant to confirm its quantities',
					},
					{
						name: 'Product Changed',
						value: PRODUCT_CHANGED,
						description: 'The stock or price of a product changed on the marketplace (e.g. a sale from the platform warehouse)',
					},
					{
						name: 'Shipment Status Changed',
						value: SHIPMENT_STATUS_CHANGED,
						description:
							'A shipment (suborder) moved on: confirmed, packed, ready for collection, collected, delivered, cancelled, returned; optionally only to chosen statuses (e.g. ready for collection). The output has previousStatus (what the last poll saw; null for a shipment new since) and status.',
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
				'Whether to return a flat summary: of a document its IDs, dates, customer and totals instead of the full nested document; of a product its ID, EAN, SKU, stock, prices and previous values; of an order or shipment its IDs, totals, buyer and lines',
			),
			...orderTriggerFields,
			...shipmentTriggerFields,
			{
				...booleanField('Download PDFs', 'downloadPdfs', 'Whether to attach the PDF of each document as binary data'),
				displayOptions: DOCUMENTS_ONLY,
			},
			{
				...outputFileField('Binary field for the PDF of each document', { show: { downloadPdfs: [true] }, ...DOCUMENTS_ONLY }),
				required: true,
			},
			cursorOptions(
				{
					lookBack:
						'How far before the last poll each poll looks again, for documents the service shows late (their invoiced date already past). Documents already emitted are not emitted again.',
					startFrom:
						'Emit the documents invoiced since this date on the first poll (a date from the picker or an expression, ISO 8601 or dd/MM/yyyy; without a zone it is in the workflow\'s time zone), then the new ones. Empty: start with the documents that arrive after activation. Setting a new date later starts over from that date.',
				},
				DOCUMENTS_ONLY,
			),
		],
	};

	// The credential's Test button, as the action node has it: n8n uses the first node it finds with `testedBy`.
	methods = {
		credentialTest: { testMerchantCredential },
		// Shipment Status Changed's New Status Names, the action node's list (waiting for the credential as there).
		loadOptions: { getOrderStatuses: onceCredentialSet(getOrderStatuses, () => []) },
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const module = EVENT_MODULES[String(this.getNodeParameter('event', 'invoice'))];
		if (this.getMode() === 'manual') return module ? await module.fetchTest(this) : await fetchTestEvent(this);
		return await withoutOverlap(this, async () => (module ? await module.poll(this) : await pollForNewDocuments(this)));
	}
}

import {
	NodeConnectionTypes,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type IPollFunctions,
} from 'n8n-workflow';

import { DEFAULT_LOOK_BACK_MINUTES, fetchTestEvent, pollForNewDocuments } from './poll';

/**
 * Marketplace Merchant Trigger: polls invoices and invoice corrections and starts the workflow
 * once for each new document. poll.ts does the polling; cursor.ts explains why every document
 * fires exactly once.
 */
export class MarketplaceMerchantTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Marketplace Merchant Trigger',
		name: 'marketplaceMerchantTrigger',
		icon: { light: 'file:../../icons/marketplace.svg', dark: 'file:../../icons/marketplace.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{"On " + {"invoice": "new invoice", "invoiceCorrection": "new invoice correction", "any": "new invoice or correction"}[$parameter["event"]]}}',
		description: 'Starts the workflow when a marketplace merchant account gets a new invoice or invoice correction',
		defaults: { name: 'Marketplace Merchant Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'marketplaceMerchantApi', required: true }],
		properties: [
			{
				displayName: 'Trigger On',
				name: 'event',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'New Invoice', value: 'invoice', description: 'A new invoice was issued' },
					{ name: 'New Invoice Correction', value: 'invoiceCorrection', description: 'A new invoice correction was issued' },
					{
						name: 'New Invoice or Invoice Correction',
						value: 'any',
						description: 'Either; the output field "event" tells which',
					},
				],
				default: 'invoice',
			},
			{
				displayName: 'Invoice Type',
				name: 'invoiceType',
				type: 'options',
				options: [
					{ name: 'All', value: 'all' },
					{ name: 'Fiscal', value: 'FISCAL' },
					{ name: 'Non-Fiscal', value: 'NON_FISCAL' },
				],
				default: 'all',
				description: 'Fire only for fiscal or only for non-fiscal documents',
			},
			{
				displayName: 'Simplify',
				name: 'simplify',
				type: 'boolean',
				default: false,
				description: 'Whether to return a flat summary of each document (IDs, dates, customer, totals) instead of the full nested document',
			},
			{
				displayName: 'Download PDFs',
				name: 'downloadPdfs',
				type: 'boolean',
				default: false,
				description: 'Whether to attach the PDF of each document as binary data',
			},
			{
				displayName: 'Put Output File in Field',
				name: 'binaryPropertyName',
				type: 'string',
				default: 'data',
				required: true,
				displayOptions: { show: { downloadPdfs: [true] } },
				hint: 'The name of the output binary field to put the PDF in',
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
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
				],
			},
		],
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		if (this.getMode() === 'manual') return await fetchTestEvent(this);
		return await pollForNewDocuments(this);
	}
}

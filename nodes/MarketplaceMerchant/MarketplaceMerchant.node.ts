import { NodeConnectionTypes, type INodeType, type INodeTypeDescription } from 'n8n-workflow';

import { customOperationsOf, resourceProperties, resourceProperty, subtitleOf } from './actions/contract';
import { resource as discount } from './actions/discount/Discount.resource';
import { searchDiscounts } from './actions/discount/discountLocator';
import { resource as invoice } from './actions/documents/Invoice.resource';
import { resource as invoiceCorrection } from './actions/documents/InvoiceCorrection.resource';
import { resource as price } from './actions/price/Price.resource';
import { resource as product } from './actions/product/Product.resource';
import { getProductTypes } from './actions/product/productTypes';
import { searchProducts } from './actions/productLocator';
import { requestOptionsProperty } from './actions/requestOptions';
import { resource as warehouse } from './actions/warehouse/Warehouse.resource';
import { BASE_URL_EXPRESSION, CREDENTIAL_TYPE } from './transport/send';
import { testMerchantCredential } from './transport/credentialTest';

/** Every resource of the node (actions/contract.ts): each lists its operations, each operation file its fields. */
const RESOURCES = [product, warehouse, invoice, invoiceCorrection, discount, price];

/**
 * Marketplace Merchant: a declarative node. Every operation is described by its `routing`
 * (see actions/<resource>/<operation>.operation.ts); the shared request engine in transport/
 * paces, retries, splits and reads the requests. There is no `execute` method. The editor's
 * pickers (`methods`) send through the same engine (transport/send.ts, sendAuthenticated), and so
 * does the credential's Test button (`testedBy`, transport/credentialTest.ts says why).
 *
 * The four bulk operations are `customOperations`, n8n's extension point for an operation of a
 * declarative node that routing cannot express: they run once over all input items, so that a
 * sheet of rows is one batch with one output item per row and a hint about rejected entries
 * (actions/bulkRun.ts says why routing cannot give that).
 *
 * Version 2 makes "One Item per …" the bulk operations' default Input Mode; version 1 keeps JSON,
 * so that workflows saved with it run as before (docs/architecture.md, node versions).
 */
export class MarketplaceMerchant implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Marketplace Merchant',
		name: 'marketplaceMerchant',
		icon: { light: 'file:../../icons/marketplace.svg', dark: 'file:../../icons/marketplace.dark.svg' },
		group: ['transform'],
		version: [1, 2],
		defaultVersion: 2,
		subtitle: subtitleOf(RESOURCES),
		description: 'Manage products, stock, prices, discounts and invoices of a marketplace merchant account',
		defaults: { name: 'Marketplace Merchant' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL_TYPE, required: true, testedBy: 'testMerchantCredential' }],
		requestDefaults: {
			baseURL: BASE_URL_EXPRESSION,
			headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
			json: true,
		},
		properties: [resourceProperty(RESOURCES, 'product'), ...RESOURCES.flatMap(resourceProperties), requestOptionsProperty],
	};

	methods = {
		listSearch: { searchProducts, searchDiscounts },
		loadOptions: { getProductTypes },
		credentialTest: { testMerchantCredential },
	};

	customOperations = customOperationsOf(RESOURCES);
}

import { NodeConnectionTypes, type INodeType, type INodeTypeDescription } from 'n8n-workflow';

import { resourceProperties, subtitleOf } from './actions/contract';
import { customOperationsOf } from './actions/run';
import { resource as discount } from './actions/discount/Discount.resource';
import { searchDiscounts } from './actions/discount/shared';
import { getCurrencies } from './actions/discount/currency';
import { resource as invoice } from './actions/documents/Invoice.resource';
import { resource as invoiceCorrection } from './actions/documents/InvoiceCorrection.resource';
import { resource as order } from './actions/order/Order.resource';
import { CONFIRM_WAREHOUSES_BEFORE_CREDENTIAL, WAREHOUSES_BEFORE_CREDENTIAL, getConfirmWarehouses, getWarehouses } from './actions/orderReads';
import { getOrderStatuses, onceCredentialSet } from './shared/editorLists';
import { resource as price } from './actions/price/Price.resource';
import { resource as product } from './actions/product/Product.resource';
import { resource as shipment } from './actions/shipment/Shipment.resource';
import { getProductTypes } from './actions/product/getTypes.operation';
import { searchProducts } from './actions/catalogue/locator';
import { requestOptionsProperty } from './actions/common';
import { resource as warehouse } from './actions/warehouse/Warehouse.resource';
import { BASE_URL_EXPRESSION } from './transport/hosts';
import { CREDENTIAL_TYPE } from './transport/send';
import { testMerchantCredential } from './shared/credential';

const RESOURCES = [product, order, shipment, warehouse, invoice, invoiceCorrection, discount, price];

/** Versions 1 to 3 in docs/versioning.md; 4 replaced Simplify of the read operations by Output. */
const NEWEST_VERSION = 4;

/**
 * Declarative description (resources, operations, fields; no `execute`); every operation runs as a
 * `customOperation` over all of a run's items (actions/run.ts); versions 1 to 3 in docs/architecture.md.
 */
export class MarketplaceMerchant implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Marketplace Merchant',
		name: 'marketplaceMerchant',
		icon: { light: 'file:../../icons/marketplace.svg', dark: 'file:../../icons/marketplace.dark.svg' },
		group: ['transform'],
		version: [1, 2, 3, 4],
		defaultVersion: NEWEST_VERSION,
		subtitle: subtitleOf(RESOURCES),
		description: 'Manage products, stock, prices, discounts, orders, shipments and invoices of a marketplace merchant account',
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
		properties: [...resourceProperties(RESOURCES, 'product', NEWEST_VERSION), requestOptionsProperty],
	};

	methods = {
		// Each list waits for the credential (a new node's first ask comes before it is set): shared/editorLists.ts.
		// The Currency list answers without the credential already (the account's currency unknown).
		listSearch: {
			searchProducts: onceCredentialSet(searchProducts, () => ({ results: [] })),
			searchDiscounts: onceCredentialSet(searchDiscounts, () => ({ results: [] })),
		},
		loadOptions: {
			getProductTypes: onceCredentialSet(getProductTypes, () => []),
			getWarehouses: onceCredentialSet(getWarehouses, () => WAREHOUSES_BEFORE_CREDENTIAL),
			getConfirmWarehouses: onceCredentialSet(getConfirmWarehouses, () => CONFIRM_WAREHOUSES_BEFORE_CREDENTIAL),
			getOrderStatuses: onceCredentialSet(getOrderStatuses, () => []),
			getCurrencies,
		},
		credentialTest: { testMerchantCredential },
	};

	customOperations = customOperationsOf(RESOURCES);
}

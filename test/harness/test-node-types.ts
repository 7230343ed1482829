/* eslint-disable @n8n/community-nodes/node-usable-as-tool -- test code, run by jest and never loaded by n8n: it may use test node types no agent sees (docs/architecture.md, Toolchain). */
import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes, deepCopy } from 'n8n-workflow';

/** Node types that exist only in tests; never part of the package. */
export const TEST_ITEMS_NODE_TYPE = 'test.items';
export const TEST_WAREHOUSES_NODE_TYPE = 'test.merchantWarehouses';
export const TEST_WAREHOUSE_POLL_NODE_TYPE = 'test.merchantWarehousePoll';
export const TEST_HTTP_REQUEST_NODE_TYPE = 'test.httpRequestWithCredential';

const WAREHOUSES_PATH = '/order/api/v1/merchant-integration/merchant-warehouses';

function isExecutionData(value: unknown): value is INodeExecutionData {
	const json = (value as { json?: unknown } | null)?.json;
	return typeof json === 'object' && json !== null && !Array.isArray(json);
}

/**
 * Start node that emits the items in its `items` parameter, so a test can feed input items to
 * the node under test. Plain objects become `{ json }`; objects with a `json` object (and maybe
 * `binary`) are emitted as they are.
 */
export class TestItems implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Test Items',
		name: TEST_ITEMS_NODE_TYPE,
		group: ['input'],
		version: 1,
		description: 'Emits the items given in its parameters',
		defaults: { name: 'Test Items' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		properties: [
			{
				displayName: 'Items',
				name: 'items',
				type: 'json',
				default: '[]',
			},
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const configured = this.getNode().parameters.items;
		const items = (typeof configured === 'string' ? JSON.parse(configured) : configured) as unknown[];
		return [
			deepCopy(items).map((item) =>
				isExecutionData(item)
					? { ...item, pairedItem: { item: 0 } }
					: { json: item as IDataObject, pairedItem: { item: 0 } },
			),
		];
	}
}

/**
 * The smallest declarative node that uses the package credential: one authenticated GET of the
 * merchant's warehouses. Credential tests use it while the real node is built elsewhere.
 */
export class TestMerchantWarehouses implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Test Merchant Warehouses',
		name: TEST_WAREHOUSES_NODE_TYPE,
		group: ['transform'],
		version: 1,
		description: 'Lists the merchant warehouses',
		defaults: { name: 'Test Merchant Warehouses' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'marketplaceMerchantApi', required: true }],
		requestDefaults: {
			baseURL: '={{$credentials.baseUrl}}',
			headers: { Accept: 'application/json' },
		},
		properties: [
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				default: 'list',
				options: [
					{
						name: 'List',
						value: 'list',
						action: 'List warehouses',
						routing: {
							request: {
								method: 'GET',
								url: WAREHOUSES_PATH,
							},
							output: {
								postReceive: [{ type: 'rootProperty', properties: { property: 'content' } }],
							},
						},
					},
				],
			},
		],
	};
}

/**
 * A minimal polling trigger: emits the warehouses it has not seen before, remembering their ids
 * in the node's static data. Exercises `runPoll` without the real trigger node.
 */
export class TestMerchantWarehousePoll implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Test Merchant Warehouse Poll',
		name: TEST_WAREHOUSE_POLL_NODE_TYPE,
		group: ['trigger'],
		version: 1,
		description: 'Emits new merchant warehouses',
		defaults: { name: 'Test Merchant Warehouse Poll' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'marketplaceMerchantApi', required: true }],
		properties: [],
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const credentials = await this.getCredentials<{ baseUrl: string }>('marketplaceMerchantApi');
		const response = (await this.helpers.httpRequestWithAuthentication.call(
			this,
			'marketplaceMerchantApi',
			{ method: 'GET', url: `${credentials.baseUrl.replace(/\/+$/, '')}${WAREHOUSES_PATH}`, json: true },
		)) as { content: IDataObject[] };
		const staticData = this.getWorkflowStaticData('node');
		const seen = new Set((staticData.seenIds as number[] | undefined) ?? []);
		const fresh = response.content.filter((warehouse) => !seen.has(warehouse.id as number));
		staticData.seenIds = [...seen, ...fresh.map((warehouse) => warehouse.id as number)];
		return fresh.length > 0 ? [this.helpers.returnJsonArray(fresh)] : null;
	}
}

/**
 * What n8n's HTTP Request node (V3, Authentication "Predefined Credential Type") does with the
 * package's credential: each item's request through n8n-core's legacy `requestWithAuthentication`,
 * which after ANY failure asks the credential's preAuthentication again and resends the request
 * when it gets a token. `path` goes after the credential's Base URL; `body` is JSON (text or object).
 */
export class TestHttpRequestWithCredential implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Test HTTP Request with Credential',
		name: TEST_HTTP_REQUEST_NODE_TYPE,
		group: ['transform'],
		version: 1,
		description: 'Sends one request per item with the merchant credential, as the HTTP Request node does',
		defaults: { name: 'Test HTTP Request' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'marketplaceMerchantApi', required: true }],
		properties: [
			{ displayName: 'Method', name: 'method', type: 'string', default: 'GET' },
			{ displayName: 'Path', name: 'path', type: 'string', default: '' },
			{ displayName: 'Body', name: 'body', type: 'json', default: '' },
		],
	};

	/** As the HTTP Request node (V3) does: every item's request started at once, then their outcomes in item order. */
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const send = async (itemIndex: number) => {
			const { baseUrl } = await this.getCredentials<{ baseUrl: string }>('marketplaceMerchantApi', itemIndex);
			const raw = this.getNodeParameter('body', itemIndex, '') as unknown;
			const body = typeof raw === 'string' ? (raw === '' ? undefined : (JSON.parse(raw) as unknown)) : raw;
			const options = {
				method: this.getNodeParameter('method', itemIndex) as IHttpRequestMethods,
				uri: `${baseUrl.replace(/\/+$/, '')}${this.getNodeParameter('path', itemIndex) as string}`,
				body,
				json: true,
				resolveWithFullResponse: true,
			};
			// The deprecated helper on purpose: it is the one n8n's HTTP Request node still uses, with its resend after any failure.
			// eslint-disable-next-line @n8n/community-nodes/no-deprecated-workflow-functions -- the HTTP Request node's helper, on purpose (above)
			return (await this.helpers.requestWithAuthentication.call(this, 'marketplaceMerchantApi', options, undefined, itemIndex)) as { statusCode: number; body?: unknown };
		};
		const outcomes = await Promise.allSettled(this.getInputData().map(async (_, itemIndex) => await send(itemIndex)));
		return [
			outcomes.map((outcome, itemIndex) => {
				if (outcome.status === 'rejected') throw outcome.reason;
				return { json: { statusCode: outcome.value.statusCode, body: (outcome.value.body ?? null) as IDataObject }, pairedItem: { item: itemIndex } };
			}),
		];
	}
}

export function testNodeTypes(): INodeType[] {
	return [new TestItems(), new TestMerchantWarehouses(), new TestMerchantWarehousePoll(), new TestHttpRequestWithCredential()];
}

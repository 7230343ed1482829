/**
 * What the editor shows before a run: required fields n8n flags itself, the subtitle in words, and
 * the notice and top-level Simplify of the bulk operations.
 * Parameter issues are n8n's own (NodeHelpers.getNodeParametersIssues, the check behind the
 * panel's warnings and behind WorkflowExecute refusing to start a workflow that has them).
 */
import { NodeHelpers, Workflow, type INode, type INodeParameters, type INodeProperties, type INodePropertyOptions } from 'n8n-workflow';

import { NODE_UNDER_TEST_NAME, TestNodeTypes, packageNodeTypeName, runNode } from '../harness';
import { startSandbox, type Sandbox } from '../../sandbox';

const NODE_TYPE = 'marketplaceMerchant';
const nodeTypes = new TestNodeTypes();
const description = () => nodeTypes.getByNameAndVersion(packageNodeTypeName(NODE_TYPE), 1).description;

function node(parameters: INodeParameters): INode {
	return { id: 'n1', name: NODE_UNDER_TEST_NAME, type: packageNodeTypeName(NODE_TYPE), typeVersion: 1, position: [0, 0], parameters };
}

/** The issues n8n shows in the panel for these parameters (defaults filled in as the editor does). */
function panelIssues(parameters: INodeParameters) {
	const properties = description().properties;
	const withDefaults = NodeHelpers.getNodeParameters(properties, parameters, true, false, node(parameters), description());
	return NodeHelpers.getNodeParametersIssues(properties, node(withDefaults ?? {}), description())?.parameters ?? {};
}

const IMPORT = {
	resource: 'product',
	operation: 'import',
	name: 'Pan',
	ean: '4006381333931',
	description: 'A pan',
	coverImage: 'https://example.com/cover.jpg',
};

describe('Required numbers have no fake default', () => {
	it('n8n 2.41 never flags a required number, whatever its default: the reason required prices are text fields', () => {
		const requiredNumber: INodeProperties = { displayName: 'Amount', name: 'amount', type: 'number', default: undefined, required: true };
		const requiredText: INodeProperties = { ...requiredNumber, type: 'string', default: '' };
		expect(NodeHelpers.getNodeParametersIssues([requiredNumber], node({}), description())).toBeNull();
		expect(NodeHelpers.getNodeParametersIssues([requiredText], node({}), description())?.parameters).toEqual({ amount: ['Parameter "Amount" is required.'] });
	});

	it('flags an empty Base Price of Import in the panel, and accepts one given', () => {
		expect(panelIssues(IMPORT)).toEqual({ basePrice: ['Parameter "Base Price" is required.'] });
		expect(panelIssues({ ...IMPORT, basePrice: 1299.5 })).toEqual({});
		expect(panelIssues({ ...IMPORT, basePrice: '1299.50' })).toEqual({});
	});

	it('flags a Discount Schedule row without a Discount Price or Product ID', () => {
		const row = { merchantInventoryId: '100001', dateFrom: '2030-08-01', dateTo: '2030-08-10' };
		const schedule = (rows: INodeParameters[]) => ({
			resource: 'discount',
			operation: 'schedule',
			inputMode: 'rows',
			discountsUi: { discount: rows },
		});
		const issues = panelIssues(schedule([row, { ...row, discountPrice: '899.99', merchantInventoryId: '' }]));
		expect(issues).toEqual({
			discountPrice: ['Parameter "Discount Price" is required.'],
			merchantInventoryId: ['Parameter "Product ID" is required.'],
		});
		expect(panelIssues(schedule([{ ...row, discountPrice: '899.99' }]))).toEqual({});
	});

	describe('through the engine', () => {
		let sandbox: Sandbox;
		beforeAll(async () => {
			sandbox = await startSandbox({ rateLimits: false, seed: 3, products: 10 });
		});
		afterAll(async () => {
			await sandbox.close();
		});

		it('refuses to run an Import without a Base Price and sends nothing', async () => {
			const run = runNode(NODE_TYPE, IMPORT, [{}], {
				credentials: { marketplaceMerchantApi: { baseUrl: sandbox.url, ...sandbox.client } },
			});

			await expect(run).rejects.toThrow(`The '${NODE_UNDER_TEST_NAME}' node has issues:\n- Parameter "Base Price" is required.`);
			expect(sandbox.log).toHaveLength(0);
		});
	});
});

describe('Subtitle', () => {
	function subtitle(parameters: INodeParameters): unknown {
		const workflow = new Workflow({ nodes: [node(parameters)], connections: {}, active: false, nodeTypes });
		return workflow.expression.getSimpleParameterValue(node(parameters), description().subtitle, 'internal', {});
	}

	it('names every operation and resource as their option lists do', () => {
		const properties = description().properties;
		const resources = properties.find((property) => property.name === 'resource')?.options as INodePropertyOptions[];
		const expected: string[] = [];
		const shown: unknown[] = [];
		for (const operations of properties.filter((property) => property.name === 'operation')) {
			for (const resource of operations.displayOptions?.show?.resource ?? []) {
				const resourceName = resources.find((option) => option.value === resource)?.name;
				for (const operation of operations.options as INodePropertyOptions[]) {
					expected.push(`${operation.name}: ${resourceName}`);
					shown.push(subtitle({ resource: resource as string, operation: operation.value as string }));
				}
			}
		}
		expect(shown).toEqual(expected);
		expect(expected.length).toBeGreaterThan(15);
	});

	it.each([
		[{ resource: 'product', operation: 'updateMany' }, 'Update Many: Product'],
		[{ resource: 'product', operation: 'syncStockAndPrices' }, 'Sync Stock and Prices: Product'],
		[{ resource: 'invoiceCorrection', operation: 'getMany' }, 'Get Many: Invoice Correction'],
		[{ resource: 'discount', operation: 'schedule' }, 'Schedule: Discount'],
		// n8n adds a "Custom API Call" option to both lists of a node whose credential can sign any request.
		[{ resource: 'discount', operation: '__CUSTOM_API_CALL__' }, 'Custom API Call: Discount'],
		[{ resource: '__CUSTOM_API_CALL__', operation: '__CUSTOM_API_CALL__' }, 'Custom API Call'],
	])('%j reads %s', (parameters, expected) => {
		expect(subtitle(parameters)).toBe(expected);
	});

	it('shows the value of an operation it does not know rather than nothing', () => {
		expect(subtitle({ resource: 'product', operation: 'teleport' })).toBe('teleport: Product');
	});
});

describe('bulk operations in the panel', () => {
	/**
	 * The parameters a node added from the node creator has (defaults filled in as the editor does,
	 * for the node version it is at: 2 for a new node, 1 for one saved before version 2), and the ones shown.
	 */
	function shown(resource: string, operation: string, typeVersion = 2) {
		const node = { typeVersion } as INode;
		const values = NodeHelpers.getNodeParameters(description().properties, { resource, operation }, true, false, node, description()) ?? {};
		return { values, properties: description().properties.filter((property) => NodeHelpers.displayParameter(values, property, node, description())) };
	}

	it.each([
		['product', 'updateMany', 'products to update', 'Product ID'],
		['product', 'syncStockAndPrices', 'products to sync', 'Match Value'],
		['discount', 'schedule', 'discounts', 'Discount Price'],
		['discount', 'update', 'discount updates', 'New Discount Price'],
	])('%s › %s, new node: one entry per input item by default, its fields in the panel, a notice saying so, no Aggregate node', (resource, operation, entries, field) => {
		const { values, properties } = shown(resource, operation);
		const notices = properties.filter((property) => property.type === 'notice');

		expect(values.inputMode).toBe('items');
		expect(values.invalidEntries).toBe('stop');
		expect(notices).toHaveLength(1);
		expect(notices[0].displayName).toContain(`Each input item is one of the ${entries}`);
		expect(notices[0].displayName).not.toContain('Aggregate');
		expect(properties.map((property) => property.displayName)).toContain(field);
	});

	it.each([
		['product', 'updateMany', 'products'],
		['product', 'syncStockAndPrices', 'products'],
		['discount', 'schedule', 'discounts'],
		['discount', 'update', 'discounts'],
	])('%s › %s, node version 1 (saved workflows): still reads a JSON list by default, with a notice showing its shape', (resource, operation, field) => {
		const { values, properties } = shown(resource, operation, 1);
		const notices = properties.filter((property) => property.type === 'notice');

		expect(values.inputMode).toBe('json');
		expect(notices).toHaveLength(1);
		expect(notices[0].displayName).toContain('One input item sends its whole list');
		expect(notices[0].displayName).toMatch(new RegExp(`An input item looks like: \\{"${field}": \\[\\{"`));
	});

	it('dates in the examples are not in the past', () => {
		const { properties } = shown('discount', 'schedule', 1);
		const json = properties.find((property) => property.name === 'discountsJson');
		const [day, month, year] = /"dateFrom": "(\d{2})\/(\d{2})\/(\d{4})"/.exec(json?.placeholder ?? '')?.slice(1) ?? [];
		expect(Date.UTC(Number(year), Number(month) - 1, Number(day))).toBeGreaterThan(Date.now());
	});

	it.each([
		['product', 'update'],
		['product', 'updateMany'],
		['product', 'syncStockAndPrices'],
		['discount', 'schedule'],
		['discount', 'update'],
	])('%s › %s shows Simplify at the top level, on by default', (resource, operation) => {
		const { values, properties } = shown(resource, operation);

		expect(properties.map((property) => property.name)).toContain('simplify');
		expect(values.simplify).toBe(true);
	});
});

describe('What n8n checks at every execution start', () => {
	it('holds no regular expression of ours: n8n runs them under a 250 ms wall-clock watchdog, which a busy machine trips', () => {
		// n8n-core's checkReadyForExecution validates every resource locator value typed in the panel
		// (and every `regex` display condition) through n8n-workflow's safeRegex, in a vm with a 250 ms
		// timeout on the wall clock: an Update Many of 150 rows by ID ran 150 of them, and on a busy
		// machine one stall failed the whole execution with "Regular expression execution timed out".
		// Our readers check these values when the item runs, naming the field (values/).
		const withRegex = JSON.stringify(description().properties).match(/"type":"regex"|"_cnd":\{"regex"/g) ?? [];
		expect(withRegex).toEqual([]);
	});
});

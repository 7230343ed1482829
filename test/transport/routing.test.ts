/**
 * Issue 10, the rows about values users give, through n8n's real engine (RoutingNode) against the
 * sandbox: each value that used to be guessed (and written) is now rejected before anything is
 * sent, and an invalid input item stops the node before any item is sent.
 */
import type { INodeParameters } from 'n8n-workflow';

import { startSandbox, type Sandbox } from '../../sandbox';
import { runNode, type RunNodeOptions, sandboxCredential, type WorkflowRunResult } from '../harness';

/** A year ahead: the node rejects discounts starting before today (real UTC). */
const YEAR = new Date().getUTCFullYear() + 1;

let sandbox: Sandbox;

beforeEach(async () => {
	sandbox = await startSandbox({ rateLimits: false, now: `${YEAR}-06-15T10:00:00Z`, seed: 3, products: 20 });
});

afterEach(async () => {
	await sandbox?.close();
});

async function run(parameters: INodeParameters, inputItems: unknown[] = [{}], options: RunNodeOptions = {}): Promise<WorkflowRunResult> {
	return await runNode('marketplaceMerchant', parameters, inputItems, {
		credentials: { marketplaceMerchantApi: sandboxCredential(sandbox) },
		...options,
	});
}

/** Requests that reached the API (the token request is not one). */
function apiRequests(): number {
	return sandbox.log.filter((entry) => entry.route !== 'token').length;
}

describe('values that were guessed are rejected before sending', () => {
	it.each<[string, INodeParameters, string]>([
		[
			'Product › Update, Base Price "1,299" (was sent as 1.299)',
			{ resource: 'product', operation: 'update', productId: '100001', updateFields: { basePrice: '={{ "1,299" }}' } },
			'Update Fields › Base Price: "1,299" is not a price (item 0)',
		],
		[
			'Product › Update, Stock Level "1,000" (was sent as 1)',
			{ resource: 'product', operation: 'update', productId: '100001', updateFields: { stockLevel: '={{ "1,000" }}' } },
			'Update Fields › Stock Level: "1,000" is not a stock level (a whole number) (item 0)',
		],
		[
			'Product › Update, Product ID "1e3" (updated product 1000)',
			{ resource: 'product', operation: 'update', productId: '1e3', updateFields: { stockLevel: 5 } },
			'Product ID: "1e3" is not a product ID (a whole number) (item 0)',
		],
		[
			'Discount › Schedule, discountPrice "1,299" (scheduled at 1 RSD)',
			{
				resource: 'discount',
				operation: 'schedule',
				inputMode: 'json',
				discountsJson: `={{ [{ merchantInventoryId: 100001, discountPrice: "1,299", dateFrom: "01/08/${YEAR}", dateTo: "10/08/${YEAR}", discountType: "SALE" }] }}`,
			},
			'Discounts (JSON) › entry 1 › Discount Price (discountPrice): "1,299" is not a price (item 0)',
		],
		[
			'Discount › Schedule, dateFrom 31/02 (scheduled from 03/03)',
			{
				resource: 'discount',
				operation: 'schedule',
				inputMode: 'json',
				discountsJson: `={{ [{ merchantInventoryId: 100001, discountPrice: 10, dateFrom: "31/02/${YEAR}", dateTo: "10/03/${YEAR}", discountType: "SALE" }] }}`,
			},
			`Discounts (JSON) › entry 1 › Date From (dateFrom): "31/02/${YEAR}" is not a date (item 0)`,
		],
		[
			'Product › Get Many, Modified After 31/02/2026 (asked for 2026-03-03)',
			{ resource: 'product', operation: 'getMany', returnAll: true, filters: { modifiedAfter: '31/02/2026' } },
			'Filters › Modified After: "31/02/2026" is not a date (item 0)',
		],
		[
			'Product › Import without description and cover image (failed later, asynchronously)',
			{
				resource: 'product',
				operation: 'import',
				name: 'Pan',
				ean: '4006381333931',
				description: '={{ $json.description }}',
				coverImage: '={{ $json.cover }}',
				basePrice: 100,
				vat: 20,
				stockLevel: 1,
			},
			"Description: `{{ $json.description }}` gave no value: the input item has no field 'description' (it has no fields) (item 0)",
		],
	])('%s', async (_row, parameters, message) => {
		const result = await run(parameters);

		expect(result.error?.message).toBe(message);
		expect(apiRequests()).toBe(0);
	});
});

describe('an invalid input item', () => {
	const update: INodeParameters = {
		resource: 'product',
		operation: 'update',
		productId: '={{ $json.id }}',
		updateFields: { stockLevel: '={{ $json.stock }}' },
	};
	const items = [
		{ id: 100001, stock: 5 },
		{ id: 100002, stock: '1,000' },
		{ id: 100003, stock: 7 },
	];

	it('stops the node before any item is sent (On Error = Stop), with its own error', async () => {
		const result = await run(update, items);

		expect(result.error?.message).toBe('Update Fields › Stock Level: "1,000" is not a stock level (a whole number) (item 1)');
		expect(sandbox.count('productUpdate')).toBe(0);
		expect(sandbox.state.product(100001)?.stockLevel).not.toBe(5);
	});

	it('stops a bulk operation too, whichever item is invalid', async () => {
		const bulk: INodeParameters = { resource: 'product', operation: 'updateMany', inputMode: 'json', productsJson: '={{ $json.products }}' };
		const result = await run(bulk, [
			{ products: [{ id: 100001, stockLevel: 1 }] },
			{ products: [{ id: 100002, stockLevel: 2 }] },
			{ products: [{ id: 100003, basePrice: '1.299' }] },
		]);

		expect(result.error?.message).toBe('Products (JSON) › entry 1 › Base Price (basePrice): "1.299" has more than 2 decimal places (item 2)');
		expect(sandbox.count('productBulk')).toBe(0);
	});

	it('fails alone with On Error = Continue: the other items are sent', async () => {
		const result = await run(update, items, { node: { onError: 'continueRegularOutput' } });

		expect(result.error).toBeUndefined();
		const output = result.output('Node');
		expect(output).toHaveLength(3);
		expect(output[0].json).toEqual(expect.objectContaining({ success: true, id: 100001 }));
		expect(output[1].json.error ?? output[1].error?.message).toBe('Update Fields › Stock Level: "1,000" is not a stock level (a whole number) (item 1)');
		expect(output[2].json).toEqual(expect.objectContaining({ success: true, id: 100003 }));
		expect(sandbox.count('productUpdate')).toBe(2);
		expect(sandbox.state.product(100003)?.stockLevel).toBe(7);
	});

	it('does not hold back the items of a later run of the node', async () => {
		const failed = await run(update, items);
		expect(failed.error).toBeDefined();

		const result = await run(update, [items[0], items[2]]);
		expect(result.error).toBeUndefined();
		expect(sandbox.count('productUpdate')).toBe(2);
	});
});

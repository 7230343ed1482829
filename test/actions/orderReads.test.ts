/**
 * The editor's lists of the Order and Shipment resources (actions/orderReads.ts) through n8n-core's
 * real LoadOptionsContext: the merchant's warehouses (Default Address first) and the status names.
 */
import { ORDER_STATUSES, SHIPMENT_ONLY_STATUSES } from '../../sandbox/order-statuses';
import { runListSearch, runLoadOptions } from '../harness';
import { NODE, NOW, credentials, sandbox, sandboxPerFile, sent } from './helpers';

sandboxPerFile({ now: NOW, seed: 35, orders: 0 });

describe('Order and Shipment lists in the editor', () => {
	it('lists the warehouses: Default Address (value empty, naming the current default) first, then each by name with its ID', async () => {
		const { result } = await runLoadOptions(NODE, 'getWarehouses', {
			credentials: credentials(),
			parameters: { resource: 'shipment', operation: 'getMany' },
		});
		const warehouses = sandbox.state.warehouses;
		const fallback = warehouses.find((warehouse) => warehouse.defaultAddress);
		expect(result[0]).toMatchObject({ value: '', name: `Default Address (now ${fallback?.warehouseName} (${fallback?.id}))` });
		expect(result.slice(1).map((option) => option.value).sort()).toEqual(warehouses.map((warehouse) => String(warehouse.id)).sort());
		expect(result.slice(1).every((option) => / \(\d+\)$/.test(String(option.name)))).toBe(true);
		expect(sent('warehouses')).toHaveLength(1);
	});

	it("lists every status name a shipment can have: the statuses endpoint's and the filter's packed ones, alphabetical", async () => {
		const { result } = await runLoadOptions(NODE, 'getOrderStatuses', {
			credentials: credentials(),
			parameters: { resource: 'shipment', operation: 'getMany' },
		});
		const expected = [...new Set([...ORDER_STATUSES, ...SHIPMENT_ONLY_STATUSES])].sort();
		expect(result).toEqual(expected.map((name) => ({ name, value: name })));
		expect(sent('orderStatuses')).toHaveLength(1);
	});

	it('a new node asking before n8n has set its credential gets Default Address alone (it works as it is, and says why the rest is missing), not an error; nothing is sent', async () => {
		// n8n-core without the credential on the node: "Node does not have any credentials set" (a 500 in the editor).
		const { result } = await runLoadOptions(NODE, 'getWarehouses', { parameters: { resource: 'order', operation: 'confirm' } });
		expect(result).toEqual([{ name: 'Default Address', value: '', description: expect.stringMatching(/once the node has its credential/) }]);
		const confirm = (await runLoadOptions(NODE, 'getConfirmWarehouses', { parameters: { resource: 'order', operation: 'confirm' } })).result;
		expect(confirm.map((option) => option.value)).toEqual(['asOrdered', '']);
		for (const method of ['getOrderStatuses', 'getProductTypes']) {
			expect((await runLoadOptions(NODE, method, { parameters: { resource: 'shipment', operation: 'getMany' } })).result).toEqual([]);
		}
		for (const method of ['searchProducts', 'searchDiscounts']) {
			expect((await runListSearch(NODE, method, { parameters: { resource: 'product', operation: 'update' } })).result).toEqual({ results: [] });
		}
		expect(sandbox.log).toHaveLength(0);

		// Once the credential is set (n8n asks again when the node's credentials change) the full list comes.
		const { result: full } = await runLoadOptions(NODE, 'getWarehouses', { credentials: credentials(), parameters: { resource: 'order', operation: 'confirm' } });
		expect(full.length).toBe(sandbox.state.warehouses.length + 1);
	});
});

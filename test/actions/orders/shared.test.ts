/**
 * The editor's lists of the Order and Shipment resources (actions/orders/shared.ts) through n8n-core's
 * real LoadOptionsContext: the merchant's warehouses (Default Address first) and the status names.
 */
import { ORDER_STATUSES, SHIPMENT_ONLY_STATUSES } from '../../../sandbox/order-statuses';
import { runLoadOptions } from '../../harness';
import { NODE, NOW, credentials, sandbox, sandboxPerFile, sent } from '../helpers';

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
});

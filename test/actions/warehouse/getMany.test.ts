/** Warehouse › Get Many through the real engine against the sandbox. */
import { NODE_UNDER_TEST_NAME, runNode } from '../../harness';
import { NODE, NOW, credentials, sandbox, sandboxPerFile } from '../helpers';

sandboxPerFile({ now: NOW, seed: 7 });

describe('Warehouse › Get Many', () => {
	it('outputs one item per warehouse, exactly one of them the default address', async () => {
		sandbox.clearLog();
		const result = await runNode(NODE, { resource: 'warehouse', operation: 'getMany' }, [{}], {
			credentials: credentials(),
		});

		expect(result.error).toBeUndefined();
		const warehouses = result.json(NODE_UNDER_TEST_NAME);
		const expected = sandbox.state.warehouses;
		expect(expected.length).toBeGreaterThan(1);
		expect(warehouses).toHaveLength(expected.length);
		expect(warehouses.map(({ id, warehouseName, defaultAddress }) => ({ id, warehouseName, defaultAddress }))).toEqual(
			expected.map(({ id, warehouseName, defaultAddress }) => ({ id, warehouseName, defaultAddress })),
		);
		expect(warehouses.filter((warehouse) => warehouse.defaultAddress === true)).toHaveLength(1);
		expect(sandbox.count('warehouses')).toBe(1);
	});

	it('reads a Base URL with spaces and trailing slashes as the node, trigger and credential do (one rule, credential.ts)', async () => {
		sandbox.clearLog();
		const result = await runNode(NODE, { resource: 'warehouse', operation: 'getMany' }, [{}], {
			credentials: { marketplaceMerchantApi: { baseUrl: ` ${sandbox.url}// `, ...sandbox.client } },
		});

		expect(result.error).toBeUndefined();
		expect(result.json(NODE_UNDER_TEST_NAME)).toHaveLength(sandbox.state.warehouses.length);
		// The same account as the plain Base URL: its token is reused.
		expect(sandbox.log.map((entry) => [entry.route, entry.status])).toEqual([['warehouses', 200]]);
	});

	it('lists the warehouses once per input item', async () => {
		sandbox.clearLog();
		const result = await runNode(NODE, { resource: 'warehouse', operation: 'getMany' }, [{}, {}], {
			credentials: credentials(),
		});

		expect(result.json(NODE_UNDER_TEST_NAME)).toHaveLength(2 * sandbox.state.warehouses.length);
		expect(sandbox.count('warehouses')).toBe(2);
	});
});

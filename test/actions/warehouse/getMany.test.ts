/** Warehouse › Get Many through the real engine against the sandbox. */
import { NODE_UNDER_TEST_NAME, runNode, sandboxCredential } from '../../harness';
import { CREDENTIAL_TYPE, NODE, NOW, credentials, sandbox, sandboxPerFile, sandboxPerTest } from '../helpers';

sandboxPerFile({ now: NOW, seed: 7 });

const GET_MANY = { resource: 'warehouse', operation: 'getMany' };

/** The sandbox's credential with the environment's service host filled in. */
function withServiceHost(serviceUrl = sandbox.serviceUrl) {
	return { [CREDENTIAL_TYPE]: sandboxCredential(sandbox, { serviceUrl }) };
}

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

	it('reads a Base URL with spaces and trailing slashes as the node, trigger and credential do (one rule, transport/hosts.ts normalizeBaseUrl)', async () => {
		sandbox.clearLog();
		const result = await runNode(NODE, { resource: 'warehouse', operation: 'getMany' }, [{}], {
			credentials: { marketplaceMerchantApi: { baseUrl: ` ${sandbox.url}// `, ...sandbox.client } },
		});

		expect(result.error).toBeUndefined();
		expect(result.json(NODE_UNDER_TEST_NAME)).toHaveLength(sandbox.state.warehouses.length);
		// The same account as the plain Base URL: its token is reused.
		expect(sandbox.log.map((entry) => [entry.route, entry.status])).toEqual([['warehouses', 200]]);
	});

	it.each([
		['the documentation\'s table spells it (defaultAddres)', { warehouseDefaultKey: 'defaultAddres' as const }],
		['with a trailing space, as a live answer does', { keySpellings: true }],
	])('reads the default flag as %s: the default shows, under defaultAddress', async (_, variants) => {
		sandbox.setVariants(variants);
		try {
			const result = await runNode(NODE, GET_MANY, [{}], { credentials: credentials() });

			expect(result.error).toBeUndefined();
			const warehouses = result.json(NODE_UNDER_TEST_NAME);
			expect(warehouses.map(({ id, defaultAddress }) => ({ id, defaultAddress }))).toEqual(
				sandbox.state.warehouses.map(({ id, defaultAddress }) => ({ id, defaultAddress })),
			);
			expect(warehouses.every((warehouse) => !('defaultAddres' in warehouse))).toBe(true);
		} finally {
			sandbox.resetVariants();
		}
	});

	it('lists the warehouses once per input item', async () => {
		sandbox.clearLog();
		const result = await runNode(NODE, { resource: 'warehouse', operation: 'getMany' }, [{}, {}], {
			credentials: credentials(),
		});

		expect(result.json(NODE_UNDER_TEST_NAME)).toHaveLength(2 * sandbox.state.warehouses.length);
		expect(sandbox.count('warehouses')).toBe(2);
	});

	describe("on the environment's service host (credential › Service Host URL)", () => {
		afterEach(() => sandbox.resetVariants());

		it('asks the service host when the credential names one, with the token from the Base URL', async () => {
			sandbox.setVariants({ warehousesAndPricesOn: 'service' });

			const result = await runNode(NODE, GET_MANY, [{}, {}], { credentials: withServiceHost(` ${sandbox.serviceUrl}/`) });

			expect(result.error).toBeUndefined();
			expect(result.json(NODE_UNDER_TEST_NAME).map(({ id }) => id)).toEqual(
				[...sandbox.state.warehouses, ...sandbox.state.warehouses].map(({ id }) => id),
			);
			expect(sandbox.log.filter((entry) => entry.route !== 'token').map(({ route, status, host }) => [route, status, host])).toEqual([
				['warehouses', 200, 'service'],
				['warehouses', 200, 'service'],
			]);
			expect(sandbox.log.filter((entry) => entry.route === 'token').every((entry) => entry.host === undefined)).toBe(true);
		});

		it('without a service host, says the Base URL does not serve warehouses and what to enter, without the secret', async () => {
			sandbox.setVariants({ warehousesAndPricesOn: 'service' });

			const result = await runNode(NODE, GET_MANY, [{}], { credentials: credentials() });

			expect(result.error?.message).toBe(
				"The Base URL does not serve warehouses (HTTP 404): enter the environment's service host in the credential's Service Host URL",
			);
			expect(result.error?.description).toMatch(/host name with a "svc" label/);
			expect(JSON.stringify(result.run)).not.toContain(sandbox.client.clientSecret);
			// Asked once, at the Base URL only: no host is guessed.
			expect(sandbox.log.filter((entry) => entry.route === 'warehouses').map(({ status, host }) => [status, host])).toEqual([[404, undefined]]);
		});

		it('says when the Service Host URL does not serve warehouses', async () => {
			// As the reference: warehouses on the main host only.
			const result = await runNode(NODE, GET_MANY, [{}], { credentials: withServiceHost() });

			expect(result.error?.message).toBe("The Service Host URL does not serve warehouses (HTTP 404): check the credential's Service Host URL");
			expect(sandbox.log.filter((entry) => entry.route === 'warehouses').map(({ status, host }) => [status, host])).toEqual([[404, 'service']]);
		});

		it('keeps working with a credential saved before the field existed, wherever both hosts serve them', async () => {
			sandbox.setVariants({ warehousesAndPricesOn: 'both' });

			const old = await runNode(NODE, GET_MANY, [{}], { credentials: credentials() });
			const withHost = await runNode(NODE, GET_MANY, [{}], { credentials: withServiceHost() });

			expect(old.json(NODE_UNDER_TEST_NAME)).toHaveLength(sandbox.state.warehouses.length);
			expect(withHost.json(NODE_UNDER_TEST_NAME)).toHaveLength(sandbox.state.warehouses.length);
			expect(sandbox.log.filter((entry) => entry.route === 'warehouses').map(({ status, host }) => [status, host])).toEqual([
				[200, undefined],
				[200, 'service'],
			]);
		});
	});

	describe('pacing', () => {
		const limited = sandboxPerTest(() => ({ now: NOW, seed: 7, rateLimits: { scale: 1 } }));

		it('one budget for both hosts: warehouses on the service host and invoices on the Base URL share the orders group’s 5 a second', async () => {
			const own = await limited();
			own.setVariants({ warehousesAndPricesOn: 'service' });
			const inputs = Array.from({ length: 10 }, () => ({}));
			const account = { [CREDENTIAL_TYPE]: sandboxCredential(own, { serviceUrl: own.serviceUrl }) };

			const [warehouses, invoices] = await Promise.all([
				runNode(NODE, GET_MANY, inputs, { credentials: account }),
				runNode(NODE, { resource: 'invoice', operation: 'getMany', dateFrom: '2025-06-01T00:00:00', dateTo: '2025-06-10T00:00:00' }, inputs, {
					credentials: account,
				}),
			]);

			expect(warehouses.error).toBeUndefined();
			expect(invoices.error).toBeUndefined();
			const orders = own.log.filter((entry) => entry.route === 'warehouses' || entry.route === 'invoices');
			const answered = orders.filter((entry) => entry.status === 200);
			expect(answered.filter((entry) => entry.host === 'service')).toHaveLength(10);
			expect(answered).toHaveLength(20);
			// The sandbox counts both hosts against the client's one limit: a gate per host sends 20 in
			// two seconds against 5 a second (tried: five 429s). One is allowed for arrival jitter:
			// sandbox and node share this jest worker, and a stall of it (the other worker, a loaded
			// machine) hands the sandbox requests the gate had spaced as if they arrived together.
			expect(orders.filter((entry) => entry.status === 429).length).toBeLessThanOrEqual(1);
			expect(orders.filter((entry) => entry.status !== 200 && entry.status !== 429)).toEqual([]);
		}, 30_000);
	});
});

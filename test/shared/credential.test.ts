/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code, run by jest and never loaded by n8n: it may use process and timers (docs/architecture.md, Toolchain). */
/**
 * Tokens through the real engine: the token request retried on 503/429/reset, a rejected token
 * never handed out again, two n8n workers (each with its own copy of the credential code and
 * so its own token cache, sharing one credential store as queue mode shares its database)
 * renewing at once against a service that keeps only the newest token valid; and n8n's resend
 * after refresh (n8n-core's real `requestWithAuthentication`, the HTTP Request node's helper) kept
 * to the failures a new token cures.
 */
import type { ICredentialType } from 'n8n-workflow';

import { startSandbox, type Sandbox, type SandboxClient } from '../../sandbox';
import { NODE_UNDER_TEST_NAME, TEST_HTTP_REQUEST_NODE_TYPE, TestCredentialTypes, TestCredentialsHelper, runNode, sandboxCredential } from '../harness';

const CREDENTIAL_TYPE = 'marketplaceMerchantApi';
const NODE_TYPE = 'marketplaceMerchant';
const LIST_WAREHOUSES = { resource: 'warehouse', operation: 'getMany' };

let clientCounter = 0;
function uniqueClient(): SandboxClient {
	clientCounter += 1;
	return { clientId: `tokens-test-client-${clientCounter}`, clientSecret: `tokens-test-secret-${clientCounter}-${Date.now()}` };
}

/** The credential type from a fresh copy of its module: a second process's own token cache. */
async function credentialTypesOfAnotherProcess(): Promise<TestCredentialTypes> {
	let types: TestCredentialTypes | undefined;
	await jest.isolateModulesAsync(async () => {
		const { MarketplaceMerchantApi } = await import('../../credentials/MarketplaceMerchantApi.credentials');
		types = new TestCredentialTypes([new MarketplaceMerchantApi() as ICredentialType]);
	});
	if (!types) throw new Error('credential module not loaded');
	return types;
}

describe('tokens', () => {
	let sandbox: Sandbox;

	async function start() {
		sandbox = await startSandbox({ port: 0, rateLimits: false, clients: [uniqueClient()] });
	}

	afterEach(async () => {
		await sandbox?.close();
	});

	async function listWarehouses(credentialsHelper: TestCredentialsHelper) {
		return await runNode(NODE_TYPE, LIST_WAREHOUSES, [{}], { credentialsHelper });
	}

	function storedCredential() {
		const credentialsHelper = new TestCredentialsHelper();
		credentialsHelper.add(CREDENTIAL_TYPE, sandboxCredential(sandbox));
		return credentialsHelper;
	}

	function tokenStatuses(): number[] {
		return sandbox.log.filter((entry) => entry.route === 'token').map((entry) => entry.status);
	}

	describe('the token request is sent again when the token endpoint', () => {
		it('answers 503 once', async () => {
			await start();
			sandbox.injectFault({ route: 'token', status: 503, count: 1 });

			const result = await listWarehouses(storedCredential());

			expect(result.error).toBeUndefined();
			expect(result.json(NODE_UNDER_TEST_NAME).length).toBeGreaterThan(0);
			expect(tokenStatuses()).toEqual([503, 200]);
		});

		it('answers 429 once, waiting as Retry-After asks', async () => {
			await start();
			sandbox.injectFault({ route: 'token', status: 429, count: 1, retryAfterSeconds: 1.5 });

			const result = await listWarehouses(storedCredential());

			expect(result.error).toBeUndefined();
			expect(tokenStatuses()).toEqual([429, 200]);
			const [rejected, accepted] = sandbox.log.filter((entry) => entry.route === 'token');
			expect(accepted.at - rejected.at).toBeGreaterThanOrEqual(1_400);
		});

		it('resets the connection once', async () => {
			await start();
			sandbox.injectFault({ route: 'token', body: 'reset', count: 1 });

			const result = await listWarehouses(storedCredential());

			expect(result.error).toBeUndefined();
			expect(tokenStatuses()).toEqual([0, 200]);
		});
	});

	it('reports a 4xx of the token endpoint at once', async () => {
		await start();
		sandbox.injectFault({ route: 'token', status: 400, count: 5 });

		const result = await listWarehouses(storedCredential());

		expect(result.error?.message).toBe('The token request failed (HTTP 400)');
		expect(tokenStatuses()).toEqual([400]);
	});

	it('never hands out a token that was rejected, even when the rejected one came from another worker', async () => {
		await start();
		const workerA = storedCredential();
		const workerB = workerA.otherWorker(await credentialTypesOfAnotherProcess());
		// Both workers have a token in their cache; the store holds B's, the newer one.
		expect((await listWarehouses(workerA)).error).toBeUndefined();
		const tokenA = workerA.storedData(CREDENTIAL_TYPE).accessToken;
		sandbox.expireAllTokens();
		expect((await listWarehouses(workerB)).error).toBeUndefined();
		const tokenB = workerB.storedData(CREDENTIAL_TYPE).accessToken;
		expect(tokenB).not.toBe(tokenA);

		// The service drops every token. Worker A reads B's token from the store, gets 401, and
		// its own cache still holds tokenA, a different token it has not seen rejected.
		sandbox.expireAllTokens();
		sandbox.clearLog();
		const result = await runNode(NODE_TYPE, LIST_WAREHOUSES, [{}, {}, {}], { credentialsHelper: workerA });

		expect(result.error).toBeUndefined();
		expect(result.json(NODE_UNDER_TEST_NAME).length).toBe(3 * sandbox.state.warehouses.length);
		const finalToken = workerA.storedData(CREDENTIAL_TYPE).accessToken;
		expect([tokenA, tokenB]).not.toContain(finalToken);
	});

	it('two workers renewing at once both end with a working token when only the newest token is valid', async () => {
		await start();
		// Some latency, so that the two workers' renewals and requests interleave.
		sandbox.setVariants({ onlyNewestTokenValid: true, latency: { fixedMs: 15, perKiBMs: 0 } });
		const workerA = storedCredential();
		const workerB = workerA.otherWorker(await credentialTypesOfAnotherProcess());
		expect((await listWarehouses(workerA)).error).toBeUndefined();
		expect((await listWarehouses(workerB)).error).toBeUndefined();

		const failures: string[] = [];
		for (let round = 0; round < 5; round++) {
			sandbox.expireAllTokens();
			const runs = await Promise.all(
				Array.from({ length: 10 }, async (_, index) => await listWarehouses(index % 2 === 0 ? workerA : workerB)),
			);
			for (const run of runs) if (run.error) failures.push(`round ${round + 1}: ${run.error.message}`);
		}

		expect(failures).toEqual([]);
		// Renewals stay bounded: at most a few per worker and round, never one per request.
		expect(sandbox.count('token')).toBeLessThanOrEqual(2 + 5 * 2 * 3);
	});

	describe("n8n's resend after refresh, as the HTTP Request node meets it (requestWithAuthentication)", () => {
		/** A shipment ready to pack: a new order confirmed in full from the default warehouse. */
		function shipmentToPack() {
			const [order] = sandbox.addOrders(1);
			const shipment = sandbox.advanceShipment(`${order.id}-DS-1`);
			expect(shipment.status).toBe('CONFIRMED');
			return shipment;
		}

		/** The pack request a merchant builds in an HTTP Request node with the package's credential: one item per suborder. */
		async function packWithHttpRequest(credentialsHelper: TestCredentialsHelper, ...suborderIds: string[]) {
			const items = suborderIds.map((suborderId) => ({
				suborderId,
				body: {
					numberOfBoxes: 1,
					products: sandbox.state.shipment(suborderId)?.lines.map((line) => ({ id: line.merchantInventoryId, quantity: line.confirmedQuantity })),
				},
			}));
			const parameters = {
				method: 'POST',
				path: '=/order/api/v1/merchant-integration/outbound-orders/{{ $json.suborderId }}/pack',
				body: '={{ JSON.stringify($json.body) }}',
			};
			return await runNode(TEST_HTTP_REQUEST_NODE_TYPE, parameters, items, { credentialsHelper });
		}

		const log = () => sandbox.log.map((entry) => `${entry.route} ${entry.status}`);

		it('a pack answered 503 after it was applied is not sent again: the token still works, so n8n gets no new one and surfaces the 503', async () => {
			await start();
			const credentialsHelper = storedCredential();
			const { suborderId } = shipmentToPack();
			sandbox.injectFault({ route: 'shipmentPack', count: 1, applyThen: true });

			const result = await packWithHttpRequest(credentialsHelper, suborderId);

			// Before: n8n asked for a new token after the 503 and resent the pack (the service refused the second, 400).
			expect(log()).toEqual(['token 200', 'shipmentPack 503', 'warehouses 200']);
			expect(sandbox.log.find((entry) => entry.route === 'shipmentPack')).toEqual(expect.objectContaining({ appliedStatus: 204 }));
			expect(result.error).toEqual(expect.objectContaining({ httpCode: '503' }));
			expect(sandbox.state.shipment(suborderId)?.packedDate).not.toBeNull();
		});

		it('three packs answered 503 at once after they were applied: one probe for the three, none sent again', async () => {
			await start();
			const credentialsHelper = storedCredential();
			const suborderIds = [shipmentToPack(), shipmentToPack(), shipmentToPack()].map((shipment) => shipment.suborderId);
			sandbox.injectFault({ route: 'shipmentPack', count: 3, applyThen: true });

			const result = await packWithHttpRequest(credentialsHelper, ...suborderIds);

			expect(result.error).toEqual(expect.objectContaining({ httpCode: '503' }));
			expect(log()).toEqual(['token 200', 'shipmentPack 503', 'shipmentPack 503', 'shipmentPack 503', 'warehouses 200']);
			for (const suborderId of suborderIds) expect(sandbox.state.shipment(suborderId)?.packedDate).not.toBeNull();
		});

		it('a 401 still gets a new token and the pack sent once more (the probe of the old token is rejected too)', async () => {
			await start();
			const credentialsHelper = storedCredential();
			const first = shipmentToPack();
			expect((await packWithHttpRequest(credentialsHelper, first.suborderId)).error).toBeUndefined();
			const { suborderId } = shipmentToPack();
			sandbox.expireAllTokens();
			sandbox.clearLog();

			const result = await packWithHttpRequest(credentialsHelper, suborderId);

			expect(result.error).toBeUndefined();
			expect(result.json(NODE_UNDER_TEST_NAME)).toEqual([expect.objectContaining({ statusCode: 204 })]);
			expect(log()).toEqual(['shipmentPack 401', 'warehouses 401', 'token 200', 'shipmentPack 204']);
			expect(sandbox.state.shipment(suborderId)?.packedDate).not.toBeNull();
		});

		it('a token this process knows has lapsed is renewed without a probe', async () => {
			sandbox = await startSandbox({ port: 0, rateLimits: false, clients: [uniqueClient()], tokenLifetimeSeconds: 1 });
			const credentialsHelper = storedCredential();
			const first = shipmentToPack();
			expect((await packWithHttpRequest(credentialsHelper, first.suborderId)).error).toBeUndefined();
			const { suborderId } = shipmentToPack();
			await new Promise((resolve) => setTimeout(resolve, 1_100));
			sandbox.clearLog();

			const result = await packWithHttpRequest(credentialsHelper, suborderId);

			expect(result.error).toBeUndefined();
			expect(log()).toEqual(['shipmentPack 401', 'token 200', 'shipmentPack 204']);
		});

		it("the package's own nodes renew after a 401 without a probe: n8n calls them back only after a 401", async () => {
			await start();
			const credentialsHelper = storedCredential();
			expect((await listWarehouses(credentialsHelper)).error).toBeUndefined();
			sandbox.expireAllTokens();
			sandbox.clearLog();

			expect((await listWarehouses(credentialsHelper)).error).toBeUndefined();

			expect(log()).toEqual(['warehouses 401', 'token 200', 'warehouses 200']);
		});
	});
});

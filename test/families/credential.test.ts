/**
 * Tokens through the real engine: the token request retried on 503/429/reset, a rejected token
 * never handed out again, and two n8n workers (each with its own copy of the credential code and
 * so its own token cache, sharing one credential store as queue mode shares its database)
 * renewing at once against a service that keeps only the newest token valid.
 */
import type { ICredentialType } from 'n8n-workflow';

import { startSandbox, type Sandbox, type SandboxClient } from '../../sandbox';
import { NODE_UNDER_TEST_NAME, TestCredentialTypes, TestCredentialsHelper, runNode, sandboxCredential } from '../harness';

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
});

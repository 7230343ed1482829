/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-hardcoded-secrets -- test code, run by jest and never loaded by n8n: it may use process and timers, Node modules, fixed test keys of the sandbox (docs/architecture.md, Toolchain). */
import { Logger } from '@n8n/backend-common';
import { createServer } from 'node:net';
import { inspect } from 'node:util';

import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { startSandbox } from '../sandbox';
import type { Sandbox, SandboxClient } from '../sandbox';
import {
	TEST_WAREHOUSES_NODE_TYPE,
	TestCredentialsHelper,
	runNode,
	sandboxCredential,
	testCredential,
} from './harness';

const CREDENTIAL_TYPE = 'marketplaceMerchantApi';
const LIST_WAREHOUSES = { operation: 'list' };

let clientCounter = 0;

/**
 * A client of its own for every test: the credential shares tokens across executions for the
 * same base URL and client, so tests must not see each other's tokens.
 */
function uniqueClient(overrides: Partial<SandboxClient> = {}): SandboxClient {
	clientCounter += 1;
	return {
		clientId: `credential-test-client-${clientCounter}`,
		clientSecret: `credential-test-secret-${clientCounter}-${Math.random().toString(36).slice(2)}`,
		...overrides,
	};
}

function credentialFor(sandbox: Sandbox, overrides: ICredentialDataDecryptedObject = {}) {
	return sandboxCredential(sandbox, overrides);
}

function items(count: number) {
	return Array.from({ length: count }, (_, index) => ({ index }));
}

async function closedPort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as { port: number };
	await new Promise<void>((resolve) => server.close(() => resolve()));
	return port;
}

/** Collects every message, with its metadata, that n8n's logger receives until stopped. */
function captureLogs() {
	const entries: string[] = [];
	const spy = jest
		.spyOn(Logger.prototype as unknown as { log: (...args: unknown[]) => void }, 'log')
		.mockImplementation((...args: unknown[]) => {
			entries.push(inspect(args, { depth: 8 }));
		});
	return {
		text: () => entries.join('\n'),
		stop: () => spy.mockRestore(),
	};
}

async function waitMs(ms: number): Promise<void> {
	await new Promise((resolve) => setTimeout(resolve, ms));
}

describe('Marketplace Merchant API credential, through the real engine', () => {
	let sandbox: Sandbox;

	async function start(options: { tokenLifetimeSeconds?: number; client?: Partial<SandboxClient> } = {}) {
		sandbox = await startSandbox({
			port: 0,
			rateLimits: false,
			tokenLifetimeSeconds: options.tokenLifetimeSeconds,
			clients: [uniqueClient(options.client)],
		});
	}

	afterEach(async () => {
		await sandbox?.close();
	});

	it('fetches a token once and reuses it for later requests', async () => {
		await start();
		const credentialsHelper = new TestCredentialsHelper();
		credentialsHelper.add(CREDENTIAL_TYPE, credentialFor(sandbox));

		for (let run = 0; run < 3; run++) {
			const result = await runNode(TEST_WAREHOUSES_NODE_TYPE, LIST_WAREHOUSES, items(1), { credentialsHelper });
			expect(result.error).toBeUndefined();
			expect(result.json('Node').length).toBeGreaterThan(0);
			expect(result.json('Node')[0]).toEqual(expect.objectContaining({ warehouseName: expect.any(String) }));
		}

		expect(sandbox.count('token')).toBe(1);
		expect(sandbox.log.filter((entry) => entry.route === 'warehouses').map((entry) => entry.status)).toEqual([
			200, 200, 200,
		]);
		// The token was saved with the credential, so later runs did not even ask for a new one.
		expect(credentialsHelper.calls.preAuthenticationRuns).toBe(1);
		expect(credentialsHelper.storedData(CREDENTIAL_TYPE).accessToken).toMatch(/.+/);
	});

	it('replaces an expired token with exactly one new token request', async () => {
		await start({ tokenLifetimeSeconds: 1 });
		const credentialsHelper = new TestCredentialsHelper();
		credentialsHelper.add(CREDENTIAL_TYPE, credentialFor(sandbox));

		const first = await runNode(TEST_WAREHOUSES_NODE_TYPE, LIST_WAREHOUSES, items(1), { credentialsHelper });
		expect(first.error).toBeUndefined();
		const firstToken = credentialsHelper.storedData(CREDENTIAL_TYPE).accessToken;
		expect(sandbox.count('token')).toBe(1);

		await waitMs(1_300);
		sandbox.clearLog();
		// Several items get the 401 at once; they must still share one new token.
		const second = await runNode(TEST_WAREHOUSES_NODE_TYPE, LIST_WAREHOUSES, items(10), { credentialsHelper });

		expect(second.error).toBeUndefined();
		expect(second.json('Node').length).toBeGreaterThanOrEqual(10);
		expect(sandbox.count('token')).toBe(1);
		const warehouseStatuses = sandbox.log.filter((entry) => entry.route === 'warehouses').map((entry) => entry.status);
		expect(warehouseStatuses.filter((status) => status === 401)).toHaveLength(10);
		expect(warehouseStatuses.filter((status) => status === 200)).toHaveLength(10);
		const secondToken = credentialsHelper.storedData(CREDENTIAL_TYPE).accessToken;
		expect(secondToken).toMatch(/.+/);
		expect(secondToken).not.toBe(firstToken);
	});

	it('replaces a token the service revoked before its expiry time', async () => {
		await start();
		const credentialsHelper = new TestCredentialsHelper();
		credentialsHelper.add(CREDENTIAL_TYPE, credentialFor(sandbox));
		await runNode(TEST_WAREHOUSES_NODE_TYPE, LIST_WAREHOUSES, items(1), { credentialsHelper });

		sandbox.expireAllTokens();
		const result = await runNode(TEST_WAREHOUSES_NODE_TYPE, LIST_WAREHOUSES, items(5), { credentialsHelper });

		expect(result.error).toBeUndefined();
		expect(sandbox.count('token')).toBe(2);
	});

	it('makes one token request for 50 items that start without a token', async () => {
		await start();

		const result = await runNode(TEST_WAREHOUSES_NODE_TYPE, LIST_WAREHOUSES, items(50), {
			credentials: { [CREDENTIAL_TYPE]: credentialFor(sandbox) },
		});

		expect(result.error).toBeUndefined();
		expect(sandbox.count('token')).toBe(1);
		expect(sandbox.log.filter((entry) => entry.route === 'warehouses' && entry.status === 200)).toHaveLength(50);
		// All 50 requests did find the stored token empty and asked for one.
		expect(result.credentialsHelper.calls.preAuthenticationRuns).toBe(50);
	});

	it('accepts a base URL with a trailing slash', async () => {
		await start();

		const result = await runNode(TEST_WAREHOUSES_NODE_TYPE, LIST_WAREHOUSES, items(1), {
			credentials: { [CREDENTIAL_TYPE]: credentialFor(sandbox, { baseUrl: `${sandbox.url}/` }) },
		});

		expect(result.error).toBeUndefined();
		expect(sandbox.log.map((entry) => [entry.route, entry.status])).toEqual([
			['token', 200],
			['warehouses', 200],
		]);
	});

	it('sends the API key on the token request when one is filled in', async () => {
		await start({ client: { apiKey: 'sandbox-api-key-value' } });

		const withKey = await runNode(TEST_WAREHOUSES_NODE_TYPE, LIST_WAREHOUSES, items(1), {
			credentials: { [CREDENTIAL_TYPE]: credentialFor(sandbox) },
		});
		expect(withKey.error).toBeUndefined();

		const withoutKey = await runNode(TEST_WAREHOUSES_NODE_TYPE, LIST_WAREHOUSES, items(1), {
			credentials: { [CREDENTIAL_TYPE]: credentialFor(sandbox, { apiKey: '' }) },
		});
		expect(withoutKey.error?.message).toMatch(/HTTP 401 from the token endpoint/);
		expect(sandbox.log.filter((entry) => entry.route === 'token').map((entry) => entry.status)).toEqual([200, 401]);
	});

	it('fails with a clear error that does not reveal the secret when the secret is wrong', async () => {
		await start();
		const wrongSecret = `wrong-secret-${Math.random().toString(36).slice(2)}`;
		const apiKey = `api-key-${Math.random().toString(36).slice(2)}`;

		const logged = captureLogs();
		const result = await runNode(TEST_WAREHOUSES_NODE_TYPE, LIST_WAREHOUSES, items(3), {
			credentials: { [CREDENTIAL_TYPE]: credentialFor(sandbox, { clientSecret: wrongSecret, apiKey }) },
		}).finally(logged.stop);

		const error = result.error;
		expect(error).toBeDefined();
		expect(error?.message).toBe(
			'Authentication failed: the client ID or client secret was rejected (HTTP 401 from the token endpoint)',
		);
		expect(error?.description).toMatch(/Invalid client credentials/);
		const everythingShown = [
			error?.message,
			error?.description,
			error?.stack,
			JSON.stringify(error),
			JSON.stringify(result.run),
		].join('\n');
		expect(everythingShown).not.toContain(wrongSecret);
		expect(everythingShown).not.toContain(apiKey);
		// n8n's error reporter logs the failure; the logs must not carry the secrets either.
		expect(logged.text()).toContain('client ID or client secret was rejected');
		expect(logged.text()).not.toContain(wrongSecret);
		expect(logged.text()).not.toContain(apiKey);
		// The three items shared the one failing token request.
		expect(sandbox.count('token')).toBe(1);
		expect(sandbox.count('warehouses')).toBe(0);
	});

	it("says what to check in the same words wherever the service refuses the credential: the token endpoint's 401, an operation's 403", async () => {
		await start();
		const wrong = await runNode(TEST_WAREHOUSES_NODE_TYPE, LIST_WAREHOUSES, items(1), {
			credentials: { [CREDENTIAL_TYPE]: credentialFor(sandbox, { clientSecret: 'not-the-secret' }) },
		});
		sandbox.injectFault({ route: 'warehouses', status: 403, count: 1 });
		const forbidden = await runNode('marketplaceMerchant', { resource: 'warehouse', operation: 'getMany' }, items(1), {
			credentials: { [CREDENTIAL_TYPE]: credentialFor(sandbox) },
		});

		expect(wrong.error?.description).toMatch(/Check the Client ID and Client Secret, and that they belong to the environment of the Base URL/);
		expect(forbidden.error?.message).toMatch(/403|forbidden/i);
		expect(forbidden.error?.description).toMatch(/check the API Key and the client's permissions in the merchant portal\.$/);
	});

	it('reports the failure per item with "continue on fail"', async () => {
		await start();
		const wrongSecret = `wrong-secret-${Math.random().toString(36).slice(2)}`;

		const result = await runNode(TEST_WAREHOUSES_NODE_TYPE, LIST_WAREHOUSES, items(2), {
			credentials: { [CREDENTIAL_TYPE]: credentialFor(sandbox, { clientSecret: wrongSecret }) },
			node: { onError: 'continueRegularOutput' },
		});

		expect(result.error).toBeUndefined();
		const { itemErrors } = result.nodes.Node;
		expect(itemErrors).toHaveLength(2);
		for (const { error } of itemErrors) {
			expect(error.message).toMatch(/client ID or client secret was rejected/);
		}
		expect(result.json('Node')).toEqual([
			{ error: expect.stringMatching(/client ID or client secret was rejected/) },
			{ error: expect.stringMatching(/client ID or client secret was rejected/) },
		]);
		expect(JSON.stringify(result.run)).not.toContain(wrongSecret);
	});

	describe('credential test button', () => {
		it('passes with good data', async () => {
			await start();

			await expect(testCredential(credentialFor(sandbox))).resolves.toEqual({
				status: 'OK',
				message: 'Connection successful!',
			});
			expect(sandbox.count('token')).toBe(1);
			expect(sandbox.count('warehouses')).toBe(1);
		});

		it('reports a wrong secret, even when an older token is stored', async () => {
			await start();
			const wrongSecret = `wrong-secret-${Math.random().toString(36).slice(2)}`;

			const result = await testCredential(
				credentialFor(sandbox, { clientSecret: wrongSecret, accessToken: 'token-from-before' }),
			);

			expect(result.status).toBe('Error');
			expect(result.message).toBe(
				'Authentication failed: the client ID or client secret was rejected (HTTP 401 from the token endpoint)',
			);
			expect(result.message).not.toContain(wrongSecret);
			expect(sandbox.count('warehouses')).toBe(0);
		});

		it('reports a base URL that points to the wrong place', async () => {
			await start();

			const result = await testCredential(credentialFor(sandbox, { baseUrl: `${sandbox.url}/wrong-prefix` }));

			expect(result).toEqual({
				status: 'Error',
				message: 'Token endpoint not found (HTTP 404): check the Base URL',
			});
		});

		it('waits out a 429 from the API as every request does, then passes', async () => {
			await start();
			sandbox.injectFault({ route: 'warehouses', status: 429, retryAfterSeconds: 0.2, count: 1 });

			await expect(testCredential(credentialFor(sandbox))).resolves.toEqual({ status: 'OK', message: 'Connection successful!' });
			expect(sandbox.log.filter((entry) => entry.route === 'warehouses').map((entry) => entry.status)).toEqual([429, 200]);
		});

		it('reports a client the API refuses, and a Base URL that answers with a web page', async () => {
			await start();
			sandbox.injectFault({ route: 'warehouses', status: 403, count: 1 });
			await expect(testCredential(credentialFor(sandbox))).resolves.toEqual({
				status: 'Error',
				message: 'The client has no permission for the merchant API (HTTP 403)',
			});

			sandbox.injectFault({ route: 'warehouses', status: 200, body: 'html', count: 1 });
			await expect(testCredential(credentialFor(sandbox))).resolves.toEqual({
				status: 'Error',
				message: 'The Base URL answered HTTP 200, but not as the merchant API (no JSON): check the Base URL',
			});
		});

		it('keeps the secrets and the token out of what it reports, whatever the API echoes', async () => {
			await start({ client: { apiKey: 'the-api-key-1234' } });
			sandbox.injectFault({ route: 'warehouses', body: 'echo-credentials', count: 1 });

			const result = await testCredential(credentialFor(sandbox, { apiKey: 'the-api-key-1234' }));

			expect(result.status).toBe('Error');
			expect(result.message).toMatch(/^The merchant API answered HTTP 400: Request rejected. Authorization: Bearer \*\*\*;/);
			expect(result.message).not.toContain(sandbox.client.clientSecret);
			expect(result.message).not.toContain('the-api-key-1234');
			expect(result.message).not.toMatch(/Bearer (?!\*\*\*)/);
		});

		describe('the service host (warehouses on the environment\'s second host)', () => {
			const WAREHOUSES_PATH = 'order/api/v1/merchant-integration/merchant-warehouses';

			it('lists the warehouses on the Service Host URL, with the token from the Base URL', async () => {
				await start();
				sandbox.setVariants({ warehousesAndPricesOn: 'service' });

				await expect(testCredential(credentialFor(sandbox, { serviceUrl: `${sandbox.serviceUrl}/ ` }))).resolves.toEqual({
					status: 'OK',
					message: 'Connection successful!',
				});
				expect(sandbox.log.map(({ route, status, host }) => [route, status, host])).toEqual([
					['token', 200, undefined],
					['warehouses', 200, 'service'],
				]);
			});

			it('names the cause and the field to fill in when the Base URL does not serve warehouses (404, or 500 "No static resource")', async () => {
				await start();
				sandbox.setVariants({ warehousesAndPricesOn: 'service' });
				const secret = sandbox.client.clientSecret;

				const notFound = await testCredential(credentialFor(sandbox));
				sandbox.setVariants({ warehousesAndPricesOn: 'main' });
				sandbox.injectFault({ route: 'warehouses', status: 500, message: `No static resource ${WAREHOUSES_PATH}.`, count: 1 });
				const serverError = await testCredential(credentialFor(sandbox));

				const advice = "enter the environment's service host in the credential's Service Host URL";
				expect(notFound).toEqual({ status: 'Error', message: `The Base URL does not serve warehouses (HTTP 404): ${advice}` });
				expect(serverError).toEqual({ status: 'Error', message: `The Base URL does not serve warehouses (HTTP 500): ${advice}` });
				expect(`${notFound.message}${serverError.message}`).not.toContain(secret);
				// One request each: nothing retried, no host guessed.
				expect(sandbox.log.filter((entry) => entry.route === 'warehouses').map(({ status, host }) => [status, host])).toEqual([
					[404, undefined],
					[500, undefined],
				]);
			});

			it('says when the Service Host URL does not serve warehouses, or cannot be reached', async () => {
				await start();
				// As the reference: warehouses on the main host, none on the service host.
				const wrongHost = await testCredential(credentialFor(sandbox, { serviceUrl: sandbox.serviceUrl }));
				const port = await closedPort();
				const unreachable = await testCredential(credentialFor(sandbox, { serviceUrl: `http://127.0.0.1:${port}` }));

				expect(wrongHost).toEqual({
					status: 'Error',
					message: "The Service Host URL does not serve warehouses (HTTP 404): check the credential's Service Host URL",
				});
				expect(unreachable).toEqual({ status: 'Error', message: 'Could not reach the marketplace API: the connection was refused' });
			});
		});

		it('reports a host that cannot be reached', async () => {
			await start();
			const port = await closedPort();

			const result = await testCredential(credentialFor(sandbox, { baseUrl: `http://127.0.0.1:${port}` }));

			expect(result).toEqual({
				status: 'Error',
				message: 'Could not reach the marketplace API: the connection was refused',
			});
		});
	});
});

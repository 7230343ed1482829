/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-hardcoded-secrets -- test code, run by jest and never loaded by n8n: it may use Node modules, fixed test keys of the sandbox (docs/architecture.md, Toolchain). */
/**
 * No secret in any error: the service echoes the request's Authorization header, its X-API-Key
 * and the token request's body in an error of its own (sandbox fault `echo-credentials`), and the
 * bearer token, the client secret and the API key appear nowhere in what n8n shows or stores.
 */
import { inspect } from 'node:util';

import { startSandbox, type Sandbox } from '../../sandbox';
import { NODE_UNDER_TEST_NAME, TestCredentialsHelper, runNode, runPoll, sandboxCredential } from '../harness';

const CREDENTIAL_TYPE = 'marketplaceMerchantApi';
const LIST_WAREHOUSES = { resource: 'warehouse', operation: 'getMany' };
const API_KEY = 'echo-test-api-key-0123456789';

let sandbox: Sandbox;

beforeEach(async () => {
	sandbox = await startSandbox({
		port: 0,
		rateLimits: false,
		clients: [{ clientId: `echo-client-${Date.now()}`, clientSecret: `echo-secret-${Math.random().toString(36).slice(2)}`, apiKey: API_KEY }],
	});
});

afterEach(async () => {
	await sandbox.close();
});

/** A credential store holding a token the sandbox issued (the first run fetched it). */
async function storeWithToken(): Promise<{ credentialsHelper: TestCredentialsHelper; token: string }> {
	const credentialsHelper = new TestCredentialsHelper();
	credentialsHelper.add(CREDENTIAL_TYPE, sandboxCredential(sandbox));
	const first = await runNode('marketplaceMerchant', LIST_WAREHOUSES, [{}], { credentialsHelper });
	expect(first.error).toBeUndefined();
	const token = String(credentialsHelper.storedData(CREDENTIAL_TYPE).accessToken);
	expect(token.length).toBeGreaterThan(10);
	return { credentialsHelper, token };
}

/** Everything about an error that n8n shows, stores (toJSON, the run data's spread copy) or logs. */
function everythingAbout(error: unknown): string {
	const err = error as Error & { description?: string };
	return [
		err?.message,
		err?.description,
		err?.stack,
		JSON.stringify(error),
		JSON.stringify({ ...(error as object) }),
		inspect(error, { depth: 10 }),
		inspect((error as { cause?: unknown })?.cause, { depth: 10 }),
	].join('\n');
}

function expectNoSecrets(text: string, token: string): void {
	expect(text).not.toContain(token);
	expect(text).not.toContain(sandbox.client.clientSecret);
	expect(text).not.toContain(API_KEY);
}

describe('the service echoes the credentials in an error', () => {
	it('node: the bearer token appears nowhere in the run data, the error or its cause', async () => {
		const { credentialsHelper, token } = await storeWithToken();
		sandbox.injectFault({ route: 'warehouses', body: 'echo-credentials', count: 1 });

		const result = await runNode('marketplaceMerchant', LIST_WAREHOUSES, [{}], { credentialsHelper });

		expect(result.error).toBeDefined();
		// The echo did arrive with the token: the test would see it if it leaked.
		expect(sandbox.log.at(-1)?.status).toBe(400);
		expect(result.error?.description).toMatch(/Authorization: Bearer \*\*\*/);
		expectNoSecrets(JSON.stringify(result.run), token);
		expectNoSecrets(everythingAbout(result.error), token);
	});

	it('node with "continue on fail": the item error carries no secret either', async () => {
		const { credentialsHelper, token } = await storeWithToken();
		sandbox.injectFault({ route: 'warehouses', body: 'echo-credentials', count: 1 });

		const result = await runNode('marketplaceMerchant', LIST_WAREHOUSES, [{}], {
			credentialsHelper,
			node: { onError: 'continueRegularOutput' },
		});

		expect(result.error).toBeUndefined();
		expect(result.nodes[NODE_UNDER_TEST_NAME].itemErrors).toHaveLength(1);
		expectNoSecrets(JSON.stringify(result.run), token);
		expectNoSecrets(everythingAbout(result.nodes[NODE_UNDER_TEST_NAME].itemErrors[0].error), token);
	});

	it('token request: the client secret and API key it echoes are not shown', async () => {
		sandbox.injectFault({ route: 'token', body: 'echo-credentials', count: 1 });

		const result = await runNode('marketplaceMerchant', LIST_WAREHOUSES, [{}], {
			credentials: { [CREDENTIAL_TYPE]: sandboxCredential(sandbox) },
		});

		expect(result.error?.message).toBe('The token request failed (HTTP 400)');
		expect(result.error?.description).toMatch(/clientSecret/);
		expectNoSecrets(JSON.stringify(result.run), 'no token was issued');
		expectNoSecrets(everythingAbout(result.error), 'no token was issued');
	});

	it('trigger: the poll error carries no secret', async () => {
		const { credentialsHelper, token } = await storeWithToken();
		sandbox.injectFault({ route: 'invoices', body: 'echo-credentials', count: 1 });

		const result = await runPoll('marketplaceMerchantTrigger', { event: 'invoice' }, { credentialsHelper, staticData: {} });

		expect(result.error).toBeDefined();
		expect(sandbox.log.some((entry) => entry.route === 'invoices' && entry.status === 400)).toBe(true);
		expectNoSecrets(everythingAbout(result.error), token);
		expectNoSecrets(JSON.stringify(result.staticData), token);
	});
});

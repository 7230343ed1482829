/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code, run by jest and never loaded by n8n: it may use Node modules (docs/architecture.md, Toolchain). */
import { startSandbox } from '../../sandbox';
import type { Sandbox } from '../../sandbox';
import {
	INPUT_NODE_NAME,
	NODE_UNDER_TEST_NAME,
	TEST_ITEMS_NODE_TYPE,
	TEST_WAREHOUSES_NODE_TYPE,
	TEST_WAREHOUSE_POLL_NODE_TYPE,
	TestCredentialsHelper,
	runNode,
	runPoll,
	runWorkflow,
	sandboxCredential,
} from '.';

const CREDENTIAL_TYPE = 'marketplaceMerchantApi';

let clientCounter = 0;

describe('test harness', () => {
	let sandbox: Sandbox;

	beforeEach(async () => {
		clientCounter += 1;
		sandbox = await startSandbox({
			port: 0,
			rateLimits: false,
			clients: [{ clientId: `harness-client-${clientCounter}`, clientSecret: `harness-secret-${clientCounter}` }],
		});
	});

	afterEach(async () => {
		await sandbox.close();
	});

	function credential(overrides: Record<string, string> = {}) {
		return {
			[CREDENTIAL_TYPE]: sandboxCredential(sandbox, overrides),
		};
	}

	it('feeds the input node’s items, binary data included, to the next node', async () => {
		const binaryItem = {
			json: { name: 'file' },
			binary: { data: { data: Buffer.from('hello').toString('base64'), mimeType: 'text/plain' } },
		};

		const result = await runWorkflow({
			nodes: [
				{ name: INPUT_NODE_NAME, type: TEST_ITEMS_NODE_TYPE, parameters: { items: JSON.stringify([{ a: 1 }, binaryItem]) } },
			],
			connections: {},
		});

		expect(result.status).toBe('success');
		expect(result.json(INPUT_NODE_NAME)).toEqual([{ a: 1 }, { name: 'file' }]);
		expect(result.output(INPUT_NODE_NAME)[1].binary?.data.data).toBe(binaryItem.binary.data.data);
	});

	it('runs the node under test after its input and attaches the stored credential', async () => {
		const result = await runNode(TEST_WAREHOUSES_NODE_TYPE, { operation: 'list' }, [{}, {}], {
			credentials: credential(),
		});

		expect(result.executionOrder).toEqual([INPUT_NODE_NAME, NODE_UNDER_TEST_NAME]);
		expect(result.json(NODE_UNDER_TEST_NAME)).toHaveLength(2 * sandbox.state.warehouses.length);
		expect(result.run.data.resultData.runData[NODE_UNDER_TEST_NAME][0].source).toEqual([
			expect.objectContaining({ previousNode: INPUT_NODE_NAME }),
		]);
	});

	it('routes failed items to the error output when the node is set to do so', async () => {
		const result = await runNode(TEST_WAREHOUSES_NODE_TYPE, { operation: 'list' }, [{}, {}], {
			credentials: credential({ clientSecret: 'not-the-secret' }),
			node: { onError: 'continueErrorOutput' },
		});

		expect(result.status).toBe('success');
		expect(result.output(NODE_UNDER_TEST_NAME, 0)).toEqual([]);
		expect(result.output(NODE_UNDER_TEST_NAME, 1)).toHaveLength(2);
		expect(result.nodes[NODE_UNDER_TEST_NAME].itemErrors.map(({ outputIndex }) => outputIndex)).toEqual([1, 1]);
	});

	it('stops with the node’s error when the node does not continue on fail', async () => {
		const result = await runNode(TEST_WAREHOUSES_NODE_TYPE, { operation: 'list' }, [{}], {
			credentials: credential({ clientSecret: 'not-the-secret' }),
		});

		expect(result.status).toBe('error');
		expect(result.nodes[NODE_UNDER_TEST_NAME].error?.message).toBe(result.error?.message);
	});

	it('polls with static data that survives a JSON round trip and a shared credential store', async () => {
		const first = await runPoll(TEST_WAREHOUSE_POLL_NODE_TYPE, {}, { credentials: credential() });
		expect(first.error).toBeUndefined();
		expect(first.emitted?.[0]).toHaveLength(sandbox.state.warehouses.length);

		const restoredStaticData = JSON.parse(JSON.stringify(first.staticData));
		const second = await runPoll(TEST_WAREHOUSE_POLL_NODE_TYPE, {}, {
			credentialsHelper: first.credentialsHelper,
			staticData: restoredStaticData,
		});

		expect(second.error).toBeUndefined();
		expect(second.emitted).toBeNull();
		expect(second.staticData).toEqual(first.staticData);
		expect(first.savedStaticData).toEqual(first.staticData);
		expect(second.savedStaticData).toBeUndefined();
		expect(sandbox.count('token')).toBe(1);
		expect(sandbox.count('warehouses')).toBe(2);
	});

	it('reports a poll error instead of throwing it, as a scheduled poll does', async () => {
		const result = await runPoll(TEST_WAREHOUSE_POLL_NODE_TYPE, {}, {
			credentials: credential({ clientSecret: 'not-the-secret' }),
		});

		expect(result.emitted).toBeNull();
		expect(result.error?.message).toMatch(/client ID or client secret was rejected/);
	});

	it('runs a manual poll ("Fetch test event") through the workflow engine', async () => {
		const credentialsHelper = new TestCredentialsHelper();
		credentialsHelper.add(CREDENTIAL_TYPE, credential()[CREDENTIAL_TYPE]);

		const result = await runPoll(TEST_WAREHOUSE_POLL_NODE_TYPE, {}, { credentialsHelper, mode: 'manual' });

		expect(result.error).toBeUndefined();
		expect(result.emitted?.[0]).toHaveLength(sandbox.state.warehouses.length);
		expect(credentialsHelper.calls.preAuthenticationRuns).toBe(1);
	});
});

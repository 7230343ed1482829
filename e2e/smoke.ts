/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console -- end-to-end suite code, run by tsx against a real n8n and never loaded by n8n: it may use process and timers, Node modules, console output (docs/architecture.md, Toolchain). */
/**
 * Checks the end-to-end environment on its own, with a throwaway community package generated in a
 * temp folder (not this project's package): install n8n, load the package, import credentials and
 * workflows, run a workflow from the CLI, list node types, start n8n with an owner, create an API
 * key, activate a polling workflow and read its executions.
 *
 *   npm exec -- tsx e2e/smoke.ts
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { installCommunityPackage, packPackage } from './community-package';
import {
	createUserFolder,
	executeWorkflow,
	exportNodeTypes,
	importCredentials,
	importWorkflows,
	installN8n,
	removeUserFolder,
	startN8n,
	type RunningN8n,
} from './n8n';
import { N8nOwnerSession, N8nPublicApi, type PublicApiExecution } from './n8n-api';

const PACKAGE_NAME = 'n8n-nodes-e2e-smoke';

const SMOKE_PACKAGE_FILES: Record<string, string> = {
	'package.json': JSON.stringify({
		name: PACKAGE_NAME,
		version: '0.0.1',
		keywords: ['n8n-community-node-package'],
		files: ['dist'],
		n8n: {
			n8nNodesApiVersion: 1,
			strict: true,
			nodes: ['dist/nodes/SmokeMarker.node.js', 'dist/nodes/SmokeTrigger.node.js'],
			credentials: ['dist/credentials/SmokeApi.credentials.js'],
		},
		peerDependencies: { 'n8n-workflow': '*' },
	}),
	'dist/credentials/SmokeApi.credentials.js': `
class SmokeApi {
	constructor() {
		this.name = 'smokeApi';
		this.displayName = 'Smoke API';
		this.properties = [{ displayName: 'Token', name: 'token', type: 'string', typeOptions: { password: true }, default: '' }];
	}
}
module.exports = { SmokeApi };
`,
	'dist/nodes/SmokeMarker.node.js': `
const { NodeConnectionTypes } = require('n8n-workflow');
class SmokeMarker {
	constructor() {
		this.description = {
			displayName: 'Smoke Marker', name: 'smokeMarker', group: ['transform'], version: 1,
			description: 'Adds a marker and the length of the credential token', defaults: { name: 'Smoke Marker' },
			inputs: [NodeConnectionTypes.Main], outputs: [NodeConnectionTypes.Main],
			credentials: [{ name: 'smokeApi', required: true }],
			properties: [{ displayName: 'Marker', name: 'marker', type: 'string', default: 'smoke' }],
		};
	}
	async execute() {
		const { token } = await this.getCredentials('smokeApi');
		return [this.getInputData().map((item, i) => ({
			json: { ...item.json, marker: this.getNodeParameter('marker', i), tokenLength: String(token).length },
		}))];
	}
}
module.exports = { SmokeMarker };
`,
	'dist/nodes/SmokeTrigger.node.js': `
const { NodeConnectionTypes } = require('n8n-workflow');
class SmokeTrigger {
	constructor() {
		this.description = {
			displayName: 'Smoke Trigger', name: 'smokeTrigger', group: ['trigger'], version: 1,
			description: 'Counts its polls in static data', defaults: { name: 'Smoke Trigger' },
			polling: true, inputs: [], outputs: [NodeConnectionTypes.Main], properties: [],
		};
	}
	async poll() {
		const staticData = this.getWorkflowStaticData('node');
		staticData.pollCount = (staticData.pollCount || 0) + 1;
		return [[{ json: { pollCount: staticData.pollCount } }]];
	}
}
module.exports = { SmokeTrigger };
`,
};

const CREDENTIAL = { id: 'smokeCredential1', name: 'Smoke credential', type: 'smokeApi', data: { token: 'smoke-token-123' } };

const MANUAL_WORKFLOW = {
	id: 'smokeManualWf001',
	name: 'Smoke manual',
	nodes: [
		{ id: 'm1', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
		{
			id: 'm2',
			name: 'Set',
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			position: [200, 0],
			parameters: {
				assignments: { assignments: [{ id: 'a1', name: 'greeting', value: 'hello', type: 'string' }] },
				options: {},
			},
		},
		{
			id: 'm3',
			name: 'Marker',
			type: `${PACKAGE_NAME}.smokeMarker`,
			typeVersion: 1,
			position: [400, 0],
			parameters: { marker: '={{ $json.greeting }}-marked' },
			credentials: { smokeApi: { id: CREDENTIAL.id, name: CREDENTIAL.name } },
		},
	],
	connections: {
		Start: { main: [[{ node: 'Set', type: 'main', index: 0 }]] },
		Set: { main: [[{ node: 'Marker', type: 'main', index: 0 }]] },
	},
	settings: {},
};

const POLLING_WORKFLOW = {
	id: 'smokePollingWf01',
	name: 'Smoke polling',
	nodes: [
		{
			id: 'p1',
			name: 'Trigger',
			type: `${PACKAGE_NAME}.smokeTrigger`,
			typeVersion: 1,
			position: [0, 0],
			parameters: { pollTimes: { item: [{ mode: 'everyMinute' }] } },
		},
	],
	connections: {},
	settings: {},
};

function pollCountOf(execution: PublicApiExecution): unknown {
	return execution.data?.resultData.runData.Trigger?.[0]?.data?.main?.[0]?.[0]?.json.pollCount;
}

async function step<T>(name: string, action: () => Promise<T>): Promise<T> {
	const startedAt = Date.now();
	const result = await action();
	console.log(`ok  ${name} (${((Date.now() - startedAt) / 1000).toFixed(1)} s)`);
	return result;
}

async function main(): Promise<void> {
	const installation = await step('install n8n', installN8n);
	console.log(`    n8n ${installation.version} in ${installation.dir}`);
	const workDir = await mkdtemp(path.join(tmpdir(), 'n8n-e2e-smoke-'));
	const userFolder = await createUserFolder();
	let server: RunningN8n | undefined;
	try {
		const packageDir = path.join(workDir, 'package');
		for (const [file, content] of Object.entries(SMOKE_PACKAGE_FILES)) {
			await mkdir(path.dirname(path.join(packageDir, file)), { recursive: true });
			await writeFile(path.join(packageDir, file), content);
		}
		const tarball = await step('npm pack', async () => await packPackage(installation, packageDir, workDir));
		await step('install the package into the user folder', async () => {
			await installCommunityPackage(installation, userFolder, tarball);
		});
		await step('import credentials (first command: runs the migrations)', async () => {
			await importCredentials(installation, userFolder, [CREDENTIAL]);
		});
		await step('import workflows', async () => {
			await importWorkflows(installation, userFolder, [MANUAL_WORKFLOW, POLLING_WORKFLOW]);
		});
		await step('execute the manual workflow', async () => {
			const execution = await executeWorkflow(installation, userFolder, MANUAL_WORKFLOW.id);
			assert.equal(execution.status, 'success');
			const [item] = execution.data.resultData.runData.Marker[0].data!.main![0]!;
			assert.deepEqual(item.json, { greeting: 'hello', marker: 'hello-marked', tokenLength: CREDENTIAL.data.token.length });
		});
		await step('export node types', async () => {
			const names = (await exportNodeTypes(installation, userFolder)).map((nodeType) => nodeType.name);
			assert.ok(names.includes('n8n-nodes-base.set'));
			assert.ok(names.includes(`${PACKAGE_NAME}.smokeMarker`));
			assert.ok(names.includes(`${PACKAGE_NAME}.smokeTrigger`));
		});
		server = await step('start n8n with an owner', async () => await startN8n({ installation, userFolder }));
		const running = server;
		console.log(`    ${running.baseUrl}`);
		const api = await step('log in and create an API key', async () => {
			const session = await N8nOwnerSession.login(running.baseUrl, running.owner!);
			return new N8nPublicApi(running.baseUrl, await session.createApiKey());
		});
		await step('activate the polling workflow: one poll, one execution', async () => {
			await api.activateWorkflow(POLLING_WORKFLOW.id);
			const [execution] = await api.waitForExecutions(POLLING_WORKFLOW.id, 1);
			assert.equal(execution.mode, 'trigger');
			assert.equal(execution.status, 'success');
			assert.equal(pollCountOf(execution), 1);
		});
		await step('deactivate and activate again: the next poll sees the saved static data', async () => {
			await api.deactivateWorkflow(POLLING_WORKFLOW.id);
			await api.activateWorkflow(POLLING_WORKFLOW.id);
			const executions = await api.waitForExecutions(POLLING_WORKFLOW.id, 2);
			assert.deepEqual(executions.map(pollCountOf), [2, 1]);
			const workflow = await api.getWorkflow(POLLING_WORKFLOW.id);
			assert.deepEqual(workflow.staticData, { 'node:Trigger': { pollCount: 2 } });
		});
	} finally {
		if (server) await step('stop n8n', async () => await server!.stop());
		await removeUserFolder(userFolder);
		await rm(workDir, { recursive: true, force: true });
	}
}

main().then(
	() => console.log('smoke test passed'),
	(error: unknown) => {
		console.error(error);
		process.exitCode = 1;
	},
);

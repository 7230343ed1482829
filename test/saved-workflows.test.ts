/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @typescript-eslint/no-unused-vars -- test code, run by jest and never loaded by n8n: it may use process and timers, Node modules, rest siblings that drop keys (docs/architecture.md, Toolchain). */
/**
 * Saved workflows keep running (docs/versioning.md): each test/saved-workflows/*.json holds nodes
 * of this package exactly as n8n saved them (type, typeVersion, and only the parameters that
 * differed from their defaults then, so a changed default shows here), the items the workflow
 * received, and the output it gave. Each is run through n8n-core's real engine against the sandbox
 * and must give the same output. A change that breaks one needs a new node version, with the
 * saved ones still running as before; these files are not to be regenerated.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { ICredentialDataDecryptedObject, IConnections, IDataObject } from 'n8n-workflow';

import { startSandbox, type SandboxOptions } from '../sandbox';
import { INPUT_NODE_NAME, POLL_NODE_NAME, runPoll, runWorkflow, sandboxCredential, type NodeInput } from './harness';
import { YEAR } from './actions/helpers';
import { useSharedClock } from './trigger/helpers';

const FOLDER = path.join(__dirname, 'saved-workflows');

interface SavedWorkflowCase {
	about: string;
	sandbox: SandboxOptions;
	/** Items the first nodes of the workflow receive (from a trigger or an earlier node when it ran). */
	input: IDataObject[];
	workflow: { name: string; nodes: NodeInput[]; connections: IConnections; settings?: IDataObject; staticData?: IDataObject };
	/** Output 0 of each node, by node name. */
	expected: Record<string, IDataObject[]>;
	/** A workflow whose only node is the trigger: the time of its next poll, and the static data n8n saves after it. */
	clock?: string;
	expectedStaticData?: IDataObject;
	/** Output fields whose value the service makes up (an import's progress id): any string, as long as it is one. */
	anyString?: string[];
	/** Saved at a version whose output later versions may add fields to (docs/versioning.md): the saved fields must stay as they were. */
	fieldsMayBeAdded?: boolean;
	/**
	 * A run with rejected entries: since issue 29 (CHANGELOG, Changed) it ends as an error under the
	 * default On Error, with a message that starts so, once the accepted entries are written; `expected` is what
	 * the workflow gives with On Error = Continue on its nodes, the way back the changelog names.
	 */
	rejects?: string;
}

/** `__YEAR__` stands for next year, where dates must lie in the future whenever the test runs. */
function load(file: string): SavedWorkflowCase {
	return JSON.parse(readFileSync(path.join(FOLDER, file), 'utf8').replaceAll('__YEAR__', String(YEAR))) as SavedWorkflowCase;
}

/**
 * The saved workflow with the input items in front of the nodes that have no input, and without
 * the saved credential reference: the harness attaches the sandbox's credential, as importing the
 * workflow into another n8n and picking a credential would.
 */
function withInput({ workflow, input }: SavedWorkflowCase): { nodes: NodeInput[]; connections: IConnections } {
	const fed = new Set(
		Object.values(workflow.connections).flatMap((outputs) => (outputs.main ?? []).flatMap((targets) => (targets ?? []).map((target) => target.node))),
	);
	const nodes = workflow.nodes.map(({ credentials: _saved, ...node }) => node);
	const first = nodes.filter((node) => !fed.has(node.name));
	return {
		nodes: [{ name: INPUT_NODE_NAME, type: 'test.items', parameters: { items: JSON.stringify(input) } }, ...nodes],
		connections: {
			...workflow.connections,
			[INPUT_NODE_NAME]: { main: [first.map((node) => ({ node: node.name, type: 'main', index: 0 }))] },
		},
	};
}

/**
 * One scheduled poll of the saved trigger with the workflow's saved static data, through n8n's
 * poll path. The harness names the trigger node "Trigger", so its static data key is renamed
 * there and back.
 */
async function pollSavedTrigger({ workflow }: SavedWorkflowCase, credentials: Record<string, ICredentialDataDecryptedObject>) {
	const [trigger] = workflow.nodes;
	const savedKey = `node:${trigger.name}`;
	const harnessKey = `node:${POLL_NODE_NAME}`;
	const rename = (data: IDataObject, from: string, to: string) =>
		Object.fromEntries(Object.entries(data).map(([key, value]) => [key === from ? to : key, value])) as IDataObject;
	const result = await runPoll(trigger.type, trigger.parameters ?? {}, {
		credentials,
		staticData: rename(workflow.staticData ?? {}, savedKey, harnessKey),
		node: { typeVersion: trigger.typeVersion },
	});
	expect(result.error).toBeUndefined();
	return {
		outputs: { [trigger.name]: (result.emitted?.[0] ?? []).map((item) => item.json) },
		staticData: rename(result.savedStaticData ?? {}, harnessKey, savedKey),
	};
}

/** The saved output, with `anyString` fields matching any string. */
function expectedOutputs({ expected, anyString = [] }: SavedWorkflowCase): Record<string, IDataObject[]> {
	const loose = (item: IDataObject): IDataObject =>
		Object.fromEntries(Object.entries(item).map(([key, value]) => [key, anyString.includes(key) ? expect.any(String) : value])) as IDataObject;
	return Object.fromEntries(Object.entries(expected).map(([name, items]) => [name, items.map(loose)]));
}

const files = readdirSync(FOLDER).filter((file) => file.endsWith('.json'));

describe('Saved workflows of typeVersion 1 give the output they gave when saved', () => {
	it('has the saved workflows to run', () => {
		expect(files.length).toBeGreaterThanOrEqual(7);
	});

	it.each(files)('%s', async (file) => {
		const saved = load(file);
		if (saved.clock) useSharedClock(saved.clock);
		let sandbox = await startSandbox({ rateLimits: false, ...saved.sandbox });
		let credentials = { marketplaceMerchantApi: sandboxCredential(sandbox) };
		try {
			if (saved.clock) {
				const { outputs, staticData } = await pollSavedTrigger(saved, credentials);
				expect(outputs).toEqual(saved.expected);
				expect(staticData).toEqual(saved.expectedStaticData);
				return;
			}
			const workflow = withInput(saved);
			if (saved.rejects) {
				// As saved: an error naming the rejected entries. Then, on a fresh sandbox, with On Error = Continue: the saved output.
				const loud = await runWorkflow({ name: saved.workflow.name, ...workflow }, { credentials });
				expect(loud.error?.message.startsWith(saved.rejects)).toBe(true);
				await sandbox.close();
				sandbox = await startSandbox({ rateLimits: false, ...saved.sandbox });
				credentials = { marketplaceMerchantApi: sandboxCredential(sandbox) };
				workflow.nodes = workflow.nodes.map((node) => (node.type.includes('marketplace') ? { ...node, onError: 'continueRegularOutput' } : node));
			}
			const result = await runWorkflow({ name: saved.workflow.name, ...workflow }, { credentials });
			expect(result.error).toBeUndefined();
			const outputs = Object.fromEntries(Object.keys(saved.expected).map((name) => [name, result.json(name)]));
			const expected = expectedOutputs(saved);
			if (saved.fieldsMayBeAdded) expect(outputs).toMatchObject(expected);
			else expect(outputs).toEqual(expected);
		} finally {
			await sandbox.close();
			jest.useRealTimers();
		}
	});
});

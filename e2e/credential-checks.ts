/* eslint-disable @n8n/community-nodes/no-restricted-imports -- end-to-end suite code, run by tsx against a real n8n and never loaded by n8n: it may use Node modules (docs/architecture.md, Toolchain). */
/**
 * The credential's Test button in a real n8n: `POST /rest/credentials/test`, as the credential
 * panel sends it. n8n runs the nodes' `credentialTest` method (testedBy) with its own
 * CredentialTestContext, whose only request helper is the legacy `request`.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';

import type { Sandbox } from '../sandbox';
import { check } from './checks';
import { onServiceHostOnly, sandboxControl } from './host-checks';
import type { N8nOwnerSession } from './n8n-api';

const MIB = 1024 * 1024;
/** Issue 21's bound for the process's growth while a hostile answer is read. */
const MAX_GROWTH_BYTES = 512 * MIB;

interface TestResult {
	status: string;
	message: string;
}

/** n8n's resident memory now, from /proc (Linux, where the suites run). */
async function residentBytes(pid: number): Promise<number> {
	const status = await readFile(`/proc/${pid}/status`, 'utf8');
	const kib = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
	assert.ok(kib, `no VmRSS for process ${pid}`);
	return Number(kib) * 1024;
}

/** The largest growth of the process's memory while `work` runs, sampled every 50 ms. */
async function peakGrowth<T>(pid: number, work: () => Promise<T>): Promise<{ result: T; growthBytes: number }> {
	const before = await residentBytes(pid);
	let peak = before;
	let done = false;
	const sampler = (async () => {
		while (!done) {
			peak = Math.max(peak, await residentBytes(pid));
			await sleep(50);
		}
	})();
	try {
		const result = await work();
		return { result, growthBytes: Math.max(peak, await residentBytes(pid)) - before };
	} finally {
		done = true;
		await sampler;
	}
}

export async function checkCredentialTest(
	session: N8nOwnerSession,
	credential: { type: string; id: string; name: string },
	data: Record<string, unknown>,
	sandbox: Sandbox,
	n8nPid: number | undefined,
): Promise<void> {
	const test = async (values: Record<string, unknown>) =>
		await session.request<TestResult>('POST', '/credentials/test', { credentials: { ...credential, data: values } });

	await check('credential Test button: passes with good values; a wrong secret is named, and not shown', async () => {
		sandbox.clearLog();
		assert.deepEqual(await test(data), { status: 'OK', message: 'Connection successful!' });
		assert.equal(sandbox.count('warehouses'), 1, 'one request to the API after the token');
		const wrongSecret = `wrong-secret-${Date.now()}`;
		const refused = await test({ ...data, clientSecret: wrongSecret });
		assert.equal(refused.status, 'Error');
		assert.match(refused.message, /client ID or client secret was rejected \(HTTP 401 from the token endpoint\)/);
		assert.ok(!refused.message.includes(wrongSecret), 'the secret is in the message');
		return refused.message;
	});

	await check("credential Test button: with warehouses on the environment's service host, names the cause without it and passes with its Service Host URL", async () => {
		const { serviceUrl } = await sandboxControl<{ serviceUrl: string }>(sandbox, 'GET', 'info');
		assert.ok(serviceUrl && serviceUrl !== sandbox.url, `no second host in /__sandbox/info: ${serviceUrl}`);
		return await onServiceHostOnly(sandbox, async () => {
			sandbox.clearLog();
			assert.deepEqual(await test(data), {
				status: 'Error',
				message: "The Base URL does not serve warehouses (HTTP 404): enter the environment's service host in the credential's Service Host URL",
			});
			assert.deepEqual(await test({ ...data, serviceUrl }), { status: 'OK', message: 'Connection successful!' });
			const asked = sandbox.log.filter((entry) => entry.route === 'warehouses').map((entry) => `${entry.status} ${entry.host ?? 'main'}`);
			assert.deepEqual(asked, ['404 main', '200 service']);
			return `warehouses asked: ${asked.join(', ')}`;
		});
	});

	await check('credential Test button: a gzip bomb from the API (1 GiB inflated) ends in a clear error, n8n growing less than 512 MiB', async () => {
		assert.ok(n8nPid, "n8n's process id is unknown");
		sandbox.injectFault({ route: 'warehouses', body: 'gzip-bomb', sizeBytes: 1024 * MIB, count: 1 });
		try {
			const { result, growthBytes } = await peakGrowth(n8nPid, async () => await test(data));
			assert.deepEqual(result, { status: 'Error', message: "The merchant API's answer is larger than 256 MiB: the request was stopped" });
			assert.ok(growthBytes < MAX_GROWTH_BYTES, `n8n grew by ${Math.round(growthBytes / MIB)} MiB`);
			return `n8n grew by ${Math.round(growthBytes / MIB)} MiB`;
		} finally {
			sandbox.clearFaults();
		}
	});
}

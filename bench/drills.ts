/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-hardcoded-secrets -- benchmark code (`npm run bench`) and never loaded by n8n: it may use process and timers, fixed test keys of the sandbox (docs/architecture.md, Toolchain). */
/**
 * Fault drills (`npm run bench -- --faults`): 1,000 items each against a sandbox told to
 * misbehave (sandbox `injectFault`, token lifetime, limits), with continue-on-fail so every
 * item's outcome is in the output. Each drill records what users get: items succeeded and
 * failed, requests, time, memory, and the error texts, which must name the cause and must not
 * contain the client secret or any token issued during the drill.
 */
import type { ICredentialDataDecryptedObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { testCredential, type TestCredentialsHelper } from '../test/harness';

import type { FaultSpec, RateLimitConfig, RequestLogEntry, SandboxVariants } from '../sandbox';
import { credentialsFor, runMerchant } from './merchant-node';
import { RemoteSandbox, type BenchClient } from './remote-sandbox';
import type { DrillResult } from './report';
import { formatBytes } from './stats';

const ITEMS = 1_000;
const FIRST_PRODUCT_ID = 100_001;
const MIB = 1024 * 1024;
const RSS_SAMPLE_MS = 5;
const ERROR_TEXT_LENGTH = 220;
/** A fault count no drill exhausts: the service never recovers. */
const FOREVER = 1_000_000;

interface Drill {
	/** For `--only`. */
	key: string;
	name: string;
	setup: string;
	expectation: DrillResult['expectation'];
	parameters: INodeParameters;
	inputItems: unknown[];
	faults: FaultSpec[];
	/** Answer variants switched on for the drill (sandbox/variants.ts), reset after it. */
	variants?: Partial<SandboxVariants>;
	/** Faults cleared this long after the first request reached the service: an outage of that length. */
	outageMs?: number;
	rateLimits?: RateLimitConfig;
	tokenLifetimeSeconds?: number;
	/** What every error text must name (drills where the service does not recover). */
	cause?: RegExp;
	/** Longest acceptable run. */
	timeLimitMs: number;
	/** Largest acceptable peak RSS growth of this process during the run. */
	memoryLimitBytes?: number;
	/** The credential's Test button instead of a node run (one input item: the test). */
	credentialTest?: true;
}

const UPDATE_STOCK: INodeParameters = {
	resource: 'product',
	operation: 'update',
	productId: '={{ $json.id }}',
	updateFields: { stockLevel: '={{ $json.stock }}' },
};
const stockUpdates = (seed: number) =>
	Array.from({ length: ITEMS }, (_, index) => ({ id: FIRST_PRODUCT_ID + index, stock: (index + seed) % 100 }));

/** Normal answers in between faults: a delay of 0 that answers as usual, counting down. */
const pass = (count: number): FaultSpec => ({ route: 'productUpdate', delayMs: 0, count });
const burst429 = (count: number): FaultSpec => ({ route: 'productUpdate', status: 429, retryAfterSeconds: 0.5, count });
/** The retry budget of one request at the default timeout (3 × 60 s): a service refusing for ever ends the items within it. */
const RETRY_BUDGET_MS = 180_000;

const XML_RANGE = { dateFrom: '={{ $json.dateFrom }}', dateTo: '={{ $json.dateTo }}' };
function monthRanges(): Array<{ dateFrom: string; dateTo: string }> {
	const now = new Date();
	const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
	const to = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1) - 1);
	return Array.from({ length: ITEMS }, () => ({ dateFrom: from.toISOString(), dateTo: to.toISOString() }));
}

function drills(): Drill[] {
	return [
		{
			key: 'token-expiry',
			name: 'Token expiring mid-run',
			setup: 'Product Update × 1,000; tokens live 2 s; limits on ×60 (the run lasts about 17 s)',
			expectation: 'recovers',
			parameters: UPDATE_STOCK,
			inputItems: stockUpdates(1),
			faults: [],
			rateLimits: { scale: 60 },
			tokenLifetimeSeconds: 2,
			timeLimitMs: 120_000,
		},
		{
			key: '429-bursts',
			name: '429 bursts with Retry-After',
			setup: 'Product Update × 1,000; three bursts of 20 answers 429 with Retry-After 0.5 s, 300 normal answers apart; limits off',
			expectation: 'recovers',
			parameters: UPDATE_STOCK,
			inputItems: stockUpdates(2),
			faults: [burst429(20), pass(300), burst429(20), pass(300), burst429(20)],
			timeLimitMs: 60_000,
		},
		{
			key: '503-twice',
			name: '503 twice, then success',
			setup:
				'Product Update × 1,000; every answer 503 without Retry-After for 2.5 s from the first request, then normal (the first items get 503 at once and again after the 1 s backoff; the 2 s backoff ends after the outage); limits off',
			expectation: 'recovers',
			parameters: UPDATE_STOCK,
			inputItems: stockUpdates(3),
			faults: [{ route: 'productUpdate', status: 503, count: FOREVER }],
			outageMs: 2_500,
			timeLimitMs: 60_000,
		},
		{
			key: '503-forever',
			name: '503 forever',
			setup: 'Product Update × 1,000; every answer 503 without Retry-After; limits off',
			expectation: 'fails clearly',
			parameters: UPDATE_STOCK,
			inputItems: stockUpdates(4),
			faults: [{ route: 'productUpdate', status: 503, count: FOREVER }],
			cause: /503|unavailable/i,
			timeLimitMs: 60_000,
		},
		{
			key: 'malformed-json',
			name: 'Malformed JSON body',
			setup: 'Product Update × 1,000; every answer a 200 with JSON cut off mid-way; limits off',
			expectation: 'fails clearly',
			parameters: UPDATE_STOCK,
			inputItems: stockUpdates(5),
			faults: [{ route: 'productUpdate', body: 'malformed-json', count: FOREVER }],
			cause: /not valid JSON/i,
			timeLimitMs: 60_000,
		},
		{
			key: 'html-502-transient',
			name: 'HTML 502 page, transient',
			setup: 'Product Update × 1,000; the first 1,000 answers are nginx\'s HTML 502 page, then normal ones; limits off',
			expectation: 'recovers',
			parameters: UPDATE_STOCK,
			inputItems: stockUpdates(6),
			faults: [{ route: 'productUpdate', body: 'html', count: ITEMS }],
			timeLimitMs: 60_000,
		},
		{
			key: 'html-502-persistent',
			name: 'HTML 502 page, persistent',
			setup: 'Product Update × 1,000; every answer nginx\'s HTML 502 page; limits off',
			expectation: 'fails clearly',
			parameters: UPDATE_STOCK,
			inputItems: stockUpdates(7),
			faults: [{ route: 'productUpdate', body: 'html', count: FOREVER }],
			cause: /502|bad gateway/i,
			timeLimitMs: 60_000,
		},
		{
			key: 'xml-bomb',
			name: 'Billion-laughs XML answer',
			setup: 'Invoice Get Many, Response Format XML, × 1,000 (one month each); every answer a 200 billion-laughs document (10⁹ × "lol" if expanded); limits off',
			expectation: 'fails clearly',
			parameters: { resource: 'invoice', operation: 'getMany', ...XML_RANGE, returnAll: true, options: { responseFormat: 'xml' } },
			inputItems: monthRanges(),
			faults: [{ route: 'invoices', body: 'xml-bomb', count: FOREVER }],
			cause: /XML.*DOCTYPE/is,
			timeLimitMs: 60_000,
			memoryLimitBytes: 64 * MIB,
		},
		{
			key: 'xml-cut',
			name: 'XML answer cut off',
			setup: 'Invoice Get Many, Response Format XML, × 1,000 (one month each); every answer a 200 whose XML ends half-way, right after a complete tag (sandbox variant cutAnswers); limits off',
			expectation: 'fails clearly',
			parameters: { resource: 'invoice', operation: 'getMany', ...XML_RANGE, returnAll: true, options: { responseFormat: 'xml' } },
			inputItems: monthRanges(),
			faults: [],
			variants: { cutAnswers: ['invoices'] },
			cause: /not a complete XML document/,
			timeLimitMs: 60_000,
		},
		{
			key: 'json-cut',
			name: 'JSON answer cut off',
			setup: 'Invoice Get Many × 1,000 (one month each); every answer a 200 whose JSON ends half-way, right after a complete element (sandbox variant cutAnswers); limits off',
			expectation: 'fails clearly',
			parameters: { resource: 'invoice', operation: 'getMany', ...XML_RANGE, returnAll: true },
			inputItems: monthRanges(),
			faults: [],
			variants: { cutAnswers: ['invoices'] },
			cause: /not valid JSON: it ends before the document does/,
			timeLimitMs: 60_000,
		},
		{
			key: '429-forever-ra60',
			name: '429 forever, Retry-After 60',
			setup: 'Product Update × 1,000; every answer 429 with Retry-After 60 s; limits off; default timeout (60 s, so a retry budget of 3 min)',
			expectation: 'fails clearly',
			parameters: UPDATE_STOCK,
			inputItems: stockUpdates(8),
			faults: [{ route: 'productUpdate', status: 429, retryAfterSeconds: 60, count: FOREVER }],
			cause: /too many requests/i,
			timeLimitMs: RETRY_BUDGET_MS,
		},
		{
			key: '429-forever-ra1-20-items',
			name: '429 forever, Retry-After 1, 20 items',
			setup: 'Product Update × 20; every answer 429 with Retry-After 1 s; limits off; default timeout (60 s, so a retry budget of 3 min)',
			expectation: 'fails clearly',
			parameters: UPDATE_STOCK,
			inputItems: stockUpdates(9).slice(0, 20),
			faults: [{ route: 'productUpdate', status: 429, retryAfterSeconds: 1, count: FOREVER }],
			cause: /too many requests/i,
			timeLimitMs: RETRY_BUDGET_MS,
		},
		{
			key: 'credential-test-gzip-bomb',
			name: "Gzip bomb at the credential's Test button",
			setup: "the credential's Test button; its request to the API (after the token) answered with a 200 with Content-Encoding gzip, about 10 MB on the wire and 10 GiB inflated; limits off",
			expectation: 'bounded memory',
			parameters: {},
			inputItems: [{}],
			credentialTest: true,
			faults: [{ route: 'warehouses', body: 'gzip-bomb', sizeBytes: 10 * 1024 * MIB, count: FOREVER }],
			cause: /merchant API's answer is larger than 256 MiB/,
			timeLimitMs: 120_000,
			memoryLimitBytes: 512 * MIB,
		},
		{
			key: 'token-gzip-bomb',
			name: 'Gzip bomb from the token endpoint',
			setup: 'Warehouse Get Many × 20; the token endpoint answers a 200 with Content-Encoding gzip, about 10 MB on the wire and 10 GiB inflated; limits off',
			expectation: 'bounded memory',
			parameters: { resource: 'warehouse', operation: 'getMany' },
			inputItems: Array.from({ length: 20 }, () => ({})),
			faults: [{ route: 'token', body: 'gzip-bomb', sizeBytes: 10 * 1024 * MIB, count: FOREVER }],
			cause: /token endpoint's answer is larger than 256 MiB/,
			timeLimitMs: 120_000,
			memoryLimitBytes: 512 * MIB,
		},
		{
			key: 'gzip-bomb',
			name: 'Gzip bomb',
			setup: 'Warehouse Get Many × 20; every answer a 200 with Content-Encoding gzip, about 10 MB on the wire and 10 GiB inflated; limits off',
			expectation: 'bounded memory',
			parameters: { resource: 'warehouse', operation: 'getMany' },
			inputItems: Array.from({ length: 20 }, () => ({})),
			faults: [{ route: 'warehouses', body: 'gzip-bomb', sizeBytes: 10 * 1024 * MIB, count: FOREVER }],
			cause: /larger than 256 MiB/,
			timeLimitMs: 120_000,
			memoryLimitBytes: 512 * MIB,
		},
		{
			key: 'huge-json',
			name: '300 MB JSON answer',
			setup: 'Warehouse Get Many × 5; every answer a 200 JSON list of 300 MB; limits off',
			expectation: 'bounded memory',
			parameters: { resource: 'warehouse', operation: 'getMany' },
			inputItems: Array.from({ length: 5 }, () => ({})),
			faults: [{ route: 'warehouses', body: 'huge-json', sizeBytes: 300_000_000, count: FOREVER }],
			cause: /larger than 256 MiB/,
			timeLimitMs: 120_000,
			memoryLimitBytes: 512 * MIB,
		},
	];
}

/** Every string reachable from a value, through non-enumerable properties too (an error's `cause`). */
function stringsIn(value: unknown, seen = new Set<unknown>(), depth = 0): string[] {
	if (typeof value === 'string') return [value];
	if (!value || typeof value !== 'object' || seen.has(value) || depth > 8) return [];
	seen.add(value);
	const strings: string[] = [];
	for (const key of Object.getOwnPropertyNames(value)) {
		let property: unknown;
		try {
			property = (value as Record<string, unknown>)[key];
		} catch {
			continue;
		}
		strings.push(...stringsIn(property, seen, depth + 1));
	}
	return strings;
}

type ItemError = { message?: string; description?: string | null };

/** What n8n shows and stores of an error: its message and description, and its JSON in the execution data. */
function visibleTexts(error: ItemError): string[] {
	return [error.message ?? '', error.description ?? '', JSON.stringify(error) ?? ''];
}

function userText(error: ItemError): string {
	const text = [error.message, error.description].filter(Boolean).join(' — ');
	return text.length > ERROR_TEXT_LENGTH ? `${text.slice(0, ERROR_TEXT_LENGTH)}…` : text;
}

const containsAny = (texts: string[], secrets: string[]) => texts.some((text) => secrets.some((secret) => text.includes(secret)));

function isFailed(item: INodeExecutionData): boolean {
	return item.error !== undefined || item.json.success === false;
}

/** Samples this process's RSS while a run lasts; returns the peak growth. */
function sampleRss(): () => number {
	const start = process.memoryUsage().rss;
	let peak = start;
	const timer = setInterval(() => {
		peak = Math.max(peak, process.memoryUsage().rss);
	}, RSS_SAMPLE_MS);
	return () => {
		clearInterval(timer);
		return Math.max(peak, process.memoryUsage().rss) - start;
	};
}

/** Attempts per product update (each item updates its own product, so the path tells the item). */
function attemptsPerItem(log: RequestLogEntry[]): { retried: number; most: number } | undefined {
	const counts = new Map<string, number>();
	for (const entry of log) if (entry.route === 'productUpdate') counts.set(entry.path, (counts.get(entry.path) ?? 0) + 1);
	if (counts.size === 0) return undefined;
	const values = [...counts.values()];
	return { retried: values.filter((count) => count > 1).length, most: Math.max(...values) };
}

const OUTAGE_POLL_MS = 20;
/** Longest wait for the first request of an outage drill (the engine prepares every item first). */
const FIRST_REQUEST_TIMEOUT_MS = 30_000;

/** Clears the faults `outageMs` after the first request to `route` arrived. */
async function endOutage(sandbox: RemoteSandbox, route: FaultSpec['route'], outageMs: number): Promise<void> {
	const deadline = Date.now() + FIRST_REQUEST_TIMEOUT_MS;
	let first: number | undefined;
	while (first === undefined && Date.now() < deadline) {
		first = (await sandbox.log(route))[0]?.at;
		if (first === undefined) await new Promise((resolve) => setTimeout(resolve, OUTAGE_POLL_MS));
	}
	const startedAt = first ?? Date.now();
	await new Promise((resolve) => setTimeout(resolve, Math.max(0, startedAt + outageMs - Date.now())));
	await sandbox.clearFaults();
}

/** What a drill's run gave: the output items, the run's own error, and how long it took. */
interface DrillRun {
	output: INodeExecutionData[];
	runError?: ItemError;
	ms: number;
}

async function nodeRun(credentialsHelper: TestCredentialsHelper, drill: Drill): Promise<DrillRun> {
	const { result, ms } = await runMerchant(credentialsHelper, drill.parameters, drill.inputItems, { continueOnFail: true });
	return { output: result.output('Node'), runError: result.error, ms };
}

/** The Test button as n8n runs it (test/harness testCredential): its verdict as one output item, an error when it failed. */
async function credentialTestRun(credentialsHelper: TestCredentialsHelper, values: ICredentialDataDecryptedObject): Promise<DrillRun> {
	const startedAt = performance.now();
	const verdict = await testCredential(values, { credentialsHelper });
	const item: INodeExecutionData = { json: { ...verdict } };
	if (verdict.status !== 'OK') item.error = { message: verdict.message } as unknown as INodeExecutionData['error'];
	return { output: [item], ms: performance.now() - startedAt };
}

async function runDrill(sandbox: RemoteSandbox, client: BenchClient, drill: Drill): Promise<DrillResult> {
	await sandbox.clearFaults();
	await sandbox.setRateLimits(drill.rateLimits ?? false);
	await sandbox.setTokenLifetime(drill.tokenLifetimeSeconds ?? 900);
	if (drill.faults.length > 0) await sandbox.injectFault(drill.faults);
	await sandbox.resetVariants();
	if (drill.variants) await sandbox.setVariants(drill.variants);
	await sandbox.clearLog();

	const credentialsHelper = credentialsFor(sandbox, client);
	const stopSampling = sampleRss();
	const running = drill.credentialTest
		? credentialTestRun(credentialsHelper, sandbox.credentials(client))
		: nodeRun(credentialsHelper, drill);
	if (drill.outageMs !== undefined) await endOutage(sandbox, drill.faults[0].route, drill.outageMs);
	const { output, runError, ms } = await running;
	const peakRssGrowth = stopSampling();
	await sandbox.clearFaults();
	await sandbox.resetVariants();

	const failedItems = output.filter(isFailed);
	const errors: ItemError[] = failedItems.map((item) => item.error ?? { message: String(item.json.error ?? 'rejected by the service') });
	if (runError) errors.push(runError);
	// The API's requests only: the drill's own calls to the sandbox's controls are logged too.
	const log = (await sandbox.log()).filter((entry) => entry.route !== 'control');
	const tokenRequests = log.filter((entry) => entry.route === 'token').length;
	const requests = log.length - tokenRequests;
	const unauthorized = log.filter((entry) => entry.status === 401).length;

	const secrets = [client.clientSecret, ...credentialsHelper.savedTokens];
	const secretFree = !errors.some((error) => containsAny(visibleTexts(error), secrets));
	// Not shown or stored by n8n, but held in memory: n8n-core's request error (the `cause`).
	const tokenInMemory = errors.filter((error) => containsAny(stringsIn(error), secrets)).length;
	const errorTexts = [...new Set(errors.map(userText))].slice(0, 2);
	const failed = runError ? drill.inputItems.length : failedItems.length;
	const succeeded = drill.inputItems.length - failed;
	const inTime = ms <= drill.timeLimitMs;

	let met: boolean;
	let verdict: string;
	if (drill.expectation === 'recovers') {
		met = failed === 0 && inTime;
		verdict = failed === 0 ? 'no item failed' : `${failed} items failed`;
	} else if (drill.expectation === 'fails clearly') {
		const named = errors.length > 0 && errors.every((error) => drill.cause?.test(userText(error)) === true);
		met = named && inTime;
		verdict = `${named ? 'every error names the cause' : 'some error does not name the cause'} (${String(drill.cause)}), ${inTime ? 'within' : 'over'} ${drill.timeLimitMs / 1000} s`;
	} else {
		const bounded = peakRssGrowth <= (drill.memoryLimitBytes ?? Infinity);
		// Where the answers are hostile (a cause is given), every item must fail naming it.
		const named = !drill.cause || (errors.length > 0 && errors.every((error) => drill.cause?.test(userText(error)) === true));
		met = bounded && inTime && named;
		const sample = JSON.stringify(output.find((item) => !item.error)?.json ?? {}).slice(0, 120);
		const outcome = failed === 0 ? `no item failed; ${output.length} output items, e.g. ${sample}` : `${failed} items failed`;
		verdict = `peak RSS growth ${formatBytes(peakRssGrowth)} ${bounded ? '≤' : '>'} ${formatBytes(drill.memoryLimitBytes ?? 0)}; ${outcome}`;
		if (drill.cause) verdict += named ? `, every error naming the cause (${String(drill.cause)})` : ', some error not naming the cause';
	}
	const perItem = attemptsPerItem(log);
	if (perItem) verdict += `; ${perItem.retried} items needed more than one attempt, at most ${perItem.most}`;
	if (unauthorized > 0) verdict += `; ${unauthorized} requests answered 401 and were renewed`;
	if (tokenInMemory > 0) verdict += `; ${tokenInMemory} errors hold the token in their non-serialized cause (n8n-core's request error)`;
	met &&= secretFree;
	return {
		name: drill.name,
		setup: drill.setup,
		expectation: drill.expectation,
		succeeded,
		failed,
		requests,
		tokenRequests,
		ms,
		peakRssGrowth,
		errorTexts,
		secretFree,
		met,
		verdict,
	};
}

export const DRILL_KEYS = drills().map((drill) => drill.key);

/** Runs the drills (those in `only`, when given) one after the other, each with a client of its own. */
export async function runFaultDrills(onResult: (result: DrillResult) => void, only?: Set<string>): Promise<DrillResult[]> {
	const list = drills().filter((drill) => !only || only.has(drill.key));
	const sandbox = await RemoteSandbox.start({ products: ITEMS, rateLimits: false, clients: list.length });
	try {
		const results: DrillResult[] = [];
		for (const drill of list) {
			const result = await runDrill(sandbox, sandbox.freshClient(), drill);
			onResult(result);
			results.push(result);
		}
		return results;
	} finally {
		await sandbox.close();
	}
}

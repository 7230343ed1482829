/**
 * Shared pieces of the trigger tests: a clock the trigger and the sandbox share, and polls run
 * through n8n-core's real poll path (test/harness `runPoll`) with static data carried from one
 * poll to the next as JSON, the way n8n stores it.
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { startSandbox, type Sandbox, type SandboxOptions } from '../../sandbox';
import { TestCredentialsHelper, runPoll, sandboxCredential, type PollRunResult, type RunPollOptions } from '../harness';

export const TRIGGER_TYPE = 'marketplaceMerchantTrigger';
export const CREDENTIAL_TYPE = 'marketplaceMerchantApi';
export const MINUTE = 60_000;
export const DAY = 86_400_000;

/**
 * The trigger reads the time from `Date`, and so does the sandbox clock (real time plus an
 * offset, zero when the sandbox starts without `now`). Faking `Date` alone, and nothing that
 * schedules, lets a test set the time of both at once while sleeps, retries and sockets run on
 * real timers.
 */
export function useSharedClock(start: string): void {
	jest.useFakeTimers({
		now: new Date(start),
		doNotFake: [
			'hrtime',
			'nextTick',
			'performance',
			'queueMicrotask',
			'requestAnimationFrame',
			'cancelAnimationFrame',
			'requestIdleCallback',
			'cancelIdleCallback',
			'setImmediate',
			'clearImmediate',
			'setInterval',
			'clearInterval',
			'setTimeout',
			'clearTimeout',
		],
	});
}

export function setNow(date: string | number | Date): void {
	jest.setSystemTime(new Date(date));
}

export function advance(ms: number): void {
	jest.setSystemTime(Date.now() + ms);
}

export interface TriggerSandboxSetup {
	/** The shared clock's start (useSharedClock). */
	start: string;
	seed: number;
	/**
	 * 'file': one sandbox for the whole file, each test on its own stretch of time (`stretchMs`
	 * after the previous test's), with the sandbox's faults and log cleared. 'test': a new
	 * sandbox for every test, with the clock back at `start`.
	 */
	per: 'file' | 'test';
	stretchMs?: number;
	/** More sandbox options (products, …). */
	options?: SandboxOptions;
}

/**
 * The sandbox and shared clock of a trigger test file, set up and torn down around its tests.
 * `sandbox` always stands for the current sandbox (a new one per test with `per: 'test'`), so
 * tests use it as a plain Sandbox; `restart` replaces the current one for a test that needs
 * other options (e.g. a larger catalogue).
 */
export function useTriggerSandbox(setup: TriggerSandboxSetup): { sandbox: Sandbox; restart(options: SandboxOptions): Promise<void> } {
	let current: Sandbox | undefined;
	let testStart = Date.parse(setup.start);
	const open = async (options: SandboxOptions = {}) => {
		current = await startSandbox({ rateLimits: false, seed: setup.seed, ...setup.options, ...options });
	};

	beforeAll(async () => {
		useSharedClock(setup.start);
		if (setup.per === 'file') await open();
	});
	beforeEach(async () => {
		if (setup.per === 'test') {
			setNow(setup.start);
			await open();
			return;
		}
		testStart += setup.stretchMs ?? 0;
		setNow(testStart);
		current?.clearFaults();
		current?.clearLog();
	});
	afterEach(async () => {
		if (setup.per === 'test') await current?.close();
	});
	afterAll(async () => {
		if (setup.per === 'file') await current?.close();
		jest.useRealTimers();
	});

	const sandbox = new Proxy({} as Sandbox, {
		get(_target, key) {
			if (!current) throw new Error('The trigger sandbox is used outside a test');
			const value: unknown = Reflect.get(current, key, current);
			return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(current) : value;
		},
	});
	return {
		sandbox,
		async restart(options: SandboxOptions) {
			await current?.close();
			await open(options);
		},
	};
}

/** ISO timestamp `ms` from now, as the live service writes it (no zone, whole seconds). */
export function invoicedAt(ms: number): string {
	return new Date(Date.now() + ms).toISOString().slice(0, 19);
}

/** Polls one trigger node, keeping its static data between polls as n8n does (JSON in the database). */
export class TriggerUnderTest {
	staticData: IDataObject = {};
	readonly credentialsHelper = new TestCredentialsHelper();

	constructor(
		readonly sandbox: Sandbox,
		readonly parameters: INodeParameters,
		credentialOverrides: IDataObject = {},
	) {
		this.credentialsHelper.add(CREDENTIAL_TYPE, sandboxCredential(sandbox, credentialOverrides));
	}

	/** A scheduled poll; the static data it leaves becomes the next poll's. */
	async poll(options: Omit<RunPollOptions, 'staticData' | 'credentialsHelper' | 'mode'> = {}): Promise<PollRunResult> {
		const result = await runPoll(TRIGGER_TYPE, this.parameters, {
			...options,
			staticData: this.staticData,
			credentialsHelper: this.credentialsHelper,
		});
		this.staticData = result.staticData;
		return result;
	}

	/** "Fetch Test Event" in the editor. */
	async fetchTestEvent(): Promise<PollRunResult> {
		return await runPoll(TRIGGER_TYPE, this.parameters, {
			mode: 'manual',
			staticData: this.staticData,
			credentialsHelper: this.credentialsHelper,
		});
	}

	/** n8n restarted: only what was saved as JSON survives. */
	restart(): void {
		this.staticData = JSON.parse(JSON.stringify(this.staticData)) as IDataObject;
	}

	/** The trigger's own part of the static data. */
	get state(): IDataObject {
		return (this.staticData['node:Trigger'] ?? {}) as IDataObject;
	}
}

/** The items of a poll; fails the test when the poll raised an error. */
export function emittedItems(result: PollRunResult): INodeExecutionData[] {
	if (result.error) throw result.error;
	return result.emitted?.[0] ?? [];
}

function orderDetailsOf(json: IDataObject): IDataObject {
	return ((json.invoiceHeader as IDataObject | undefined)?.orderDetails ?? {}) as IDataObject;
}

/** Invoice ids (corrections: invoice numbers) of emitted items, in order, simplified (the default) or not. */
export function documentIds(items: INodeExecutionData[]): string[] {
	return items.map(({ json }) => {
		const fields = json.invoiceHeader === undefined ? json : orderDetailsOf(json);
		return String(json.event === 'invoiceCorrection' ? fields.invoiceNumber : fields.invoiceId);
	});
}

/** Requests the trigger sent to a route, with their query, oldest first. */
export function requestsTo(sandbox: Sandbox, route: 'invoices' | 'invoiceCorrections' | 'invoiceUrls' | 'invoiceCorrectionUrls') {
	return sandbox.log.filter((entry) => entry.route === route);
}

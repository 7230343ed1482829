/**
 * Saves docs/node-in-editor.png: the stock sync example, with the Marketplace Merchant node, in
 * n8n's editor. Run through scripts/screenshot.sh (installs Debian's chromium when missing):
 *
 *   scripts/screenshot.sh            or   npm exec -- tsx scripts/screenshot.ts
 *
 * Starts what `npm run dev` starts, drives a headless chromium over the DevTools protocol
 * (Node's own WebSocket, no browser library): signs in through n8n's login endpoint from the page,
 * opens the workflow, waits for its nodes on the canvas and captures the page.
 *
 * Environment: CHROMIUM (default `chromium` on PATH), SCREENSHOT_WORKFLOW (default the stock sync
 * example), SCREENSHOT_OUT (default docs/node-in-editor.png).
 */
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { E2E_OWNER } from '../e2e/n8n';
import { spawnManaged, tail, type ManagedProcess } from '../e2e/processes';
import { startDevEnvironment } from './n8n-dev';

const OUTPUT = path.resolve(process.env.SCREENSHOT_OUT ?? path.join(__dirname, '..', 'docs', 'node-in-editor.png'));
const WORKFLOW_ID = process.env.SCREENSHOT_WORKFLOW ?? 'exampleStockSync';
const VIEWPORT = { width: 1200, height: 640 };
const CHROMIUM_FLAGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
	'--remote-debugging-address=127.0.0.1',
	'--remote-debugging-port=0',
	`--window-size=${VIEWPORT.width},${VIEWPORT.height}`,
];

async function sleep(ms: number): Promise<void> {
	await new Promise((resolve) => setTimeout(resolve, ms));
}

async function waitUntil<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		const value = await probe().catch(() => undefined);
		if (value !== undefined && value !== false) return value;
		await sleep(250);
	}
	throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

/** A minimal DevTools protocol client for one page. */
class DevToolsPage {
	private nextId = 1;
	private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();

	private constructor(private readonly socket: WebSocket) {
		socket.addEventListener('message', (event) => {
			const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: { message: string } };
			if (message.id === undefined) return;
			const waiter = this.pending.get(message.id);
			this.pending.delete(message.id);
			if (message.error) waiter?.reject(new Error(message.error.message));
			else waiter?.resolve(message.result);
		});
	}

	static async connect(url: string): Promise<DevToolsPage> {
		const socket = new WebSocket(url);
		await new Promise<void>((resolve, reject) => {
			socket.addEventListener('open', () => resolve(), { once: true });
			socket.addEventListener('error', () => reject(new Error(`cannot connect to ${url}`)), { once: true });
		});
		return new DevToolsPage(socket);
	}

	async send<T = Record<string, unknown>>(method: string, params: Record<string, unknown> = {}, timeoutMs = 30_000): Promise<T> {
		const id = this.nextId++;
		const answer = new Promise<T>((resolve, reject) => {
			this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
			setTimeout(() => {
				if (this.pending.delete(id)) reject(new Error(`${method} got no answer in ${timeoutMs} ms`));
			}, timeoutMs).unref();
		});
		this.socket.send(JSON.stringify({ id, method, params }));
		return await answer;
	}

	/** Evaluates an expression in the page (awaiting promises) and returns its JSON value. */
	async evaluate<T>(expression: string): Promise<T> {
		const { result, exceptionDetails } = await this.send<{ result: { value: T }; exceptionDetails?: { text: string } }>(
			'Runtime.evaluate',
			{ expression, awaitPromise: true, returnByValue: true },
		);
		if (exceptionDetails) throw new Error(`page script failed: ${exceptionDetails.text}`);
		return result.value;
	}

	close(): void {
		this.socket.close();
	}
}

/** Starts chromium and returns the DevTools WebSocket URL of its page. */
async function launchChromium(userDataDir: string): Promise<{ browser: ManagedProcess; pageUrl: string }> {
	const browser = spawnManaged(process.env.CHROMIUM ?? 'chromium', [...CHROMIUM_FLAGS, `--user-data-dir=${userDataDir}`, 'about:blank'], {
		env: process.env,
	});
	try {
		// Chromium writes the port it chose to this file once DevTools listens.
		const port = await waitUntil(
			'chromium DevTools',
			async () => (await readFile(path.join(userDataDir, 'DevToolsActivePort'), 'utf8')).split('\n')[0] || undefined,
			30_000,
		);
		const pageUrl = await waitUntil(
			'a chromium page',
			async () => {
				const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as Array<{ type: string; webSocketDebuggerUrl: string }>;
				return targets.find((target) => target.type === 'page')?.webSocketDebuggerUrl;
			},
			15_000,
		);
		return { browser, pageUrl };
	} catch (error) {
		await browser.stop(2_000);
		throw new Error(`${error instanceof Error ? error.message : String(error)}\n${tail(browser.output())}`);
	}
}

async function capture(baseUrl: string, page: DevToolsPage): Promise<Buffer> {
	await page.send('Page.enable');
	await page.send('Emulation.setDeviceMetricsOverride', { ...VIEWPORT, deviceScaleFactor: 1, mobile: false });
	await page.send('Page.navigate', { url: `${baseUrl}/signin` });
	await waitUntil('the sign-in page', async () => (await page.evaluate<string>('document.readyState')) === 'complete' || undefined, 30_000);

	// The auth cookie is bound to the browser id the editor keeps in localStorage.
	const status = await page.evaluate<number>(`(async () => {
		let browserId = localStorage.getItem('n8n-browserId');
		if (!browserId) { browserId = crypto.randomUUID(); localStorage.setItem('n8n-browserId', browserId); }
		const response = await fetch('/rest/login', {
			method: 'POST',
			headers: { 'content-type': 'application/json', 'browser-id': browserId },
			body: JSON.stringify(${JSON.stringify({ emailOrLdapLoginId: E2E_OWNER.email, password: E2E_OWNER.password })}),
		});
		return response.status;
	})()`);
	if (status !== 200) throw new Error(`sign-in from the page answered HTTP ${status}`);

	await page.send('Page.navigate', { url: `${baseUrl}/workflow/${WORKFLOW_ID}` });
	await waitUntil(
		'the workflow on the canvas',
		async () => (await page.evaluate<number>(`document.querySelectorAll('[data-test-id="canvas-node"]').length`)) >= 4 || undefined,
		60_000,
	);
	// Let the canvas fit the view and the node icons load.
	await sleep(2_500);
	const { data } = await page.send<{ data: string }>('Page.captureScreenshot', { format: 'png' });
	return Buffer.from(data, 'base64');
}

async function main(): Promise<void> {
	const environment = await startDevEnvironment();
	if (!environment) return;
	const userDataDir = await mkdtemp(path.join(tmpdir(), 'n8n-screenshot-chromium-'));
	let browser: ManagedProcess | undefined;
	let page: DevToolsPage | undefined;
	try {
		const launched = await launchChromium(userDataDir);
		browser = launched.browser;
		page = await DevToolsPage.connect(launched.pageUrl);
		await writeFile(OUTPUT, await capture(environment.server.baseUrl, page));
		console.log(`saved ${OUTPUT} (${Math.round((await stat(OUTPUT)).size / 1024)} KB)`);
	} finally {
		page?.close();
		await browser?.stop(5_000);
		await environment.stop();
		await rm(userDataDir, { recursive: true, force: true });
	}
}

main().catch((error: unknown) => {
	console.error(error instanceof Error ? error.message : error);
	process.exitCode = 1;
});

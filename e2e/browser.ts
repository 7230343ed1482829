/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error -- end-to-end suite code, run by tsx against a real n8n and never loaded by n8n: it may use process and timers, Node modules, plain errors (docs/architecture.md, Toolchain). */
/**
 * A headless chromium driven over the DevTools protocol (Node's own WebSocket, no browser
 * library), for what only n8n's real editor shows: the node creator's search (e2e/suite.ts) and
 * the README's screenshots (scripts/screenshot.ts). Elements are found by n8n's `data-test-id`
 * attributes and by the text a user reads; input goes in as real mouse and keyboard events.
 * Every wait is bounded.
 */
import { access, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';

import type { N8nOwner } from './n8n';
import { runCommand, spawnManaged, tail, type ManagedProcess } from './processes';

interface Viewport {
	width: number;
	height: number;
}

function chromiumFlags(viewport: Viewport): string[] {
	return [
		'--headless',
		'--no-sandbox',
		'--disable-gpu',
		'--disable-quic',
		'--no-first-run',
		'--disable-background-networking',
		'--disable-component-update',
		'--disable-sync',
		'--hide-scrollbars',
		'--remote-debugging-address=127.0.0.1',
		'--remote-debugging-port=0',
		`--window-size=${viewport.width},${viewport.height}`,
	];
}

/** `CHROMIUM` or Debian's `chromium` on PATH. */
function chromiumCommand(): string {
	return process.env.CHROMIUM ?? 'chromium';
}

async function onPath(command: string): Promise<boolean> {
	if (command.includes('/')) return await access(command).then(() => true, () => false);
	const result = await runCommand('sh', ['-c', `command -v "$0"`, command], { timeoutMs: 10_000, env: process.env });
	return result.exitCode === 0;
}

/**
 * Makes sure chromium is there: installs Debian's package with apt-get when it is missing (root
 * needed; about a minute on a fresh machine). Returns how long the install took, if one ran.
 */
export async function ensureChromium(log: (line: string) => void): Promise<number | undefined> {
	if (await onPath(chromiumCommand())) return undefined;
	if (userInfo().uid !== 0) throw new Error(`${chromiumCommand()} is missing: run as root or install it with apt-get install -y chromium`);
	log('installing chromium with apt-get (once per machine)');
	const startedAt = Date.now();
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	for (const args of [['update'], ['install', '-y', '--no-install-recommends', 'chromium']]) {
		const result = await runCommand('apt-get', args, { env, timeoutMs: 15 * 60_000 });
		if (result.exitCode !== 0) throw new Error(`apt-get ${args.join(' ')} failed:\n${tail(result.output)}`);
	}
	if (!(await onPath(chromiumCommand()))) throw new Error('apt-get finished, but chromium is still missing');
	return Date.now() - startedAt;
}

export async function sleep(ms: number): Promise<void> {
	await new Promise((resolve) => setTimeout(resolve, ms));
}

export async function waitUntil<T>(what: string, probe: () => Promise<T | null | undefined>, timeoutMs: number): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		const value = await probe().catch(() => undefined);
		if (value !== undefined && value !== null && value !== false) return value as T;
		await sleep(250);
	}
	throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

/** A minimal DevTools protocol client for one page. */
export class DevToolsPage {
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
		const { result, exceptionDetails } = await this.send<{ result: { value: T }; exceptionDetails?: { text: string; exception?: { description?: string } } }>(
			'Runtime.evaluate',
			{ expression, awaitPromise: true, returnByValue: true },
		);
		if (exceptionDetails) throw new Error(`page script failed: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`);
		return result.value;
	}

	async navigate(url: string): Promise<void> {
		await this.send('Page.navigate', { url });
		await waitUntil('the page to load', async () => (await this.evaluate<string>('document.readyState')) === 'complete' || undefined, 30_000);
	}

	/**
	 * Waits for the element `finder` (a page expression giving an Element or null) to be visible,
	 * scrolls it into view and returns the centre of its box.
	 */
	async locate(what: string, finder: string, timeoutMs = 20_000): Promise<{ x: number; y: number }> {
		return await waitUntil(
			what,
			() =>
				this.evaluate<{ x: number; y: number } | null>(`(() => {
					const element = ${finder};
					if (!element) return null;
					element.scrollIntoView({ block: 'center', inline: 'center' });
					const box = element.getBoundingClientRect();
					if (box.width === 0 || box.height === 0) return null;
					return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
				})()`),
			timeoutMs,
		);
	}

	/** A real mouse click (the editor's components listen to pointer events, not `element.click()`). */
	async click(what: string, finder: string, { clickCount = 1, timeoutMs = 20_000 } = {}): Promise<void> {
		const { x, y } = await this.locate(what, finder, timeoutMs);
		await this.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x, y });
		for (let count = 1; count <= clickCount; count++) {
			await this.send('Input.dispatchMouseEvent', { type: 'mousePressed', x, y, button: 'left', buttons: 1, clickCount: count });
			await this.send('Input.dispatchMouseEvent', { type: 'mouseReleased', x, y, button: 'left', buttons: 0, clickCount: count });
		}
	}

	async type(text: string): Promise<void> {
		await this.send('Input.insertText', { text });
	}

	async pressEscape(): Promise<void> {
		await this.press('Escape', 27);
	}

	/** Deletes the selection (or the character before the caret) in the focused field, as the key does. */
	async pressBackspace(): Promise<void> {
		await this.press('Backspace', 8);
	}

	private async press(key: string, keyCode: number): Promise<void> {
		for (const type of ['keyDown', 'keyUp']) {
			await this.send('Input.dispatchKeyEvent', { type, key, code: key, windowsVirtualKeyCode: keyCode });
		}
	}

	async capture(): Promise<Buffer> {
		const { data } = await this.send<{ data: string }>('Page.captureScreenshot', { format: 'png' });
		return Buffer.from(data, 'base64');
	}

	close(): void {
		this.socket.close();
	}
}

/** Page expressions that find elements. */
export const find = {
	testId: (id: string, within = 'document') => `${within}.querySelector('[data-test-id="${id}"]')`,
	/**
	 * The innermost element with exactly this text (trimmed) among `selector`, optionally inside the
	 * element `within`: how a user finds a button, an item or a label.
	 */
	byText: (selector: string, text: string, within = 'document') =>
		`[...${within}.querySelectorAll(${JSON.stringify(selector)})].reverse().find((element) => element.textContent.trim() === ${JSON.stringify(text)} && element.getClientRects().length > 0) ?? null`,
};

/** Signs the owner in from the page, as the sign-in form does. */
export async function signIn(page: DevToolsPage, baseUrl: string, owner: N8nOwner): Promise<void> {
	await page.navigate(`${baseUrl}/signin`);
	// The auth cookie is bound to the browser id the editor keeps in localStorage.
	const status = await page.evaluate<number>(`(async () => {
		let browserId = localStorage.getItem('n8n-browserId');
		if (!browserId) { browserId = crypto.randomUUID(); localStorage.setItem('n8n-browserId', browserId); }
		const response = await fetch('/rest/login', {
			method: 'POST',
			headers: { 'content-type': 'application/json', 'browser-id': browserId },
			body: JSON.stringify(${JSON.stringify({ emailOrLdapLoginId: owner.email, password: owner.password })}),
		});
		return response.status;
	})()`);
	if (status !== 200) throw new Error(`sign-in from the page answered HTTP ${status}`);
}

/** Starts chromium and returns the DevTools WebSocket URL of its page. */
async function launchChromium(userDataDir: string, viewport: Viewport): Promise<{ browser: ManagedProcess; pageUrl: string }> {
	const browser = spawnManaged(chromiumCommand(), [...chromiumFlags(viewport), `--user-data-dir=${userDataDir}`, 'about:blank'], {
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

export interface Browser {
	page: DevToolsPage;
	/** closes the page, stops chromium and removes its profile folder */
	close(): Promise<void>;
}

/** A headless chromium with one page of `viewport`'s size, in a throwaway profile. */
export async function openBrowser(viewport: Viewport): Promise<Browser> {
	const userDataDir = await mkdtemp(path.join(tmpdir(), 'n8n-e2e-chromium-'));
	let browser: ManagedProcess | undefined;
	let page: DevToolsPage | undefined;
	const close = async () => {
		page?.close();
		await browser?.stop(5_000);
		await rm(userDataDir, { recursive: true, force: true });
	};
	try {
		const launched = await launchChromium(userDataDir, viewport);
		browser = launched.browser;
		page = await DevToolsPage.connect(launched.pageUrl);
		await page.send('Page.enable');
		await page.send('Emulation.setDeviceMetricsOverride', { ...viewport, deviceScaleFactor: 1, mobile: false });
		return { page, close };
	} catch (error) {
		await close();
		throw error;
	}
}

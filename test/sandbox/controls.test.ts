/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions, @typescript-eslint/no-explicit-any -- test code, run by jest and never loaded by n8n: it may use process and timers, Node modules, child processes, `any` for untyped JSON bodies (docs/architecture.md, Toolchain). */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { startSandbox, type Sandbox } from '../../sandbox';
import { RateLimiter } from '../../sandbox/rate-limit';
import { ORDER_API, PAYMENT_API, PRODUCT_API, TOKEN_PATH, call, getToken, sleep, tokenRequest } from './helpers';

const NOW = '2025-06-15T10:00:00Z';

describe('sandbox: rate limits', () => {
	it('counts sliding windows per merchant and says when the next request fits', () => {
		const limiter = new RateLimiter({ scale: 1 });
		for (let i = 0; i < 5; i++) expect(limiter.check('a', 'products', 1000 + i * 10)).toEqual({ allowed: true });
		expect(limiter.check('a', 'products', 1100)).toEqual({ allowed: false, retryAfterMs: 900 });
		expect(limiter.check('b', 'products', 1100)).toEqual({ allowed: true });
		expect(limiter.check('a', 'orders', 1100)).toEqual({ allowed: true });
		expect(limiter.check('a', 'products', 2000)).toEqual({ allowed: true });
		expect(limiter.formatRetryAfter(900)).toBe('1');
		expect(limiter.formatRetryAfter(1001)).toBe('2');

		// 60 a minute: the 61st request waits for the first to leave the minute.
		const minute = new RateLimiter({ scale: 1 });
		for (let i = 0; i < 60; i++) expect(minute.check('a', 'discounts', i * 100).allowed).toBe(true);
		expect(minute.check('a', 'discounts', 6000)).toEqual({ allowed: false, retryAfterMs: 54_000 });
		expect(minute.check('a', 'discounts', 60_000).allowed).toBe(true);

		const scaled = new RateLimiter({ scale: 10 });
		for (let i = 0; i < 5; i++) scaled.check('a', 'products', i);
		expect(scaled.check('a', 'products', 50)).toEqual({ allowed: false, retryAfterMs: 50 });
		expect(scaled.formatRetryAfter(50)).toBe('0.05');
		expect(new RateLimiter(false).check('a', 'products', 0)).toEqual({ allowed: true });
	});

	it('answers 429 with Retry-After over HTTP and recovers', async () => {
		const sandbox = await startSandbox({ now: NOW, rateLimits: { scale: 1 } });
		const productTypes = `${PRODUCT_API}/product-type`;
		try {
			const token = await getToken(sandbox);
			/** Sequential requests until the first 429 (bounded below every per-minute limit). */
			const untilLimited = async (path: string, attempts: number) => {
				for (let attempt = 1; attempt <= attempts; attempt++) {
					const answer = await call(sandbox, 'GET', path, { token });
					if (answer.status === 429) return { answer, attempt };
					expect(answer.status).toBe(200);
				}
				throw new Error(`no 429 within ${attempts} requests`);
			};

			const live = await untilLimited(productTypes, 20);
			expect(live.attempt).toBeGreaterThanOrEqual(6);
			expect(live.answer.headers.get('retry-after')).toBe('1');
			expect(live.answer.json).toEqual({ message: expect.any(String) });
			expect(sandbox.log.filter((entry) => entry.route === 'productTypes' && entry.status === 429)).toHaveLength(1);
			// Tokens and the other route groups are not affected.
			expect((await call(sandbox, 'POST', TOKEN_PATH, { body: tokenRequest(sandbox) })).status).toBe(200);
			expect((await call(sandbox, 'GET', `${ORDER_API}/merchant-warehouses`, { token })).status).toBe(200);

			// Scale 10: 5 requests per 100 ms (and 60 per 6 s, which 50 requests cannot reach).
			sandbox.setRateLimits({ scale: 10 });
			const scaled = await untilLimited(productTypes, 50);
			const retryAfter = Number(scaled.answer.headers.get('retry-after'));
			expect(retryAfter).toBeGreaterThan(0);
			expect(retryAfter).toBeLessThanOrEqual(0.1);
			await sleep(retryAfter * 1000 + 5);
			expect((await call(sandbox, 'GET', productTypes, { token })).status).toBe(200);

			sandbox.setRateLimits(false);
			const unlimited = await Promise.all(Array.from({ length: 20 }, () => call(sandbox, 'GET', productTypes, { token })));
			expect(unlimited.every((answer) => answer.status === 200)).toBe(true);
		} finally {
			await sandbox.close();
		}
	});
});

describe('sandbox: faults, log and HTTP controls', () => {
	let sandbox: Sandbox;
	let token: string;
	const warehouses = `${ORDER_API}/merchant-warehouses`;

	beforeAll(async () => {
		sandbox = await startSandbox({ now: NOW, rateLimits: false });
		token = await getToken(sandbox);
	});
	afterAll(() => sandbox.close());
	beforeEach(() => sandbox.clearLog());

	it('injects status faults for the next requests of a route', async () => {
		sandbox.injectFault({ route: 'warehouses', status: 503, count: 2, retryAfterSeconds: 0.5 });
		const other = await call(sandbox, 'GET', `${PRODUCT_API}/product-type`, { token });
		expect(other.status).toBe(200);
		const first = await call(sandbox, 'GET', warehouses, { token });
		const second = await call(sandbox, 'GET', warehouses);
		const third = await call(sandbox, 'GET', warehouses, { token });
		expect([first.status, second.status, third.status]).toEqual([503, 503, 200]);
		expect(first.headers.get('retry-after')).toBe('0.5');
		expect(first.json).toEqual({ message: 'Service Unavailable' });
		expect(sandbox.log.map((entry) => [entry.route, entry.status])).toEqual([
			['productTypes', 200],
			['warehouses', 503],
			['warehouses', 503],
			['warehouses', 200],
		]);
		expect(sandbox.count('warehouses')).toBe(3);
	});

	it('answers HTML gateway pages, broken JSON and XML bombs', async () => {
		sandbox.injectFault({ body: 'html', count: 1 });
		const html = await call(sandbox, 'GET', warehouses, { token });
		expect(html.status).toBe(502);
		expect(html.headers.get('content-type')).toMatch(/text\/html/);
		expect(html.text).toContain('502 Bad Gateway');

		sandbox.injectFault({ route: 'invoices', body: 'malformed-json', count: 1 });
		const broken = await call(sandbox, 'GET', `${ORDER_API}/invoices?dateFrom=2025-06-01T00:00:00Z&dateTo=2025-06-02T00:00:00Z`, { token });
		expect(broken.status).toBe(200);
		expect(() => JSON.parse(broken.text)).toThrow();

		sandbox.injectFault({ route: 'invoices', body: 'xml-bomb', count: 1 });
		const bomb = await call(sandbox, 'GET', `${ORDER_API}/invoices?dateFrom=2025-06-01T00:00:00Z&dateTo=2025-06-02T00:00:00Z`, {
			token,
			headers: { Accept: 'application/xml' },
		});
		expect(bomb.status).toBe(200);
		expect(bomb.headers.get('content-type')).toMatch(/application\/xml/);
		expect(bomb.text).toContain('<!ENTITY lol9 "&lol8;&lol8;');
		expect(bomb.text.match(/<!ENTITY /g)).toHaveLength(10);
		// A parser that does not expand entities reads it as an ordinary list.
		const parsed = new XMLParser({ processEntities: false }).parse(bomb.text);
		expect(parsed.List.item.invoiceHeader.invoiceType).toBe('&lol9;');
	});

	it('delays answers', async () => {
		sandbox.injectFault({ route: 'warehouses', delayMs: 300, count: 1 });
		const started = Date.now();
		const delayed = await call(sandbox, 'GET', warehouses, { token });
		expect(delayed.status).toBe(200);
		expect(Date.now() - started).toBeGreaterThanOrEqual(290);
	});

	it('clears the log of requests that arrived before clearLog, also when they are answered after it', async () => {
		sandbox.injectFault({ route: 'warehouses', delayMs: 300, count: 1 });
		const delayed = call(sandbox, 'GET', warehouses, { token });
		await sleep(100);
		sandbox.clearLog();
		expect((await delayed).status).toBe(200);
		expect(sandbox.count('warehouses')).toBe(0);
		expect((await call(sandbox, 'GET', warehouses, { token })).status).toBe(200);
		expect(sandbox.count('warehouses')).toBe(1);
	});

	it('logs every request with route, query, status, item count and body size', async () => {
		await call(sandbox, 'GET', `${PRODUCT_API}/products?size=3&search=a`, { token });
		await call(sandbox, 'POST', `${PRODUCT_API}/ean/exists`, { body: ['1', '2'] });
		await call(sandbox, 'GET', '/no/such/route', { token });
		expect(sandbox.log).toEqual([
			{ at: expect.any(Number), method: 'GET', path: `${PRODUCT_API}/products`, route: 'products', query: { size: '3', search: 'a' }, status: 200, bodyBytes: 0 },
			{ at: expect.any(Number), method: 'POST', path: `${PRODUCT_API}/ean/exists`, route: 'eanExists', query: {}, status: 401, itemCount: 2, bodyBytes: 9 },
			{ at: expect.any(Number), method: 'GET', path: '/no/such/route', route: 'unknown', query: {}, status: 404, bodyBytes: 0 },
		]);
	});

	it('offers the controls over HTTP under /__sandbox/', async () => {
		const control = (method: string, action: string, body?: unknown) => call(sandbox, method, `/__sandbox/${action}`, { body });
		expect((await control('POST', 'clock', { set: '2025-07-01T08:00:00Z' })).json.now).toMatch(/^2025-07-01T08:00:0/);
		expect((await control('POST', 'clock', { advanceMs: 3_600_000 })).json.now).toMatch(/^2025-07-01T09:00:0/);
		expect(sandbox.clock.now().toISOString()).toMatch(/^2025-07-01T09:00:0/);

		const created = await control('POST', 'invoices', {
			overrides: { invoiceHeader: { orderDetails: { invoicedDate: '2025-06-30T12:00:00' } } },
			visibleAt: '2025-07-01T10:00:00Z',
		});
		const invoiceId = created.json.invoiceHeader.orderDetails.invoiceId;
		const listPath = `${ORDER_API}/invoices?dateFrom=2025-06-30T00:00:00Z&dateTo=2025-07-01T00:00:00Z`;
		const ids = async () => (await call(sandbox, 'GET', listPath, { token })).json.map((invoice: any) => invoice.invoiceHeader.orderDetails.invoiceId);
		expect(await ids()).not.toContain(invoiceId);
		await control('POST', 'clock', { advanceMs: 3_600_000 });
		expect(await ids()).toContain(invoiceId);
		const correction = await control('POST', 'invoice-corrections', { invoiceHeader: { invoiceType: 'NON_FISCAL' } });
		expect(correction.json.invoiceHeader).toMatchObject({ invoiceType: 'NON_FISCAL', fiscalDetails: { invoiceCounter: null } });

		await control('POST', 'faults', { route: 'warehouses', status: 500, count: 1 });
		expect((await call(sandbox, 'GET', warehouses, { token })).status).toBe(500);
		expect((await control('POST', 'faults', { route: 'nope', count: 1 })).status).toBe(400);

		await control('POST', 'token-lifetime', { seconds: 0.2 });
		const shortToken = await getToken(sandbox);
		await sleep(250);
		expect((await call(sandbox, 'GET', warehouses, { token: shortToken })).status).toBe(401);
		await control('POST', 'token-lifetime', { seconds: 900 });
		const fresh = await getToken(sandbox);
		await control('POST', 'expire-tokens');
		expect((await call(sandbox, 'GET', warehouses, { token: fresh })).status).toBe(401);
		token = await getToken(sandbox);

		expect((await control('POST', 'rate-limits', { scale: 10 })).json).toEqual({ rateLimits: { scale: 10 } });
		expect((await control('POST', 'rate-limits', false)).json).toEqual({ rateLimits: false });

		const log = await control('GET', 'log?route=warehouses');
		expect(log.json.map((entry: { status: number }) => entry.status)).toEqual([500, 401, 401]);
		const state = await control('GET', 'state/warehouses');
		expect(state.json).toEqual(sandbox.state.warehouses);
		expect((await control('GET', 'state/discounts')).json).toHaveLength(sandbox.state.discounts.length);
		expect((await control('GET', 'state/nothing')).status).toBe(404);
		expect(sandbox.count('control')).toBeGreaterThan(5);
		await control('DELETE', 'log');
		expect(sandbox.log).toHaveLength(0);
		sandbox.clock.set(NOW);
	});

	it('caps the request log', async () => {
		const small = await startSandbox({ rateLimits: false, logLimit: 10 });
		try {
			for (let i = 0; i < 30; i++) await call(small, 'GET', `/__sandbox/clock`);
			expect(small.log.length).toBeLessThanOrEqual(11);
			expect(small.log.length).toBeGreaterThanOrEqual(10);
		} finally {
			await small.close();
		}
	});
});

describe('sandbox: the service host (variant warehousesAndPricesOn)', () => {
	const warehouses = `${ORDER_API}/merchant-warehouses`;
	const prices = `${PAYMENT_API}/prices?merchantInventoryIds=100001&dateFrom=15%2F06%2F2025`;

	it('serves warehouses and prices on the main host, the service host or both, with the same tokens and limits', async () => {
		const sandbox = await startSandbox({ now: NOW, rateLimits: false });
		try {
			const token = await getToken(sandbox);
			const service = { url: sandbox.serviceUrl };
			expect(sandbox.serviceUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
			expect(sandbox.serviceUrl).not.toBe(sandbox.url);
			const statuses = async () => [
				(await call(sandbox, 'GET', warehouses, { token })).status,
				(await call(sandbox, 'GET', prices, { token })).status,
				(await call(service, 'GET', warehouses, { token })).status,
				(await call(service, 'GET', prices, { token })).status,
			];

			// Default: as the reference, the service host serves nothing.
			expect(await statuses()).toEqual([200, 200, 404, 500]);
			sandbox.setVariants({ warehousesAndPricesOn: 'both' });
			expect(await statuses()).toEqual([200, 200, 200, 200]);
			sandbox.setVariants({ warehousesAndPricesOn: 'service' });
			expect(await statuses()).toEqual([404, 500, 200, 200]);

			// The main host answers as Spring does for a path it does not map.
			const unmapped = await call(sandbox, 'GET', warehouses, { token });
			expect(unmapped.json).toEqual({ message: 'No static resource order/api/v1/merchant-integration/merchant-warehouses.' });
			expect((await call(sandbox, 'GET', prices, { token })).json).toEqual({ message: 'No static resource payment/api/v1/merchant-integration/prices.' });
			// The service host serves nothing else, not even tokens; it checks the main host's tokens.
			expect((await call(service, 'GET', `${PRODUCT_API}/product-type`, { token })).status).toBe(404);
			expect((await call(service, 'POST', TOKEN_PATH, { body: tokenRequest(sandbox) })).status).toBe(404);
			expect((await call(service, 'GET', warehouses, { token: 'not-a-token' })).status).toBe(401);
			expect(sandbox.log.filter((entry) => entry.host === 'service').length).toBeGreaterThan(0);
			expect(sandbox.log.at(-1)).toMatchObject({ route: 'warehouses', status: 401, host: 'service' });
			expect(sandbox.log.filter((entry) => entry.route === 'warehouses' && entry.host === undefined).map((entry) => entry.status)).toEqual([200, 200, 404, 404]);

			// Over HTTP: the switch, and the service host's URL.
			const control = (method: string, action: string, body?: unknown) => call(sandbox, method, `/__sandbox/${action}`, { body });
			expect((await control('GET', 'info')).json.serviceUrl).toBe(sandbox.serviceUrl);
			expect((await control('POST', 'variants', { warehousesAndPricesOn: 'main' })).json.variants.warehousesAndPricesOn).toBe('main');
			expect((await call(sandbox, 'GET', warehouses, { token })).status).toBe(200);

			// One budget for both hosts: limits are the merchant's, wherever a request arrives.
			sandbox.setVariants({ warehousesAndPricesOn: 'both' });
			sandbox.setRateLimits({ scale: 1 });
			const answers = await Promise.all(Array.from({ length: 6 }, (_, index) => call(index % 2 ? service : sandbox, 'GET', warehouses, { token })));
			expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 200, 200, 200, 429]);
		} finally {
			await sandbox.close();
		}
	});
});

describe('sandbox: npm run sandbox', () => {
	it('starts on the given port, prints the credentials and stops on SIGTERM', async () => {
		const root = path.resolve(__dirname, '../..');
		// Node itself with tsx's loader, not the tsx command: that one runs the script in a child process
		// and relays signals, and a SIGTERM that came before its relay was set up killed it (exit 143)
		// on a busy machine. This way the signal reaches the sandbox's own handler.
		const child = spawn(process.execPath, ['--import', 'tsx', 'sandbox/cli.ts', '--port', '0'], {
			cwd: root,
			env: { ...process.env, SANDBOX_PORT: '1' },
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let output = '';
		child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
		const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
		try {
			for (let waited = 0; !/Press Ctrl-C/.test(output) && waited < 10_000; waited += 50) await sleep(50);
			expect(output).toContain('Client ID:     sandbox-client');
			expect(output).toContain('Client secret: sandbox-secret');
			const url = /Base URL:\s+(\S+)/.exec(output)![1];
			expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
			expect(/Service host:\s+(\S+)/.exec(output)?.[1]).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
			const token = await fetch(`${url}${TOKEN_PATH}`, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
				body: JSON.stringify({ grantType: 'CLIENT_CREDENTIALS', clientId: 'sandbox-client', clientSecret: 'sandbox-secret', scope: 'public_api/full_access' }),
			});
			expect(token.status).toBe(200);
		} finally {
			child.kill('SIGTERM');
		}
		expect(await exited).toBe(0);
	}, 20_000);
});

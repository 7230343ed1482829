/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console -- sandbox code (the service twin tests and the bench run) and never loaded by n8n: it may use process and timers, Node modules, console output (docs/architecture.md, Toolchain). */
/**
 * The HTTP server. Every request goes through the same steps: the host (main or service, below),
 * injected fault, body size, token, permission, rate limit, route; then the answer is logged and sent.
 * The sandbox runs two of them on one core (same state, tokens and limits): the main host and the
 * environment's service host.
 */
import { STATUS_CODES, createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { shapeAnswer } from './answer-variants';
import type { SandboxCore } from './core';
import { FaultQueue } from './faults';
import { HttpError, MAX_BODY_BYTES, queryObject, readBody, type RequestBody } from './http';
import { ROUTE_GROUPS } from './rate-limit';
import { gzipBomb, hugeJsonList, trickle } from './hostile-bodies';
import type { RouteContext, RouteDefinition, RouteResult } from './route';
import { matchRoute } from './router';
import type { FaultSpec, RequestLogEntry, RouteKey } from './types';
import type { SandboxVariants } from './variants';
import { XML_BOMB } from './xml';

const HOST = '127.0.0.1';

const BAD_GATEWAY_PAGE =
	'<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head>' +
	'<body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>\n';

/** A list answer cut off mid-way, as a dropped upstream connection leaves it. */
const MALFORMED_JSON = '[{"invoiceHeader":{"invoiceType":"FISCAL","orderDetails":{"invoiceId":"7f3c1d2e-';

/** What a careless service puts in an error: the credentials it was sent, in its message and a field of its own. */
function echoCredentials(context: RouteContext): { message: string; received: Record<string, unknown> } {
	const received = {
		authorization: context.headers.authorization ?? null,
		apiKey: context.headers['x-api-key'] ?? null,
		body: context.body.text ?? null,
	};
	return {
		message: `Request rejected. Authorization: ${String(received.authorization)}; X-API-Key: ${String(received.apiKey)}; body: ${String(received.body)}`,
		received,
	};
}

function faultAnswer(fault: FaultSpec, context: RouteContext): RouteResult {
	const headers: Record<string, string> =
		fault.retryAfterSeconds === undefined ? {} : { 'Retry-After': String(fault.retryAfterSeconds) };
	switch (fault.body) {
		case 'reset':
			return { status: 0, reset: true };
		case 'echo-credentials':
			return { status: fault.status ?? 400, json: echoCredentials(context), headers };
		case 'gzip-bomb':
			return { status: fault.status ?? 200, stream: gzipBomb(fault.sizeBytes), headers: { ...headers, 'Content-Encoding': 'gzip' } };
		case 'huge-json':
			return { status: fault.status ?? 200, stream: hugeJsonList(fault.sizeBytes), headers };
		case 'trickle':
			return { status: fault.status ?? 200, stream: trickle(fault.sizeBytes), headers };
		case 'html':
			return { status: fault.status ?? 502, body: BAD_GATEWAY_PAGE, contentType: 'text/html', headers };
		case 'malformed-json':
			return { status: fault.status ?? 200, body: MALFORMED_JSON, contentType: 'application/json', headers };
		case 'xml-bomb':
			return { status: fault.status ?? 200, body: XML_BOMB, contentType: 'application/xml', headers };
		default: {
			const status = fault.status ?? (fault.applyThen ? 503 : 500);
			return { status, json: { message: fault.message ?? STATUS_CODES[status] ?? 'Injected fault' }, headers };
		}
	}
}

/** Which of the environment's hosts a server is: the Base URL's, or the service host. */
export type SandboxHost = 'main' | 'service';

/** What the service host serves when variants.ts `warehousesAndPricesOn` says so; nothing else. */
const SERVICE_HOST_ROUTES: ReadonlySet<RouteKey> = new Set(['warehouses', 'prices']);

function servedOn(host: SandboxHost, route: RouteKey | undefined, on: SandboxVariants['warehousesAndPricesOn']): boolean {
	const serviceRoute = route !== undefined && SERVICE_HOST_ROUTES.has(route);
	if (host === 'service') return serviceRoute && on !== 'main';
	return !serviceRoute || on !== 'service';
}

/**
 * Spring's answer for a path no handler maps (404, `No static resource <path>.`); prices 500, as
 * a production client saw on the main staging host, where a catch-all handler turns it into a 500.
 */
function noStaticResource(route: RouteKey | undefined, path: string): RouteResult {
	return { status: route === 'prices' ? 500 : 404, json: { message: `No static resource ${path.replace(/^\/+/, '')}.` } };
}

function errorAnswer(error: unknown): RouteResult {
	if (error instanceof HttpError) return { status: error.status, json: { message: error.message }, headers: error.headers };
	console.error('sandbox: unexpected error', error);
	return { status: 500, json: { message: 'Internal server error' } };
}

export class SandboxServer {
	private readonly server: Server;
	/** Pending fault delays, released at once on close. */
	private readonly delays = new Set<() => void>();

	constructor(
		private readonly core: SandboxCore,
		private readonly host: SandboxHost = 'main',
	) {
		this.server = createServer((request, response) => {
			this.serve(request, response).catch((error: unknown) => {
				// A client that hung up mid-request needs no answer.
				if (request.destroyed || response.destroyed) return;
				console.error('sandbox: failed to answer', error);
				if (!response.headersSent) response.writeHead(500).end();
			});
		});
	}

	async listen(port: number): Promise<number> {
		await new Promise<void>((resolve, reject) => {
			this.server.once('error', reject);
			this.server.listen(port, HOST, () => {
				this.server.off('error', reject);
				resolve();
			});
		});
		return (this.server.address() as AddressInfo).port;
	}

	async close(): Promise<void> {
		for (const release of this.delays) release();
		this.delays.clear();
		const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
		this.server.closeAllConnections();
		await closed;
	}

	private async serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
		const arrivedAt = Date.now();
		const method = request.method ?? 'GET';
		const url = new URL(request.url ?? '/', 'http://sandbox.local');
		const body = await readBody(request);
		const match = matchRoute(method, url.pathname);
		const route = match.kind === 'route' ? match.route : undefined;
		const context: RouteContext = {
			core: this.core,
			method,
			path: url.pathname,
			params: match.kind === 'route' ? match.params : {},
			query: url.searchParams,
			headers: request.headers,
			body,
		};

		let result: RouteResult;
		if (!servedOn(this.host, route?.key, this.core.variants.current.warehousesAndPricesOn)) {
			// Not the API's answer: no fault, token or limit, and no answer variant reshapes it.
			result = noStaticResource(route?.key, url.pathname);
		} else {
			try {
				if (match.kind === 'none') throw new HttpError(404, `No route for ${method} ${url.pathname}`);
				if (match.kind === 'method-not-allowed') throw new HttpError(405, `Method ${method} not allowed on ${url.pathname}`);
				result = await this.answer(match.route, context);
			} catch (error) {
				result = errorAnswer(error);
			}
			if (route) result = shapeAnswer(result, route.key, this.core.variants.current);
		}

		const status = result.status ?? 200;
		if (!result.skipLog) {
			const entry: RequestLogEntry = {
				at: arrivedAt,
				method,
				path: url.pathname,
				route: route?.key ?? 'unknown',
				query: queryObject(url.searchParams),
				status,
				bodyBytes: body.bytes,
			};
			if (this.host === 'service') entry.host = 'service';
			if (result.appliedStatus !== undefined) entry.appliedStatus = result.appliedStatus;
			const itemCount = route?.itemCount ? safeItemCount(route, context) : undefined;
			if (itemCount !== undefined) entry.itemCount = itemCount;
			this.core.log.add(entry);
		}
		if (response.destroyed) return;
		if (result.reset) {
			request.socket.destroy();
			return;
		}
		if (result.stream) {
			await this.sendStream(response, status, result);
			return;
		}
		const payload = result.body ?? JSON.stringify(result.json ?? null);
		const latency = this.core.variants.current.latency;
		if (latency && route && route.key !== 'control') {
			const jitterMs = latency.jitterMs ? Math.random() * latency.jitterMs : 0;
			await this.delay(latency.fixedMs + (latency.perKiBMs * Buffer.byteLength(payload)) / 1024 + jitterMs);
		}
		if (response.destroyed) return;
		response.writeHead(status, {
			'Content-Type': result.contentType ?? 'application/json',
			'Content-Length': Buffer.byteLength(payload),
			...result.headers,
		});
		response.end(payload);
	}

	private async answer(route: RouteDefinition, context: RouteContext): Promise<RouteResult> {
		if (route.key !== 'control') {
			const fault = this.core.faults.take(route.key);
			if (fault?.delayMs) await this.delay(fault.delayMs);
			if (fault && FaultQueue.answers(fault)) return faultAnswer(fault, context);
		}
		if (context.body.text === undefined) {
			throw new HttpError(413, `Request body exceeds ${MAX_BODY_BYTES / 1024 / 1024} MiB`);
		}
		if (route.authenticated) this.admit(route, context);
		const after = route.key === 'control' ? undefined : this.core.faults.take(route.key, 'after');
		if (!after) return route.handle(context);
		// Applied, then answered badly: what a gateway timing out on a slow write leaves the client with.
		let applied: RouteResult;
		try {
			applied = await route.handle(context);
		} catch (error) {
			applied = errorAnswer(error);
		}
		if (after.delayMs) await this.delay(after.delayMs);
		return { ...faultAnswer(after, context), appliedStatus: applied.status ?? 200 };
	}

	/** Token, permission and rate limit checks, in the live service's order. */
	private admit(route: RouteDefinition, context: RouteContext): void {
		const header = context.headers.authorization ?? '';
		const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
		const unauthorized = { 'WWW-Authenticate': 'Bearer' };
		if (!token) throw new HttpError(401, 'Missing bearer token', unauthorized);
		const clientId = this.core.tokens.clientOf(token);
		if (clientId === undefined) throw new HttpError(401, 'Invalid or expired token', unauthorized);
		const client = this.core.clients.find((candidate) => candidate.clientId === clientId);
		if (client?.deniedRoutes?.includes(route.key)) throw new HttpError(403, 'Access denied for this token');
		const group = ROUTE_GROUPS[route.key];
		if (!group) return;
		const decision = this.core.rateLimiter.check(clientId, group);
		if (!decision.allowed) {
			const retryAfter = this.core.rateLimiter.formatRetryAfter(decision.retryAfterMs);
			throw new HttpError(429, 'Too many requests', retryAfter === undefined ? {} : { 'Retry-After': retryAfter });
		}
	}

	/** Writes a streamed answer as the client reads it; stops when the client hangs up. */
	private async sendStream(response: ServerResponse, status: number, result: RouteResult): Promise<void> {
		response.writeHead(status, { 'Content-Type': result.contentType ?? 'application/json', ...result.headers });
		for await (const chunk of result.stream ?? []) {
			if (response.destroyed) return;
			if (!response.write(chunk)) await drainedOrClosed(response);
		}
		if (!response.destroyed) response.end();
	}

	private delay(ms: number): Promise<void> {
		return new Promise((resolve) => {
			const release = () => {
				clearTimeout(timer);
				this.delays.delete(release);
				resolve();
			};
			const timer = setTimeout(release, ms);
			this.delays.add(release);
		});
	}
}

/** Resolves when the response can take more or is gone, leaving no listener behind. */
async function drainedOrClosed(response: ServerResponse): Promise<void> {
	await new Promise<void>((resolve) => {
		const done = () => {
			response.off('drain', done);
			response.off('close', done);
			resolve();
		};
		response.on('drain', done);
		response.on('close', done);
	});
}

function safeItemCount(route: RouteDefinition, context: { body: RequestBody; query: URLSearchParams }): number | undefined {
	try {
		return route.itemCount?.(context);
	} catch {
		return undefined;
	}
}

/* eslint-disable @n8n/community-nodes/no-restricted-imports -- sandbox code (the service twin tests and the bench run) and never loaded by n8n: it may use Node modules (docs/architecture.md, Toolchain). */
/** The shape of a route: what it matches, whether it needs a token, and how it answers. */
import type { IncomingHttpHeaders } from 'node:http';
import type { SandboxCore } from './core';
import type { RequestBody } from './http';
import type { RouteKey } from './types';

export interface RouteContext {
	core: SandboxCore;
	method: string;
	path: string;
	/** Named groups of the route's pattern, URL-decoded. */
	params: Record<string, string>;
	query: URLSearchParams;
	headers: IncomingHttpHeaders;
	body: RequestBody;
}

export interface RouteResult {
	status?: number;
	/** Sent as JSON unless `body` or `xml` is given. */
	json?: unknown;
	/** Sent as XML (Jackson's rendering, in the list and null style the variants choose). */
	xml?: unknown;
	body?: string | Buffer;
	/** Sent chunk by chunk instead of `body`, for answers too large to hold (no Content-Length). */
	stream?: AsyncIterable<Buffer>;
	/** Close the connection instead of answering (a connection reset, as the client sees it). */
	reset?: boolean;
	contentType?: string;
	headers?: Record<string, string>;
	/** Left out of the request log (reading or clearing the log must not change it). */
	skipLog?: boolean;
	/** The route's own status when an `applyThen` fault replaced its answer (logged). */
	appliedStatus?: number;
}

export interface RouteDefinition {
	key: RouteKey;
	method: string;
	pattern: RegExp;
	/** Needs a live bearer token (and is rate limited by its route group). */
	authenticated: boolean;
	handle(context: RouteContext): RouteResult | Promise<RouteResult>;
	/** Items in the request, for the log; must not throw on bad input. */
	itemCount?(context: Pick<RouteContext, 'body' | 'query'>): number | undefined;
}

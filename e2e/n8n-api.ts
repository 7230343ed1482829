/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- end-to-end suite code, run by tsx against a real n8n and never loaded by n8n: it may use process and timers, Node modules (docs/architecture.md, Toolchain). */
/**
 * HTTP clients for a running n8n: the internal REST API with an owner's browser session (only to
 * create an API key) and the public API (`/api/v1`, header X-N8N-API-KEY) for workflows and
 * executions.
 */
import assert from 'node:assert/strict';

import type { N8nOwner } from './n8n';

const REQUEST_TIMEOUT_MS = 10_000;

/** Cookie and browser-id of a logged-in user; n8n binds its auth cookie to the browser-id header. */
export class N8nOwnerSession {
	private constructor(
		private readonly baseUrl: string,
		private readonly cookie: string,
		private readonly browserId: string,
	) {}

	static async login(baseUrl: string, owner: N8nOwner): Promise<N8nOwnerSession> {
		const browserId = `e2e-${process.pid}-${Date.now()}`;
		const response = await fetch(`${baseUrl}/rest/login`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', 'browser-id': browserId },
			body: JSON.stringify({ emailOrLdapLoginId: owner.email, password: owner.password }),
			signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
		});
		await response.arrayBuffer();
		// Status only: the body may carry user details, never the password, but stay terse.
		if (response.status !== 200) throw new Error(`n8n login as ${owner.email} failed with HTTP ${response.status}`);
		const authCookie = response.headers.getSetCookie().find((cookie) => cookie.startsWith('n8n-auth='));
		if (!authCookie) throw new Error('n8n login returned no n8n-auth cookie');
		return new N8nOwnerSession(baseUrl, authCookie.split(';')[0], browserId);
	}

	async request<T>(method: string, restPath: string, body?: unknown): Promise<T> {
		const response = await fetch(`${this.baseUrl}/rest${restPath}`, {
			method,
			headers: {
				cookie: this.cookie,
				'browser-id': this.browserId,
				...(body === undefined ? {} : { 'content-type': 'application/json' }),
			},
			body: body === undefined ? undefined : JSON.stringify(body),
			signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
		});
		const text = await response.text();
		if (!response.ok) throw new Error(`n8n ${method} /rest${restPath} failed with HTTP ${response.status}: ${text.slice(0, 500)}`);
		return (JSON.parse(text) as { data: T }).data;
	}

	/** GET of any path of the instance (e.g. `/types/nodes.json`, icons) with this session's login. */
	async get(instancePath: string): Promise<Response> {
		return await fetch(`${this.baseUrl}${instancePath}`, {
			headers: { cookie: this.cookie, 'browser-id': this.browserId },
			signal: AbortSignal.timeout(30_000),
		});
	}

	/** A public-API key with every scope the owner may grant, without expiry. */
	async createApiKey(label = 'e2e'): Promise<string> {
		const scopes = await this.request<string[]>('GET', '/api-keys/scopes');
		const created = await this.request<{ rawApiKey: string }>('POST', '/api-keys', { label, scopes, expiresAt: null });
		return created.rawApiKey;
	}
}

export interface PublicApiWorkflow {
	id: string;
	name: string;
	active: boolean;
	activeVersionId: string | null;
	versionId: string;
	nodes: Array<{ name: string; type: string; parameters: Record<string, unknown> }>;
	staticData: Record<string, unknown> | null;
	[key: string]: unknown;
}

export interface PublicApiExecution {
	id: string;
	workflowId: string;
	mode: string;
	status: string;
	finished: boolean;
	startedAt: string;
	stoppedAt: string | null;
	/** present with includeData=true */
	data?: {
		resultData: {
			runData: Record<string, Array<{ data?: { main?: Array<Array<{ json: Record<string, unknown> }> | null> } }>>;
			error?: { message: string; description?: string };
			lastNodeExecuted?: string;
		};
	};
}

export interface ListExecutionsQuery {
	workflowId?: string;
	status?: 'canceled' | 'crashed' | 'error' | 'new' | 'running' | 'success' | 'unknown' | 'waiting';
	includeData?: boolean;
}

/** n8n's public REST API (enabled by default, also without licence). */
export class N8nPublicApi {
	constructor(
		private readonly baseUrl: string,
		private readonly apiKey: string,
	) {}

	private async request<T>(method: string, apiPath: string, body?: unknown): Promise<T> {
		const response = await fetch(`${this.baseUrl}/api/v1${apiPath}`, {
			method,
			headers: {
				'X-N8N-API-KEY': this.apiKey,
				accept: 'application/json',
				...(body === undefined ? {} : { 'content-type': 'application/json' }),
			},
			body: body === undefined ? undefined : JSON.stringify(body),
			signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
		});
		const text = await response.text();
		if (!response.ok) throw new Error(`n8n ${method} /api/v1${apiPath} failed with HTTP ${response.status}: ${text.slice(0, 500)}`);
		return JSON.parse(text) as T;
	}

	async getWorkflow(workflowId: string): Promise<PublicApiWorkflow> {
		return await this.request('GET', `/workflows/${encodeURIComponent(workflowId)}`);
	}

	/**
	 * Saves the workflow as a new version with the same nodes and connections. n8n 2.0 activates
	 * only a version in its history, and its `import:workflow` records none ("Version not found",
	 * answered 404); other lines record the imported one. n8n records a version only when nodes or
	 * connections differ, so the nodes go back in reverse order: the list's order means nothing to
	 * n8n (connections and positions do).
	 */
	async saveAsNewVersion(workflowId: string): Promise<PublicApiWorkflow> {
		const { name, nodes, connections, settings } = await this.getWorkflow(workflowId);
		assert.ok(nodes.length > 1, `workflow ${workflowId} has one node: its reverse is no new version`);
		const saved = await this.request<PublicApiWorkflow>('PUT', `/workflows/${encodeURIComponent(workflowId)}`, {
			name,
			nodes: [...nodes].reverse(),
			connections,
			settings,
		});
		return saved;
	}

	/**
	 * Publishes and activates the workflow. A polling trigger polls once right away (an error in
	 * that poll fails the activation with HTTP 400) and then on its schedule (one minute at least).
	 */
	async activateWorkflow(workflowId: string): Promise<PublicApiWorkflow> {
		return await this.request('POST', `/workflows/${encodeURIComponent(workflowId)}/activate`);
	}

	async deactivateWorkflow(workflowId: string): Promise<PublicApiWorkflow> {
		return await this.request('POST', `/workflows/${encodeURIComponent(workflowId)}/deactivate`);
	}

	/** All matching executions, newest first (follows the cursor pages). */
	async listExecutions(query: ListExecutionsQuery = {}): Promise<PublicApiExecution[]> {
		const executions: PublicApiExecution[] = [];
		let cursor: string | undefined;
		// Bounded: 100 pages of 250 executions is far beyond any test.
		for (let page = 0; page < 100; page++) {
			const params = new URLSearchParams({ limit: '250' });
			if (query.workflowId) params.set('workflowId', query.workflowId);
			if (query.status) params.set('status', query.status);
			if (query.includeData) params.set('includeData', 'true');
			if (cursor) params.set('cursor', cursor);
			const result = await this.request<{ data: PublicApiExecution[]; nextCursor: string | null }>(
				'GET',
				`/executions?${params.toString()}`,
			);
			executions.push(...result.data);
			if (!result.nextCursor) return executions;
			cursor = result.nextCursor;
		}
		throw new Error('n8n returned more than 100 pages of executions');
	}

	async getExecution(executionId: string, includeData = true): Promise<PublicApiExecution> {
		return await this.request('GET', `/executions/${encodeURIComponent(executionId)}?includeData=${String(includeData)}`);
	}

	/**
	 * Waits until the workflow has at least `count` finished executions (any status but new,
	 * running or waiting) and returns them with data, newest first.
	 */
	async waitForExecutions(
		workflowId: string,
		count: number,
		{ timeoutMs = 30_000, intervalMs = 250 }: { timeoutMs?: number; intervalMs?: number } = {},
	): Promise<PublicApiExecution[]> {
		const deadline = Date.now() + timeoutMs;
		const unfinished = new Set(['new', 'running', 'waiting']);
		let seen: PublicApiExecution[] = [];
		while (Date.now() < deadline) {
			seen = await this.listExecutions({ workflowId });
			if (seen.filter((execution) => !unfinished.has(execution.status)).length >= count) {
				return await this.listExecutions({ workflowId, includeData: true });
			}
			await new Promise((resolve) => setTimeout(resolve, intervalMs));
		}
		throw new Error(
			`workflow ${workflowId} has ${seen.length} executions (${seen.map((execution) => execution.status).join(', ')}) after ${timeoutMs} ms, expected ${count} finished`,
		);
	}
}

/* eslint-disable @n8n/community-nodes/no-restricted-imports -- end-to-end suite code, run by tsx against a real n8n and never loaded by n8n: it may use Node modules (docs/architecture.md, Toolchain). */
/**
 * A scripted OpenAI-compatible model for the AI agent check: plain node:http on 127.0.0.1, a free
 * port, no dependencies. n8n's "OpenAI Chat Model" node (Base URL of its `openAiApi` credential
 * pointed here) sends `POST <base>/chat/completions`; the editor's model list asks `GET <base>/models`.
 * What it answers is decided by the check's `script`, one reply per request, from the messages
 * so far: a tool call, or a final text. Every request is kept, so a check can read what n8n sent
 * (the tools it offered the model, the tool results it passed back).
 *
 * Answers as plain JSON, or as server-sent events when the request asks `stream: true` (LangChain's
 * ChatOpenAI streams when a caller subscribes to tokens), in OpenAI's chunk format.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { LOOPBACK_HOST } from './processes';

export const SCRIPTED_MODEL_ID = 'scripted-model';

export interface ChatMessage {
	role: 'system' | 'user' | 'assistant' | 'tool' | 'developer';
	content: string | null | Array<{ type: string; text?: string }>;
	tool_calls?: ToolCall[];
	tool_call_id?: string;
	name?: string;
}

export interface ToolCall {
	id: string;
	type: 'function';
	function: { name: string; arguments: string };
}

export interface OfferedTool {
	type: 'function';
	function: { name: string; description?: string; parameters?: { properties?: Record<string, { type?: string; description?: string }> } };
}

export interface ChatRequest {
	model: string;
	messages: ChatMessage[];
	tools?: OfferedTool[];
	stream?: boolean;
}

/** What the model says next: call one tool with these arguments, or answer in text. */
export type ScriptedReply = { tool: string; arguments: Record<string, unknown> } | { text: string };

export interface ScriptedModelServer {
	/** Base URL for the credential, e.g. http://127.0.0.1:41234/v1 */
	baseUrl: string;
	/** Every chat completion request, in order of arrival. */
	requests: ChatRequest[];
	/** Requests of other routes (e.g. `GET /v1/models`), as `METHOD path`. */
	otherRequests: string[];
	/** Replies sent as server-sent events. */
	streamedReplies: number;
	close(): Promise<void>;
}

/** The text of a message, also when given as content parts. */
export function messageText(message: ChatMessage): string {
	if (typeof message.content === 'string') return message.content;
	if (Array.isArray(message.content)) return message.content.map((part) => part.text ?? '').join('');
	return '';
}

const MAX_BODY_BYTES = 4 * 1024 * 1024;

async function readBody(request: IncomingMessage): Promise<string> {
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of request as AsyncIterable<Buffer>) {
		size += chunk.length;
		if (size > MAX_BODY_BYTES) throw new Error('request body too large');
		chunks.push(chunk);
	}
	return Buffer.concat(chunks).toString('utf8');
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
	const text = JSON.stringify(body);
	response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
	response.end(text);
}

function completionMessage(reply: ScriptedReply, callId: string) {
	return 'tool' in reply
		? {
				message: {
					role: 'assistant',
					content: null,
					tool_calls: [{ id: callId, type: 'function', function: { name: reply.tool, arguments: JSON.stringify(reply.arguments) } }],
				},
				finishReason: 'tool_calls',
			}
		: { message: { role: 'assistant', content: reply.text }, finishReason: 'stop' };
}

const USAGE = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };

/** OpenAI's chunk sequence for one reply: role, the content or tool call, finish reason, usage, [DONE]. */
function streamReply(response: ServerResponse, reply: ScriptedReply, callId: string, id: string, created: number): void {
	response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
	const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
		response.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: SCRIPTED_MODEL_ID, choices, ...extra })}\n\n`);
	chunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]);
	if ('tool' in reply) {
		const args = JSON.stringify(reply.arguments);
		chunk([{ index: 0, delta: { tool_calls: [{ index: 0, id: callId, type: 'function', function: { name: reply.tool, arguments: '' } }] }, finish_reason: null }]);
		// Arguments in two pieces, as real models send them: the client must join them.
		const half = Math.ceil(args.length / 2);
		for (const piece of [args.slice(0, half), args.slice(half)]) {
			chunk([{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: piece } }] }, finish_reason: null }]);
		}
		chunk([{ index: 0, delta: {}, finish_reason: 'tool_calls' }]);
	} else {
		for (const word of reply.text.split(/(?<= )/)) chunk([{ index: 0, delta: { content: word }, finish_reason: null }]);
		chunk([{ index: 0, delta: {}, finish_reason: 'stop' }]);
	}
	chunk([], { usage: USAGE });
	response.end('data: [DONE]\n\n');
}

/**
 * Starts the server. `script` is called once per chat completion request with that request; an
 * error it throws is answered 500 with its message (the check then sees it in n8n's error).
 */
export async function startScriptedModelServer(script: (request: ChatRequest) => ScriptedReply): Promise<ScriptedModelServer> {
	const requests: ChatRequest[] = [];
	const otherRequests: string[] = [];
	let streamedReplies = 0;
	let replies = 0;

	const server = createServer((request, response) => {
		void (async () => {
			const path = (request.url ?? '').split('?')[0];
			try {
				const body = await readBody(request);
				if (request.method === 'POST' && path.endsWith('/chat/completions')) {
					const chat = JSON.parse(body) as ChatRequest;
					requests.push(chat);
					const reply = script(chat);
					replies++;
					const id = `chatcmpl-e2e-${replies}`;
					const callId = `call_e2e_${replies}`;
					const created = Math.floor(Date.now() / 1000);
					if (chat.stream) {
						streamedReplies++;
						streamReply(response, reply, callId, id, created);
						return;
					}
					const { message, finishReason } = completionMessage(reply, callId);
					sendJson(response, 200, {
						id,
						object: 'chat.completion',
						created,
						model: SCRIPTED_MODEL_ID,
						choices: [{ index: 0, message, finish_reason: finishReason, logprobs: null }],
						usage: USAGE,
					});
					return;
				}
				otherRequests.push(`${request.method ?? ''} ${path}`);
				if (request.method === 'GET' && path.endsWith('/models')) {
					sendJson(response, 200, { object: 'list', data: [{ id: SCRIPTED_MODEL_ID, object: 'model', created: 0, owned_by: 'e2e' }] });
					return;
				}
				sendJson(response, 404, { error: { message: `no route ${request.method ?? ''} ${path}`, type: 'invalid_request_error' } });
			} catch (error) {
				const message = error instanceof Error ? error.message : String(error);
				if (!response.headersSent) sendJson(response, 500, { error: { message: `scripted model: ${message}`, type: 'server_error' } });
				else response.end();
			}
		})();
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, LOOPBACK_HOST, () => resolve());
	});
	const { port } = server.address() as AddressInfo;
	return {
		baseUrl: `http://${LOOPBACK_HOST}:${port}/v1`,
		requests,
		otherRequests,
		get streamedReplies() {
			return streamedReplies;
		},
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

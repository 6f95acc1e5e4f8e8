import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { checkOptions } from '../check-options.js';

/** A streamed chat completion: reasoning, text and tool calls as OpenAI-style SSE deltas, usage last. */
export interface StreamScript {
  reasoning?: string;
  text?: string;
  toolCalls?: Array<{ id: string; name: string; args: Record<string, unknown> }>;
  finishReason?: 'stop' | 'tool_calls' | 'length';
  usage?: { prompt_tokens: number; completion_tokens: number; cached_tokens?: number };
  /** Send this many SSE chunks, then drop the connection (no finish, no `[DONE]`): a cut stream. */
  cutAfterChunks?: number;
}

/**
 * What the server answers to one request:
 * - `{stream}`: a 200 SSE stream;
 * - `{status, headers?, body}`: a JSON error (or any status) as the provider sends it;
 * - `{fault}`: a failure by name: `rate_limited` (429 with `Retry-After: 0`), `server_error` (503),
 *   `context_length` (400 with `context_length_exceeded`), `unauthorized` (401);
 * - `{hang: true}`: never answers (until the client gives up or aborts);
 * - `{silent: true}`: sends the headers (and the first `afterChunks` chunks of `stream`), then nothing;
 * - `{broken, stream, afterChunks}`: a stream that breaks after `afterChunks` chunks: `reset`
 *   destroys the connection (TCP RST), `end` closes it cleanly with no finish or `[DONE]`,
 *   `malformed` sends a line that is not JSON.
 */
export type ServerReply =
  | { stream: StreamScript }
  | { status: number; headers?: Record<string, string>; body: unknown }
  | { fault: ServerFault }
  | { hang: true }
  | { silent: true; stream?: StreamScript; afterChunks?: number }
  | { broken: 'reset' | 'end' | 'malformed'; stream: StreamScript; afterChunks: number };

export type ServerFault = 'rate_limited' | 'server_error' | 'context_length' | 'unauthorized';

export interface RecordedHttpRequest {
  url: string;
  headers: IncomingMessage['headers'];
  body: { model: string; messages: Array<Record<string, unknown>>; tools?: Array<{ function: { name: string } }>; stream: boolean };
}

export interface OpenAICompatibleServerOptions {
  /** Request n gets reply n; a request past the end gets a 500 saying so. */
  script: readonly ServerReply[];
}

export interface OpenAICompatibleServer {
  /** `http://127.0.0.1:<port>/v1`: give it to `createOpenAICompatible({ baseURL })`. */
  baseURL: string;
  requests: RecordedHttpRequest[];
  close(): Promise<void>;
}

/**
 * A chat-completions endpoint on 127.0.0.1 (a free port) that plays its script in order: streams
 * as OpenAI-style SSE chunks (text, reasoning, tool calls split across deltas, usage last), errors
 * with the statuses and headers providers send, cut streams and calls that never answer.
 */
const REPLY_KINDS = ['stream', 'status', 'fault', 'hang', 'silent', 'broken'];
const ServerOptions = z.strictObject({
  script: z.array(
    z.custom<ServerReply>((value) => typeof value === 'object' && value !== null && REPLY_KINDS.some((k) => k in value), {
      message: `expected a reply: an object with one of ${REPLY_KINDS.join(', ')}`,
    }),
  ),
});

export async function startOpenAICompatibleServer(options: OpenAICompatibleServerOptions): Promise<OpenAICompatibleServer> {
  checkOptions('startOpenAICompatibleServer', ServerOptions, options);
  const { script } = options;
  const requests: RecordedHttpRequest[] = [];
  let served = 0;
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let body: RecordedHttpRequest['body'];
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as RecordedHttpRequest['body'];
    } catch {
      json(res, 400, { error: { message: 'the request body is not JSON' } });
      return;
    }
    requests.push({ url: req.url ?? '', headers: req.headers, body });
    const reply = script[served++];
    if (!reply) {
      json(res, 500, { error: { message: `no reply scripted for request ${served}` } });
      return;
    }
    void answer(res, reply);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function answer(res: ServerResponse, reply: ServerReply): Promise<void> {
  if ('hang' in reply) return;
  if ('silent' in reply) {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.flushHeaders();
    for (const chunk of sseChunks(reply.stream ?? {}).slice(0, reply.afterChunks ?? 0)) res.write(`data: ${JSON.stringify(chunk)}\n\n`);
    return;
  }
  if ('broken' in reply) {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const chunk of sseChunks(reply.stream).slice(0, reply.afterChunks)) res.write(`data: ${JSON.stringify(chunk)}\n\n`);
    // Let the chunks reach the client before the break.
    await new Promise((resolve) => setTimeout(resolve, 20));
    if (reply.broken === 'reset') res.socket?.resetAndDestroy();
    else if (reply.broken === 'end') res.end();
    else res.end('data: {"id":"chatcmpl-1","choices":[{"index":0,"delta":{"content":\n\n');
    return;
  }
  if ('fault' in reply) {
    const { status, headers, body } = faultReply(reply.fault);
    json(res, status, body, headers);
    return;
  }
  if ('status' in reply) {
    json(res, reply.status, reply.body, reply.headers);
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const chunks = sseChunks(reply.stream);
  const cut = reply.stream.cutAfterChunks;
  for (const chunk of cut === undefined ? chunks : chunks.slice(0, cut)) res.write(`data: ${JSON.stringify(chunk)}\n\n`);
  if (cut !== undefined) {
    // Drop the connection mid-stream, as a proxy or a crashed server does.
    res.socket?.destroy();
    return;
  }
  res.end('data: [DONE]\n\n');
}

function faultReply(fault: ServerFault): { status: number; headers?: Record<string, string>; body: unknown } {
  switch (fault) {
    case 'rate_limited':
      return { status: 429, headers: { 'retry-after': '0' }, body: { error: { message: 'Rate limit reached', type: 'rate_limit_exceeded' } } };
    case 'server_error':
      return { status: 503, body: { error: { message: 'The server is overloaded' } } };
    case 'context_length':
      return {
        status: 400,
        body: { error: { message: "This model's maximum context length is 8192 tokens.", type: 'invalid_request_error', code: 'context_length_exceeded' } },
      };
    case 'unauthorized':
      return { status: 401, body: { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } } };
    default: {
      const unknown: never = fault;
      throw new TypeError(`unknown server fault ${JSON.stringify(unknown)}`);
    }
  }
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

function sseChunks(script: StreamScript): unknown[] {
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model: 'local-model',
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const out: unknown[] = [chunk({ role: 'assistant', content: '' })];
  for (const piece of split(script.reasoning)) out.push(chunk({ reasoning_content: piece }));
  for (const piece of split(script.text)) out.push(chunk({ content: piece }));
  for (const [index, call] of (script.toolCalls ?? []).entries()) {
    out.push(chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }));
    for (const piece of split(JSON.stringify(call.args))) out.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
  }
  out.push(chunk({}, script.finishReason ?? (script.toolCalls?.length ? 'tool_calls' : 'stop')));
  if (script.usage) {
    const { prompt_tokens, completion_tokens, cached_tokens } = script.usage;
    out.push({
      id: 'chatcmpl-1',
      object: 'chat.completion.chunk',
      created: 1_700_000_000,
      model: 'local-model',
      choices: [],
      usage: {
        prompt_tokens,
        completion_tokens,
        total_tokens: prompt_tokens + completion_tokens,
        ...(cached_tokens ? { prompt_tokens_details: { cached_tokens } } : {}),
      },
    });
  }
  return out;
}

function split(text: string | undefined, size = 5): string[] {
  if (!text) return [];
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

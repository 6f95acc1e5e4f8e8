import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { checkOptions } from '../check-options.js';
import { faultReply, sseEvents } from './wire-formats.js';

/** A streamed reply: reasoning, text and tool calls as SSE deltas, usage last. */
export interface StreamScript {
  reasoning?: string;
  /**
   * Anthropic's route only: a `redacted_thinking` block with this encrypted data, ahead of the
   * reasoning (a reply whose thinking the provider's safety systems withheld).
   */
  redactedThinking?: string;
  text?: string;
  toolCalls?: Array<{ id: string; name: string; args: Record<string, unknown> }>;
  finishReason?: 'stop' | 'tool_calls' | 'length';
  usage?: { prompt_tokens: number; completion_tokens: number; cached_tokens?: number };
  /** Send this many SSE chunks, then drop the connection (no finish, no `[DONE]`): a cut stream. */
  cutAfterChunks?: number;
  /** Wait this long after the headers before the first chunk: a model that thinks first, while a test acts. */
  delayMs?: number;
  /** Wait this long between chunks: a model that streams slowly. */
  chunkDelayMs?: number;
}

/**
 * What the server answers to one request:
 * - `{stream}`: a 200 SSE stream;
 * - `{status, headers?, body}`: a JSON error (or any status) as the provider sends it;
 * - `{status, headers?, rawBody}`: that status with the body as it is (`''` for an empty body);
 * - `{fault}`: a failure by name, with the body the route's provider sends: `rate_limited` (429
 *   with `Retry-After: 0`), `server_error` (503), `overloaded` (529), `context_length` (400, the
 *   provider's context-length error), `unauthorized` (401);
 * - `{hang: true}`: never answers (until the client gives up or aborts);
 * - `{reset: true}`: resets the connection (TCP RST) before any header is sent;
 * - `{silent: true}`: sends the headers (and the first `afterChunks` chunks of `stream`), then nothing;
 * - `{broken, stream, afterChunks}`: a stream that breaks after `afterChunks` chunks: `reset`
 *   destroys the connection (TCP RST), `end` closes it cleanly with no finish or `[DONE]`,
 *   `malformed` sends a line that is not JSON.
 */
export type ServerReply =
  | { stream: StreamScript }
  | { status: number; headers?: Record<string, string>; body: unknown }
  | { status: number; headers?: Record<string, string>; rawBody: string }
  | { fault: ServerFault }
  | { hang: true }
  | { reset: true }
  | { silent: true; stream?: StreamScript; afterChunks?: number }
  | { broken: 'reset' | 'end' | 'malformed'; stream: StreamScript; afterChunks: number };

export type ServerFault = 'rate_limited' | 'server_error' | 'overloaded' | 'context_length' | 'unauthorized';

/**
 * The wire format of a request, from its route: OpenAI's chat completions (`/chat/completions`),
 * or Anthropic's messages (`/messages`, as `createAnthropic({ baseURL })` calls it).
 */
export type WireFormat = 'openai' | 'anthropic';

export interface RecordedHttpRequest {
  url: string;
  format: WireFormat;
  /** When the request's body had arrived (`Date.now()`): how long a client waited between attempts. */
  at: number;
  headers: IncomingMessage['headers'];
  body: { model: string; messages: Array<Record<string, unknown>>; tools?: Array<{ function: { name: string } }>; stream: boolean };
}

export interface OpenAICompatibleServerOptions {
  /** Request n gets reply n; a request past the end gets a 500 saying so. */
  script: readonly ServerReply[];
}

export interface OpenAICompatibleServer {
  /** `http://127.0.0.1:<port>/v1`: give it to `createOpenAICompatible({ baseURL })` or `createAnthropic({ baseURL })`. */
  baseURL: string;
  requests: RecordedHttpRequest[];
  /** Resolves with the n-th request (1-based) once it has arrived: a test waits for the call it means to act on. */
  request(n: number): Promise<RecordedHttpRequest>;
  close(): Promise<void>;
}

const REPLY_KINDS = ['stream', 'status', 'fault', 'hang', 'reset', 'silent', 'broken'];
const ServerOptions = z.strictObject({
  script: z.array(
    z.custom<ServerReply>((value) => typeof value === 'object' && value !== null && REPLY_KINDS.some((k) => k in value), {
      message: `expected a reply: an object with one of ${REPLY_KINDS.join(', ')}`,
    }),
  ),
});

/**
 * A chat-completions endpoint on 127.0.0.1 (a free port) that plays its script in order: streams
 * as OpenAI-style SSE chunks (text, reasoning, tool calls split across deltas, usage last), errors
 * with the statuses and headers providers send, cut streams and calls that never answer. A request
 * to `/v1/messages` is answered in Anthropic's format instead (its events, its error bodies), from
 * the same script. Each stream can wait before its first chunk and between chunks.
 */
export async function startOpenAICompatibleServer(options: OpenAICompatibleServerOptions): Promise<OpenAICompatibleServer> {
  checkOptions('startOpenAICompatibleServer', ServerOptions, options);
  const { script } = options;
  const requests: RecordedHttpRequest[] = [];
  const waiting: Array<{ n: number; resolve: (request: RecordedHttpRequest) => void }> = [];
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
    const url = req.url ?? '';
    const format: WireFormat = url.endsWith('/messages') ? 'anthropic' : 'openai';
    const recorded: RecordedHttpRequest = { url, format, at: Date.now(), headers: req.headers, body };
    requests.push(recorded);
    for (const waiter of waiting.filter((w) => w.n === requests.length)) waiter.resolve(recorded);
    const reply = script[served++];
    if (!reply) {
      json(res, 500, { error: { message: `no reply scripted for request ${served}` } });
      return;
    }
    void answer(res, reply, format);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    request: (n) => {
      const arrived = requests[n - 1];
      return arrived ? Promise.resolve(arrived) : new Promise((resolve) => waiting.push({ n, resolve }));
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function answer(res: ServerResponse, reply: ServerReply, format: WireFormat): Promise<void> {
  if ('hang' in reply) return;
  if ('reset' in reply) {
    res.socket?.resetAndDestroy();
    return;
  }
  if ('silent' in reply) {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.flushHeaders();
    const script = reply.stream ?? {};
    await writeEvents(res, sseEvents(script, format).slice(0, reply.afterChunks ?? 0), script);
    return;
  }
  if ('broken' in reply) {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    if (!(await writeEvents(res, sseEvents(reply.stream, format).slice(0, reply.afterChunks), reply.stream))) return;
    // Let the chunks reach the client before the break.
    await new Promise((resolve) => setTimeout(resolve, 20));
    if (reply.broken === 'reset') res.socket?.resetAndDestroy();
    else if (reply.broken === 'end') res.end();
    else res.end('data: {"id":"chatcmpl-1","choices":[{"index":0,"delta":{"content":\n\n');
    return;
  }
  if ('fault' in reply) {
    const { status, headers, body } = faultReply(reply.fault, format);
    json(res, status, body, headers);
    return;
  }
  if ('rawBody' in reply) {
    res.writeHead(reply.status, reply.headers ?? {}).end(reply.rawBody);
    return;
  }
  if ('status' in reply) {
    json(res, reply.status, reply.body, reply.headers);
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const chunks = sseEvents(reply.stream, format);
  const cut = reply.stream.cutAfterChunks;
  if (!(await writeEvents(res, cut === undefined ? chunks : chunks.slice(0, cut), reply.stream))) return;
  if (cut !== undefined) {
    // Drop the connection mid-stream, as a proxy or a crashed server does.
    res.socket?.destroy();
    return;
  }
  res.end(format === 'openai' ? 'data: [DONE]\n\n' : undefined);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Writes the SSE events with the script's delays; false when the client went away meanwhile (an
 * aborted call), and then nothing more is written.
 */
async function writeEvents(res: ServerResponse, events: readonly string[], script: StreamScript): Promise<boolean> {
  if (script.delayMs) {
    res.flushHeaders();
    await sleep(script.delayMs);
  }
  for (const [index, event] of events.entries()) {
    if (index > 0 && script.chunkDelayMs) await sleep(script.chunkDelayMs);
    if (res.destroyed) return false;
    res.write(event);
  }
  return !res.destroyed;
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

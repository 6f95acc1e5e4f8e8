import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the fake server answers to one request. */
export type ServerReply =
  | { stream: StreamScript }
  | { status: number; headers?: Record<string, string>; body: unknown }
  | { hang: true }
  /** Sends the headers and then nothing, ever (or `afterChunks` chunks of `stream`, then nothing). */
  | { silent: true; stream?: StreamScript; afterChunks?: number }
  /**
   * A stream that breaks after `afterChunks` chunks: `reset` destroys the connection (TCP RST),
   * `end` closes it cleanly without a finish or `[DONE]`, `malformed` sends a line that is not JSON.
   */
  | { broken: 'reset' | 'end' | 'malformed'; stream: StreamScript; afterChunks: number };

export interface StreamScript {
  reasoning?: string;
  text?: string;
  toolCalls?: Array<{ id: string; name: string; args: Record<string, unknown> }>;
  finishReason?: 'stop' | 'tool_calls' | 'length';
  usage?: { prompt_tokens: number; completion_tokens: number; cached_tokens?: number };
}

export interface RecordedHttpRequest {
  url: string;
  headers: IncomingMessage['headers'];
  body: { model: string; messages: Array<Record<string, unknown>>; tools?: Array<{ function: { name: string } }>; stream: boolean };
}

export interface ChatCompletionsServer {
  baseURL: string;
  requests: RecordedHttpRequest[];
  close(): Promise<void>;
}

/**
 * A chat-completions endpoint on 127.0.0.1 that plays replies in order, streaming them as
 * OpenAI-style SSE chunks (text, reasoning, tool calls split across deltas, usage last).
 */
export async function startChatCompletionsServer(replies: ServerReply[]): Promise<ChatCompletionsServer> {
  const requests: RecordedHttpRequest[] = [];
  let served = 0;
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    requests.push({ url: req.url ?? '', headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
    const reply = replies[served++];
    if (!reply) {
      res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'no reply scripted' } }));
      return;
    }
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
      await new Promise((r) => setTimeout(r, 20));
      if (reply.broken === 'reset') req.socket.resetAndDestroy();
      else if (reply.broken === 'end') res.end();
      else res.end('data: {"id":"chatcmpl-1","choices":[{"index":0,"delta":{"content":\n\n');
      return;
    }
    if ('status' in reply) {
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers }).end(JSON.stringify(reply.body));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const chunk of sseChunks(reply.stream)) res.write(`data: ${JSON.stringify(chunk)}\n\n`);
    res.end('data: [DONE]\n\n');
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

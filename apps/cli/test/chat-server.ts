import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One streamed chat completion, sent as OpenAI-style SSE chunks. */
export interface StreamReply {
  text?: string;
  toolCalls?: Array<{ id: string; name: string; args: Record<string, unknown> }>;
  usage?: { prompt_tokens: number; completion_tokens: number };
  /** Wait before the first chunk, so a test can act while the model "thinks". */
  delayMs?: number;
  /** Wait between chunks. */
  chunkDelayMs?: number;
}

export type Reply = { stream: StreamReply } | { hang: true };

export interface RecordedRequest {
  headers: IncomingMessage['headers'];
  body: { model: string; messages: Array<{ role: string; content?: unknown; tool_call_id?: string }>; tools?: Array<{ function: { name: string } }> };
}

export interface ChatServer {
  baseURL: string;
  requests: RecordedRequest[];
  /** Resolves when the n-th request (1-based) has arrived. */
  request(n: number): Promise<RecordedRequest>;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A chat-completions server on 127.0.0.1 that plays `replies` in order. */
export async function startChatServer(replies: Reply[]): Promise<ChatServer> {
  const requests: RecordedRequest[] = [];
  const waiters: Array<{ n: number; resolve: (r: RecordedRequest) => void }> = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const recorded = { headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as RecordedRequest['body'] };
    requests.push(recorded);
    for (const w of waiters.filter((w) => w.n === requests.length)) w.resolve(recorded);
    const reply = replies[requests.length - 1];
    if (!reply) {
      res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'no reply scripted' } }));
      return;
    }
    if ('hang' in reply) return;
    const script = reply.stream;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    if (script.delayMs) await sleep(script.delayMs);
    for (const chunk of sseChunks(script)) {
      if (res.destroyed) return;
      res.write(`data: ${JSON.stringify(chunk)}\n\n`);
      if (script.chunkDelayMs) await sleep(script.chunkDelayMs);
    }
    res.end('data: [DONE]\n\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    request: (n) => (requests[n - 1] ? Promise.resolve(requests[n - 1]!) : new Promise((resolve) => waiters.push({ n, resolve }))),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function sseChunks(script: StreamReply): unknown[] {
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model: 'local-model',
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const out: unknown[] = [chunk({ role: 'assistant', content: '' })];
  for (const piece of split(script.text)) out.push(chunk({ content: piece }));
  for (const [index, call] of (script.toolCalls ?? []).entries()) {
    out.push(chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }));
    out.push(chunk({ tool_calls: [{ index, function: { arguments: JSON.stringify(call.args) } }] }));
  }
  out.push(chunk({}, script.toolCalls?.length ? 'tool_calls' : 'stop'));
  const usage = script.usage ?? { prompt_tokens: 100, completion_tokens: 20 };
  out.push({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1_700_000_000, model: 'local-model', choices: [], usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } });
  return out;
}

function split(text: string | undefined, size = 6): string[] {
  if (!text) return [];
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

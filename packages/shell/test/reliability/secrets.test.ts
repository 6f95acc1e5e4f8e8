import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { CompactionPolicy } from '@tiller/compaction';
import { createSessionLog, JsonlStore } from '@tiller/session';
import { type ServerReply, startOpenAICompatibleServer } from '@tiller/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AgentEvent,
  createAgent,
  fileJournal,
  fromLanguageModel,
  type InspectionRecord,
  journalPathFor,
  type ToolPolicy,
} from '../../src/index.js';
import { recordingTools } from '../helpers.js';

/**
 * An API key where hosts put one (a header, a base URL's query string, a policy's settings) goes
 * to the provider and nowhere else: not to the journal file, the session file, an agent event, an
 * inspection record, an error (its message, its own fields, its `cause` chain) or a policy's
 * manifest. Every byte written and every value handed out is searched for the key.
 */
const KEY = 'sk-tiller-7c0ffee-do-not-leak';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tiller-secrets-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** All the text a value holds: strings, keys, numbers; errors with their message, stack, own fields and cause chain. */
function allText(value: unknown, seen = new Set<unknown>()): string {
  if (typeof value === 'string') return value;
  if (typeof value !== 'object' || value === null) return typeof value === 'function' ? '' : String(value);
  if (seen.has(value)) return '';
  seen.add(value);
  const parts: string[] = [];
  if (value instanceof Error) parts.push(value.name, value.message, value.stack ?? '', allText(value.cause, seen));
  if (value instanceof Map) for (const [k, v] of value) parts.push(allText(k, seen), allText(v, seen));
  for (const key of Object.getOwnPropertyNames(value)) {
    parts.push(key);
    try {
      parts.push(allText((value as Record<string, unknown>)[key], seen));
    } catch {
      // A getter that throws holds nothing we hand out.
    }
  }
  return parts.join('\n');
}

type Placement = 'header' | 'query' | 'baseURL' | 'policy';
interface Run {
  written: string;
  handedOut: string;
  /** What the server saw: the key must have reached it, or the test proves nothing. */
  received: string;
}

/**
 * One agent over a JSONL session and its journal, talking to a server on 127.0.0.1 that plays
 * `script`, with the key placed as `placement` says; runs `prompt` (and aborts it when `abortAfterMs`).
 */
async function runWithKey(name: string, placement: Placement, script: ServerReply[], abortAfterMs?: number): Promise<Run> {
  const server = await startOpenAICompatibleServer({ script });
  const sessionFile = join(dir, `${name}.jsonl`);
  const store = await JsonlStore.open(sessionFile, { create: true });
  const session = createSessionLog(store);
  const journal = fileJournal(journalPathFor(sessionFile));
  const provider = createOpenAICompatible({
    name: 'local',
    // In a base URL the key ends up inside every request's URL (the SDK appends the path to it).
    baseURL: placement === 'baseURL' ? `${server.baseURL}?key=${KEY}&path=` : server.baseURL,
    ...(placement === 'header' ? { apiKey: KEY, headers: { 'x-api-key': KEY } } : {}),
    ...(placement === 'query' ? { queryParams: { key: KEY } } : {}),
    includeUsage: true,
  });
  // A policy whose settings hold the key (a host that checks calls against a service of its own).
  const settings = { endpoint: 'http://127.0.0.1:1/check', apiKey: KEY };
  const policy: ToolPolicy = Object.assign(() => ({ decision: 'allow' as const }), { settings });
  const compactionPolicy = CompactionPolicy.localSummarizer({ model: 'local/summarizer', apiKey: KEY });
  const events: AgentEvent[] = [];
  const records: InspectionRecord[] = [];
  const errors: unknown[] = [];
  const agent = createAgent({
    model: fromLanguageModel(provider.chatModel('local-model'), { contextWindow: 32_000 }),
    tools: [recordingTools().echo],
    session,
    journal,
    ...(placement === 'policy' ? { policy, compactionPolicy } : {}),
    limits: { maxRetries: 1, retryBaseDelayMs: 1, retryMaxDelayMs: 1 },
    inspect: (record) => records.push(record),
  });
  agent.subscribe((e) => events.push(e));
  const turn = agent.prompt('Echo "hello".');
  if (abortAfterMs !== undefined) {
    // Abort once the server holds the request, so the abort finds the call under way.
    const abortSoon = () => (server.requests.length > 0 ? setTimeout(() => void agent.abort('the user pressed Ctrl-C'), abortAfterMs) : setTimeout(abortSoon, 5));
    abortSoon();
  }
  const outcome = await turn.catch((error: unknown) => (errors.push(error), undefined));
  await agent.idle().catch((error: unknown) => errors.push(error));
  await agent.close();
  await store.close();
  await server.close();
  const written = [await readFile(sessionFile, 'utf8'), await readFile(journalPathFor(sessionFile), 'utf8')].join('\n');
  const handedOut = allText([outcome, events, records, errors, agent.snapshot, compactionPolicy.toManifest(), JSON.stringify(compactionPolicy)]);
  const received = allText(server.requests.map((r) => [r.url, r.headers]));
  return { written, handedOut, received };
}

const toolCall: ServerReply = { stream: { toolCalls: [{ id: 'c1', name: 'echo', args: { text: 'hello' } }], finishReason: 'tool_calls' } };
const answer: ServerReply = { stream: { text: 'Echoed.', usage: { prompt_tokens: 20, completion_tokens: 3 } } };
const scenarios: Array<{ name: string; script: ServerReply[]; abortAfterMs?: number }> = [
  { name: 'a turn with a tool call', script: [toolCall, answer] },
  { name: 'a 401', script: [{ fault: 'unauthorized' }] },
  { name: 'a 500, retried, then a 500 again', script: [{ status: 500, body: { error: { message: 'internal error' } } }, { status: 500, body: { error: { message: 'still broken' } } }] },
  { name: 'an abort while the server never answers', script: [{ hang: true }], abortAfterMs: 20 },
  { name: 'a stream reset mid-message, then an answer', script: [{ broken: 'reset', stream: { text: 'partial answer that breaks' }, afterChunks: 2 }, answer] },
];

describe.each<Placement>(['header', 'query', 'baseURL', 'policy'])('an API key in a %s', (placement) => {
  it.each(scenarios)('never leaves the provider call: $name', async ({ name, script, abortAfterMs }) => {
    const run = await runWithKey(`${placement}-${name.replace(/\W+/g, '-')}`, placement, script, abortAfterMs);
    if (placement !== 'policy') expect(run.received, 'the key reached the server').toContain(KEY);
    expect(run.written.includes(KEY), 'the key is in the session or journal file').toBe(false);
    expect(run.handedOut.includes(KEY), 'the key is in an event, an inspection record, an error or a manifest').toBe(false);
    // The search sees what was handed out: the run wrote and reported something.
    expect(run.written).toContain('Echo \\"hello\\".');
    expect(run.handedOut).toContain('turn.started');
  });
});

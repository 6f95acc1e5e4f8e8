import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { WindowManager } from '@tiller/compaction';
import type { TurnOutcome } from '@tiller/core';
import { startOpenAICompatibleServer, type OpenAICompatibleServer, type ServerReply, type WireFormat } from '@tiller/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent, fromLanguageModel, type AgentEvent, type AgentLimits } from '../../src/index.js';
import { recordEvents, recordingTools } from '../helpers.js';
import { fileSession, sessionProblems, type FileSession } from './fault-helpers.js';

// Every provider fault goes through a real HTTP server on 127.0.0.1 and the provider's own AI SDK
// client: OpenAI's chat completions (`@ai-sdk/openai-compatible`) or Anthropic's messages
// (`@ai-sdk/anthropic`). Each row of docs/reliability.md ("Provider faults") is one case here.

type Outcome =
  /** The attempts that failed were retried, and the turn completed with the whole reply. */
  | { kind: 'retried'; retries: number }
  /** The turn failed with a typed error whose message says what the provider said. */
  | { kind: 'failed'; error: 'transient' | 'fatal'; message: RegExp }
  /** The context was compacted (forced), and the call retried. */
  | { kind: 'compacted' };

interface Case {
  fault: string;
  wire: WireFormat;
  /** What the server plays for the prompt under test (the warm-up and the next prompt are added). */
  replies: ServerReply[];
  outcome: Outcome;
  limits?: Partial<AgentLimits>;
  /** More to check, once the turn ended. */
  check?: (run: Run) => void;
}

interface Run {
  outcome: TurnOutcome;
  events: AgentEvent[];
  server: OpenAICompatibleServer;
  toolCalls: Array<{ args: unknown }>;
}

const text = (t: string): ServerReply => ({ stream: { text: t, usage: { prompt_tokens: 40, completion_tokens: 5 } } });
const WHOLE = 'the whole answer, streamed to its end';
const ECHO_CALL = { id: 'call_echo', name: 'echo', args: { text: 'an argument long enough to be sent in pieces' } };
const error = (status: number, message: string): ServerReply => ({ status, body: { error: { message } } });
const retries = (events: AgentEvent[]) => events.filter((e): e is Extract<AgentEvent, { type: 'llm.retry' }> => e.type === 'llm.retry');

/** A reply cut while the tool call's arguments stream (openai: role, name, 2 pieces; anthropic: start, block start, 2 pieces). */
const cutInToolCall = (broken: 'reset' | 'end'): ServerReply => ({ broken, stream: { toolCalls: [ECHO_CALL] }, afterChunks: 4 });
/** The retried reply runs the tool once, with the whole arguments, then answers. */
const toolCallThenAnswer: ServerReply[] = [{ stream: { toolCalls: [ECHO_CALL] } }, text(WHOLE)];
const ranOnceWithWholeArgs = ({ toolCalls }: Run) => expect(toolCalls).toEqual([{ args: ECHO_CALL.args }]);

const cases: Case[] = [
  {
    fault: '429 with Retry-After: 0.3 (seconds)',
    wire: 'openai',
    replies: [{ status: 429, headers: { 'retry-after': '0.3' }, body: { error: { message: 'Rate limit reached' } } }, text(WHOLE)],
    outcome: { kind: 'retried', retries: 1 },
    check: ({ events, server }) => {
      expect(retries(events)[0]).toMatchObject({ delayMs: 300, error: { message: expect.stringMatching(/^429: Rate limit reached/) } });
      // The wait was honoured: the retry came no sooner than the server asked.
      const [, failed, retried] = server.requests;
      expect(retried!.at - failed!.at).toBeGreaterThanOrEqual(300);
    },
  },
  {
    fault: '429 with a Retry-After longer than limits.retryMaxDelayMs (an hour)',
    wire: 'anthropic',
    replies: [{ status: 429, headers: { 'retry-after': '3600' }, body: { type: 'error', error: { type: 'rate_limit_error', message: 'rate limited' } } }, text(WHOLE)],
    limits: { retryMaxDelayMs: 200 },
    outcome: { kind: 'retried', retries: 1 },
    check: ({ events }) => expect(retries(events)[0]!.delayMs).toBe(200),
  },
  {
    fault: '429 on every attempt (the retries run out)',
    wire: 'openai',
    replies: [{ fault: 'rate_limited' }, { fault: 'rate_limited' }, { fault: 'rate_limited' }],
    outcome: { kind: 'failed', error: 'transient', message: /^429: Rate limit reached/ },
  },
  { fault: '500', wire: 'openai', replies: [error(500, 'Internal error'), text(WHOLE)], outcome: { kind: 'retried', retries: 1 } },
  { fault: '502 and 503', wire: 'openai', replies: [error(502, 'Bad gateway'), { fault: 'server_error' }, text(WHOLE)], outcome: { kind: 'retried', retries: 2 } },
  {
    fault: '529 overloaded (Anthropic)',
    wire: 'anthropic',
    replies: [{ fault: 'overloaded' }, text(WHOLE)],
    outcome: { kind: 'retried', retries: 1 },
    check: ({ events }) => expect(retries(events)[0]!.error.message).toBe('529: Overloaded'),
  },
  { fault: '529 (through an OpenAI-compatible gateway)', wire: 'openai', replies: [{ fault: 'overloaded' }, text(WHOLE)], outcome: { kind: 'retried', retries: 1 } },
  { fault: 'connection reset before any header', wire: 'openai', replies: [{ reset: true }, text(WHOLE)], outcome: { kind: 'retried', retries: 1 } },
  { fault: 'connection reset before any header', wire: 'anthropic', replies: [{ reset: true }, text(WHOLE)], outcome: { kind: 'retried', retries: 1 } },
  { fault: 'connection reset mid-message', wire: 'openai', replies: [{ broken: 'reset', stream: { text: WHOLE }, afterChunks: 3 }, text(WHOLE)], outcome: { kind: 'retried', retries: 1 } },
  { fault: 'connection reset mid-message', wire: 'anthropic', replies: [{ broken: 'reset', stream: { text: WHOLE }, afterChunks: 4 }, text(WHOLE)], outcome: { kind: 'retried', retries: 1 } },
  { fault: 'stream cut mid-message (closed cleanly, no finish)', wire: 'openai', replies: [{ broken: 'end', stream: { text: WHOLE }, afterChunks: 3 }, text(WHOLE)], outcome: { kind: 'retried', retries: 1 } },
  { fault: 'stream cut mid-message (closed cleanly, no finish)', wire: 'anthropic', replies: [{ broken: 'end', stream: { text: WHOLE }, afterChunks: 4 }, text(WHOLE)], outcome: { kind: 'retried', retries: 1 } },
  { fault: 'stream cut mid-tool-call (arguments half sent, closed cleanly)', wire: 'openai', replies: [cutInToolCall('end'), ...toolCallThenAnswer], outcome: { kind: 'retried', retries: 1 }, check: ranOnceWithWholeArgs },
  { fault: 'stream cut mid-tool-call (arguments half sent, closed cleanly)', wire: 'anthropic', replies: [cutInToolCall('end'), ...toolCallThenAnswer], outcome: { kind: 'retried', retries: 1 }, check: ranOnceWithWholeArgs },
  { fault: 'stream cut mid-tool-call (arguments half sent, connection reset)', wire: 'openai', replies: [cutInToolCall('reset'), ...toolCallThenAnswer], outcome: { kind: 'retried', retries: 1 }, check: ranOnceWithWholeArgs },
  { fault: 'stream cut mid-tool-call (arguments half sent, connection reset)', wire: 'anthropic', replies: [cutInToolCall('reset'), ...toolCallThenAnswer], outcome: { kind: 'retried', retries: 1 }, check: ranOnceWithWholeArgs },
  { fault: 'malformed SSE (a data line that is not JSON)', wire: 'openai', replies: [{ broken: 'malformed', stream: { text: WHOLE }, afterChunks: 3 }, text(WHOLE)], outcome: { kind: 'retried', retries: 1 } },
  { fault: 'malformed SSE (a data line that is not JSON)', wire: 'anthropic', replies: [{ broken: 'malformed', stream: { text: WHOLE }, afterChunks: 4 }, text(WHOLE)], outcome: { kind: 'retried', retries: 1 } },
  { fault: "OpenAI's context-length error (400 context_length_exceeded)", wire: 'openai', replies: [{ fault: 'context_length' }, text(WHOLE)], outcome: { kind: 'compacted' } },
  { fault: "Anthropic's context-length error (400 prompt is too long)", wire: 'anthropic', replies: [{ fault: 'context_length' }, text(WHOLE)], outcome: { kind: 'compacted' } },
  {
    fault: 'an empty 200 (no SSE event at all)',
    wire: 'openai',
    replies: [{ status: 200, headers: { 'content-type': 'text/event-stream' }, rawBody: '' }, text(WHOLE)],
    outcome: { kind: 'retried', retries: 1 },
  },
  {
    fault: 'an empty 200 (no SSE event at all)',
    wire: 'anthropic',
    replies: [{ status: 200, headers: { 'content-type': 'text/event-stream' }, rawBody: '' }, text(WHOLE)],
    outcome: { kind: 'retried', retries: 1 },
  },
  { fault: 'an empty 502', wire: 'openai', replies: [{ status: 502, rawBody: '' }, text(WHOLE)], outcome: { kind: 'retried', retries: 1 } },
  {
    fault: 'a server that accepts and never answers',
    wire: 'openai',
    replies: [{ hang: true }, text(WHOLE)],
    limits: { firstTokenTimeoutMs: 300 },
    outcome: { kind: 'retried', retries: 1 },
    check: ({ events }) => expect(retries(events)[0]!.error.message).toMatch(/streamed nothing within 300 ms \(limits\.firstTokenTimeoutMs\)/),
  },
  {
    fault: 'a server that never answers, on every attempt',
    wire: 'anthropic',
    replies: [{ hang: true }, { hang: true }, { hang: true }],
    limits: { firstTokenTimeoutMs: 200 },
    outcome: { kind: 'failed', error: 'transient', message: /streamed nothing within 200 ms/ },
  },
  {
    fault: 'a stream that goes quiet mid-message',
    wire: 'anthropic',
    replies: [{ silent: true, stream: { text: WHOLE }, afterChunks: 4 }, text(WHOLE)],
    limits: { streamIdleTimeoutMs: 300 },
    outcome: { kind: 'retried', retries: 1 },
  },
  { fault: '401 (a bad key)', wire: 'anthropic', replies: [{ fault: 'unauthorized' }], outcome: { kind: 'failed', error: 'fatal', message: /^401: invalid x-api-key/ } },
  { fault: '400 that is not about the context', wire: 'openai', replies: [error(400, 'Invalid value for temperature')], outcome: { kind: 'failed', error: 'fatal', message: /^400: Invalid value for temperature/ } },
];

let server: OpenAICompatibleServer | undefined;
let file: FileSession | undefined;
afterEach(async () => {
  await server?.close();
  await file?.dispose();
  server = undefined;
  file = undefined;
});

function providerModel(wire: WireFormat, baseURL: string) {
  return wire === 'openai'
    ? createOpenAICompatible({ name: 'local', baseURL, apiKey: 'test-key', includeUsage: true }).chatModel('local-model')
    : createAnthropic({ baseURL, apiKey: 'test-key' })('claude-sonnet-4-5');
}

describe('provider faults over real HTTP: each ends in its documented outcome, the session stays valid, the next prompt completes', () => {
  it.each(cases.map((c) => [`${c.fault} (${c.wire})`, c] as const))('%s', async (_, c) => {
    server = await startOpenAICompatibleServer({ script: [text('warm-up answer'), ...c.replies, text('the next answer')] });
    file = await fileSession();
    const { echo, calls } = recordingTools();
    const agent = createAgent({
      model: fromLanguageModel(providerModel(c.wire, server.baseURL)),
      tools: [echo],
      session: file.session,
      // keepTail cuts nothing at an ordinary boundary of these short turns; forced, it keeps the last message.
      compactor: WindowManager({ strategy: 'keepTail', contextWindow: 100_000, reserveTokens: 1_000, keepRecentTokens: 1 }),
      limits: { maxRetries: 2, retryBaseDelayMs: 1, retryMaxDelayMs: 1_000, ...c.limits },
    });
    expect(await agent.prompt('warm up')).toMatchObject({ status: 'completed' });
    const events = recordEvents(agent);
    const outcome = await agent.prompt('the prompt that meets the fault');
    const run: Run = { outcome, events, server, toolCalls: calls.map((call) => ({ args: call.args })) };

    switch (c.outcome.kind) {
      case 'retried':
        expect(outcome).toMatchObject({ status: 'completed' });
        expect(retries(events).map((r) => r.error.kind)).toEqual(Array(c.outcome.retries).fill('transient'));
        expect(agent.session.context().at(-1)).toMatchObject({ role: 'assistant', content: [{ type: 'text', text: WHOLE }] });
        break;
      case 'failed':
        expect(outcome).toMatchObject({ status: 'failed', error: { kind: c.outcome.error, message: expect.stringMatching(c.outcome.message) } });
        break;
      case 'compacted': {
        expect(outcome).toMatchObject({ status: 'completed' });
        const forced = events.flatMap((e) => (e.type === 'compaction.finished' ? [e.meta] : []));
        expect(forced.filter((meta) => meta.compacted)).toHaveLength(1);
        expect(agent.session.path().filter((e) => e.kind === 'compaction')).toHaveLength(1);
        // The retry sent less than the attempt that overflowed.
        const [, overflowed, retried] = server.requests;
        expect(retried!.body.messages.length).toBeLessThan(overflowed!.body.messages.length);
        break;
      }
      default: {
        const unknown: never = c.outcome;
        throw new TypeError(`unknown outcome ${JSON.stringify(unknown)}`);
      }
    }
    c.check?.(run);
    // A failed turn keeps its prompt, unanswered: the next prompt follows it.
    const unansweredPrompts = c.outcome.kind === 'failed' ? 1 : 0;
    expect(await sessionProblems(agent, { file })).toEqual([]);

    expect(await agent.prompt('and the next prompt')).toMatchObject({ status: 'completed' });
    expect(agent.session.context().at(-1)).toMatchObject({ role: 'assistant', content: [{ type: 'text', text: 'the next answer' }] });
    expect(await sessionProblems(agent, { file, unansweredPrompts })).toEqual([]);
    if (unansweredPrompts) expect(agent.session.context().filter((m) => m.role === 'user').map((m) => m.content)).toContain('the prompt that meets the fault');
    // The failed prompt was not lost: the next request carried it.
    if (unansweredPrompts) expect(JSON.stringify(server.requests.at(-1)!.body.messages)).toContain('the prompt that meets the fault');
    await agent.close();
  });
});

import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { type Compactor, WindowManager } from '@tiller/compaction';
import type { Message, ModelRequest, ModelStreamPart, TillerModel, TurnOutcome } from '@tiller/core';
import { scriptedModel, type ServerReply } from '@tiller/testing';
import { z } from 'zod';
import { createAgent, defineTool, fromLanguageModel, modelSummarizer, type Agent, type AgentEventType, type AgentOptions } from '../../src/index.js';
import { fileSession, sessionProblems } from './fault-helpers.js';

// One abort at each point a turn can be at, with work there that ignores the abort signal (a
// model, a tool, a policy, a compactor, a summarizer that never answer and never listen), then a
// prompt that completes and a close() that returns. The same scenarios run in the test process
// (abort-everywhere.test.ts) and each in a child process of its own (abort-everywhere.child.ts),
// which must then exit by itself: nothing left open.

export const ABORT_POINTS = [
  'before the model answers',
  'before the model answers (HTTP)',
  'mid-stream',
  'mid-stream (HTTP)',
  "mid-stream, in a tool call's arguments (HTTP)",
  'while waiting to retry the model',
  'mid-tool',
  'while the policy decides',
  'while waiting for approval',
  'during compaction',
  'during summarization',
] as const;
export type AbortPoint = (typeof ABORT_POINTS)[number];

/** What the server on 127.0.0.1 plays for the HTTP points: the call that is aborted, then the next prompt's answer. */
export function httpScript(point: AbortPoint): ServerReply[] | undefined {
  switch (point) {
    case 'before the model answers (HTTP)':
      return [{ hang: true }, { stream: { text: NEXT_ANSWER } }];
    case 'mid-stream (HTTP)':
      return [{ silent: true, stream: { text: 'the beginning of an answer that never ends' }, afterChunks: 4 }, { stream: { text: NEXT_ANSWER } }];
    case "mid-stream, in a tool call's arguments (HTTP)":
      // Role, three pieces of text, the call's name, one piece of its arguments: then nothing.
      return [{ silent: true, stream: { text: 'Let me look.', toolCalls: [{ id: 'call_1', name: 'echo', args: { text: 'never finished' } }] }, afterChunks: 6 }, { stream: { text: NEXT_ANSWER } }];
    default:
      return undefined;
  }
}

export interface AbortReport {
  point: AbortPoint;
  /** How the aborted turn ended. */
  aborted: TurnOutcome;
  /** The last message of the context after the abort. */
  afterAbort: Message | undefined;
  /** How the next prompt ended, and its answer's text. */
  next: TurnOutcome;
  nextAnswer: string;
  /** What sessionProblems found, after the abort and after the next prompt. */
  problems: string[];
  /** Compaction entries in the session after the abort, and after the next prompt. */
  compactions: { afterAbort: number; afterNext: number };
  /** Tool calls that ran (the scenarios' echo tool). */
  echoed: number;
}

/** How long any one step may take before the scenario says it hangs (generous: the machine may be loaded). */
const DEADLINE_MS = 10_000;
const NEXT_ANSWER = 'the next answer';
const PROMPT = 'the prompt that is aborted';

/** The server the HTTP points talk to, and a way to know its first request arrived (it lives in another process, perhaps). */
export interface ScenarioServer {
  baseURL: string;
  requestArrived(): Promise<void>;
}

/** Runs one scenario; throws, naming the step, when a step does not return in time. */
export async function runAbortScenario(point: AbortPoint, server?: ScenarioServer): Promise<AbortReport> {
  const file = await fileSession();
  try {
    const ran = { count: 0 };
    const setup = scenario(point, server, ran);
    const agent = createAgent({ session: file.session, ...setup.options });
    if (setup.warmUp) await within('the warm-up prompt', agent.prompt(setup.warmUp));
    const reached = setup.reached(agent);
    const turn = agent.prompt(PROMPT);
    await within(`reaching "${point}"`, reached);
    await within('abort()', agent.abort('the host aborted'));
    const aborted = await within('the aborted prompt', turn);
    const afterAbort = agent.session.context().at(-1);
    const compactionsNow = () => agent.session.path().filter((e) => e.kind === 'compaction').length;
    const compactionsAfterAbort = compactionsNow();
    const problems = await sessionProblems(agent, { file, unansweredPrompts: setup.unansweredPrompts });
    const next = await within('the next prompt', agent.prompt('the next prompt'));
    const last = agent.session.context().at(-1);
    const nextAnswer = last?.role === 'assistant' ? last.content.map((p) => (p.type === 'text' ? p.text : '')).join('') : '';
    problems.push(...(await sessionProblems(agent, { file, unansweredPrompts: setup.unansweredPrompts })));
    await within('close()', agent.close());
    return { point, aborted, afterAbort, next, nextAnswer, problems, compactions: { afterAbort: compactionsAfterAbort, afterNext: compactionsNow() }, echoed: ran.count };
  } finally {
    await file.dispose();
  }
}

interface Scenario {
  options: Omit<AgentOptions, 'session'>;
  /** Resolves once the turn is at the point to abort. */
  reached(agent: Agent): Promise<void>;
  warmUp?: string;
  /** The aborted prompt stays unanswered when the model had said nothing yet. */
  unansweredPrompts: number;
}

function scenario(point: AbortPoint, server: ScenarioServer | undefined, ran: { count: number }): Scenario {
  const answers = () => scriptedModel([{ text: NEXT_ANSWER }]);
  switch (point) {
    case 'before the model answers': {
      const deaf = deafAt(0, answers());
      return { options: { model: deaf.model }, reached: () => deaf.reached, unansweredPrompts: 1 };
    }
    case 'before the model answers (HTTP)':
      // Aborted once the server holds the request (sooner, and the next prompt's request would get the hang).
      return { options: { model: httpModel(server) }, reached: () => server!.requestArrived(), unansweredPrompts: 1 };
    case 'mid-stream': {
      const deaf = deafAt(0, answers(), 'the beginning of');
      return { options: { model: deaf.model }, reached: (agent) => event(agent, 'text.delta'), unansweredPrompts: 0 };
    }
    case 'mid-stream (HTTP)':
      return { options: { model: httpModel(server) }, reached: (agent) => event(agent, 'text.delta'), unansweredPrompts: 0 };
    case "mid-stream, in a tool call's arguments (HTTP)":
      return { options: { model: httpModel(server), tools: [echo(ran)] }, reached: (agent) => event(agent, 'toolcall.delta'), unansweredPrompts: 0 };
    case 'while waiting to retry the model':
      return {
        options: { model: scriptedModel([{ error: 'transient', message: 'busy', retryAfterMs: 600_000 }, { text: NEXT_ANSWER }]), limits: { retryMaxDelayMs: 600_000 } },
        reached: (agent) => event(agent, 'llm.retry'),
        unansweredPrompts: 1,
      };
    case 'mid-tool': {
      const reached = deferred();
      const deafTool = defineTool({
        name: 'deaf',
        description: 'never finishes and never looks at its signal',
        input: z.object({}),
        execute: () => {
          reached.resolve();
          return new Promise<never>(() => {});
        },
      });
      const model = scriptedModel([{ toolCalls: [{ name: 'deaf', args: {} }] }, { text: NEXT_ANSWER }]);
      return { options: { model, tools: [deafTool] }, reached: () => reached.promise, unansweredPrompts: 0 };
    }
    case 'while the policy decides': {
      const reached = deferred();
      const model = scriptedModel([{ toolCalls: [{ name: 'echo', args: {} }] }, { text: NEXT_ANSWER }]);
      const policy = () => {
        reached.resolve();
        return new Promise<never>(() => {});
      };
      return { options: { model, tools: [echo(ran)], policy }, reached: () => reached.promise, unansweredPrompts: 0 };
    }
    case 'while waiting for approval': {
      const model = scriptedModel([{ toolCalls: [{ name: 'echo', args: {} }] }, { text: NEXT_ANSWER }]);
      return { options: { model, tools: [echo(ran)], policy: () => ({ decision: 'ask' }) }, reached: (agent) => event(agent, 'approval.requested'), unansweredPrompts: 0 };
    }
    case 'during compaction': {
      const reached = deferred();
      let calls = 0;
      const compactor: Compactor<unknown> = {
        name: 'deaf on its first call',
        maybeCompact: async (acc) => {
          if (calls++ > 0) return { acc, meta: { compacted: false, appended: [] } };
          reached.resolve();
          return new Promise<never>(() => {});
        },
      };
      return { options: { model: answers(), compactor }, reached: () => reached.promise, unansweredPrompts: 1 };
    }
    case 'during summarization': {
      // A warm-up prompt and its answer overflow a small window; at the next turn's start
      // WindowManager summarizes the prompt, with a summarizer that is deaf on its first call.
      const summarizer = deafAt(0, scriptedModel([{ text: 'Summary: the user sent a long text, the model acknowledged it.' }], { id: 'scripted/summarizer' }));
      const compactor = WindowManager({ strategy: 'summarize', summarizer: modelSummarizer(summarizer.model), contextWindow: 2_000, reserveTokens: 600, keepRecentTokens: 300 });
      const model = scriptedModel([{ text: `I read it: ${'ipsum '.repeat(400)}` }, { text: NEXT_ANSWER }]);
      return { options: { model, compactor }, warmUp: `a long text: ${'lorem ipsum '.repeat(1_000)}`, reached: () => summarizer.reached, unansweredPrompts: 1 };
    }
    default: {
      const unknown: never = point;
      throw new TypeError(`unknown abort point ${JSON.stringify(unknown)}`);
    }
  }
}

/**
 * `then` with its call `index` replaced by one that never answers and never looks at its signal
 * (after streaming `text`, when given). It holds no timer and no socket: only a shell that waits
 * on it could keep a process alive.
 */
function deafAt(index: number, then: TillerModel, text?: string): { model: TillerModel; reached: Promise<void> } {
  const reached = deferred();
  let calls = 0;
  const deaf = async function* (): AsyncGenerator<ModelStreamPart> {
    if (text !== undefined) yield { type: 'text-delta', delta: text };
    reached.resolve();
    await new Promise<never>(() => {});
  };
  const model: TillerModel = {
    id: then.id,
    contextWindow: then.contextWindow,
    stream: (request: ModelRequest) => (calls++ === index ? deaf() : then.stream(request)),
  };
  return { model, reached: reached.promise };
}

function httpModel(server: ScenarioServer | undefined): TillerModel {
  if (!server) throw new TypeError('this abort point needs a server on 127.0.0.1');
  return fromLanguageModel(createOpenAICompatible({ name: 'local', baseURL: server.baseURL, apiKey: 'test-key' }).chatModel('local-model'));
}

/** A tool that counts its runs in `ran` (none of the scenarios may run it). */
function echo(ran: { count: number }) {
  return defineTool({
    name: 'echo',
    description: 'echoes',
    input: z.object({ text: z.string().optional() }),
    execute: async () => {
      ran.count++;
      return 'echoed';
    },
  });
}

function event(agent: Agent, type: AgentEventType): Promise<void> {
  return new Promise((resolve) => {
    const off = agent.subscribe((e) => {
      if (e.type !== type) return;
      off();
      resolve();
    });
  });
}

function deferred(): { promise: Promise<void>; resolve(): void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** `work`, or an error naming `what` when it takes longer than the deadline; the timer never outlives the wait. */
async function within<T>(what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not return within ${DEADLINE_MS} ms`)), DEADLINE_MS);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

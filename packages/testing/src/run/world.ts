import type { Compactor } from '@tiller/compaction';
import { ModelError, type AssistantContentPart, type ModelStreamPart, type TillerModel } from '@tiller/core';
import type { Agent, Tool, ToolContext } from '@tiller/shell';
import type { PlannedCall, ReplyKind, ToolOutcomeKind } from '../path-step.js';
import { unansweredCalls } from '../transcript.js';
import type { DurableStore } from './durable-store.js';

/** One attempt of a model call, as the world plays it. */
export type ModelAttempt =
  | { kind: 'reply'; reply: ReplyKind; calls: ReadonlyArray<PlannedCall & { id: string }> }
  | { kind: 'fail'; error: 'transient' | 'rate_limited' | 'overflow' | 'fatal' };

/** One run of one of the agent's tools, as the world saw it. */
export interface ToolRun {
  /** Which process ran it: 1, then 2 after a crash, and so on. */
  generation: number;
  tool: string;
  /** The call's id from the context the tool was given (undefined when it was called without one). */
  toolCallId: string | undefined;
  args: unknown;
  /** How many inputs the journal held when the tool started. */
  startedAfterInputs: number;
  /** The tool's own execute finished (returned or threw). */
  settled: boolean;
  result?: unknown;
  error?: string;
}

/** A problem the world saw while it happened (checked where the problem occurs, not after). */
export interface Sighting {
  invariant: 'valid-transcript' | 'persist-before-blocking';
  message: string;
}

interface Waiter<T> {
  resolve(value: T): void;
  reject(error: unknown): void;
}

/** Waiters for the driver's word, each given up when its signal aborts. */
function gate<T>() {
  const waiting: Array<Waiter<T>> = [];
  return {
    get size() {
      return waiting.length;
    },
    wait(signal: AbortSignal | undefined): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        const waiter: Waiter<T> = { resolve, reject };
        waiting.push(waiter);
        signal?.addEventListener(
          'abort',
          () => {
            const i = waiting.indexOf(waiter);
            if (i >= 0) waiting.splice(i, 1);
            reject(signal.reason);
          },
          { once: true },
        );
      });
    },
    releaseAll(value: T): number {
      const all = waiting.splice(0);
      for (const w of all) w.resolve(value);
      return all.length;
    },
  };
}

/**
 * The world of one run: the model the agent talks to, its tools and compactor with holds the
 * driver releases step by step, and what they saw. It outlives a crash: the resumed agent talks to
 * the same world (as a restarted process talks to the same provider and file system).
 */
export function createWorld() {
  let generation = 1;
  /** Between a crash and the resume nothing of the dead process may run. */
  let dead = false;
  let current: { agent: Agent; store: DurableStore; inputs: () => number } | null = null;
  const runs: ToolRun[] = [];
  const sightings: Sighting[] = [];
  const modelGate = gate<ModelAttempt[]>();
  const compactionGate = gate<void>();
  const toolGate = gate<void>();
  let attempts: ModelAttempt[] = [];
  let modelCalls = 0;
  /** What each planned call does when it runs, and whether its batch was let go. */
  const calls = new Map<string, { outcome: ToolOutcomeKind; batch: number }>();
  const releasedBatches = new Set<number>();
  const faultedBatches = new Set<number>();
  let batchCount = 0;

  const see = (invariant: Sighting['invariant'], message: string) => sightings.push({ invariant, message });

  /** Every entry the turn holds must be in the store before the work of a blocking effect starts. */
  const checkPersisted = (what: string) => {
    if (!current) return;
    const missing = current.agent.snapshot.context.entries.toArray().filter((e) => !current!.store.has(e.id));
    if (missing.length > 0) see('persist-before-blocking', `${what} started before ${missing.map((e) => e.id).join(', ')} reached the session log`);
  };

  const model: TillerModel = {
    id: 'tiller-testing/world',
    async *stream(request): AsyncGenerator<ModelStreamPart> {
      if (dead) return await untilAborted(request.signal);
      modelCalls += 1;
      checkPersisted(`model call ${modelCalls}`);
      const problems = unansweredCalls(request.messages);
      if (problems.length > 0) see('valid-transcript', `model call ${modelCalls} was sent a transcript where ${problems.join('; ')}`);
      if (attempts.length === 0) attempts = [...(await modelGate.wait(request.signal))];
      const attempt = attempts.shift()!;
      if (attempt.kind === 'fail') throw failure(attempt.error);
      yield* reply(attempt);
    },
  };

  const instrument = <T extends Tool>(tool: T): T => {
    const execute = tool.execute.bind(tool);
    // The same tool (name, schema, spec, limits), with its execute watched.
    const watched: Tool = {
      ...tool,
      execute: async (args: unknown, context: ToolContext) => {
        if (dead) return untilAborted(context.signal);
        const toolCallId = typeof context?.toolCallId === 'string' ? context.toolCallId : undefined;
        const run: ToolRun = { generation, tool: tool.name, toolCallId, args, startedAfterInputs: current?.inputs() ?? 0, settled: false };
        runs.push(run);
        checkPersisted(`tool ${tool.name} (${toolCallId ?? 'no call id'})`);
        const planned = toolCallId === undefined ? undefined : calls.get(toolCallId);
        // A call the world did not plan (a side channel): it runs, and the checks see it.
        if (!planned) return runReal(run, () => execute(args as never, context));
        let outcome = planned.outcome;
        if (outcome !== 'ok') {
          // Only the first call of the batch that runs takes the fault; the rest run as usual.
          if (faultedBatches.has(planned.batch)) outcome = 'ok';
          else faultedBatches.add(planned.batch);
        }
        const signal = context.signal;
        switch (outcome) {
          case 'ok': {
            const real = runReal(run, () => execute(args as never, context));
            // If the hold gives up (an abort), the tool's own failure is nobody's to handle.
            real.catch(() => undefined);
            await hold(planned.batch, signal);
            return real;
          }
          case 'throw':
            run.settled = true;
            await hold(planned.batch, signal);
            throw new Error(`scripted failure: ${tool.name} threw`);
          case 'timeout':
            run.settled = true;
            return new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
          default: {
            const unknown: never = outcome;
            throw new TypeError(`unknown tool outcome ${String(unknown)}`);
          }
        }
      },
    };
    return watched as T;
  };

  const hold = async (batch: number, signal: AbortSignal) => {
    if (!releasedBatches.has(batch)) await toolGate.wait(signal);
  };

  const runReal = (run: ToolRun, call: () => unknown): Promise<unknown> => {
    let result: Promise<unknown>;
    try {
      result = Promise.resolve(call());
    } catch (error) {
      result = Promise.reject(error);
    }
    return result.then(
      (value) => {
        run.settled = true;
        run.result = value;
        return value;
      },
      (error: unknown) => {
        run.settled = true;
        run.error = error instanceof Error ? error.message : String(error);
        throw error;
      },
    );
  };

  const wrapCompactor = <C extends Compactor<any>>(compactor: C): C => {
    const maybeCompact: C['maybeCompact'] = async (acc, ctx, opts) => {
      if (dead) return untilAborted(ctx.signal);
      checkPersisted('the compactor');
      await compactionGate.wait(ctx.signal);
      return compactor.maybeCompact(acc, ctx, opts);
    };
    // The compactor's other methods (validateOpts, needsWindow, its catalog) stay as they are.
    return Object.create(compactor, { maybeCompact: { value: maybeCompact, enumerable: true } }) as C;
  };

  return {
    model,
    instrument,
    wrapCompactor,
    runs,
    sightings,
    get generation() {
      return generation;
    },
    attach(next: { agent: Agent; store: DurableStore; inputs: () => number }) {
      current = next;
    },
    /** The process died: nothing it started may run on; `revive` starts the next one. */
    die() {
      dead = true;
      attempts = [];
    },
    revive() {
      dead = false;
      generation += 1;
    },
    /** What the world is holding: the driver acts only once the agent waits there. */
    holding: {
      model: () => modelGate.size > 0,
      compaction: () => compactionGate.size > 0,
      tools: () => toolGate.size > 0,
    },
    /** The model's answer to the waiting call: its attempts in order (retried faults first). */
    answerModel(planned: ModelAttempt[]): boolean {
      return modelGate.releaseAll(planned) > 0;
    },
    /** Plans the calls of a reply: what each does when it runs. */
    planCalls(ids: readonly string[], outcome: ToolOutcomeKind): void {
      batchCount += 1;
      for (const id of ids) calls.set(id, { outcome, batch: batchCount });
    },
    /** Lets the held calls of the current batch (and any still to start) go on. */
    releaseTools(): void {
      releasedBatches.add(batchCount);
      toolGate.releaseAll();
    },
    releaseCompaction(): boolean {
      return compactionGate.releaseAll() > 0;
    },
    /** Transient failures before a failed call gives up: the agent's `maxRetries` + 1. */
    attemptsBeforeGivingUp: 1,
  };
}

export type World = ReturnType<typeof createWorld>;

/** What work of a dead process does: nothing, until its signal lets it go. */
function untilAborted(signal: AbortSignal | undefined): Promise<never> {
  return new Promise<never>((_, reject) => {
    if (signal?.aborted) reject(signal.reason);
    signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

function failure(error: 'transient' | 'rate_limited' | 'overflow' | 'fatal'): ModelError {
  switch (error) {
    case 'transient':
      return new ModelError('transient', 'the provider is busy (503)');
    case 'rate_limited':
      return new ModelError('transient', 'rate limited (429)', { retryAfterMs: 1 });
    case 'overflow':
      return new ModelError('overflow', 'the request is larger than the context window');
    case 'fatal':
      return new ModelError('fatal', 'the request was refused (400)');
    default: {
      const unknown: never = error;
      throw new TypeError(`unknown failure ${String(unknown)}`);
    }
  }
}

/** Streams a reply; a model offered no tools (the final call) may still ask for one: the turn must cope. */
async function* reply(attempt: Extract<ModelAttempt, { kind: 'reply' }>): AsyncGenerator<ModelStreamPart> {
  const content: AssistantContentPart[] = [];
  const text = { text: 'Here is the answer.', tool_call: 'Let me check.', parallel_tool_calls: 'Two things at once.', error: 'Something went wr', aborted: 'I was say' }[
    attempt.reply
  ];
  yield { type: 'text-delta', delta: text };
  content.push({ type: 'text', text });
  for (const call of attempt.calls) {
    yield { type: 'toolcall-delta', toolCallId: call.id, toolName: call.tool, delta: JSON.stringify(call.args) };
    content.push({ type: 'toolCall', id: call.id, name: call.tool, args: call.args });
  }
  const stopReason = attempt.reply === 'error' ? 'error' : attempt.reply === 'aborted' ? 'aborted' : attempt.calls.length > 0 ? 'toolUse' : 'stop';
  const usage = { input: 100, output: 20, cacheRead: 0, cacheWrite: 0, totalTokens: 120 };
  yield { type: 'done', message: { role: 'assistant', content, stopReason, usage }, stopReason, usage };
}

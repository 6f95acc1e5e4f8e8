import { createTokenLedger, type TokenLedger } from '@tiller/compaction';
import {
  type ApprovalDecision,
  type BlockingEffect,
  type Effect,
  type Entry,
  type MaybeCompactEffect,
  step,
  type ToolCallPart,
  type ToolOutcome,
  type TurnEvent,
  type TurnOutcome,
  type TurnSnapshot,
} from '@tiller/core';
import type { SessionLog } from '@tiller/session';
import { effectDigest, JOURNAL_FORMAT, JOURNAL_VERSION, type JournalLine } from '../journal/journal-format.js';
import type { JournalStore } from '../journal/journal-store.js';
import type { ToolSpec } from '@tiller/core';
import type { Tool } from '../tools/define-tool.js';
import { runToolBatch } from '../tools/run-tool-batch.js';
import type { AgentEvent, AgentListener } from './agent-event.js';
import type { ResolvedAgentOptions } from './agent-options.js';
import { callModel, type CallModelDeps } from './call-model.js';
import { now } from '../clock.js';
import { createEventHub } from './event-hub.js';
import { AgentBrokenError, ApprovalError } from '../errors.js';
import { createInspection } from './inspection.js';
import { guardPolicy } from './policy-guard.js';
import { type ResolvedCompaction, resolveCompaction } from './resolve-compaction.js';

export interface RuntimeInit {
  options: ResolvedAgentOptions;
  session: SessionLog;
  journal: JournalStore;
  snapshot: TurnSnapshot;
  /** Null when the journal segment exists already (a resumed agent continues it). */
  header: Extract<JournalLine, { type: 'header' }> | null;
  nextSeq: number;
}

/** Decisions gathered for the batch the turn waits on, and the timer that denies the rest. */
interface ParkedApproval {
  batchId: string;
  decided: Map<string, ApprovalDecision>;
  timer: NodeJS.Timeout | undefined;
  /** The decisions went to the core; nothing more is taken for this batch. */
  sent: boolean;
}

/** What waits in the runtime's queue: an input someone fed, the answer to an effect, or an effect to carry out again. */
type Job =
  | { kind: 'input'; input: TurnEvent; caller: { resolve(): void; reject(error: unknown): void } }
  | { kind: 'answer'; id: string; input: TurnEvent; caller?: undefined }
  | { kind: 'perform'; effect: BlockingEffect; settled: ReadonlyMap<string, ToolOutcome> | undefined; caller?: undefined };

export interface TurnRuntime {
  readonly snapshot: TurnSnapshot;
  /** Why the agent stopped, once it has. */
  readonly broken: AgentBrokenError | null;
  /** Feeds one input to the core and carries out its effects; inputs are applied one at a time, in call order. */
  feed(input: TurnEvent): Promise<void>;
  /** Asks the compaction policy, if any, to admit one more turn; throws its violation. */
  admitTurn(): void;
  /** Carries out a blocking effect again (a resumed turn), with the tool outcomes already known. */
  perform(effect: BlockingEffect, settled?: ReadonlyMap<string, ToolOutcome>): void;
  startTurn(turnId: string): { outcome: Promise<TurnOutcome>; signal: AbortSignal };
  abortSignal(reason: string): void;
  decide(decisions: readonly ApprovalDecision[]): void;
  pendingApprovals(): ToolCallPart[];
  idle(): Promise<TurnOutcome | null>;
  subscribe(listener: AgentListener): () => void;
  events(): AsyncIterableIterator<AgentEvent>;
  publish(event: AgentEvent): void;
  close(): Promise<void>;
}

/**
 * The one effect interpreter. Every input goes through `feed`: journal it, step the core, then
 * carry out the effects in order (persist before the blocking effect). A blocking effect's work
 * runs in the background and comes back through `feed` as the event that answers it, unless the
 * turn moved on meanwhile (an abort), in which case the answer is dropped.
 */
export function createTurnRuntime(init: RuntimeInit): TurnRuntime {
  const { options, session, journal } = init;
  const tools = new Map<string, Tool>(options.tools.map((t) => [t.name, t]));
  const toolSpecs: ToolSpec[] = options.tools.map((t) => t.spec);
  // About 4 characters a token: what the system prompt and tool definitions add to every request.
  const promptTokens = Math.ceil(((options.systemPrompt?.length ?? 0) + JSON.stringify(toolSpecs).length) / 4);
  const hub = createEventHub((error) =>
    hub.publish({ type: 'shell.error', where: 'listener', message: error instanceof Error ? error.message : String(error), at: now() }),
  );
  const actorId = `tiller.turn:${init.header?.baseLeafId ?? session.leafId ?? 'root'}`;
  const inspection = createInspection(options.inspect, actorId);

  let snapshot = init.snapshot;
  // The session path as an array the shell only appends to, so a compactor gets it without a copy.
  const path: Entry[] = snapshot.context.entries.toArray();
  /**
   * The token ledger over the path, made the first time the context's size is asked for (a model
   * with a known window, a compactor, a compaction policy, a listener of `compaction.started`), then
   * kept in step with the path. An agent that never asks does not count tokens.
   */
  let ledger: TokenLedger | undefined;
  let seq = init.nextSeq;
  let header = init.header;
  /** Work waiting its turn, applied one at a time in order; `draining` is the loop applying it, while it runs. */
  const jobs: Job[] = [];
  let draining: Promise<void> | null = null;
  let controller = new AbortController();
  let approval: ParkedApproval | null = null;
  type Waiter<T> = { resolve: (value: T) => void; reject: (error: Error) => void };
  const waiters = new Map<string, Waiter<TurnOutcome>>();
  let idleWaiters: Array<Waiter<TurnOutcome | null>> = [];
  /** Set when the shell could not carry out an effect (the log refused entries): the agent stops. */
  let broken: AgentBrokenError | null = null;
  const inFlight = new Set<Promise<unknown>>();
  const guard = guardPolicy(options.compactionPolicy, options.model, path, init.header ? 'createAgent' : 'resumeAgent');

  inspection?.started(snapshot);

  const pendingId = () => snapshot.context.turn?.pending?.id;

  /** Anchored on the last reported usage (which counted the prompt), else estimated with the prompt added. */
  const contextTokens = () => {
    const estimate = currentLedger().estimate();
    return estimate.tokens + (estimate.anchored ? 0 : promptTokens);
  };

  /** Brings the path and the ledger up to the snapshot's entries (which only ever grow). */
  const syncPath = () => {
    const entries = snapshot.context.entries;
    for (let i = path.length; i < entries.length; i++) path.push(entries.at(i)!);
    if (ledger) {
      // A compactor advances the ledger it is given; if its result was then discarded, start over.
      if (ledger.length > path.length) ledger = createTokenLedger(path);
      else for (let i = ledger.length; i < path.length; i++) ledger.append(path[i]!);
    }
  };

  const currentLedger = (): TokenLedger => (ledger ??= createTokenLedger(path));

  const process = async (input: TurnEvent) => {
    if (header) {
      await journal.append(header);
      header = null;
    }
    const result = step(snapshot, input);
    snapshot = result.snapshot;
    syncPath();
    await journal.append({ type: 'input', seq: seq++, input, effects: result.effects.map(effectDigest) });
    inspection?.stepped(input, snapshot);
    for (const effect of result.effects) {
      // Only a persist has to finish before the next effect; the others are done when interpret returns.
      const pending = interpret(effect);
      if (pending) await pending;
    }
  };

  /**
   * Queues a job. One a host call queues (`hostCall`) is never applied inside that call: the
   * caller returns before anything changes. An answer to background work is applied at once.
   */
  const schedule = (job: Job, hostCall: boolean) => {
    jobs.push(job);
    draining ??= drain(hostCall);
  };

  /**
   * Applies queued jobs until none is left. One loop serves a whole chain of inputs, so an input
   * costs no promise of its own unless its caller waits for it. A failure stops the agent (see
   * breakDown) and goes to the job's caller, if any.
   */
  const drain = async (hostCall: boolean) => {
    if (hostCall) await undefined;
    for (let job = jobs.shift(); job; job = jobs.shift()) {
      try {
        if (broken) throw broken;
        const pending = run(job);
        if (pending) await pending;
        job.caller?.resolve();
      } catch (error) {
        if (error !== broken) breakDown(error);
        job.caller?.reject(error);
      }
    }
    draining = null;
  };

  const run = (job: Job): Promise<void> | undefined => {
    switch (job.kind) {
      case 'input':
        return process(job.input);
      case 'answer':
        // An answer counts only if the turn still waits on the effect it answers.
        return pendingId() === job.id ? process(job.input) : undefined;
      case 'perform':
        return interpret(job.effect, job.settled);
      default: {
        const unknown: never = job;
        throw new TypeError(`unknown job ${JSON.stringify(unknown)}`);
      }
    }
  };

  /**
   * The core's state and the log no longer agree (an append failed mid-step), so no further step
   * is safe: running work is aborted and every waiting caller gets the error.
   */
  const breakDown = (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    broken = new AgentBrokenError(`the agent stopped: ${message}`, { cause: error });
    hub.publish({ type: 'shell.error', where: 'feed', message, at: now() });
    controller.abort(broken.message);
    dropApproval();
    for (const waiter of waiters.values()) waiter.reject(broken);
    waiters.clear();
    for (const waiter of idleWaiters.splice(0)) waiter.reject(broken);
  };

  const feed = (input: TurnEvent) => new Promise<void>((resolve, reject) => schedule({ kind: 'input', input, caller: { resolve, reject } }, true));

  /**
   * The event that answers effect `id`, from the work in the background unless a host call gives
   * it; nobody waits for it (a failure has stopped the agent, see breakDown).
   */
  const answer = (id: string, input: TurnEvent, hostCall = false) => schedule({ kind: 'answer', id, input }, hostCall);

  /**
   * Starts the work of a blocking effect. Work that knows its answer at once returns it: the
   * answer is queued behind the current input, with no promise in between.
   */
  const launch = (id: string, where: string, work: () => TurnEvent | Promise<TurnEvent>) => {
    let result: TurnEvent | Promise<TurnEvent>;
    try {
      result = work();
    } catch (error) {
      workFailed(id, where, error);
      return;
    }
    if (!(result instanceof Promise)) {
      answer(id, result);
      return;
    }
    // Out of `inFlight` once its answer is queued: `close` then waits for the queue.
    const job: Promise<void> = result.then(
      (input) => {
        inFlight.delete(job);
        answer(id, input);
      },
      (error: unknown) => {
        inFlight.delete(job);
        workFailed(id, where, error);
      },
    );
    inFlight.add(job);
  };

  /** The shell itself failed at an effect: the turn is aborted, saying why. */
  const workFailed = (id: string, where: string, error: unknown) => {
    const message = `the shell failed while ${where}: ${error instanceof Error ? error.message : String(error)}`;
    hub.publish({ type: 'shell.error', where, message, at: now() });
    controller.abort(message);
    answer(id, { type: 'abort', at: now(), reason: message });
  };

  /** Asks the compaction policy, then the compactor; the answer to `maybe_compact`. */
  const compact = (effect: MaybeCompactEffect): TurnEvent | Promise<TurnEvent> => {
    try {
      guard?.observe(contextTokens());
    } catch (violation) {
      const reason = `the compaction policy was broken: ${(violation as Error).message}`;
      hub.publish({ type: 'shell.error', where: 'compaction policy', message: reason, at: now() });
      controller.abort(reason);
      return { type: 'abort', at: now(), reason };
    }
    const resolved = resolveCompaction(effect, {
      compactor: options.compactor,
      compactorOptions: options.compactorOptions,
      path,
      get ledger() {
        return currentLedger();
      },
      modelId: options.model.id,
      window: options.model.contextWindow,
      promptTokens,
      contextTokens,
      hooks: options.hooks,
      signal: controller.signal,
      events: hub,
    });
    return resolved instanceof Promise ? resolved.then(adoptCompaction) : adoptCompaction(resolved);
  };

  const adoptCompaction = ({ event, ledger: next }: ResolvedCompaction): TurnEvent => {
    if (next) ledger = next;
    return event;
  };

  /** What a model call needs, made once: the signal is the running turn's when the call starts. */
  const modelDeps: CallModelDeps = {
    model: options.model,
    toolSpecs,
    systemPrompt: options.systemPrompt,
    contextTokens,
    limits: options.limits,
    get signal() {
      return controller.signal;
    },
    events: hub,
  };

  /** Carries out one effect; returns a promise only for the work the next effect must wait for (a persist). */
  const interpret = (effect: Effect, settled?: ReadonlyMap<string, ToolOutcome>): Promise<void> | undefined => {
    switch (effect.type) {
      case 'persist':
        return session.append(effect.entries);
      case 'emit':
        hub.publish(effect.event);
        if (effect.event.type === 'turn.ended') turnEnded(effect.event.outcome);
        return;
      case 'maybe_compact':
        launch(effect.id, 'compacting', () => compact(effect));
        return;
      case 'call_llm':
        launch(effect.id, 'calling the model', () => callModel(effect, modelDeps));
        return;
      case 'run_tools':
        launch(effect.id, 'running tools', async () => {
          const result = await runToolBatch({
            calls: effect.calls,
            decisions: effect.decisions,
            tools,
            policy: options.policy,
            signal: controller.signal,
            maxConcurrency: options.limits.maxToolConcurrency,
            defaultTimeoutMs: options.limits.toolTimeoutMs,
            maxOutputChars: options.limits.maxToolOutputChars,
            settled,
            // Methods, not arrow properties: a build that keeps function names wraps each arrow made per batch.
            async onStart(call) {
              await journal.append({ type: 'tool.started', batchId: effect.id, toolCallId: call.id });
              if (hub.listening) hub.publish({ type: 'tool.started', batchId: effect.id, toolCallId: call.id, toolName: call.name, at: now() });
            },
            async onFinish(call, outcome, durationMs) {
              await journal.append({ type: 'tool.finished', batchId: effect.id, toolCallId: call.id, outcome });
              if (hub.listening) hub.publish({ type: 'tool.finished', batchId: effect.id, toolCallId: call.id, toolName: call.name, isError: outcome.isError, durationMs, at: now() });
            },
          });
          return result.kind === 'ask'
            ? { type: 'approval.needed', id: effect.id, at: now(), toolCallIds: result.toolCallIds }
            : { type: 'tools.done', id: effect.id, at: now(), results: result.results };
        });
        return;
      case 'request_approval':
        park(effect.id, effect.calls);
        return;
      default: {
        const unknown: never = effect;
        throw new TypeError(`the shell cannot carry out effect ${JSON.stringify(unknown)}`);
      }
    }
  };

  /** What the turn waits on, when it waits for decisions (the snapshot is the truth, so a listener may decide at once). */
  const asked = () => {
    const pending = snapshot.context.turn?.pending;
    return pending?.type === 'request_approval' ? pending : null;
  };

  const approvalFor = (batchId: string): ParkedApproval => {
    if (approval?.batchId !== batchId) {
      if (approval) clearTimeout(approval.timer);
      approval = { batchId, decided: new Map(), timer: undefined, sent: false };
    }
    return approval;
  };

  const park = (batchId: string, calls: readonly ToolCallPart[]) => {
    const parked = approvalFor(batchId);
    if (parked.sent) return;
    const timeoutMs = options.limits.approvalTimeoutMs;
    parked.timer = setTimeout(() => {
      const rationale = `No decision was made within ${timeoutMs} ms.`;
      for (const call of calls) if (!parked.decided.has(call.id)) parked.decided.set(call.id, { toolCallId: call.id, decision: 'deny', rationale });
      settleApproval(parked);
    }, timeoutMs);
  };

  const settleApproval = (parked: ParkedApproval) => {
    if (parked.sent) return;
    clearTimeout(parked.timer);
    parked.sent = true;
    answer(parked.batchId, { type: 'approval.decided', id: parked.batchId, at: now(), decisions: [...parked.decided.values()] }, true);
  };

  const dropApproval = () => {
    if (approval) clearTimeout(approval.timer);
    approval = null;
  };

  const turnEnded = (outcome: TurnOutcome) => {
    dropApproval();
    waiters.get(outcome.turnId)?.resolve(outcome);
    waiters.delete(outcome.turnId);
    for (const waiter of idleWaiters.splice(0)) waiter.resolve(outcome);
  };

  return {
    get snapshot() {
      return snapshot;
    },
    get broken() {
      return broken;
    },
    feed,
    perform(effect, settled) {
      schedule({ kind: 'perform', effect, settled }, true);
    },
    admitTurn() {
      guard?.admitTurn();
    },
    startTurn(turnId) {
      // A fresh signal per turn: whatever a past turn lent its signal to (a model stream, a tool that
      // kept it) must never hear of a later turn's abort, listening or not.
      controller = new AbortController();
      const outcome = new Promise<TurnOutcome>((resolve, reject) => waiters.set(turnId, { resolve, reject }));
      return { outcome, signal: controller.signal };
    },
    abortSignal(reason) {
      controller.abort(reason);
      dropApproval();
    },
    decide(decisions) {
      const pending = asked();
      if (!pending) throw new ApprovalError('no tool call is waiting for approval');
      const waiting = new Set(pending.toolCallIds);
      for (const decision of decisions) {
        if (!waiting.has(decision.toolCallId)) {
          throw new ApprovalError(`tool call "${decision.toolCallId}" is not waiting for approval (waiting: ${[...waiting].join(', ')})`);
        }
      }
      const parked = approvalFor(pending.id);
      if (parked.sent) throw new ApprovalError(`the decisions for batch "${pending.id}" were already given`);
      for (const decision of decisions) parked.decided.set(decision.toolCallId, decision);
      if (parked.decided.size === waiting.size) settleApproval(parked);
    },
    pendingApprovals() {
      const pending = asked();
      if (!pending) return [];
      const decided = approval?.batchId === pending.id ? approval.decided : new Map<string, ApprovalDecision>();
      const waiting = new Set(pending.toolCallIds.filter((id) => !decided.has(id)));
      return (snapshot.context.turn?.batch?.calls ?? []).filter((c) => waiting.has(c.id));
    },
    idle() {
      if (!snapshot.context.turn) return Promise.resolve(snapshot.context.lastOutcome);
      if (broken) return Promise.reject(broken);
      return new Promise((resolve, reject) => idleWaiters.push({ resolve, reject }));
    },
    subscribe: hub.subscribe,
    events: hub.iterate,
    publish: hub.publish,
    async close() {
      dropApproval();
      await Promise.allSettled([...inFlight]);
      await draining;
      await journal.close?.();
      hub.close();
    },
  };
}

export function journalHeader(options: ResolvedAgentOptions, session: SessionLog): Extract<JournalLine, { type: 'header' }> {
  return {
    type: 'header',
    format: JOURNAL_FORMAT,
    version: JOURNAL_VERSION,
    maxIterations: options.limits.maxIterations,
    baseLeafId: session.leafId,
    baseSize: session.path().length,
    createdAt: now(),
  };
}

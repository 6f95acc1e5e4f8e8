import * as restate from '@restatedev/restate-sdk';
import { createTokenLedger, estimateTextTokens, NoOpCompactor, type TokenLedger } from '@tiller/compaction';
import type { BlockingEffect, CallLlmEffect, Entry, MaybeCompactEffect, RequestApprovalEffect, TurnEvent } from '@tiller/core';
import { describeThrown, runCompaction, runModelCall } from '@tiller/shell';
import type { ApprovalWake, TurnEngine } from './drive-turn.js';
import { deliverEvent } from './deliver-event.js';
import { runToolsDurably } from './durable-tools.js';
import { type InboxObject, messageSignal } from './inbox-object.js';
import type { DurableToolEvent, ResolvedDurableOptions } from './durable-options.js';
import type { TurnLog } from './state-log.js';
import type { TurnMessage } from './turn-message.js';
import { warnInWorkerLog } from './worker-warning.js';

export interface RestateEngineInit {
  ctx: restate.ObjectContext;
  options: ResolvedDurableOptions;
  log: TurnLog;
  inbox: InboxObject;
  turnId: string;
}

export interface RestateEngine extends TurnEngine {
  /** How many of the turn's inbox messages it has taken. */
  readonly taken: number;
}


/**
 * The driver's engine inside the session object's exclusive handler. Every piece of work is a
 * journaled step (`ctx.run`), so a replay on another worker gets the same answers without doing
 * the work again; messages are taken from the inbox object by number; abort is the invocation's
 * cancellation.
 */
export function restateEngine(init: RestateEngineInit): RestateEngine {
  const { ctx, options, log } = init;
  const inbox = ctx.objectClient(init.inbox, ctx.key);
  const controller = new AbortController();
  // What every request carries besides the context, estimated as the shell estimates it.
  const promptTokens = estimateTextTokens(`${options.systemPrompt ?? ''}${JSON.stringify(options.tools.map((t) => t.spec))}`);
  let taken = 0;
  let seq = 0;
  const timers = new Map<string, restate.RestatePromise<void>>();
  // One handle per message number, made once: a wake by the timer leaves it for the next wait.
  const signals = new Map<number, restate.RestatePromise<TurnMessage | undefined>>();


  /**
   * A tool event is told once: its number is taken on every replay, so the numbers stay those of
   * the first run, but it is delivered only once the turn runs past what its journal holds. The
   * SDK's phase decides nothing the journal records, only whether the host hears it (as it does
   * for `ctx.console`).
   */
  const tell = (event: DurableToolEvent | null) => {
    const number = seq++;
    if (!event || !(ctx as unknown as restate.internal.ContextInternal).isProcessing()) return;
    deliverEvent(ctx, options.onEvent, { sessionId: ctx.key, turnId: init.turnId, seq: number, event });
  };

  /** The token ledger over the log, made when first asked for, then kept in step with it (the log only grows). */
  let ledger: TokenLedger | undefined;
  const currentLedger = (): TokenLedger => {
    // A compactor advances the ledger it is given; if its result was then discarded, start over.
    if (!ledger || ledger.length > log.entries.length) ledger = createTokenLedger(log.entries);
    for (let i = ledger.length; i < log.entries.length; i++) ledger.append(log.entries[i]!);
    return ledger;
  };
  /**
   * What the shell reports as a `shell.error` and the turn goes on past (an abort listener of a
   * tool, a model or a compactor that threw, a compactor that broke its contract): a warning in
   * the worker's log, since it is no event of the turn's.
   */
  const warn = ({ where, message }: { where: string; message: string }) => warnInWorkerLog(ctx, `${where} failed (turn ${init.turnId}): ${message}`);

  const contextTokens = () => {
    const estimate = currentLedger().estimate();
    return estimate.tokens + (estimate.anchored ? 0 : promptTokens);
  };

  // Deltas stay inside the step: they are not journaled and not delivered. A durable call's abort
  // is the invocation's cancellation, and nothing streamed is kept.
  const callLlm = (effect: CallLlmEffect) =>
    ctx.run(
      `model ${effect.id}`,
      (): Promise<TurnEvent> =>
        runModelCall(effect, {
          model: options.model,
          tools: options.tools,
          systemPrompt: options.systemPrompt,
          limits: options.limits,
          signal: controller.signal,
          contextTokens: contextTokens(),
          onEvent: (event) => {
            if (event.type === 'shell.error') warn(event);
          },
        }),
      { maxRetryAttempts: 3 },
    );

  /** The shell's `runCompaction` holds the compactor to its contract (append only, hooks, meta) and lends it a signal of its own. */
  const compact = async (effect: MaybeCompactEffect): Promise<TurnEvent> => {
    // The default compactor never compacts: its answer is known without a step; only its time must replay the same.
    if (options.compactor.maybeCompact === NoOpCompactor.maybeCompact) {
      return { type: 'compaction.done', id: effect.id, at: await ctx.date.toJSON(), meta: { compacted: false }, appended: [] };
    }
    const answer = await ctx.run(
      `compact ${effect.id}`,
      (): Promise<TurnEvent> =>
        runCompaction(effect, {
          compactor: options.compactor,
          compactorOptions: options.compactorOptions,
          hooks: options.hooks,
          model: options.model,
          path: log.entries,
          ledger: currentLedger(),
          promptTokens,
          timeoutMs: options.limits.compactionTimeoutMs,
          signal: controller.signal,
          onEvent: warn,
        }),
      { maxRetryAttempts: 3 },
    );
    // A compactor that failed, or was left running past its time limit, may still write to the
    // ledger it was lent: the next boundary builds another over the log.
    if (answer.type === 'compaction.done' && !answer.meta.compacted && answer.meta.error !== undefined) ledger = undefined;
    return answer;
  };

  return {
    get taken() {
      return taken;
    },
    async perform(effect: Exclude<BlockingEffect, RequestApprovalEffect>): Promise<TurnEvent> {
      switch (effect.type) {
        case 'maybe_compact':
          return compact(effect);
        case 'call_llm':
          return callLlm(effect);
        case 'run_tools':
          return runToolsDurably(effect, {
            ctx,
            tools: options.tools,
            policy: options.policy,
            limits: options.limits,
            signal: controller.signal,
            tell,
            onListenerError: (call, error) => warn({ where: `tool ${call.name} abort listener`, message: describeThrown(error) }),
          });
        default: {
          const unknown: never = effect;
          throw new TypeError(`unknown blocking effect ${JSON.stringify(unknown)}`);
        }
      }
    },
    async takeMessages() {
      const messages: TurnMessage[] = await inbox.take({ from: taken });
      taken += messages.length;
      return messages;
    },
    async awaitApproval(effect): Promise<ApprovalWake> {
      const { id } = effect;
      let timer = timers.get(id);
      if (!timer) {
        timer = ctx.sleep(options.limits.approvalTimeoutMs, `approval ${id}`);
        timers.set(id, timer);
      }
      let signal = signals.get(taken);
      if (!signal) {
        signal = ctx.signal<TurnMessage>(messageSignal(taken));
        signals.set(taken, signal);
      }
      const wake = await restate.RestatePromise.race([
        timer.map((): ApprovalWake => ({ kind: 'timeout' })),
        signal.map((message): ApprovalWake => ({ kind: 'message', message: message! })),
      ]);
      if (wake.kind === 'message') taken++;
      return wake;
    },
    approvalParked(effect) {
      if (effect) ctx.set('approval', { id: effect.id, calls: effect.calls });
      else ctx.clear('approval');
    },
    persist: (entries: readonly Entry[]) => log.append(entries),
    emit(event) {
      deliverEvent(ctx, options.onEvent, { sessionId: ctx.key, turnId: init.turnId, seq: seq++, event });
    },
    now: () => ctx.date.toJSON(),
    async cancellation(error) {
      if (!(error instanceof restate.CancelledError)) return null;
      // Steps still running (a tool, a model stream) hear it through the turn's signal.
      controller.abort(new Error('the turn was aborted'));
      const reason = await inbox.abortReason();
      return { reason: reason ?? 'the turn was cancelled' };
    },
  };
}

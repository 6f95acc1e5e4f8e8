import {
  type AssistantContentPart,
  type BlockingEffect,
  type Effect,
  isBlockingEffect,
  pendingEffect,
  start,
  step,
  type StopReason,
  type ToolOutcome,
  type TurnConfig,
  type TurnSnapshot,
  type Usage,
  type UserMessage,
} from '@tiller/core';
import { z } from 'zod';
import { checkOptions, nonnegativeInt } from './check-options.js';

/** One step as a driver recorded it. */
export interface DrivenStep {
  event: unknown;
  value: TurnSnapshot['value'];
  effects: Effect[];
}

/**
 * Drives the pure turn core by hand (tests, demos, docs): each helper builds the input that answers the effect the
 * turn waits on (with its id), steps, and records what came out. Timestamps tick one second per
 * input from a fixed origin, so runs are repeatable.
 */
export interface TurnDriver {
  readonly snapshot: TurnSnapshot;
  readonly steps: readonly DrivenStep[];
  /** The blocking effect the turn waits on, if any. */
  pending(): BlockingEffect | undefined;
  send(event: unknown): Effect[];
  /** The next timestamp. */
  now(): string;
  startTurn(text: string, turnId?: string): Effect[];
  compactionDone(options?: { appended?: unknown[]; meta?: Record<string, unknown> }): Effect[];
  reply(content: AssistantContentPart[] | string, options?: { stopReason?: StopReason; usage?: Usage }): Effect[];
  toolCalls(...calls: Array<{ id: string; name: string; args?: Record<string, unknown> }>): Effect[];
  toolsDone(results?: ToolOutcome[]): Effect[];
  llmFailed(kind: 'transient' | 'overflow' | 'fatal' | 'aborted', message?: string): Effect[];
  approvalNeeded(toolCallIds: string[]): Effect[];
  approvalDecided(decisions: Array<{ toolCallId: string; decision: 'allow' } | { toolCallId: string; decision: 'deny'; rationale: string }>): Effect[];
  steer(text: string): Effect[];
  followUp(text: string): Effect[];
  abort(reason?: string): Effect[];
}

const ORIGIN = Date.UTC(2026, 0, 1);

export function userMessage(text: string): UserMessage {
  return { role: 'user', content: text };
}

/** The keys of the core's `TurnConfig`; their values are the core's to check (`start`). */
const DriverConfig = z.strictObject({ maxIterations: z.unknown(), entries: z.unknown() }).partial();

const DriverOptions = z.strictObject({
  snapshot: z
    .custom<TurnSnapshot>((value) => typeof (value as TurnSnapshot | null)?.context === 'object' && (value as TurnSnapshot).value !== undefined, {
      message: 'expected a turn snapshot (start(config) or driver.snapshot)',
    })
    .optional(),
  clockStart: nonnegativeInt.optional(),
});

export function createTurnDriver(config: TurnConfig = {}, options: { snapshot?: TurnSnapshot; clockStart?: number } = {}): TurnDriver {
  // Checked here as well as by the core's start, so the error names createTurnDriver.
  const parsed = DriverConfig.safeParse(config);
  if (!parsed.success) throw new TypeError(`createTurnDriver: invalid config:\n${z.prettifyError(parsed.error)}`);
  checkOptions('createTurnDriver', DriverOptions, options);
  let snapshot = options.snapshot ?? start(config);
  let tick = options.clockStart ?? 0;
  let lastBlocking = pendingEffect(snapshot);
  const steps: DrivenStep[] = [];

  const now = () => new Date(ORIGIN + 1000 * tick++).toISOString();
  const send = (event: unknown): Effect[] => {
    const result = step(snapshot, event);
    snapshot = result.snapshot;
    const blocking = result.effects.filter(isBlockingEffect).at(-1);
    if (blocking) lastBlocking = blocking;
    else if (snapshot.value === 'idle') lastBlocking = undefined;
    steps.push({ event, value: snapshot.value, effects: result.effects });
    return result.effects;
  };
  const pendingOf = <T extends BlockingEffect['type']>(type: T): Extract<BlockingEffect, { type: T }> => {
    if (lastBlocking?.type !== type) {
      throw new Error(`the turn is not waiting on ${type} (it waits on ${lastBlocking?.type ?? 'nothing'})`);
    }
    return lastBlocking as Extract<BlockingEffect, { type: T }>;
  };
  const reply: TurnDriver['reply'] = (content, opts = {}) => {
    const parts: AssistantContentPart[] = typeof content === 'string' ? [{ type: 'text', text: content }] : content;
    const hasCalls = parts.some((p) => p.type === 'toolCall');
    return send({
      type: 'llm.done',
      id: pendingOf('call_llm').id,
      at: now(),
      message: { role: 'assistant', content: parts },
      stopReason: opts.stopReason ?? (hasCalls ? 'toolUse' : 'stop'),
      ...(opts.usage ? { usage: opts.usage } : {}),
    });
  };

  return {
    get snapshot() {
      return snapshot;
    },
    steps,
    pending: () => lastBlocking,
    send,
    now,
    startTurn: (text, turnId = `turn-${steps.length}`) => send({ type: 'turn.start', turnId, at: now(), message: userMessage(text) }),
    compactionDone: ({ appended = [], meta = { compacted: false } } = {}) =>
      send({ type: 'compaction.done', id: pendingOf('maybe_compact').id, at: now(), meta, appended }),
    reply,
    toolCalls: (...calls) => reply(calls.map((c) => ({ type: 'toolCall', id: c.id, name: c.name, args: c.args ?? {} }))),
    toolsDone: (results) => {
      const effect = pendingOf('run_tools');
      const outcomes =
        results ?? effect.calls.map((c) => ({ toolCallId: c.id, content: [{ type: 'text' as const, text: `${c.name} ok` }], isError: false }));
      return send({ type: 'tools.done', id: effect.id, at: now(), results: outcomes });
    },
    llmFailed: (kind, message = `${kind} failure`) =>
      send({ type: 'llm.failed', id: pendingOf('call_llm').id, at: now(), error: { kind, message } }),
    approvalNeeded: (toolCallIds) => send({ type: 'approval.needed', id: pendingOf('run_tools').id, at: now(), toolCallIds }),
    approvalDecided: (decisions) =>
      send({ type: 'approval.decided', id: pendingOf('request_approval').id, at: now(), decisions }),
    steer: (text) => send({ type: 'steer', at: now(), message: userMessage(text) }),
    followUp: (text) => send({ type: 'follow_up', at: now(), message: userMessage(text) }),
    abort: (reason) => send({ type: 'abort', at: now(), ...(reason ? { reason } : {}) }),
  };
}

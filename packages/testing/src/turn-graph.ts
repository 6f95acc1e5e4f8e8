import { createTestModel } from '@xstate/graph';
import { parseEvent, step, turnMachine, type MachineEvent, type TurnSnapshot } from '@tiller/core';
import type { StateValue } from 'xstate';
import type { CallClass, PathStep, ReplyKind, RetriedFault } from './path-step.js';

const AT = '2026-01-01T00:00:00.000Z';

export type { CallClass };

/** A step whose calls are classes, not tools yet: the graph only needs to know how the policy treats them. */
export type GraphStep = Exclude<PathStep, { do: 'reply' }> | { do: 'reply'; reply: ReplyKind; classes: CallClass[]; retried?: RetriedFault[] };

/** A step the world can take in a snapshot, with the input of the turn it leads to (none for a crash). */
export interface WorldMove {
  step: GraphStep;
  input: unknown;
  /**
   * `progress` moves the turn on; `host` is a host action while the turn waits; `variant` takes the
   * same transition as some progress move, with another world behind it (a tool that throws, a
   * failure after retries, an approval that times out).
   */
  kind: 'progress' | 'host' | 'variant';
}

export interface GraphOptions {
  /** The classes of tools the agent has (no tools: no tool calls). */
  classes: ReadonlySet<CallClass>;
  /** Host actions (steer, follow-up, abort) while the turn waits. */
  hostActions: boolean;
  failures: { transient: boolean; overflow: boolean; fatal: boolean };
  replies: { error: boolean; aborted: boolean };
  toolFaults: { throw: boolean; timeout: boolean };
  approvalTimeout: boolean;
}

export function stateName(value: StateValue): string {
  if (typeof value === 'string') return value;
  return Object.entries(value)
    .map(([parent, child]) => `${parent}.${stateName(child as StateValue)}`)
    .join(',');
}

const classOf = (name: string): CallClass => name.slice(1) as CallClass;

/** Which calls of the open batch will run for real: the allowed ones, and asked ones the host allowed. */
function batchShape(snapshot: TurnSnapshot): 'none' | 'asks' | 'runs' | 'runs_nothing' {
  const batch = snapshot.context.turn?.batch;
  if (!batch) return 'none';
  const decided = new Map(batch.decisions.map((d) => [d.toolCallId, d.decision]));
  if (decided.size === 0 && batch.calls.some((c) => classOf(c.name) === 'ask')) return 'asks';
  const runs = batch.calls.some((c) => classOf(c.name) === 'allow' || (classOf(c.name) === 'ask' && decided.get(c.id) === 'allow'));
  return runs ? 'runs' : 'runs_nothing';
}

/**
 * The steps the world can take in this snapshot, each with the input the shell would feed the
 * turn for it (with the pending id), so the graph of the turn machine can be walked over them.
 */
export function worldMoves(snapshot: TurnSnapshot, options: GraphOptions): WorldMove[] {
  const context = snapshot.context;
  const n = context.entries.length;
  const pending = context.turn?.pending;
  const moves: WorldMove[] = [];
  const add = (step: GraphStep, input: unknown, progress = false) => moves.push({ step, input, kind: progress ? 'progress' : 'variant' });
  const host = (abortable: boolean) => {
    if (!options.hostActions) return;
    const hostAction = (step: GraphStep, input: unknown) => moves.push({ step, input, kind: 'host' });
    hostAction({ do: 'steer' }, { type: 'steer', at: AT, message: { role: 'user', content: `steer ${n}` } });
    hostAction({ do: 'follow_up' }, { type: 'follow_up', at: AT, message: { role: 'user', content: `follow-up ${n}` } });
    if (abortable) hostAction({ do: 'abort' }, { type: 'abort', at: AT, reason: 'aborted by the host' });
  };
  switch (pending?.type) {
    case undefined:
      add({ do: 'prompt' }, { type: 'turn.start', turnId: `turn-${n}`, at: AT, message: { role: 'user', content: `prompt ${n}` } }, true);
      host(false);
      break;
    case 'maybe_compact':
      add({ do: 'boundary' }, { type: 'compaction.done', id: pending.id, at: AT, meta: { compacted: false }, appended: [] }, true);
      host(true);
      break;
    case 'call_llm': {
      const reply = (reply: ReplyKind, classes: CallClass[], stopReason: string, progress: boolean) => {
        const content = classes.length
          ? classes.map((c, i) => ({ type: 'toolCall', id: `call-${n}-${i}`, name: `@${c}`, args: {} }))
          : [{ type: 'text', text: reply }];
        add({ do: 'reply', reply, classes }, { type: 'llm.done', id: pending.id, at: AT, stopReason, message: { role: 'assistant', content } }, progress);
      };
      reply('text', [], 'stop', true);
      for (const c of ['allow', 'ask', 'deny'] as const) if (options.classes.has(c)) reply('tool_call', [c], 'toolUse', true);
      if (options.classes.has('allow')) reply('parallel_tool_calls', ['allow', 'allow'], 'toolUse', true);
      if (options.replies.error) reply('error', [], 'error', true);
      if (options.replies.aborted) reply('aborted', [], 'aborted', false);
      const fail = (error: 'transient' | 'overflow' | 'fatal', progress: boolean) =>
        add({ do: 'fail', error }, { type: 'llm.failed', id: pending.id, at: AT, error: { kind: error, message: error } }, progress);
      if (options.failures.overflow) fail('overflow', true);
      if (options.failures.fatal) fail('fatal', true);
      if (options.failures.transient) fail('transient', false);
      host(true);
      break;
    }
    case 'run_tools': {
      const shape = batchShape(snapshot);
      const calls = context.turn?.batch?.calls ?? [];
      if (shape === 'asks') {
        add({ do: 'policy_asks' }, { type: 'approval.needed', id: pending.id, at: AT, toolCallIds: calls.filter((c) => classOf(c.name) === 'ask').map((c) => c.id) }, true);
        break;
      }
      const done = { type: 'tools.done', id: pending.id, at: AT, results: calls.map((c) => ({ toolCallId: c.id, content: [{ type: 'text', text: 'ok' }], isError: false })) };
      add({ do: 'tools', outcome: 'ok' }, done, true);
      if (shape === 'runs') {
        if (options.toolFaults.throw) add({ do: 'tools', outcome: 'throw' }, done);
        if (options.toolFaults.timeout) add({ do: 'tools', outcome: 'timeout' }, done);
        // Only a batch with a call in flight holds the turn long enough for the host to act.
        host(true);
      }
      break;
    }
    case 'request_approval': {
      const decide = (decision: 'allow' | 'deny') =>
        pending.toolCallIds.map((toolCallId) => (decision === 'allow' ? { toolCallId, decision } : { toolCallId, decision, rationale: 'no' }));
      const decided = (decision: 'allow' | 'deny') => ({ type: 'approval.decided', id: pending.id, at: AT, decisions: decide(decision) });
      add({ do: 'approve', decision: 'allow' }, decided('allow'), true);
      add({ do: 'approve', decision: 'deny' }, decided('deny'), true);
      if (options.approvalTimeout) add({ do: 'approve', decision: 'timeout' }, decided('deny'));
      host(true);
      break;
    }
    default: {
      const unknown: never = pending;
      throw new TypeError(`unknown pending effect ${JSON.stringify(unknown)}`);
    }
  }
  return moves;
}

/**
 * What decides which moves there are and where they go: the state, the iteration cap, the
 * overflow retry, the shape of the open batch and, when `withQueue`, which kinds of message wait.
 */
function behaviourKey(snapshot: TurnSnapshot, withQueue: boolean): string {
  const turn = snapshot.context.turn;
  const queued = (kind: string) => withQueue && snapshot.context.queue.some((q) => q.kind === kind);
  return JSON.stringify([
    snapshot.value,
    // An idle turn after a turn ended is not the initial one: stories may end there.
    snapshot.value === 'idle' && snapshot.context.lastOutcome !== null,
    (turn?.iterations ?? 0) >= snapshot.context.maxIterations,
    turn?.overflowRetries ?? 0,
    batchShape(snapshot),
    queued('steer'),
    queued('follow_up'),
  ]);
}

export interface GraphPath {
  steps: Array<{ step: GraphStep; state: string }>;
}

/**
 * Paths through the turn machine's graph, from an idle turn:
 * - `stories`: every simple path over the behaviours through the moves that take the turn on
 *   (prefixes included);
 * - `transitions`: a shortest path to every behaviour (queued messages counted) through progress
 *   and host moves, then one more step with every move there (variants included), so every
 *   branch the world can make the turn take is taken.
 */
export function graphPaths(kind: 'stories' | 'transitions', iterations: number, options: GraphOptions): GraphPath[] {
  const moves = new WeakMap<object, GraphStep>();
  const model = createTestModel(turnMachine, {
    input: { maxIterations: iterations, entries: [] },
    events: (snapshot) =>
      worldMoves(snapshot, options)
        // Stories move the turn on; the ways to each behaviour may pass host actions (queued messages, an abort).
        .filter((m) => m.kind === 'progress' || (kind === 'transitions' && m.kind === 'host'))
        .map(({ step, input }) => {
          const event = parseEvent(input);
          moves.set(event, step);
          return event;
        }),
    serializeState: (snapshot) => behaviourKey(snapshot, kind === 'transitions'),
  });
  const toPath = (steps: ReadonlyArray<{ event: MachineEvent; state: TurnSnapshot }>): GraphPath => ({
    steps: steps.flatMap((s) => {
      const step = moves.get(s.event);
      return step ? [{ step, state: stateName(s.state.value) }] : [];
    }),
  });
  if (kind === 'stories') return model.getSimplePaths({ allowDuplicatePaths: true }).map((p) => toPath(p.steps));
  return model.getShortestPaths({ allowDuplicatePaths: true }).flatMap((path) => {
    const prefix = toPath(path.steps);
    return worldMoves(path.state, options).map((move) => {
      return { steps: [...prefix.steps, { step: move.step, state: stateName(step(path.state, move.input).snapshot.value) }] };
    });
  });
}

import { createTestModel } from '@xstate/graph';
import { parseEvent, step, turnMachine, type MachineEvent, type TurnConfig, type TurnSnapshot } from '@tiller/core';
import type { AnyStateNode, StateValue } from 'xstate';

/** The configuration model paths start from: one tool round, so the final call is reachable. */
export const TURN_MODEL_CONFIG: TurnConfig = { maxIterations: 1 };

const AT = '2026-01-01T00:00:00.000Z';

/** An input the model tries, named for the branch it takes, so a path can be re-driven by name. */
export interface LabeledInput {
  label: string;
  input: unknown;
  /** Moves the turn along (as opposed to queueing, aborting, junk or stale answers). */
  progress: boolean;
}

/**
 * The inputs the model tries in a snapshot: every kind the machine knows, each answer with the
 * pending id, and the variants that take each guarded branch (stale ids, broken results, junk).
 */
export function turnModelInputs(snapshot: TurnSnapshot): LabeledInput[] {
  const context = snapshot.context;
  const n = context.entries.length;
  const pending = context.turn?.pending;
  const inputs: LabeledInput[] = [];
  const add = (label: string, input: unknown, progress = false) => inputs.push({ label, input, progress });

  add('turn.start', { type: 'turn.start', turnId: `turn-${n}`, at: AT, message: { role: 'user', content: `prompt ${n}` } }, pending === undefined);
  add('steer', { type: 'steer', at: AT, message: { role: 'user', content: `steer ${n}` } });
  add('follow_up', { type: 'follow_up', at: AT, message: { role: 'user', content: `follow-up ${n}` } });
  add('abort', { type: 'abort', at: AT, reason: 'model abort' });
  add('junk', { type: 'llm.done', id: 42, at: AT });
  // An answer to an effect the turn is not waiting on, of every kind.
  add('stale:llm.done', { type: 'llm.done', id: 'stale', at: AT, stopReason: 'stop', message: { role: 'assistant', content: [] } });
  add('stale:llm.failed', { type: 'llm.failed', id: 'stale', at: AT, error: { kind: 'fatal', message: 'late' } });
  add('stale:tools.done', { type: 'tools.done', id: 'stale', at: AT, results: [] });
  add('stale:approval.needed', { type: 'approval.needed', id: 'stale', at: AT, toolCallIds: ['x'] });
  add('stale:approval.decided', { type: 'approval.decided', id: 'stale', at: AT, decisions: [] });
  add('stale:compaction.done', { type: 'compaction.done', id: 'stale', at: AT, meta: { compacted: false }, appended: [] });
  switch (pending?.type) {
    case undefined:
      break;
    case 'maybe_compact':
      add('compaction.done', { type: 'compaction.done', id: pending.id, at: AT, meta: { compacted: false }, appended: [] }, true);
      add('compaction.done:detached', {
        type: 'compaction.done',
        id: pending.id,
        at: AT,
        meta: { compacted: true },
        appended: [{ id: `c${n}`, parentId: 'nowhere', at: AT, kind: 'compaction', summary: 's', firstKeptEntryId: 'nowhere', tokensBefore: 1 }],
      });
      break;
    case 'call_llm': {
      const reply = (content: unknown[], stopReason: string) => ({ type: 'llm.done', id: pending.id, at: AT, stopReason, message: { role: 'assistant', content } });
      add('llm.done:tool_call', reply([{ type: 'toolCall', id: `call-${n}`, name: 'probe', args: {} }], 'toolUse'), true);
      add('llm.done:text', reply([{ type: 'text', text: 'answer' }], 'stop'), true);
      add('llm.done:error', reply([{ type: 'text', text: 'broken' }], 'error'), true);
      add('llm.done:aborted', reply([{ type: 'text', text: 'cut' }], 'aborted'));
      for (const kind of ['overflow', 'transient', 'fatal', 'aborted'] as const) {
        add(`llm.failed:${kind}`, { type: 'llm.failed', id: pending.id, at: AT, error: { kind, message: kind } }, kind === 'overflow' || kind === 'fatal');
      }
      break;
    }
    case 'run_tools': {
      const calls = context.turn?.batch?.calls ?? [];
      add(
        'tools.done',
        { type: 'tools.done', id: pending.id, at: AT, results: calls.map((c) => ({ toolCallId: c.id, content: [{ type: 'text', text: 'ok' }], isError: false })) },
        true,
      );
      add('tools.done:unknown_call', { type: 'tools.done', id: pending.id, at: AT, results: [{ toolCallId: 'unknown', content: [], isError: false }] });
      add('approval.needed', { type: 'approval.needed', id: pending.id, at: AT, toolCallIds: calls.map((c) => c.id) }, true);
      add('approval.needed:unknown_call', { type: 'approval.needed', id: pending.id, at: AT, toolCallIds: ['unknown'] });
      break;
    }
    case 'request_approval':
      add(
        'approval.decided',
        { type: 'approval.decided', id: pending.id, at: AT, decisions: pending.toolCallIds.map((toolCallId) => ({ toolCallId, decision: 'allow' })) },
        true,
      );
      add('approval.decided:unknown_call', { type: 'approval.decided', id: pending.id, at: AT, decisions: [{ toolCallId: 'unknown', decision: 'allow' }] });
      break;
    default: {
      const unknown: never = pending;
      throw new TypeError(`unknown pending effect ${JSON.stringify(unknown)}`);
    }
  }
  return inputs;
}

/** The input with `label` for this snapshot (ids match what the snapshot waits on). */
export function turnModelInput(snapshot: TurnSnapshot, label: string): unknown {
  const found = turnModelInputs(snapshot).find((i) => i.label === label);
  if (!found) throw new Error(`no model input "${label}" in state ${JSON.stringify(snapshot.value)}`);
  return found.input;
}

/** A transition of the machine's definition: its source state, its event, its place among that event's candidates. */
export type TransitionKey = `${string} ${string} #${number}`;

function allStateNodes(node: AnyStateNode = turnMachine.root): AnyStateNode[] {
  return [node, ...Object.values(node.states).flatMap((child) => allStateNodes(child))];
}

/** Every state node of the turn machine, by id (`turn.tools.running`). */
export function turnMachineStates(): string[] {
  return allStateNodes().map((node) => node.id);
}

/** Every transition the turn machine's definition declares. */
export function turnMachineTransitions(): TransitionKey[] {
  return allStateNodes().flatMap((node) =>
    [...node.transitions.entries()].flatMap(([eventType, candidates]) => candidates.map((_, i): TransitionKey => `${node.id} ${eventType} #${i}`)),
  );
}

/** The transitions the machine takes for an event in a snapshot. */
export function transitionsTaken(snapshot: TurnSnapshot, event: MachineEvent): TransitionKey[] {
  return turnMachine.getTransitionData(snapshot, event).map((t) => {
    const candidates = t.source.transitions.get(t.eventType) ?? [];
    return `${t.source.id} ${t.eventType} #${candidates.indexOf(t)}` as TransitionKey;
  });
}

export interface ModelStep {
  /** The branch the input takes; re-drive with `turnModelInput(snapshot, label)`. */
  label: string;
  /** The state value the model reached. */
  value: StateValue;
}

export interface ModelPath {
  steps: ModelStep[];
}

/**
 * What decides where each input goes: the state value and the context the guards read (the
 * iteration cap, the overflow retry, and, when `withQueue`, which kinds of message are queued).
 * Two snapshots with the same key answer every labelled input the same way.
 */
function behaviourKey(snapshot: TurnSnapshot, withQueue: boolean): string {
  const turn = snapshot.context.turn;
  const queued = (kind: string) => withQueue && snapshot.context.queue.some((q) => q.kind === kind);
  return JSON.stringify([
    snapshot.value,
    (turn?.iterations ?? 0) >= snapshot.context.maxIterations,
    turn?.overflowRetries ?? 0,
    queued('steer'),
    queued('follow_up'),
  ]);
}

/**
 * Paths through the turn machine from its initial snapshot, to drive through `step`:
 * - `simple`: every simple path over the behaviours (prefixes included), through the inputs
 *   that move the turn on;
 * - `transitions`: a shortest path to every behaviour, then one more step with every input
 *   there, so every branch of the definition is taken by some path.
 */
export function turnModelPaths(kind: 'simple' | 'transitions'): ModelPath[] {
  const labels = new WeakMap<object, string>();
  const model = createTestModel(turnMachine, {
    input: { maxIterations: TURN_MODEL_CONFIG.maxIterations ?? 1, entries: [] },
    events: (snapshot) =>
      turnModelInputs(snapshot)
        .filter((i) => kind === 'transitions' || i.progress)
        .map(({ label, input }) => {
          const event = parseEvent(input);
          labels.set(event, label);
          return event;
        }),
    // Simple paths over queue states too would number in the millions; the queue's branches are
    // covered by the transition paths.
    serializeState: (snapshot) => behaviourKey(snapshot, kind === 'transitions'),
  });
  const toPath = (steps: ReadonlyArray<{ event: MachineEvent; state: TurnSnapshot }>): ModelPath => ({
    steps: steps.map((s) => ({ label: labels.get(s.event) ?? s.event.type, value: s.state.value })),
  });
  if (kind === 'simple') return model.getSimplePaths({ allowDuplicatePaths: true }).map((p) => toPath(p.steps));
  return model.getShortestPaths({ allowDuplicatePaths: true }).flatMap((path) => {
    const prefix = toPath(path.steps);
    return turnModelInputs(path.state).map(({ label, input }) => ({
      steps: [...prefix.steps, { label, value: step(path.state, input).snapshot.value }],
    }));
  });
}

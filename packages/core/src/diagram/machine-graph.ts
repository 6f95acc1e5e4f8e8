import type { AnyStateMachine, AnyStateNode, TransitionDefinition } from 'xstate';

type AnyTransition = TransitionDefinition<any, any>;

/** A state of the drawn machine; `id` is its path from the root (`tools.running`). */
export interface GraphState {
  readonly id: string;
  readonly key: string;
  readonly parentId: string | null;
  /** The id of the child entered first, for a state with children. */
  readonly initialId: string | null;
}

/** A transition as drawn: from a state, on an event (with its guard), to a state, or staying. */
export interface GraphTransition {
  /** `edge:<source>:<event>:<n>`, `n` counting the transitions of that source on that event. */
  readonly id: string;
  readonly sourceId: string;
  /** Null when the transition stays in its state. */
  readonly targetId: string | null;
  readonly event: string;
  /** `[guard]` text for a guarded transition, else empty. */
  readonly guard: string;
}

export interface MachineGraph {
  readonly initialId: string;
  /** Top-level states first, each followed by its children. */
  readonly states: readonly GraphState[];
  readonly transitions: readonly GraphTransition[];
}

const pathOf = (node: AnyStateNode): string => node.path.join('.');

function guardLabel(transition: AnyTransition): string {
  const guard = transition.guard;
  if (!guard) return '';
  if (typeof guard === 'string') return `[${guard}]`;
  if (typeof guard === 'object' && 'type' in guard) {
    const params = 'params' in guard && guard.params && typeof guard.params === 'object' ? Object.values(guard.params).flat().join(' | ') : '';
    return `[${params || String(guard.type)}]`;
  }
  return '[guarded]';
}

/** The node handles `eventType` itself whatever the guards say, so its ancestors' handlers never run. */
function overrides(node: AnyStateNode, eventType: string): boolean {
  return (node.transitions.get(eventType) ?? []).some((t: AnyTransition) => !t.guard);
}

/**
 * The states and transitions of a machine as plain data, for diagrams. Transitions declared on the
 * root (they apply in every state) are listed from each top-level state that does not override
 * them. Takes the machine's definition only, so it works with any copy of XState.
 */
export function machineGraph(machine: AnyStateMachine): MachineGraph {
  const root = machine.root;
  const rootTransitions = [...root.transitions.values()].flat() as AnyTransition[];
  const states: GraphState[] = [];
  const transitions: GraphTransition[] = [];
  const counts = new Map<string, number>();
  const add = (node: AnyStateNode, candidates: readonly AnyTransition[]) => {
    const sourceId = pathOf(node);
    for (const transition of candidates) {
      const key = `${sourceId}:${transition.eventType}`;
      const n = counts.get(key) ?? 0;
      counts.set(key, n + 1);
      const targets = transition.target ?? [];
      const base = { sourceId, event: transition.eventType, guard: guardLabel(transition) };
      if (targets.length === 0) transitions.push({ id: `edge:${key}:${n}`, targetId: null, ...base });
      for (const target of targets) transitions.push({ id: `edge:${key}:${n}`, targetId: pathOf(target), ...base });
    }
  };
  const initialOf = (node: AnyStateNode) => (node.config.initial === undefined ? null : `${pathOf(node) ? `${pathOf(node)}.` : ''}${String(node.config.initial)}`);
  for (const node of Object.values(root.states) as AnyStateNode[]) {
    states.push({ id: pathOf(node), key: node.key, parentId: null, initialId: initialOf(node) });
    const own = [...node.transitions.values()].flat() as AnyTransition[];
    add(node, [...own, ...rootTransitions.filter((t) => !overrides(node, t.eventType))]);
    for (const child of Object.values(node.states) as AnyStateNode[]) {
      states.push({ id: pathOf(child), key: child.key, parentId: pathOf(node), initialId: initialOf(child) });
      add(child, [...child.transitions.values()].flat() as AnyTransition[]);
    }
  }
  return { initialId: String(root.config.initial), states, transitions };
}

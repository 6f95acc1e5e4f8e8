import type { AnyStateMachine, AnyStateNode, TransitionDefinition } from 'xstate';

type AnyTransition = TransitionDefinition<any, any>;

function guardLabel(transition: AnyTransition): string {
  const guard = transition.guard;
  if (!guard) return '';
  if (typeof guard === 'string') return ` [${guard}]`;
  if (typeof guard === 'object' && 'type' in guard) {
    const params = 'params' in guard && guard.params && typeof guard.params === 'object' ? Object.values(guard.params).flat().join(' | ') : '';
    return ` [${params || String(guard.type)}]`;
  }
  return ' [guarded]';
}

/** The node handles `eventType` itself whatever the guards say, so its ancestors' handlers never run. */
function overrides(node: AnyStateNode, eventType: string): boolean {
  return (node.transitions.get(eventType) ?? []).some((t: AnyTransition) => !t.guard);
}

interface Described {
  /** Edges between siblings, drawn inside the parent's block. */
  inner: string[];
  /** Edges that leave the parent, drawn at the top level (Mermaid state names are global). */
  outer: string[];
  /** Transitions that stay in the state. */
  stays: string[];
}

function describe(node: AnyStateNode, inherited: AnyTransition[]): Described {
  const out: Described = { inner: [], outer: [], stays: [] };
  const own = [...node.transitions.values()].flat() as AnyTransition[];
  const applicable = [...own, ...inherited.filter((t) => !overrides(node, t.eventType))];
  for (const transition of applicable) {
    const label = `${transition.eventType}${guardLabel(transition)}`;
    const targets = transition.target ?? [];
    if (targets.length === 0) out.stays.push(label);
    for (const target of targets) {
      (target.parent === node.parent ? out.inner : out.outer).push(`${node.key} --> ${target.key}: ${label}`);
    }
  }
  return out;
}

/**
 * A Mermaid state diagram of a machine, made from its definition: every state, every
 * transition with its event and guard. Transitions declared on the root (they apply in every
 * state) are drawn from each top-level state that does not override them; transitions that stay
 * in their state are listed in a note.
 */
export function toMermaid(machine: AnyStateMachine): string {
  const root = machine.root;
  const rootTransitions = [...root.transitions.values()].flat() as AnyTransition[];
  const lines = ['stateDiagram-v2', `  [*] --> ${String(root.config.initial)}`];
  const notes: string[] = [];
  const note = (name: string, text: string) => notes.push(`  note right of ${name}\n    ${text}\n  end note`);
  for (const node of Object.values(root.states) as AnyStateNode[]) {
    const own = describe(node, rootTransitions);
    const children = Object.values(node.states) as AnyStateNode[];
    const leaving: string[] = [];
    if (children.length > 0) {
      lines.push(`  state ${node.key} {`, `    [*] --> ${String(node.config.initial)}`);
      for (const child of children) {
        const inner = describe(child, []);
        for (const edge of inner.inner) lines.push(`    ${edge}`);
        leaving.push(...inner.outer);
        if (inner.stays.length > 0) note(node.key, `${child.key} stays on: ${inner.stays.join(', ')}`);
      }
      lines.push('  }');
    }
    for (const edge of [...leaving, ...own.inner, ...own.outer]) lines.push(`  ${edge}`);
    if (own.stays.length > 0) note(node.key, `stays on: ${own.stays.join(', ')}`);
  }
  return [...lines, ...notes].join('\n');
}

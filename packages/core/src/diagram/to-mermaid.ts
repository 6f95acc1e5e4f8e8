import type { AnyStateMachine } from 'xstate';
import { machineGraph, type GraphState, type GraphTransition } from './machine-graph.js';

/**
 * A Mermaid state diagram of a machine, made from its definition: every state, every
 * transition with its event and guard. Transitions declared on the root (they apply in every
 * state) are drawn from each top-level state that does not override them; transitions that stay
 * in their state are listed in a note.
 */
export function toMermaid(machine: AnyStateMachine): string {
  const graph = machineGraph(machine);
  const byId = new Map(graph.states.map((s) => [s.id, s]));
  const keyOf = (id: string) => byId.get(id)!.key;
  const label = (t: GraphTransition) => `${t.event}${t.guard ? ` ${t.guard}` : ''}`;
  const edge = (t: GraphTransition) => `${keyOf(t.sourceId)} --> ${keyOf(t.targetId!)}: ${label(t)}`;
  const from = (state: GraphState) => graph.transitions.filter((t) => t.sourceId === state.id);
  const lines = ['stateDiagram-v2', `  [*] --> ${graph.initialId}`];
  const notes: string[] = [];
  const note = (name: string, text: string) => notes.push(`  note right of ${name}\n    ${text}\n  end note`);
  const stays = (state: GraphState) => from(state).filter((t) => t.targetId === null).map(label);
  for (const node of graph.states.filter((s) => s.parentId === null)) {
    const children = graph.states.filter((s) => s.parentId === node.id);
    const leaving: string[] = [];
    if (children.length > 0) {
      lines.push(`  state ${node.key} {`, `    [*] --> ${keyOf(node.initialId!)}`);
      for (const child of children) {
        for (const t of from(child)) {
          if (t.targetId === null) continue;
          // Mermaid state names are global: edges that leave the parent are drawn at the top level.
          if (byId.get(t.targetId)!.parentId === node.id) lines.push(`    ${edge(t)}`);
          else leaving.push(edge(t));
        }
        if (stays(child).length > 0) note(node.key, `${child.key} stays on: ${stays(child).join(', ')}`);
      }
      lines.push('  }');
    }
    const own = from(node).filter((t) => t.targetId !== null);
    const inner = own.filter((t) => byId.get(t.targetId!)!.parentId === null).map(edge);
    const outer = own.filter((t) => byId.get(t.targetId!)!.parentId !== null).map(edge);
    for (const line of [...leaving, ...inner, ...outer]) lines.push(`  ${line}`);
    if (stays(node).length > 0) note(node.key, `stays on: ${stays(node).join(', ')}`);
  }
  return [...lines, ...notes].join('\n');
}

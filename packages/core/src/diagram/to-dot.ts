import type { AnyStateMachine } from 'xstate';
import { machineGraph, type GraphState, type GraphTransition } from './machine-graph.js';

const quote = (text: string) => `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

/**
 * The machine as Graphviz DOT, made from its definition. Every state and transition has a stable
 * `id` (`state:<path>`, `edge:<source>:<event>:<n>`, as `machineGraph` names them), which
 * Graphviz carries into the SVG it renders, so a page can light them by id. A state with
 * children is a cluster; transitions that stay in their state are listed in its tooltip.
 */
export function toDot(machine: AnyStateMachine): string {
  const graph = machineGraph(machine);
  const byId = new Map(graph.states.map((s) => [s.id, s]));
  const childrenOf = (id: string) => graph.states.filter((s) => s.parentId === id);
  // Graphviz draws edges between nodes: a compound state is stood for by its first child, and
  // the edge is clipped at the cluster's border.
  const anchor = (id: string): string => byId.get(id)?.initialId ?? id;
  const stays = (state: GraphState) =>
    graph.transitions
      .filter((t) => t.sourceId === state.id && t.targetId === null)
      .map((t) => `${t.event}${t.guard ? ` ${t.guard}` : ''}`);
  const tooltip = (state: GraphState) => (stays(state).length > 0 ? `stays on: ${stays(state).join(', ')}` : state.id);
  const lines = [
    'digraph turn {',
    '  compound=true;',
    '  rankdir=LR;',
    '  node [shape=box, style="rounded"];',
    `  "__initial" [shape=point, id="state:__initial"];`,
    `  "__initial" -> ${quote(anchor(graph.initialId))} [id="edge:__initial"];`,
  ];
  const node = (state: GraphState, indent: string) =>
    `${indent}${quote(state.id)} [id=${quote(`state:${state.id}`)}, label=${quote(state.key)}, tooltip=${quote(tooltip(state))}];`;
  for (const state of graph.states.filter((s) => s.parentId === null)) {
    const children = childrenOf(state.id);
    if (children.length === 0) {
      lines.push(node(state, '  '));
      continue;
    }
    lines.push(
      `  subgraph ${quote(`cluster_${state.id}`)} {`,
      `    id=${quote(`state:${state.id}`)};`,
      `    label=${quote(state.key)};`,
      `    tooltip=${quote(tooltip(state))};`,
      ...children.map((child) => node(child, '    ')),
      '  }',
    );
  }
  const edge = (t: GraphTransition) => {
    const attributes = [`id=${quote(t.id)}`, `label=${quote(`${t.event}${t.guard ? ` ${t.guard}` : ''}`)}`];
    if (childrenOf(t.sourceId).length > 0) attributes.push(`ltail=${quote(`cluster_${t.sourceId}`)}`);
    if (childrenOf(t.targetId!).length > 0) attributes.push(`lhead=${quote(`cluster_${t.targetId}`)}`);
    return `  ${quote(anchor(t.sourceId))} -> ${quote(anchor(t.targetId!))} [${attributes.join(', ')}];`;
  };
  for (const t of graph.transitions) if (t.targetId !== null) lines.push(edge(t));
  lines.push('}');
  return lines.join('\n');
}

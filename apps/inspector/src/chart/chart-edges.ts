/**
 * Which drawn transition a step took. The chart's edges carry ids `edge:<source>:<event>:<n>`
 * and Graphviz titles `<from node>-><to node>`, where a compound state is drawn through its first
 * child; a step knows the state it left, its input and the state it reached.
 */
export interface ChartEdge {
  id: string;
  source: string;
  event: string;
  /** The node the edge points at (the state reached, for a compound target its first child). */
  to: string;
}

/** Parses an edge id and its Graphviz title; null for what is not a transition (the initial arrow). */
export function chartEdge(id: string, title: string): ChartEdge | null {
  const match = /^edge:(.+):([^:]+):(\d+)$/.exec(id);
  if (!match) return null;
  const to = title.split('->').at(-1)?.trim() ?? '';
  return { id, source: match[1]!, event: match[2]!, to };
}

/** The state and its ancestors, innermost first: `tools.running`, `tools`. */
export function selfAndAncestors(path: string): string[] {
  const parts = path.split('.');
  return parts.map((_, i) => parts.slice(0, parts.length - i).join('.'));
}

/** The edge a step from `before` on `event` to `after` took, or null when none is drawn (it stayed). */
export function edgeFor(edges: readonly ChartEdge[], before: string, event: string, after: string): ChartEdge | null {
  for (const source of selfAndAncestors(before)) {
    const found = edges.find((e) => e.source === source && e.event === event && e.to === after);
    if (found) return found;
  }
  return null;
}

/** The edges of a rendered chart, read from its SVG text (the page reads them from the DOM). */
export function edgesOfSvg(svg: string): ChartEdge[] {
  const edges: ChartEdge[] = [];
  const unescape = (s: string) => s.replace(/&#45;/g, '-').replace(/&gt;/g, '>').replace(/&lt;/g, '<').replace(/&amp;/g, '&');
  for (const m of svg.matchAll(/<g id="(edge:[^"]+)" class="edge">\s*<title>([^<]*)<\/title>/g)) {
    const edge = chartEdge(m[1]!, unescape(m[2]!));
    if (edge) edges.push(edge);
  }
  return edges;
}

/**
 * The statechart pane. The SVG is rendered once, at build time, from the turn machine; stepping
 * only moves classes: `current` on the state the turn is in (and `current-parent` on its
 * parent), `traced use-N` on the edges taken so far (N grows with use), `last` on the edge the
 * step took, `stayed` on a state whose input left it where it was.
 */
import chartSvg from './turn-machine.svg?raw';
import { chartEdge, edgeFor, selfAndAncestors, type ChartEdge } from '../src/chart/chart-edges.js';
import type { SegmentReplay } from '../src/replay/replay-segment.js';
import { byId } from './dom.js';

export interface ChartView {
  show(replay: SegmentReplay | null, position: number): void;
}

const USE_LEVELS = 5;

export function mountChart(): ChartView {
  const host = byId('chart');
  host.innerHTML = chartSvg;
  const caption = byId('chart-caption');
  const svg = host.querySelector('svg')!;
  svg.removeAttribute('width');
  svg.removeAttribute('height');
  const edges: ChartEdge[] = [];
  for (const g of svg.querySelectorAll<SVGGElement>('g.edge')) {
    const edge = chartEdge(g.id, g.querySelector('title')?.textContent ?? '');
    if (edge) edges.push(edge);
  }
  const node = (id: string) => svg.querySelector<SVGGElement>(`[id="${CSS.escape(id)}"]`);
  // Per replay, the edge each step took, found once.
  const taken = new WeakMap<SegmentReplay, Array<string | null>>();
  const edgesOf = (replay: SegmentReplay) => {
    const known = taken.get(replay) ?? [];
    for (let i = known.length; i < replay.steps.length; i++) {
      const s = replay.steps[i]!;
      known.push(s.stay === null ? (edgeFor(edges, s.before, s.recorded.input.type, s.after)?.id ?? null) : null);
    }
    taken.set(replay, known);
    return known;
  };
  let lit: Element[] = [];

  return {
    show(replay, position) {
      for (const e of lit) e.classList.remove('current', 'current-parent', 'traced', 'last', 'stayed', ...levels());
      lit = [];
      const mark = (id: string | null | undefined, ...classes: string[]) => {
        const found = id ? node(id) : null;
        if (!found) return;
        found.classList.add(...classes);
        lit.push(found);
      };
      if (!replay) {
        caption.textContent = '';
        return;
      }
      const state = position === 0 ? 'idle' : replay.steps[position - 1]!.after;
      const [self, ...parents] = selfAndAncestors(state);
      mark(`state:${self}`, 'current');
      for (const parent of parents) mark(`state:${parent}`, 'current-parent');
      const ids = edgesOf(replay);
      const uses = new Map<string, number>();
      for (let i = 0; i < position; i++) {
        const id = ids[i];
        if (id) uses.set(id, (uses.get(id) ?? 0) + 1);
      }
      for (const [id, count] of uses) mark(id, 'traced', `use-${Math.min(USE_LEVELS, count)}`);
      const step = position > 0 ? replay.steps[position - 1]! : null;
      if (step && ids[position - 1]) mark(ids[position - 1], 'last');
      if (step?.stay) {
        mark(`state:${step.after}`, 'stayed');
        caption.textContent = `${step.recorded.input.type} stayed in ${step.after}: ${step.stay}`;
      } else if (step) {
        caption.textContent = `${step.recorded.input.type}: ${step.before} → ${step.after}${ids[position - 1] ? '' : ' (no drawn edge)'}`;
      } else {
        caption.textContent = 'before the first input';
      }
    },
  };
}

const levels = () => Array.from({ length: USE_LEVELS }, (_, i) => `use-${i + 1}`);

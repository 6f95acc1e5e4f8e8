/**
 * The timeline: one row per input, virtualised (only the rows in view are in the DOM), so a run
 * of thousands of inputs scrolls and steps at the same cost as a short one. Rows have known
 * heights (a line, plus one per tool call of a batch the row started, plus one for a compaction
 * or a divergence); their offsets are prefix sums, found by binary search.
 */
import type { Effect } from '@tiller/core';
import { effectId } from '../src/journal/read-journal.js';
import { toolRun, type ReplayedStep, type SegmentReplay, type ToolBatch } from '../src/replay/replay-segment.js';
import { byId, durationMs, el, formatTokens, short } from './dom.js';

export interface TimelineView {
  setReplay(replay: SegmentReplay | null): void;
  /** Marks the row of `position` (1-based: the input that led there) and scrolls it into view. */
  show(position: number): void;
  /** New steps arrived (a live journal). */
  refresh(): void;
}

const LINE = 22;
const PAD = 8;

interface RowShape {
  step: ReplayedStep;
  batch: ToolBatch | undefined;
  lines: number;
}

export function mountTimeline(onSelect: (position: number) => void, onDetail: (title: string, body: unknown) => void): TimelineView {
  const host = byId('timeline');
  const spacer = el('div', { class: 'spacer' });
  const rowsLayer = el('div', { class: 'rows' });
  host.append(spacer);
  spacer.append(rowsLayer);
  let replay: SegmentReplay | null = null;
  let shapes: RowShape[] = [];
  let offsets: number[] = [0];
  let selected = 0;

  const batchByStep = new Map<number, ToolBatch>();
  const shapeOf = (step: ReplayedStep): RowShape => {
    const batch = batchByStep.get(step.index);
    const compaction = step.recorded.input.type === 'compaction.done' ? 1 : 0;
    const lines = 1 + (batch?.calls.length ?? 0) + (compaction && replay?.compactions.find((c) => c.step === step.index)?.compacted ? 1 : 0) + (step.diverged ? 1 : 0) + (step.stay ? 1 : 0);
    return { step, batch, lines };
  };
  const layout = () => {
    if (!replay) return;
    for (const batch of replay.batches) batchByStep.set(batch.step, batch);
    for (let i = shapes.length; i < replay.steps.length; i++) {
      const shape = shapeOf(replay.steps[i]!);
      shapes.push(shape);
      offsets.push(offsets[i]! + shape.lines * LINE + PAD);
    }
    spacer.style.height = `${offsets[shapes.length]}px`;
  };
  const firstVisible = (top: number) => {
    let lo = 0;
    let hi = shapes.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (offsets[mid]! <= top) lo = mid;
      else hi = mid - 1;
    }
    return Math.max(0, lo);
  };
  const draw = () => {
    rowsLayer.replaceChildren();
    if (!replay || shapes.length === 0) return;
    const top = host.scrollTop;
    const bottom = top + host.clientHeight;
    for (let i = firstVisible(top); i < shapes.length && offsets[i]! < bottom + LINE; i++) rowsLayer.append(row(shapes[i]!, i));
  };
  const row = (shape: RowShape, i: number) => {
    const { step, batch } = shape;
    const input = step.recorded.input;
    const classes = ['row'];
    if (i + 1 === selected) classes.push('selected');
    if (step.diverged) classes.push('diverged');
    if (step.stay) classes.push('stay');
    const node = el('div', { class: classes.join(' '), 'data-position': String(i + 1), style: `top:${offsets[i]}px;height:${shape.lines * LINE}px` });
    const head = el(
      'div',
      { class: 'line' },
      el('span', { class: 'seq mono' }, `#${i + 1}`),
      el('span', { class: 'input', title: `journal line ${step.recorded.line}, seq ${step.recorded.seq}` }, input.type),
      el('span', { class: 'arrow' }, '→'),
      el('span', { class: 'state mono' }, step.after),
    );
    const inputChip = el('button', { class: 'chip chip-input' }, 'input');
    inputChip.addEventListener('click', (event) => {
      event.stopPropagation();
      onDetail(`input #${i + 1}: ${input.type}`, input);
    });
    head.append(inputChip);
    for (const effect of step.effects) head.append(chip(effect, i));
    node.append(head);
    if (step.stay) node.append(el('div', { class: 'line sub note' }, `stayed: ${step.stay}`));
    if (step.diverged) {
      const line = el('div', { class: 'line sub bad' }, 'differs from the recording — click for both');
      line.addEventListener('click', (event) => {
        event.stopPropagation();
        onDetail(`input #${i + 1}: recorded vs replayed effects`, { recorded: step.recorded.effects, replayed: step.digests });
      });
      node.append(line);
    }
    const compaction = replay!.compactions.find((c) => c.step === step.index);
    if (compaction?.compacted) {
      node.append(
        el('div', { class: 'line sub compaction' }, `compacted (${compaction.strategy ?? '?'}): ${formatTokens(compaction.tokensBefore)} → ${formatTokens(compaction.tokensAfter)} tokens`),
      );
    }
    if (batch) {
      const answer = replay!.steps.find((s) => s.index > step.index && s.recorded.input.type === 'tools.done' && (s.recorded.input.id ?? s.recorded.input.batchId) === batch.id);
      for (const call of batch.calls) {
        const run = toolRun(replay!, call.id);
        const ms = durationMs(run?.startedAt, run?.finishedAt);
        const batchMs = durationMs(input.at, answer?.recorded.input.at);
        const timing = ms !== undefined ? `${ms} ms` : run?.outcome ? `done${batchMs !== undefined ? ` (batch ${batchMs} ms)` : ''}` : run ? 'running' : 'not started';
        const line = el(
          'div',
          { class: `line sub tool${run?.outcome?.isError ? ' bad' : ''}` },
          el('span', { class: 'mono' }, `↳ ${call.name}`),
          el('span', { class: 'args' }, short(JSON.stringify(call.args), 60)),
          el('span', { class: 'duration mono' }, timing),
        );
        line.addEventListener('click', (event) => {
          event.stopPropagation();
          onDetail(`tool call ${call.id} (${call.name})`, { args: call.args, run: run ?? 'no start was journaled' });
        });
        node.append(line);
      }
    }
    node.addEventListener('click', () => onSelect(i + 1));
    return node;
  };
  const chip = (effect: Effect, i: number) => {
    const label = effect.type === 'emit' ? effect.event.type : effect.type === 'persist' ? `persist ${effect.entries.length}` : effect.type;
    const node = el('button', { class: `chip chip-${effect.type}`, title: effect.type === 'emit' || effect.type === 'persist' ? effect.type : effectId(effect) }, label);
    node.addEventListener('click', (event) => {
      event.stopPropagation();
      onDetail(`input #${i + 1}: ${effect.type}`, effect.type === 'call_llm' ? { ...effect, context: effect.context.toArray() } : effect);
    });
    return node;
  };
  host.addEventListener('scroll', () => requestAnimationFrame(draw));

  return {
    setReplay(next) {
      replay = next;
      shapes = [];
      offsets = [0];
      batchByStep.clear();
      layout();
      host.scrollTop = 0;
      draw();
    },
    show(position) {
      selected = position;
      if (position > 0 && offsets[position - 1] !== undefined) {
        const top = offsets[position - 1]!;
        const bottom = offsets[position]!;
        if (top < host.scrollTop) host.scrollTop = top;
        else if (bottom > host.scrollTop + host.clientHeight) host.scrollTop = bottom - host.clientHeight;
      }
      draw();
    },
    refresh() {
      layout();
      draw();
    },
  };
}

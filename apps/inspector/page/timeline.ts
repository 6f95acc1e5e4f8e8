/**
 * The timeline: one row per input, virtualised (only the rows in view are in the DOM), so a run
 * of thousands of inputs scrolls and steps at the same cost as a short one. Rows have known
 * heights: a line, plus one per tool call of a batch the row started, one for a compaction, a
 * divergence or a stay.
 */
import type { Effect } from '@tiller/core';
import { effectId, inputAnswerId } from '../src/journal/read-journal.js';
import { toolRun, type CompactionMark, type ReplayedStep, type SegmentReplay, type ToolBatch } from '../src/replay/replay-segment.js';
import { virtualList } from './virtual-list.js';
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
  let replay: SegmentReplay | null = null;
  let shapes: RowShape[] = [];
  let selected = 0;
  const batchByStep = new Map<number, ToolBatch>();
  const compactionByStep = new Map<number, CompactionMark>();
  /** The step whose input answered a batch (its results, or a request for approval). */
  const batchDone = new Map<string, ReplayedStep>();

  const list = virtualList(
    host,
    (i) => row(shapes[i]!, i),
    (i, node) => node.classList.toggle('selected', i + 1 === selected),
  );
  const layout = () => {
    if (!replay) return;
    for (const batch of replay.batches) batchByStep.set(batch.step, batch);
    for (const mark of replay.compactions) compactionByStep.set(mark.step, mark);
    const heights: number[] = [];
    for (let i = shapes.length; i < replay.steps.length; i++) {
      const step = replay.steps[i]!;
      if (step.recorded.input.type === 'tools.done' || step.recorded.input.type === 'approval.needed') {
        const id = inputAnswerId(step.recorded.input);
        if (id !== undefined) batchDone.set(id, step);
      }
      const batch = batchByStep.get(step.index);
      const lines = 1 + (batch?.calls.length ?? 0) + (compactionByStep.get(step.index)?.compacted ? 1 : 0) + (step.diverged ? 1 : 0) + (step.stay ? 1 : 0);
      shapes.push({ step, batch, lines });
      heights.push(lines * LINE + PAD);
    }
    list.append(heights);
  };
  const row = (shape: RowShape, i: number) => {
    const { step, batch } = shape;
    const input = step.recorded.input;
    const classes = ['row'];
    if (i + 1 === selected) classes.push('selected');
    if (step.diverged) classes.push('diverged');
    if (step.stay) classes.push('stay');
    const node = el('div', { class: classes.join(' '), 'data-position': String(i + 1) });
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
    const compaction = compactionByStep.get(step.index);
    if (compaction?.compacted) {
      node.append(
        el('div', { class: 'line sub compaction' }, `compacted (${compaction.strategy ?? '?'}): ${formatTokens(compaction.tokensBefore)} → ${formatTokens(compaction.tokensAfter)} tokens`),
      );
    }
    if (batch) {
      const answer = batchDone.get(batch.id);
      for (const call of batch.calls) {
        const run = toolRun(replay!, call.id, batch.id);
        const ms = durationMs(run?.startedAt, run?.finishedAt);
        const batchMs = durationMs(input.at, answer?.recorded.input.at);
        const timing = ms !== undefined ? `${ms} ms` : run?.finished ? `done${batchMs !== undefined ? ` (batch ${batchMs} ms)` : ''}` : run ? 'running' : answer?.recorded.input.type === 'approval.needed' ? 'asked for approval' : answer ? 'not run' : 'not started';
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
  return {
    setReplay(next) {
      replay = next;
      shapes = [];
      batchByStep.clear();
      compactionByStep.clear();
      batchDone.clear();
      list.reset();
      layout();
      list.redraw();
    },
    show(position) {
      selected = position;
      if (position > 0) list.reveal(position - 1);
      list.redraw();
    },
    refresh() {
      layout();
      list.rerender();
    },
  };
}

/**
 * The context gauge: one bar per model call, the tokens sent against the model's window, the
 * reserve at the top of the window marked, the input tokens the provider reported as a tick,
 * compactions between calls with their tokens before and after. Clicking a call shows the
 * messages it was sent and what changed since the call before. Virtualised like the timeline.
 */
import type { Message } from '@tiller/core';
import { diffCalls } from '../src/replay/call-diff.js';
import type { CompactionMark, ModelCall, SegmentReplay } from '../src/replay/replay-segment.js';
import { virtualList } from './virtual-list.js';
import { byId, el, formatTokens, short } from './dom.js';

export interface GaugeView {
  setReplay(replay: SegmentReplay | null): void;
  show(position: number): void;
}

type GaugeItem = { kind: 'call'; call: ModelCall; n: number } | { kind: 'compaction'; mark: CompactionMark };

const CALL_ROW = 40;
const MARK_ROW = 20;

export function mountGauge(onDetail: (title: string, body: unknown, render?: (into: HTMLElement) => void) => void, onSelect: (position: number) => void): GaugeView {
  const pane = byId('gauge');
  const legend = el('div', { class: 'gauge-legend' });
  const host = el('div', { class: 'gauge-rows' });
  pane.append(legend, host);
  let replay: SegmentReplay | null = null;
  let items: GaugeItem[] = [];
  let drawnCalls = 0;
  let drawnMarks = 0;
  let position = 0;
  let current: string | null = null;

  const reported = (c: ModelCall) => (c.answer?.usage ? c.answer.usage.input + c.answer.usage.cacheRead : undefined);
  let scale = 1;
  const mark = (i: number, row: HTMLElement) => {
    const item = items[i]!;
    const step = item.kind === 'call' ? item.call.step : item.mark.step;
    row.classList.toggle('future', step + 1 > position);
    if (item.kind === 'call') row.classList.toggle('current', item.call.id === current);
  };
  const list = virtualList(host, (i) => {
    const item = items[i]!;
    if (item.kind === 'compaction') {
      return el(
        'div',
        { class: `gauge-compaction${item.mark.step + 1 > position ? ' future' : ''}`, 'data-step': String(item.mark.step + 1) },
        `⇣ compacted (${item.mark.strategy ?? '?'}): ${formatTokens(item.mark.tokensBefore)} → ${formatTokens(item.mark.tokensAfter)} tokens`,
      );
    }
    const { call, n } = item;
    const { header } = replay!.segment;
    const reserve = header.reserveTokens;
    const usage = reported(call);
    const pct = (t: number) => `${Math.min(100, (t / scale) * 100).toFixed(2)}%`;
    const bar = el('div', { class: 'bar' }, el('div', { class: 'sent', style: `width:${pct(call.estimatedTokens)}` }));
    if (header.contextWindow && reserve) {
      const line = header.contextWindow - reserve;
      bar.append(el('div', { class: 'reserve', style: `left:${pct(line)};right:0`, title: `the compactor's reserve: it compacts above ${formatTokens(line)} tokens` }));
    }
    if (usage !== undefined) bar.append(el('div', { class: 'usage', style: `left:${pct(usage)}`, title: `reported input ${usage}` }));
    const status = call.answer === null ? 'in flight' : call.answer.kind === 'failed' ? `failed: ${call.answer.error ?? ''}` : `reported ${formatTokens(usage)} in / ${formatTokens(call.answer.usage?.output)} out`;
    const classes = ['call'];
    if (call.id === current) classes.push('current');
    if (call.step + 1 > position) classes.push('future');
    const row = el(
      'div',
      { class: classes.join(' '), 'data-call': call.id, 'data-step': String(call.step + 1) },
      el('span', { class: 'call-name mono' }, `call ${n}${call.final ? ' (final)' : ''}`),
      bar,
      el('span', { class: 'call-figures mono' }, `≈${formatTokens(call.estimatedTokens)} sent · ${call.messages.length} msgs · ${status}`),
    );
    const previous = replay!.calls[n - 2];
    row.addEventListener('click', () => {
      onSelect(call.step + 1);
      onDetail(`call ${n}: the ${call.messages.length} messages sent`, null, (into) => renderCall(into, call, previous));
    });
    return row;
  }, mark);

  const layout = () => {
    list.reset();
    items = [];
    if (!replay) {
      legend.replaceChildren();
      return;
    }
    const { header } = replay.segment;
    scale = header.contextWindow ?? Math.max(1, ...replay.calls.map((c) => Math.max(c.estimatedTokens, reported(c) ?? 0))) * 1.1;
    const reserve = header.reserveTokens;
    legend.replaceChildren(
      header.contextWindow
        ? `window ${formatTokens(header.contextWindow)} tokens${header.model ? ` (${header.model})` : ''}${reserve !== undefined ? `, reserve ${formatTokens(reserve)}` : ', reserve not recorded'}`
        : 'window not recorded in this journal: bars are scaled to the largest call',
      el('span', { class: 'key key-sent' }, 'sent (estimate)'),
      el('span', { class: 'key key-usage' }, 'reported input'),
      ...(header.contextWindow && reserve ? [el('span', { class: 'key key-reserve' }, `reserve (compacts above ${formatTokens(header.contextWindow - reserve)})`)] : []),
    );
    const marks = replay.compactions.filter((m) => m.compacted);
    let m = 0;
    replay.calls.forEach((call, i) => {
      while (m < marks.length && marks[m]!.step < call.step) items.push({ kind: 'compaction', mark: marks[m++]! });
      items.push({ kind: 'call', call, n: i + 1 });
    });
    while (m < marks.length) items.push({ kind: 'compaction', mark: marks[m++]! });
    list.append(items.map((item) => (item.kind === 'call' ? CALL_ROW : MARK_ROW)));
    drawnCalls = replay.calls.length;
    drawnMarks = replay.compactions.length;
  };
  const answered = () => replay?.calls.at(-1)?.answer !== null;
  let lastAnswered = true;

  return {
    setReplay(next) {
      replay = next;
      layout();
      list.redraw();
    },
    show(at) {
      position = at;
      // A live journal adds calls and answers: lay out again when they change.
      if (replay && (replay.calls.length !== drawnCalls || replay.compactions.length !== drawnMarks || answered() !== lastAnswered)) {
        const top = host.scrollTop;
        layout();
        host.scrollTop = top;
        lastAnswered = answered();
      }
      // The call the turn is on at this position: the latest one asked for before it.
      current = null;
      let index = -1;
      for (const [i, item] of items.entries()) {
        if (item.kind !== 'call') continue;
        if (item.call.step >= at) break;
        current = item.call.id;
        index = i;
      }
      if (index >= 0) list.reveal(index);
      list.redraw();
    },
  };
}

function renderCall(into: HTMLElement, call: ModelCall, previous: ModelCall | undefined): void {
  into.replaceChildren();
  const messages = call.messages.toArray();
  if (previous) {
    const diff = diffCalls(previous.messages.toArray(), messages);
    into.append(el('div', { class: 'diff-summary' }, `since the call before: ${diff.kept} kept, ${diff.removed.length} removed, ${diff.added.length} added`));
    for (const m of diff.removed) into.append(messageView(m, 'removed'));
    for (const m of diff.added) into.append(messageView(m, 'added'));
    into.append(el('h3', {}, 'all messages sent'));
  }
  for (const m of messages) into.append(messageView(m, ''));
  const raw = el('details', { class: 'raw' }, el('summary', {}, 'exactly as sent (JSON)'));
  raw.append(el('pre', {}, JSON.stringify(messages, null, 2)));
  into.append(raw);
}

function messageView(message: Message, change: string): HTMLElement {
  const text =
    typeof message.content === 'string'
      ? message.content
      : message.content
          .map((p) => (p.type === 'text' ? p.text : p.type === 'thinking' ? `[thinking] ${p.thinking}` : p.type === 'toolCall' ? `[call ${p.name} ${JSON.stringify(p.args)}]` : `[${p.type}]`))
          .join('\n');
  const node = el('details', { class: `message ${message.role} ${change}` }, el('summary', {}, `${change ? `${change}: ` : ''}${message.role}${message.role === 'toolResult' ? ` (${message.toolName})` : ''}: ${short(text, 90)}`));
  node.append(el('pre', {}, text));
  return node;
}

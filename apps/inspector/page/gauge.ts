/**
 * The context gauge: one bar per model call, the tokens sent against the model's window, the
 * reserve at the top of the window marked, the input tokens the provider reported as a tick,
 * compactions between calls with their tokens before and after. Clicking a call shows the
 * messages it was sent and what changed since the call before.
 */
import type { Message } from '@tiller/core';
import { diffCalls } from '../src/replay/call-diff.js';
import type { ModelCall, SegmentReplay } from '../src/replay/replay-segment.js';
import { byId, el, formatTokens, short } from './dom.js';

export interface GaugeView {
  setReplay(replay: SegmentReplay | null): void;
  show(position: number): void;
}

export function mountGauge(onDetail: (title: string, body: unknown, render?: (into: HTMLElement) => void) => void, onSelect: (position: number) => void): GaugeView {
  const host = byId('gauge');
  let replay: SegmentReplay | null = null;
  let drawnCalls = -1;
  let drawnAnswers = -1;

  const draw = () => {
    host.replaceChildren();
    if (!replay) return;
    const { header } = replay.segment;
    const reported = (c: ModelCall) => (c.answer?.usage ? c.answer.usage.input + c.answer.usage.cacheRead : undefined);
    const scale = header.contextWindow ?? Math.max(1, ...replay.calls.map((c) => Math.max(c.estimatedTokens, reported(c) ?? 0))) * 1.1;
    const reserve = header.reserveTokens;
    host.append(
      el(
        'div',
        { class: 'gauge-legend' },
        header.contextWindow
          ? `window ${formatTokens(header.contextWindow)} tokens${header.model ? ` (${header.model})` : ''}${reserve ? `, reserve ${formatTokens(reserve)}` : ', reserve not recorded'}`
          : 'window not recorded in this journal: bars are scaled to the largest call',
        el('span', { class: 'key key-sent' }, 'sent (estimate)'),
        el('span', { class: 'key key-usage' }, 'reported input'),
      ),
    );
    let callIndex = 0;
    const marks = [...replay.compactions];
    for (const call of replay.calls) {
      while (marks.length > 0 && marks[0]!.step < call.step) {
        const mark = marks.shift()!;
        if (!mark.compacted) continue;
        host.append(
          el('div', { class: 'gauge-compaction', 'data-step': String(mark.step + 1) }, `⇣ compacted (${mark.strategy ?? '?'}): ${formatTokens(mark.tokensBefore)} → ${formatTokens(mark.tokensAfter)} tokens`),
        );
      }
      callIndex += 1;
      const usage = reported(call);
      const pct = (n: number) => `${Math.min(100, (n / scale) * 100).toFixed(2)}%`;
      const bar = el('div', { class: 'bar' }, el('div', { class: 'sent', style: `width:${pct(call.estimatedTokens)}` }));
      if (header.contextWindow && reserve) bar.append(el('div', { class: 'reserve', style: `left:${pct(header.contextWindow - reserve)};right:0` }));
      if (usage !== undefined) bar.append(el('div', { class: 'usage', style: `left:${pct(usage)}`, title: `reported input ${usage}` }));
      const status = call.answer === null ? 'in flight' : call.answer.kind === 'failed' ? `failed: ${call.answer.error ?? ''}` : `reported ${formatTokens(usage)} in / ${formatTokens(call.answer.usage?.output)} out`;
      const row = el(
        'div',
        { class: 'call', 'data-call': call.id, 'data-step': String(call.step + 1) },
        el('span', { class: 'call-name mono' }, `call ${callIndex}${call.final ? ' (final)' : ''}`),
        bar,
        el('span', { class: 'call-figures mono' }, `≈${formatTokens(call.estimatedTokens)} sent · ${call.messages.length} msgs · ${status}`),
      );
      const previous = replay.calls[callIndex - 2];
      row.addEventListener('click', () => {
        onSelect(call.step + 1);
        onDetail(`call ${callIndex}: the ${call.messages.length} messages sent`, null, (into) => renderCall(into, call, previous));
      });
      host.append(row);
    }
    drawnCalls = replay.calls.length;
    drawnAnswers = replay.calls.filter((c) => c.answer !== null).length;
  };

  return {
    setReplay(next) {
      replay = next;
      draw();
    },
    show(position) {
      if (replay && (replay.calls.length !== drawnCalls || replay.calls.filter((c) => c.answer !== null).length !== drawnAnswers)) draw();
      // The call the turn is on at this position: the latest one asked for at or before it.
      let current: string | null = null;
      for (const call of replay?.calls ?? []) if (call.step < position) current = call.id;
      for (const row of host.querySelectorAll<HTMLElement>('.call')) {
        row.classList.toggle('current', row.dataset.call === current);
        row.classList.toggle('future', Number(row.dataset.step) > position);
      }
      for (const row of host.querySelectorAll<HTMLElement>('.gauge-compaction')) row.classList.toggle('future', Number(row.dataset.step) > position);
    },
  };
}

function renderCall(into: HTMLElement, call: ModelCall, previous: ModelCall | undefined): void {
  into.replaceChildren();
  if (previous) {
    const diff = diffCalls(previous.messages, call.messages);
    into.append(el('div', { class: 'diff-summary' }, `since the call before: ${diff.kept} kept, ${diff.removed.length} removed, ${diff.added.length} added`));
    for (const m of diff.removed) into.append(messageView(m, 'removed'));
    for (const m of diff.added) into.append(messageView(m, 'added'));
    into.append(el('h3', {}, 'all messages sent'));
  }
  for (const m of call.messages) into.append(messageView(m, ''));
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

/**
 * The session tree: every entry with its branches, compactions and labels; the path the turn is
 * on at the selected position lit, and the entries that position's input appended marked.
 */
import type { Entry } from '@tiller/core';
import type { ParsedSession } from '../src/journal/read-session.js';
import type { SegmentReplay } from '../src/replay/replay-segment.js';
import { byId, el, short } from './dom.js';

export interface TreeView {
  setData(replay: SegmentReplay | null, session: ParsedSession | undefined): void;
  show(position: number): void;
}

export function mountTree(onDetail: (title: string, body: unknown) => void): TreeView {
  const host = byId('tree');
  let replay: SegmentReplay | null = null;
  let session: ParsedSession | undefined;
  const rows = new Map<string, HTMLElement>();
  let drawnCount = -1;
  let lit: HTMLElement[] = [];

  const entriesNow = (): Entry[] => {
    if (session) {
      // A live journal can run ahead of the session file read at load: add what the replay appended.
      const known = new Set(session.byId.keys());
      const extra = replay ? (replay.steps.at(-1)?.snapshot ?? replay.initial).context.entries.toArray().filter((e) => !known.has(e.id)) : [];
      return [...session.entries, ...extra];
    }
    return replay ? (replay.steps.at(-1)?.snapshot ?? replay.initial).context.entries.toArray() : [];
  };

  const draw = () => {
    const entries = entriesNow();
    drawnCount = entries.length;
    host.replaceChildren();
    rows.clear();
    const children = new Map<string | null, Entry[]>();
    for (const e of entries) {
      const list = children.get(e.parentId) ?? [];
      list.push(e);
      children.set(e.parentId, list);
    }
    const known = new Set(entries.map((e) => e.id));
    const roots = entries.filter((e) => e.parentId === null || !known.has(e.parentId));
    // Depth grows only where the tree forks, so a long single path stays flat.
    const stack: Array<{ entry: Entry; depth: number }> = roots.reverse().map((entry) => ({ entry, depth: roots.length > 1 ? 1 : 0 }));
    while (stack.length > 0) {
      const { entry, depth } = stack.pop()!;
      const kids = children.get(entry.id) ?? [];
      const row = el('div', { class: `entry kind-${entry.kind}${kids.length > 1 ? ' fork' : ''}`, 'data-entry': entry.id, style: `padding-left:${depth * 14 + 4}px` });
      row.append(el('span', { class: 'entry-kind' }, kindLabel(entry)), el('span', { class: 'entry-text' }, describe(entry)));
      const label = session?.labels.get(entry.id);
      if (label) row.append(el('span', { class: 'label' }, label));
      row.addEventListener('click', () => onDetail(`entry ${entry.id}`, entry));
      host.append(row);
      rows.set(entry.id, row);
      for (const kid of [...kids].reverse()) stack.push({ entry: kid, depth: kids.length > 1 ? depth + 1 : depth });
    }
  };

  return {
    setData(nextReplay, nextSession) {
      replay = nextReplay;
      session = nextSession;
      draw();
    },
    show(position) {
      if (entriesNow().length !== drawnCount) draw();
      for (const row of lit) row.classList.remove('on-path', 'appended');
      lit = [];
      if (!replay) return;
      const snapshot = position === 0 ? replay.initial : replay.steps[position - 1]!.snapshot;
      for (const entry of snapshot.context.entries) {
        const row = rows.get(entry.id);
        if (row) {
          row.classList.add('on-path');
          lit.push(row);
        }
      }
      const appended = position === 0 ? [] : replay.steps[position - 1]!.appended;
      for (const id of appended) {
        const row = rows.get(id);
        if (row) {
          row.classList.add('appended');
          lit.push(row);
        }
      }
      const first = appended.length > 0 ? rows.get(appended[0]!) : undefined;
      first?.scrollIntoView({ block: 'nearest' });
    },
  };
}

function kindLabel(entry: Entry): string {
  switch (entry.kind) {
    case 'message':
      return entry.message.role;
    case 'compaction':
      return 'compaction';
    case 'branch_summary':
      return 'branch summary';
    case 'custom':
      return entry.customType;
    default: {
      const unknown: never = entry;
      return String((unknown as { kind: string }).kind);
    }
  }
}

function describe(entry: Entry): string {
  switch (entry.kind) {
    case 'message': {
      const m = entry.message;
      if (typeof m.content === 'string') return short(m.content);
      return short(m.content.map((p) => (p.type === 'text' ? p.text : p.type === 'toolCall' ? `${p.name}(${JSON.stringify(p.args)})` : p.type === 'thinking' ? '' : `[${p.type}]`)).filter(Boolean).join(' '));
    }
    case 'compaction':
      return `${entry.tokensBefore} → ${entry.tokensAfter ?? '?'} tokens, ${entry.compactedEntryIds?.length ?? 0} entries out${entry.provenance ? ` (${entry.provenance.strategy})` : ''}`;
    case 'branch_summary':
      return short(entry.summary);
    case 'custom':
      return short(JSON.stringify(entry.data ?? ''));
    default:
      return '';
  }
}

/**
 * The session tree: every entry with its branches, compactions and labels; the path the turn is
 * on at the selected position lit, and the entries that position's input appended marked.
 * Virtualised like the timeline: a long session costs a screenful per step.
 */
import type { Entry } from '@tiller/core';
import type { ParsedSession } from '../src/journal/read-session.js';
import type { SegmentReplay } from '../src/replay/replay-segment.js';
import { byId, el, short } from './dom.js';
import { virtualList } from './virtual-list.js';

export interface TreeView {
  setData(replay: SegmentReplay | null, session: ParsedSession | undefined): void;
  show(position: number): void;
}

const ROW = 20;

export function mountTree(onDetail: (title: string, body: unknown) => void): TreeView {
  const host = byId('tree');
  let replay: SegmentReplay | null = null;
  let session: ParsedSession | undefined;
  let rows: Array<{ entry: Entry; depth: number; fork: boolean }> = [];
  const rowOf = new Map<string, number>();
  /** Where each entry stands in the segment's path: the path only grows, so a position's path is a prefix. */
  let pathIndex = new Map<string, number>();
  let pathLength = 0;
  let appended = new Set<string>();

  const lastSnapshot = () => (replay ? (replay.steps.at(-1)?.snapshot ?? replay.initial) : null);
  const onPath = (entry: Entry) => {
    const index = pathIndex.get(entry.id);
    return index !== undefined && index < pathLength;
  };
  const mark = (i: number, row: HTMLElement) => {
    const { entry } = rows[i]!;
    row.classList.toggle('on-path', onPath(entry));
    row.classList.toggle('appended', appended.has(entry.id));
  };
  const list = virtualList(host, (i) => {
    const { entry, depth, fork } = rows[i]!;
    const row = el('div', { class: `entry kind-${entry.kind}${fork ? ' fork' : ''}`, 'data-entry': entry.id, style: `padding-left:${depth * 14 + 4}px` });
    mark(i, row);
    row.append(el('span', { class: 'entry-kind' }, kindLabel(entry)), el('span', { class: 'entry-text' }, describe(entry)));
    const label = session?.labels.get(entry.id);
    if (label) row.append(el('span', { class: 'label' }, label));
    row.addEventListener('click', () => onDetail(`entry ${entry.id}`, entry));
    return row;
  }, mark);

  const entriesNow = (): Entry[] => {
    const final = lastSnapshot()?.context.entries.toArray() ?? [];
    if (!session) return final;
    // A live journal can run ahead of the session file read at load: add what the replay appended.
    return [...session.entries, ...final.filter((e) => !session!.byId.has(e.id))];
  };

  const layout = () => {
    const entries = entriesNow();
    const children = new Map<string | null, Entry[]>();
    for (const e of entries) {
      const kids = children.get(e.parentId) ?? [];
      kids.push(e);
      children.set(e.parentId, kids);
    }
    const known = new Set(entries.map((e) => e.id));
    const roots = entries.filter((e) => e.parentId === null || !known.has(e.parentId));
    rows = [];
    rowOf.clear();
    // Depth grows only where the tree forks, so a long single path stays flat.
    const stack = [...roots].reverse().map((entry) => ({ entry, depth: roots.length > 1 ? 1 : 0 }));
    while (stack.length > 0) {
      const { entry, depth } = stack.pop()!;
      const kids = children.get(entry.id) ?? [];
      rowOf.set(entry.id, rows.length);
      rows.push({ entry, depth, fork: kids.length > 1 });
      for (const kid of [...kids].reverse()) stack.push({ entry: kid, depth: kids.length > 1 ? depth + 1 : depth });
    }
    pathIndex = new Map();
    let i = 0;
    for (const entry of lastSnapshot()?.context.entries ?? []) pathIndex.set(entry.id, i++);
    list.reset();
    list.append(rows.map(() => ROW));
  };

  return {
    setData(nextReplay, nextSession) {
      replay = nextReplay;
      session = nextSession;
      layout();
      list.redraw();
    },
    show(position) {
      if (!replay) return;
      if ((lastSnapshot()?.context.entries.length ?? 0) !== pathIndex.size) {
        const top = host.scrollTop;
        layout();
        host.scrollTop = top;
      }
      const snapshot = position === 0 ? replay.initial : replay.steps[position - 1]!.snapshot;
      pathLength = snapshot.context.entries.length;
      appended = new Set(position === 0 ? [] : replay.steps[position - 1]!.appended);
      const first = [...appended].map((id) => rowOf.get(id)).find((r) => r !== undefined);
      if (first !== undefined) list.reveal(first);
      list.redraw();
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

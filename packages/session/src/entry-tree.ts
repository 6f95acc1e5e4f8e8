import type { Entry } from '@tiller/core';

/** One entry of `tree()`, with its children in the order they were appended. */
export interface TreeNode {
  entry: Entry;
  children: TreeNode[];
  /** The entry's current label, if it has one. */
  label?: string;
}

/** The whole tree of `entries` (parents before children), for listing, with `labels` resolved. */
export function entryTree(entries: readonly Entry[], labels: ReadonlyMap<string, string>): TreeNode[] {
  const nodes = new Map<string, TreeNode>();
  const roots: TreeNode[] = [];
  for (const entry of entries) {
    const node: TreeNode = { entry, children: [] };
    const label = labels.get(entry.id);
    if (label) node.label = label;
    nodes.set(entry.id, node);
    const parent = entry.parentId === null ? undefined : nodes.get(entry.parentId);
    (parent ? parent.children : roots).push(node);
  }
  return roots;
}

/** Files `entry` under its parent in `index` (the children listing, built on first use). */
export function addChild(index: Map<string | null, Entry[]>, entry: Entry, byId: ReadonlyMap<string, Entry>): void {
  // An entry whose parent was lost (a damaged file) is listed with the roots.
  const key = entry.parentId !== null && byId.has(entry.parentId) ? entry.parentId : null;
  const list = index.get(key);
  if (list) list.push(entry);
  else index.set(key, [entry]);
}

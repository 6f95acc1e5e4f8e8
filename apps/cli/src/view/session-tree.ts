import { estimateTokens } from '@tiller/compaction';
import type { SessionLog, TreeNode } from '@tiller/session';
import type { Style } from '../cli/style.js';
import { contextVisibility, type Visibility } from '../sessions/context-view.js';
import { describeEntry, shortId } from './describe-entry.js';
import { formatTokens } from './describe.js';

export const VISIBILITY_MARK: Record<Visibility, string> = { context: '●', compacted: '○', cleared: '◌', hidden: '·', 'off-path': ' ' };

export interface SessionTreeLine {
  text: string;
  visibility: Visibility;
}

/** The session as lines, one per entry (tree order), each marked for where it stands at `leaf`. */
export function sessionTreeLines(log: SessionLog, leaf: string | null, style: Style): SessionTreeLine[] {
  const visibility = contextVisibility(log.path(leaf));
  const lines: SessionTreeLine[] = [];
  renderTree(log.tree(), (prefix, node) => {
    const seen = visibility.get(node.entry.id) ?? 'off-path';
    const label = node.label ? ` ${style.yellow(`[${node.label}]`)}` : '';
    const here = node.entry.id === leaf ? style.green('  ← leaf') : '';
    const text = `${shortId(node.entry.id).padEnd(11)}  ${describeEntry(node.entry)}`;
    const styled = seen === 'context' || seen === 'cleared' ? text : style.dim(text);
    lines.push({ text: `${VISIBILITY_MARK[seen]} ${prefix}${styled}${label}${here}`, visibility: seen });
  });
  return lines;
}

/** `the model sees now: 14 messages, about 1,234 tokens (…)` */
export function contextSummary(log: SessionLog, leaf: string | null): string {
  const messages = log.context(leaf);
  const tokens = messages.reduce((sum, m) => sum + estimateTokens(m), 0);
  const counts: Partial<Record<Visibility, number>> = {};
  for (const v of contextVisibility(log.path(leaf)).values()) counts[v] = (counts[v] ?? 0) + 1;
  return (
    `the model sees now: ${messages.length} messages, about ${formatTokens(tokens)} tokens` +
    ` (${counts.context ?? 0} entries in context, ${counts.compacted ?? 0} compacted out, ${counts.cleared ?? 0} cleared)`
  );
}

export function countBranchPoints(roots: readonly TreeNode[]): number {
  let count = 0;
  const stack = [...roots];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.children.length > 1) count += 1;
    stack.push(...node.children);
  }
  return count;
}

/**
 * Walks the tree depth first without recursion (a session can be 100k entries deep). A chain
 * stays at its indent; where an entry has several children, each branch is drawn with a connector.
 */
export function renderTree(roots: readonly TreeNode[], line: (prefix: string, node: TreeNode) => void): void {
  const stack: Array<{ node: TreeNode; prefix: string; rest: string }> = [];
  const pushChildren = (children: readonly TreeNode[], rest: string) => {
    if (children.length === 1) {
      stack.push({ node: children[0]!, prefix: rest, rest });
      return;
    }
    for (let i = children.length - 1; i >= 0; i--) {
      const last = i === children.length - 1;
      stack.push({ node: children[i]!, prefix: `${rest}${last ? '└─ ' : '├─ '}`, rest: `${rest}${last ? '   ' : '│  '}` });
    }
  };
  pushChildren(roots, '');
  while (stack.length > 0) {
    const { node, prefix, rest } = stack.pop()!;
    line(prefix, node);
    pushChildren(node.children, rest);
  }
}

import type { Entry } from '@tiller/core';

const refuse = (): never => {
  throw new TypeError('the path a compactor is handed cannot be changed in place (it compacts by appending: return {acc: {path: [...acc.path, ...appended]}})');
};

// One handler for every path: no trap for reads, so reading costs about what reading the array does.
const READ_ONLY: ProxyHandler<Entry[]> = { set: refuse, deleteProperty: refuse, defineProperty: refuse, setPrototypeOf: refuse, preventExtensions: refuse };

/**
 * The path as a compactor gets it: the array the host (the shell's core) appends to, lent without
 * a copy (a copy at every boundary would cost a pass over the session), behind a view that throws
 * at any write. A compactor that "removes old entries" with `splice` would otherwise cut them out
 * of that shared list itself: the next entries the turn wrote no longer chained, and the agent
 * stopped for good. The entries themselves are not frozen: see docs/compaction.md.
 */
export function readOnlyPath(path: readonly Entry[]): readonly Entry[] {
  return new Proxy(path as Entry[], READ_ONLY);
}

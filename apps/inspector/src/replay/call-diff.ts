import type { Message } from '@tiller/core';

export interface CallDiff {
  kept: number;
  /** Sent last time, not this time (a compaction took them out, or cleared them). */
  removed: Message[];
  /** New this time. */
  added: Message[];
}

/** What changed in the messages sent from one model call to the next, message by message. */
export function diffCalls(previous: readonly Message[], current: readonly Message[]): CallDiff {
  const key = (m: Message) => JSON.stringify(m);
  const before = new Map<string, number>();
  for (const m of previous) before.set(key(m), (before.get(key(m)) ?? 0) + 1);
  const added: Message[] = [];
  let kept = 0;
  for (const m of current) {
    const k = key(m);
    const left = before.get(k) ?? 0;
    if (left > 0) {
      before.set(k, left - 1);
      kept += 1;
    } else added.push(m);
  }
  const removed = previous.filter((m) => {
    const k = key(m);
    const left = before.get(k) ?? 0;
    if (left === 0) return false;
    before.set(k, left - 1);
    return true;
  });
  return { kept, removed, added };
}

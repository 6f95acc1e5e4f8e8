/**
 * `write` (an append or a close of the session store or the journal), unless it has not settled
 * within `limitMs`: then it rejects saying so, and the write is left to finish on its own. Every
 * step of the turn waits on its writes, so one that never settles would otherwise hold the agent,
 * its `abort` and its `close` for good. Past the limit nobody knows whether the write landed, so
 * the caller stops the agent rather than go on.
 */
export async function withinWriteLimit<T>(write: PromiseLike<T>, limitMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not settle within ${limitMs} ms (limits.writeTimeoutMs); whether it was written is not known`)), limitMs);
  });
  try {
    return await Promise.race([write, late]);
  } finally {
    clearTimeout(timer);
  }
}

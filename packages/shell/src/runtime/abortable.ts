/**
 * The result of `work`, unless `signal` aborts first: then it rejects with the signal's reason and
 * `work` is left to finish on its own. Whatever the shell waits on (a model stream, a tool, a
 * policy, a compactor) goes through here, so work that ignores the turn's signal cannot hold it.
 */
export function abortable<T>(work: PromiseLike<T> | T, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) {
      // Nobody waits for `work` any more; whatever it ends with is dropped.
      Promise.resolve(work).catch(() => undefined);
      reject(signal.reason);
      return;
    }
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    Promise.resolve(work).then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

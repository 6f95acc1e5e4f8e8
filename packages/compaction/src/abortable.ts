/**
 * What `start()` gives, unless `signal` fires first: then it rejects with the signal's reason and
 * the work is left to finish on its own (what it ends with is dropped). A summarizer may ignore
 * its signal; an abort must still settle the compaction at once. `start` throwing is a rejection.
 */
export function abortable<T>(start: () => PromiseLike<T> | T, signal: AbortSignal | undefined): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => reject(signal!.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    const settle = () => signal?.removeEventListener('abort', onAbort);
    let work: PromiseLike<T> | T;
    try {
      work = start();
    } catch (error) {
      settle();
      reject(error);
      return;
    }
    Promise.resolve(work).then(
      (value) => {
        settle();
        resolve(value);
      },
      (error: unknown) => {
        settle();
        reject(error);
      },
    );
  });
}

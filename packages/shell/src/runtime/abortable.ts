/**
 * The result of `work`, unless one of `signals` aborts first: then it rejects with that signal's
 * reason and `work` is left to finish on its own. Whatever the shell waits on (a model stream, a
 * tool, a policy, a compactor) goes through here, so work that ignores the turn's signal cannot
 * hold it. Several signals are listened to each on its own, so the shell's own wait needs no
 * joined signal (`AbortSignal.any` is made only for what work is handed).
 */
export function abortable<T>(work: PromiseLike<T> | T, ...signals: AbortSignal[]): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const aborted = signals.find((signal) => signal.aborted);
    if (aborted) {
      // Nobody waits for `work` any more; whatever it ends with is dropped.
      Promise.resolve(work).catch(() => undefined);
      reject(aborted.reason);
      return;
    }
    const stopListening = () => {
      for (const signal of signals) signal.removeEventListener('abort', onAbort);
    };
    const onAbort = (event: Event) => {
      stopListening();
      reject((event.target as AbortSignal).reason);
    };
    for (const signal of signals) signal.addEventListener('abort', onAbort, { once: true });
    Promise.resolve(work).then(
      (value) => {
        stopListening();
        resolve(value);
      },
      (error: unknown) => {
        stopListening();
        reject(error);
      },
    );
  });
}

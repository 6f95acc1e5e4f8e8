/** A queue that hands its letters to one handler, one at a time, in the order they were posted. */
export interface Mailbox<T> {
  post(letter: T): void;
  /** Resolves once every letter posted so far has been handled. */
  drained(): Promise<void>;
}

/**
 * The runtime's serial queue. A drain always yields before its first letter, so whoever posts
 * returns before anything changes; the drain is recorded before it starts and cleared when it
 * ends, so a queue of letters that need no work (stale answers) never leaves it marked running.
 * A letter's failure is the handler's to report; one that throws anyway does not stop the queue.
 */
export function createMailbox<T>(handle: (letter: T) => Promise<void>): Mailbox<T> {
  const letters: T[] = [];
  let draining: Promise<void> | null = null;

  const drain = async () => {
    await undefined;
    for (let letter = letters.shift(); letter !== undefined; letter = letters.shift()) {
      try {
        await handle(letter);
      } catch {
        // Reported by the handler.
      }
    }
    draining = null;
  };

  return {
    post(letter) {
      letters.push(letter);
      draining ??= drain();
    },
    drained: () => draining ?? Promise.resolve(),
  };
}

import { open, stat, watch } from 'node:fs/promises';

export interface FollowOptions {
  /** Lines up to and including this number (1-based) are skipped: a client resuming. */
  after?: number;
  /** How often the file is looked at besides change notices (they can be missed). */
  pollMs?: number;
  signal: AbortSignal;
}

/**
 * Every complete line of a file, numbered from 1, first those already there, then each one as
 * it is written, until the signal aborts. A file that does not exist yet is waited for. A line
 * being written (no newline yet) is held back until it is complete. A file that is there but
 * cannot be read (a folder in its place) ends the following: the promise rejects with that error.
 */
export async function followLines(path: string, onLine: (line: string, number: number) => void, options: FollowOptions): Promise<void> {
  const after = options.after ?? 0;
  // Ends on the caller's abort or on a read that failed; the poller, the watcher and the reads all stop on it.
  const done = new AbortController();
  const { signal } = done;
  const stop = () => done.abort();
  if (options.signal.aborted) stop();
  else options.signal.addEventListener('abort', stop, { once: true });
  let failed: { error: unknown } | undefined;
  let offset = 0;
  let number = 0;
  let partial = Buffer.alloc(0);
  let reading: Promise<void> | null = null;

  const readMore = async () => {
    let size: number;
    try {
      size = (await stat(path)).size;
    } catch {
      return; // not written yet
    }
    if (size <= offset) return;
    const handle = await open(path, 'r');
    try {
      const chunk = Buffer.alloc(size - offset);
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, offset);
      offset += bytesRead;
      let data = Buffer.concat([partial, chunk.subarray(0, bytesRead)]);
      for (let newline = data.indexOf(0x0a); newline >= 0; newline = data.indexOf(0x0a)) {
        const line = data.toString('utf8', 0, newline);
        data = data.subarray(newline + 1);
        if (line.trim() === '') continue;
        number += 1;
        if (number > after && !signal.aborted) onLine(line, number);
      }
      partial = Buffer.from(data);
    } finally {
      await handle.close();
    }
  };
  // One read at a time; a notice that comes while reading asks for one more pass.
  let again = false;
  const poke = () => {
    if (reading) {
      again = true;
      return;
    }
    reading = (async () => {
      do {
        again = false;
        await readMore();
      } while (again && !signal.aborted);
    })()
      .catch((error: unknown) => {
        // Polled from a timer, nobody awaits this read: a rejection left here would end the process.
        failed ??= { error };
        stop();
      })
      .finally(() => {
        reading = null;
      });
  };

  poke();
  const timer = setInterval(poke, options.pollMs ?? 250);
  const watcher = (async () => {
    try {
      for await (const _ of watch(path, { signal })) poke();
    } catch {
      // No file yet, or aborted: polling covers it.
    }
  })();
  await new Promise<void>((resolve) => {
    if (signal.aborted) resolve();
    signal.addEventListener('abort', () => resolve(), { once: true });
  });
  clearInterval(timer);
  options.signal.removeEventListener('abort', stop);
  await watcher;
  await reading;
  if (failed) throw failed.error;
}

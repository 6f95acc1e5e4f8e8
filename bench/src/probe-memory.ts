/**
 * Memory of opening one session file and building its context, in a fresh process (run by
 * bench/run.ts with --expose-gc): the peak resident set above the process's size right before
 * the file is read, and the heap still held by the open session after a full collection.
 * Prints `{peakMB, heldMB}`.
 */
import { readFileSync } from 'node:fs';
import { createSessionLog, JsonlStore } from '@tiller/session';
import { pi, piOpen } from './pi.js';

const [side, file] = process.argv.slice(2);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc || !file || (side !== 'tiller' && side !== 'pi')) throw new Error('usage: node --expose-gc probe-memory.ts tiller|pi <file>');

const openWithContext = async (): Promise<unknown> => {
  if (side === 'pi') {
    const opened = piOpen(readFileSync(file, 'utf8'));
    return [opened, pi.buildSessionContext(opened.entries, opened.leafId, opened.byId)];
  }
  const log = createSessionLog(await JsonlStore.open(file, { readOnly: true }));
  return [log, log.context()];
};

gc();
const before = process.memoryUsage();
const held = await openWithContext();
const peakRss = process.resourceUsage().maxRSS * 1024;
gc();
const after = process.memoryUsage();
const MB = 1024 * 1024;
process.stdout.write(JSON.stringify({ peakMB: (peakRss - before.rss) / MB, heldMB: (after.heapUsed - before.heapUsed) / MB, kept: held !== undefined }));

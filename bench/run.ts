/**
 * `pnpm bench`: Tiller beside pi 0.73.1 on the same sessions. Writes the sessions into
 * bench/.sessions/ (git-ignored), times opening, resuming, the context and compaction preparation
 * in a process per size, the costs that must stay flat (core `step`, the boundary decision) for
 * all sizes in one process, probes memory in a fresh process per side and size, times the shell's
 * overhead per model call beside pi-agent-core's in a process per history length, writes
 * bench/RESULTS.md and copies it into docs/performance.md's latest results.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Measurement } from './src/measurement.js';
import { withLatestResults } from './src/latest-results.js';
import { resultsMarkdown } from './src/results-markdown.js';
import { writeSessions } from './src/sessions.js';

const here = dirname(fileURLToPath(import.meta.url));
const SIZES = [10_000, 100_000];
/** History lengths, in messages, for the shell's overhead per model call beside pi-agent-core's. */
const AGENT_SIZES = [0, 10_000, 100_000];
const MEMORY_SIZES = new Set([10_000, 100_000]);

/** Runs a bench script in a child process (the same tsx loader) and parses what it prints. */
function child<T>(script: string, args: readonly string[], nodeFlags: readonly string[] = []): T {
  const out = execFileSync(process.execPath, [...process.execArgv, ...nodeFlags, join(here, 'src', script), ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 16 * 1024 * 1024,
  });
  return JSON.parse(out) as T;
}

const began = performance.now();
const log = (text: string) => process.stderr.write(`${text}\n`);
log('writing sessions…');
const sessions = await writeSessions(join(here, '.sessions'), SIZES);
const rows: Measurement[] = [];
for (const session of sessions) {
  log(`timing ${session.size} entries…`);
  rows.push(...child<Measurement[]>('measure-session.ts', [JSON.stringify(session)], ['--expose-gc']));
  if (!MEMORY_SIZES.has(session.size)) continue;
  log(`memory at ${session.size} entries…`);
  const probe = (side: string, file: string) => child<{ peakMB: number; heldMB: number }>('probe-memory.ts', [side, file], ['--expose-gc']);
  const tiller = probe('tiller', session.tillerFile);
  const pi = probe('pi', session.piFile);
  rows.push(
    { operation: 'memory-open', size: session.size, unit: 'MB', tiller: tiller.peakMB, reference: { name: 'pi', value: pi.peakMB } },
    { operation: 'memory-held', size: session.size, unit: 'MB', tiller: tiller.heldMB, reference: { name: 'pi', value: pi.heldMB } },
  );
}

log('timing the core and the boundary decision at every size…');
rows.push(...child<Measurement[]>('measure-core.ts', [JSON.stringify(sessions)]));

for (const size of AGENT_SIZES) {
  log(`timing the shell per model call over ${size} messages…`);
  rows.push(child<Measurement>('measure-agent.ts', [String(size)]));
}

const markdown = resultsMarkdown(rows, {
  date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
  versions: ['pi 0.73.1', 'pi-agent-core 0.73.1', 'xstate 5.33.3', `Node ${process.versions.node}`],
  sizes: sessions.map((s) => s.size),
  seconds: (performance.now() - began) / 1000,
});
writeFileSync(join(here, 'RESULTS.md'), markdown);
const performancePage = join(here, '..', 'docs', 'performance.md');
writeFileSync(performancePage, withLatestResults(readFileSync(performancePage, 'utf8'), markdown));
process.stdout.write(markdown);

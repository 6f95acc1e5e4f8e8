/**
 * Preparing a compaction and estimating the context, Tiller beside pi 0.73.1, on sessions scaled
 * from the large recorded session (its entries repeated with fresh ids). Run:
 *   pnpm tsx packages/compaction/scripts/bench-prepare.ts [entries...]
 */
import type { Entry } from '@tiller/core';
import { importPiSession } from '@tiller/session';
import { readFixture } from '@tiller/testing';
import { DEFAULT_COMPACTION_SETTINGS, createTokenLedger, estimatePathContextTokens, prepareCompaction } from '../src/index.js';
import { pi } from '../test/pi.js';

function scaledSession(entries: number): string {
  const source = pi.loadPath(readFixture('pi-large-session.jsonl'));
  const lines = [JSON.stringify({ type: 'session', version: 3, id: 'bench', timestamp: '2026-01-01T00:00:00.000Z', cwd: '/bench' })];
  let parentId: string | null = null;
  for (let i = 0; i < entries; i++) {
    const entry = source[i % source.length]!;
    const id = `b${i}`;
    lines.push(JSON.stringify({ ...entry, id, parentId }));
    parentId = id;
  }
  return lines.join('\n');
}

function median(run: () => unknown, times: number): number {
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    const start = performance.now();
    run();
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)]!;
}

const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
for (const size of sizes.length > 0 ? sizes : [10_000, 100_000]) {
  const text = scaledSession(size);
  const piPath = pi.loadPath(text);
  // As a Tiller session file reads back: one JSON.parse per line, like pi's own loading.
  const tillerPath = importPiSession(text)
    .entries.map((entry) => JSON.stringify(entry))
    .map((line) => JSON.parse(line) as Entry);
  const times = size > 50_000 ? 5 : 15;
  const piPrepare = median(() => pi.prepareCompaction(piPath, DEFAULT_COMPACTION_SETTINGS), times);
  const tillerPrepare = median(() => prepareCompaction(tillerPath, DEFAULT_COMPACTION_SETTINGS), times);
  const piEstimate = median(() => pi.estimateContextTokens(pi.buildSessionContext(piPath).messages), times);
  const tillerEstimate = median(() => estimatePathContextTokens(tillerPath), times);
  const ledger = createTokenLedger(tillerPath);
  const decision = median(() => ledger.tokens > 100_000, 1001);
  const row = (label: string, a: number, b: number) =>
    `${label.padEnd(22)} pi ${a.toFixed(2).padStart(9)} ms   tiller ${b.toFixed(3).padStart(9)} ms   ${(a / b).toFixed(1)}x`;
  console.log(`\n${size.toLocaleString('en-US')} entries`);
  console.log(row('prepareCompaction', piPrepare, tillerPrepare));
  console.log(row('context estimate', piEstimate, tillerEstimate));
  console.log(`${'ledger decision'.padEnd(22)} ${decision.toFixed(4)} ms`);
}

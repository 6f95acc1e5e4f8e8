import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { watchARun } from './watch-a-run.js';

it('serves the page for a run before its journal exists, and writes a shareable copy with the journal inside', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'tiller-watch-test-'));
  try {
    const lines: string[] = [];
    const { outcome, html } = await watchARun({ dir, log: (l) => lines.push(l) });
    expect(outcome.status).toBe('completed');
    expect(lines[0]).toMatch(/^watch the turn at http:\/\/127\.0\.0\.1:\d+\/$/);
    const text = await readFile(html, 'utf8');
    expect(text).toContain('"embedded":{"journal":"{\\"type\\":\\"header\\"');
    expect(text).not.toMatch(/<script[^>]+src=/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

import { readFile } from 'node:fs/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordNotebookSession } from '../scripts/make-journals.js';
import { edgeFor, edgesOfSvg } from '../src/chart/chart-edges.js';
import { renderTurnChart } from '../scripts/turn-chart.js';
import { readJournal } from '../src/journal/read-journal.js';
import { replaySegment } from '../src/replay/replay-segment.js';

const committed = () => readFile(new URL('../page/turn-machine.svg', import.meta.url), 'utf8');

describe('the statechart', () => {
  it('is the committed chart: rendered again from the turn machine it is the same (run `pnpm --filter @tiller/inspector chart` after changing the machine)', async () => {
    expect(await renderTurnChart()).toBe(await committed());
  });

  it('has an id for every state and a drawn edge for every step of a recorded run that moved', async () => {
    const svg = await committed();
    for (const state of ['idle', 'steering', 'calling', 'tools', 'tools.running', 'tools.awaitingApproval']) expect(svg).toContain(`id="state:${state}"`);
    const edges = edgesOfSvg(svg);
    const dir = await mkdtemp(join(tmpdir(), 'tiller-chart-'));
    try {
      const files = await recordNotebookSession(dir);
      const replay = replaySegment(readJournal(await readFile(files.journalFile, 'utf8')).segments[0]!, []);
      const moved = replay.steps.filter((s) => s.stay === null);
      expect(moved.length).toBeGreaterThan(10);
      for (const step of moved) {
        expect(edgeFor(edges, step.before, step.recorded.input.type, step.after), `${step.before} -${step.recorded.input.type}-> ${step.after}`).not.toBeNull();
      }
      expect(edgeFor(edges, 'calling', 'llm.done', 'tools.running')?.id).toBe('edge:calling:llm.done:0');
      expect(edgeFor(edges, 'tools.running', 'abort', 'idle')?.id).toBe('edge:tools:abort:0');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LOST_RESULT_NOTE } from '@tiller/core';
import { createSessionLog, JsonlStore, resumeContext } from '@tiller/session';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pi, piOpen } from './pi.js';
import { sourceSession } from './source-session.js';
import { writeSessions, type BenchSession } from './sessions.js';

describe('writeSessions', () => {
  let dir: string;
  let sessions: BenchSession[];
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tiller-bench-'));
    sessions = await writeSessions(dir, [2500]);
  }, 60_000);
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('writes the recording at its own length and each requested size', () => {
    expect(sessions.map((s) => s.size)).toEqual([sourceSession().lines.length, 2500]);
  });

  it('gives pi and Tiller the same entries, in the same order, with the same context length but for stand-in results', async () => {
    for (const session of sessions) {
      const opened = piOpen(await readFile(session.piFile, 'utf8'));
      const log = createSessionLog(await JsonlStore.open(session.tillerFile, { readOnly: true }));
      expect(opened.entries).toHaveLength(session.size);
      expect(log.path().map((e) => e.id)).toEqual(opened.entries.map((e) => e.id));
      const piMessages = pi.buildSessionContext(opened.entries, opened.leafId, opened.byId).messages;
      // Tiller also answers the calls the recording leaves without a result (aborted or failed
      // messages) with an error result; pi's session context leaves them open.
      const standIns = log.context().filter((m) => m.role === 'toolResult' && m.content[0]?.type === 'text' && m.content[0].text === LOST_RESULT_NOTE);
      expect(log.context().length - standIns.length).toBe(piMessages.length);
    }
  });

  it('makes each smaller session the start of the larger one, so one file can stand for all sizes', async () => {
    const [small, large] = await Promise.all(sessions.map(async (s) => piOpen(await readFile(s.piFile, 'utf8')).entries));
    expect(large!.slice(0, small!.length)).toEqual(small);
  });

  it('ends the compacted file with a compaction that a resume reads from', async () => {
    const session = sessions[1]!;
    const full = createSessionLog(await JsonlStore.open(session.compactedFile, { readOnly: true }));
    expect(full.path().at(-1)).toMatchObject({ kind: 'compaction', id: 'bench-compaction' });
    const resumed = await resumeContext(session.compactedFile);
    expect(resumed.read).toBe('tail');
    expect(resumed.context).toEqual(full.context());
    expect(resumed.path.length).toBeLessThan(session.size / 2);
  });
});

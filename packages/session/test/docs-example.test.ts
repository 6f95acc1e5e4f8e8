import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixturePath, generatePiSession, recordedFixtures } from '@tiller/testing';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { importAndContinue } from '../examples/import-pi-session.js';
import { piContext } from './pi-reference.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tiller-example-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

it('the pi import example of docs/session.md runs', async () => {
  const generated = generatePiSession({ seed: 5, format: 1 });
  const piFile = join(dir, 'pi-session.jsonl');
  await writeFile(piFile, generated.text);
  const result = await importAndContinue(piFile, join(dir, 'session.jsonl'));
  expect(generated.counts.compactions).toBeGreaterThan(0);
  expect(result).toEqual({
    importedEntries: generated.counts.entries,
    // What pi itself builds: the latest compaction's summary, the kept messages, the rest.
    contextMessages: piContext(generated.text).length,
    // The branch starts before every compaction: the first user message and the new one.
    branchMessages: 2,
    sessionName: 'imported from pi',
    roots: 1,
    // pi's header, the imported entries, the session name and the new message.
    exportedLines: 1 + generated.counts.entries + 1 + 1,
  });
});

const recorded = recordedFixtures();
it.skipIf(!recorded.available)(`the example on the recorded pi-before-compaction.jsonl${recorded.available ? '' : ` (skipped: ${recorded.reason})`}`, async () => {
  const result = await importAndContinue(fixturePath('pi-before-compaction.jsonl'), join(dir, 'session.jsonl'));
  expect(result).toEqual({
    importedEntries: 1002,
    // pi's 446 messages and two error results for calls the session leaves unanswered.
    contextMessages: 448,
    branchMessages: 2,
    sessionName: 'imported from pi',
    roots: 1,
    exportedLines: 1 + 1002 + 1 + 1,
  });
});

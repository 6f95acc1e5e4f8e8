import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixturePath } from '@tiller/testing/doubles';
import { expect, it } from 'vitest';
import { importAndContinue } from '../examples/import-pi-session.js';

it('the pi import example of docs/session.md runs', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'tiller-example-'));
  try {
    const result = await importAndContinue(fixturePath('pi-before-compaction.jsonl'), join(dir, 'session.jsonl'));
    expect(result).toEqual({
      importedEntries: 1002,
      contextMessages: 446,
      // The branch starts before both compactions: the first user message and the new one.
      branchMessages: 2,
      sessionName: 'imported from pi',
      roots: 1,
      // pi's header, the imported entries, the session name and the new message.
      exportedLines: 1 + 1002 + 1 + 1,
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

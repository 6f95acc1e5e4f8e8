import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scriptedModel } from '@tiller/testing';
import { afterEach, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, fileJournal, parseJournal } from '../../src/index.js';
import { readFile } from 'node:fs/promises';
import { fileSession, sessionProblems, type FileSession } from './fault-helpers.js';
import { mountSmallDisk, type SmallDisk } from '../../../../test-support/small-disk.js';

// The journal on a disk of its own that fills up for real (a 64 KiB tmpfs, ENOSPC) while the
// session stays on a disk with room: the journal fails first, and the space comes back while the
// turn still runs. Needs mount (root); skips saying why where it is refused.

let file: FileSession | undefined;
let disk: SmallDisk | undefined;
afterEach(async () => {
  await file?.dispose();
  await disk?.unmount();
  file = disk = undefined;
});

it('a journal line cut short by a full disk: the line written once there is room again starts a line of its own, so the journal still replays', async (ctx) => {
  const mounted = await mountSmallDisk(64);
  if ('refused' in mounted) return ctx.skip(mounted.refused);
  disk = mounted;
  file = await fileSession();
  const filler = join(disk.dir, 'filler');
  const journalPath = join(disk.dir, 'chat.journal.jsonl');
  // A real tool whose download takes the journal's disk: its result's journal line finds no room.
  const download = defineTool({
    name: 'download',
    description: 'Downloads a file.',
    input: z.object({}),
    execute: () => {
      try {
        writeFileSync(filler, Buffer.alloc(64 * 1024));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      }
      return 'd'.repeat(20_000);
    },
  });
  const agent = createAgent({
    model: scriptedModel([{ toolCalls: [{ id: 'c1', name: 'download', args: {} }] }, { text: 'the next turn' }]),
    tools: [download],
    session: file.session,
    journal: fileJournal(journalPath),
  });
  // The space comes back (the download is removed) before the abort that failure becomes is journaled.
  agent.subscribe((event) => {
    if (event.type === 'shell.error' && event.where === 'running tools') rmSync(filler, { force: true });
  });
  const outcome = await agent.prompt('download it');
  // Before: `the shell failed while running tools: ENOSPC: no space left on device, write`, and the
  // abort's line was written onto the cut-short one: both read as one torn line, so the journal
  // lacked the abort and replayed to another snapshot than the agent's.
  expect(outcome).toMatchObject({
    status: 'aborted',
    reason: `the shell failed while running tools: ${journalPath}: cannot append the journal's tool.finished line: ENOSPC: no space left on device, write`,
  });
  expect(await sessionProblems(agent, { file, unansweredPrompts: 0 })).toEqual([]);
  expect(await agent.prompt('and now?')).toMatchObject({ status: 'completed' });
  expect(await sessionProblems(agent, { file })).toEqual([]);
  const { torn } = parseJournal(await readFile(journalPath, 'utf8'), journalPath);
  expect(torn).toEqual([{ line: expect.any(Number), text: expect.stringMatching(/^\{"type":"tool\.finished"/) }]);
  await agent.close();
});

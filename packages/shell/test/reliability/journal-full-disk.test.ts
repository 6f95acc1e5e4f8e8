import { rmSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { scriptedModel } from '@tiller/testing';
import { afterEach, expect, it, type TestContext } from 'vitest';
import { z } from 'zod';
import { AgentBrokenError, createAgent, defineTool, fileJournal, JournalWriteError, parseJournal, resumeAgent } from '../../src/index.js';
import { readFile } from 'node:fs/promises';
import { fileSession, sessionProblems, type FileSession } from './fault-helpers.js';
import { descriptorsOn } from '../../../../test-support/open-descriptors.js';
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

/** A fresh 64 KiB tmpfs (kept in `disk`, for afterEach) and the journal's path on it, or the test skipped saying why mounting was refused. */
async function journalOnSmallDisk(ctx: TestContext): Promise<{ mounted: SmallDisk; journalPath: string }> {
  const mounted = await mountSmallDisk(64);
  if ('refused' in mounted) return ctx.skip(mounted.refused);
  disk = mounted;
  return { mounted, journalPath: join(mounted.dir, 'chat.journal.jsonl') };
}

it('a journal line cut short by a full disk: the line written once there is room again starts a line of its own, so the journal still replays', async (ctx) => {
  const { journalPath, mounted } = await journalOnSmallDisk(ctx);
  file = await fileSession();
  const filler = join(mounted.dir, 'filler');
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

it('a journal whose cut-short last line cannot be ended while the disk is full: each failed append leaves no file open, and once there is room the line goes on a line of its own', async (ctx) => {
  const { journalPath, mounted } = await journalOnSmallDisk(ctx);
  // A line cut short where the disk ran out: one whole page of it, with no line break.
  const start = '{"type":"tool.finished","batchId":"';
  const fragment = start + 'b'.repeat(4096 - start.length);
  await writeFile(journalPath, fragment);
  await mounted.fill();
  const journal = fileJournal(journalPath);
  const line = { type: 'tool.started', batchId: 'b1', toolCallId: 'c1', at: '2026-01-01T00:00:00.000Z' } as const;
  for (let i = 0; i < 3; i++) {
    await expect(journal.append(line)).rejects.toMatchObject({ name: 'JournalWriteError', message: `${journalPath}: cannot append the journal's tool.started line: ENOSPC: no space left on device, write` });
    // Before: the file opened to end the cut-short line stayed open, one more at every try.
    expect(descriptorsOn(journalPath)).toBe(0);
  }
  await mounted.free();
  await journal.append(line);
  await journal.close();
  expect(descriptorsOn(journalPath)).toBe(0);
  expect(await readFile(journalPath, 'utf8')).toBe(`${fragment}\n${JSON.stringify(line)}\n`);
});

it('a turn resumed while the journal\'s disk is still full stops before it calls the model; once there is room it carries on with one call', async (ctx) => {
  const { journalPath, mounted } = await journalOnSmallDisk(ctx);
  file = await fileSession();
  // Room for the turn's first lines, not for the model's long reply: its line is cut short where the disk ends.
  await mounted.fill(8);
  const first = createAgent({ model: scriptedModel([{ text: 'r'.repeat(20_000) }]), session: file.session, journal: fileJournal(journalPath) });
  const failed = await first.prompt('write a lot').catch((error: unknown) => error);
  expect(AgentBrokenError.isInstance(failed) && JournalWriteError.isInstance(failed.cause)).toBe(true);
  await first.close();

  // Run again with the disk still full: the model must not be asked for a reply that cannot be kept.
  const again = scriptedModel([{ text: 'short' }]);
  const resumed = await resumeAgent({ model: again, session: file.session, journal: fileJournal(journalPath) });
  const stopped = await resumed.idle().catch((error: unknown) => error);
  await resumed.close();
  expect(AgentBrokenError.isInstance(stopped)).toBe(true);
  expect((stopped as AgentBrokenError).cause).toMatchObject({ name: 'JournalWriteError', message: `${journalPath}: cannot open the journal to append to it: ENOSPC: no space left on device, write` });
  // Before: 1: the model was called, then the line of its reply found no room, at every try.
  expect(again.requests).toHaveLength(0);

  await mounted.free();
  const roomy = scriptedModel([{ text: 'short' }]);
  const last = await resumeAgent({ model: roomy, session: file.session, journal: fileJournal(journalPath) });
  expect(await last.idle()).toMatchObject({ status: 'completed' });
  expect(roomy.requests).toHaveLength(1);
  expect(await sessionProblems(last, { file })).toEqual([]);
  await last.close();
});

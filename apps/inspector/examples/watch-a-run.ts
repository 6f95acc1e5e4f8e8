/**
 * A host app that lets its user watch a turn: the inspector follows the run's journal while the
 * agent writes it, then a self-contained HTML copy is written to share.
 *
 *   pnpm exec tsx --conditions=@tiller/source apps/inspector/examples/watch-a-run.ts [--keep]
 *
 * With --keep the page stays served until Ctrl-C; open the URL it prints.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createSessionLog, JsonlStore } from '@tiller/session';
import { createAgent, defineTool, fileJournal, journalPathFor } from '@tiller/shell';
import { scriptedModel } from '@tiller/testing';
import { z } from 'zod';
import { serveInspector, writeInspectorHtml } from '../src/index.js';

export async function watchARun(options: { dir: string; log?: (line: string) => void; keep?: boolean }) {
  const log = options.log ?? console.log;
  const sessionFile = join(options.dir, 'chat.jsonl');
  const journalFile = journalPathFor(sessionFile);

  // Served before the journal exists: the page waits for it, then follows every line.
  const inspector = await serveInspector({ file: journalFile, follow: true });
  log(`watch the turn at ${inspector.url}`);

  const clock = defineTool({
    name: 'clock',
    description: 'Says what time it is.',
    input: z.object({}),
    execute: () => new Date().toISOString(),
  });
  const session = createSessionLog(await JsonlStore.open(sessionFile));
  const agent = createAgent({
    model: scriptedModel([{ toolCalls: [{ name: 'clock' }], delayMs: 300 }, { text: 'It is now, give or take.', delayMs: 300 }], {
      id: 'scripted/clock',
      contextWindow: 8_000,
    }),
    tools: [clock],
    session,
    journal: fileJournal(journalFile),
  });
  const outcome = await agent.prompt('What time is it?');
  await agent.close();
  await session.close();

  const html = await writeInspectorHtml(sessionFile, join(options.dir, 'chat.html'));
  log(`a copy to share, which opens from file://: ${html}`);
  if (!options.keep) await inspector.close();
  return { outcome, inspector, html };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await watchARun({ dir: await mkdtemp(join(tmpdir(), 'tiller-watch-')), keep: process.argv.includes('--keep') });
}

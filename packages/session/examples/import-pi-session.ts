// Import a pi session into a Tiller session file, then continue it on a new branch.
import { readFile } from 'node:fs/promises';
import { createSessionLog, exportPiSession, importPiSession, JsonlStore } from '@tiller/session';

export async function importAndContinue(piSessionPath: string, tillerSessionPath: string) {
  // 1. Read pi's JSONL (formats 1 to 3). pi's ids are kept; format 1 gets ids from line numbers.
  const pi = importPiSession(await readFile(piSessionPath, 'utf8'), { source: piSessionPath });

  // 2. Write the entries to a new Tiller session file (created with its header on first open).
  const store = await JsonlStore.open(tillerSessionPath, { fsync: 'batch', create: true });
  const log = createSessionLog(store);
  await log.append(pi.entries);
  await log.setSessionName('imported from pi');

  // 3. What the model would see now: the latest compaction's summary, the kept messages, the rest.
  const context = log.context();

  // 4. Go back to the first user message and try something else; the old branch stays in the file.
  const firstUser = log.entries().find((e) => e.kind === 'message' && e.message.role === 'user')!;
  log.branch(firstUser.id);
  await log.append([
    {
      id: 'retry-1',
      parentId: firstUser.id,
      at: new Date().toISOString(),
      kind: 'message',
      message: { role: 'user', content: 'Start over, and keep it short this time.' },
    },
  ]);
  const branchContext = log.context();
  await log.close();

  // 5. Reopen (read-only: no lock) and hand the whole tree back to pi.
  const reader = createSessionLog(await JsonlStore.open(tillerSessionPath, { readOnly: true }));
  const piText = exportPiSession(reader.entries(), { header: pi.header });

  return {
    importedEntries: pi.entries.length,
    contextMessages: context.length,
    branchMessages: branchContext.length,
    sessionName: reader.sessionName,
    roots: reader.roots().length,
    exportedLines: piText.trim().split('\n').length,
  };
}

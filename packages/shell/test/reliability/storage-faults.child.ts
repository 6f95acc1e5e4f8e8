/**
 * An agent whose files stop growing: run by storage-faults.test.ts as `node --import tsx
 * storage-faults.child.ts <session> <journal> <scenario>` under a file size limit (`ulimit -f`,
 * SIGXFSZ ignored), so a write past the limit fails with EFBIG in this process, which must live on.
 * The session file exists already (the test writes it). `tools`: ten tool rounds; `compaction`:
 * the same, with a compactor whose summaries are large. Prints one JSON line per thing the test
 * checks: `{shellError}`, `{during, rejected}` (the last event before) or `{outcome}`, `{closed}`, and `{unhandled}` for a
 * rejection nobody handled.
 */
import { createSessionLog, JsonlStore } from '@tiller/session';
import { createAgent, fileJournal } from '../../src/index.js';
import { failingRunModel, fillTool, type StorageScenario, summarizingCompactor } from './storage-faults.world.js';

const [sessionFile, journalFile, scenario] = process.argv.slice(2) as [string, string, StorageScenario];
const say = (line: unknown) => process.stdout.write(`${JSON.stringify(line)}\n`);
process.on('unhandledRejection', (error) => say({ unhandled: String(error) }));

const session = createSessionLog(await JsonlStore.open(sessionFile));
const agent = createAgent({
  model: failingRunModel(scenario),
  tools: [fillTool(scenario)],
  session,
  journal: fileJournal(journalFile),
  ...(scenario === 'compaction' ? { compactor: summarizingCompactor(8_000) } : {}),
  limits: { maxIterations: 20 },
});
let lastEvent = '';
agent.subscribe((event) => {
  if (event.type !== 'shell.error') lastEvent = event.type;
  if (event.type === 'shell.error') say({ shellError: event.message });
  if (event.type === 'compaction.finished' && event.meta.compacted) say({ compacted: true });
});
try {
  say({ outcome: await agent.prompt('read every page') });
} catch (error) {
  const e = error as Error;
  const cause = e.cause as (Error & { code?: string }) | undefined;
  say({ during: lastEvent, rejected: { name: e.name, code: (e as { code?: string }).code, message: e.message, cause: cause && { name: cause.name, code: cause.code } } });
}
await agent.close();
await session.close();
say({ closed: true });

// Run by write-faults.test.ts (bundled, as plain `node`) under a file size limit: appends to an
// existing session a batch that crosses the limit, then one small entry that fits, and closes.
// Prints one JSON line per step, so the test reads what the store said.
import { JsonlStore } from '../../src/jsonl/jsonl-store.js';

const [file] = process.argv.slice(2) as [string];
const at = '2026-01-01T00:00:00.000Z';
const entry = (id: string, parentId: string, chars: number) => ({ kind: 'message' as const, id, parentId, at, message: { role: 'user' as const, content: id.repeat(chars) } });
const say = (line: unknown) => process.stdout.write(`${JSON.stringify(line)}\n`);
process.on('unhandledRejection', (error) => say({ step: 'unhandled', message: String(error) }));

const store = await JsonlStore.open(file);
const leaf = store.entries.at(-1)!.id;
try {
  // A and B fit whole under the limit, C does not.
  await store.append([entry('A', leaf, 1500), entry('B', 'A', 1500), entry('C', 'B', 3000)]);
  say({ step: 'batch', ok: true });
} catch (error) {
  const e = error as Error & { code?: string; entryId?: string };
  say({ step: 'batch', ok: false, name: e.name, code: e.code, entryId: e.entryId, message: e.message, cause: (e.cause as { code?: string } | undefined)?.code });
}
try {
  await store.append([entry('D', leaf, 200)]);
  say({ step: 'small', ok: true });
} catch (error) {
  say({ step: 'small', ok: false, message: (error as Error).message });
}
await store.close();
say({ step: 'closed' });

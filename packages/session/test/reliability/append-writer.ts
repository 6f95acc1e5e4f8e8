// Run as a child process by crash.test.ts (bundled, as plain `node`: this process is the writer
// the test kills). Opens the session, continues from its leaf, and appends batches forever with
// fsync 'always'; after each append resolves it prints `ack <id> <id> ...` on stdout.
// The store alone: the fewer modules it loads, the sooner each of the many writers starts.
import { JsonlStore } from '../../src/jsonl/jsonl-store.js';

const [file, round, seedText] = process.argv.slice(2) as [string, string, string];
let seed = Number(seedText) >>> 0;
const random = () => {
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

const store = await JsonlStore.open(file, { fsync: 'always', create: true });
let leafId = store.entries.at(-1)?.id ?? null;
process.stdout.write('opened\n');
for (let i = 0; ; ) {
  const size = 1 + Math.floor(random() * 3);
  const batch = [];
  let parentId = leafId;
  for (let k = 0; k < size; k++, i++) {
    const id = `r${round}-${i}`;
    // Mostly short lines; now and then one longer than the 512 KiB Node writes in one piece.
    const length = random() < 0.03 ? 600_000 : Math.floor(random() * 8_000);
    batch.push({ id, parentId, at: '2026-01-01T00:00:00.000Z', kind: 'message' as const, message: { role: 'user' as const, content: 'x'.repeat(length) } });
    parentId = id;
  }
  await store.append(batch);
  leafId = parentId;
  process.stdout.write(`ack ${batch.map((e) => e.id).join(' ')}\n`);
}

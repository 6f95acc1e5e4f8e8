// Run as a child process by crash.test.ts: appends entries forever, printing each id once its
// append resolved, until the test kills it.
import { JsonlStore } from '../src/index.js';
import { userEntry } from './entries.js';

const [file, fsync] = process.argv.slice(2) as [string, 'always' | 'batch' | 'never'];
const store = await JsonlStore.open(file, { fsync, create: true });
let parent: string | null = null;
for (let i = 0; ; i++) {
  const id = `c${i}`;
  // Long lines make it likely the kill lands in the middle of one.
  await store.append([userEntry(id, parent, 'x'.repeat(20_000))]);
  parent = id;
  process.stdout.write(`${id}\n`);
}

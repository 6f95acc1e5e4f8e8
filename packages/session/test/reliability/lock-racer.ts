// Run as a child process by lock-race.test.ts (bundled, as plain `node`). Each `go <round> <file> <atMs>` line on stdin: wait
// until `atMs`, open the session file for writing, answer `held <round>` or `locked <round>`;
// `release <round>` closes what it holds and answers `released <round>`.
import { createInterface } from 'node:readline';
import { JsonlStore, SessionError } from '../../src/index.js';

let held: JsonlStore | undefined;
const answer = (line: string) => process.stdout.write(`${line}\n`);

for await (const line of createInterface({ input: process.stdin })) {
  const [command, round, file, at] = line.split(' ');
  if (command === 'go') {
    // Spin to the agreed moment: the racers then hit the stale lock within microseconds of each other.
    while (Date.now() < Number(at));
    try {
      held = await JsonlStore.open(file!);
      answer(`held ${round}`);
    } catch (error) {
      answer(SessionError.isInstance(error) && error.code === 'locked' ? `locked ${round}` : `failed ${round} ${String(error)}`);
    }
  } else if (command === 'release') {
    await held?.close();
    held = undefined;
    answer(`released ${round}`);
  }
}

/**
 * An agent a test kills: run by crash-agent.test.ts as `node --import tsx crash-agent-child.ts
 * <dir> <mode> <seed>`, so the process that holds the session, the journal and the tools is the
 * one that gets the SIGKILL. The session is a JSONL file with its journal beside it.
 *
 * `tools`: one model message asks for four calls (two that write, one idempotent lookup, one that
 * is quick); each tool waits a seeded time and records its runs in `runs.log` (a line before and
 * after its effect), then the model's next call never answers. `approval`: the one call asks the
 * host first, and the child only reports that it waits.
 * The child prints `started <id>` / `finished <id>` / `asked <id>` as the shell reports them.
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createSessionLog, JsonlStore } from '@tiller/session';
import { scriptedModel, seededRandom } from '@tiller/testing';
import { createAgent, fileJournal, journalPathFor } from '../../src/index.js';
import { crashTools, CRASH_CALLS } from './crash-agent-tools.js';

const [dir, mode, seedText] = process.argv.slice(2) as [string, 'tools' | 'approval', string];
const random = seededRandom(Number(seedText));
const sessionFile = join(dir, 'chat.jsonl');
const session = createSessionLog(await JsonlStore.open(sessionFile, { create: true }));
const journal = fileJournal(journalPathFor(sessionFile));
const runs = join(dir, 'runs.log');
// Each call takes its own seeded time, so the kill finds the batch in a different state each round.
const durations = new Map<string, number>(CRASH_CALLS.map((call) => [call.id, random.int(0, 60)]));

const agent = createAgent({
  model: scriptedModel([{ toolCalls: mode === 'tools' ? [...CRASH_CALLS] : [CRASH_CALLS[0]!] }, { text: 'never sent', delayMs: Infinity }]),
  tools: crashTools((line) => appendFileSync(runs, `${line}\n`), async (id) => void (await sleep(durations.get(id) ?? 0))),
  ...(mode === 'approval' ? { policy: () => ({ decision: 'ask' as const }) } : {}),
  session,
  journal,
});
agent.subscribe((event) => {
  if (event.type === 'tool.started') process.stdout.write(`started ${event.toolCallId}\n`);
  if (event.type === 'tool.finished') process.stdout.write(`finished ${event.toolCallId}\n`);
  if (event.type === 'approval.requested') process.stdout.write(`asked ${event.calls.map((c) => c.id).join(' ')}\n`);
});
void agent.prompt('Write both files, look the word up, and say hi.');

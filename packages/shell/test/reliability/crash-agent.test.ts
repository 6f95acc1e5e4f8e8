import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { Message } from '@tiller/core';
import { createSessionLog, JsonlStore } from '@tiller/session';
import { scriptedModel, seededRandom, unansweredCalls } from '@tiller/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { type AgentEvent, fileJournal, journalPathFor, parseJournal, replayJournal, resumeAgent, type ToolPolicy } from '../../src/index.js';
import { CRASH_CALLS, crashTools, IDEMPOTENT } from './crash-agent-tools.js';

const SEED = 0xc1a5;
const ROUNDS = 6;
const here = dirname(fileURLToPath(import.meta.url));
const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

/** Starts the agent in a child process, waits for `trigger` on its output, then `delayMs`, and kills it with SIGKILL. */
async function killAgent(mode: 'tools' | 'approval', seed: number, trigger: string, delayMs: number): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'tiller-crash-agent-'));
  dirs.push(dir);
  const child = spawn(process.execPath, ['--import', 'tsx', join(here, 'crash-agent-child.ts'), dir, mode, String(seed)], {
    cwd: join(here, '..', '..'),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve, reject) => {
    child.on('exit', (_code, signal) => (signal === 'SIGKILL' ? resolve() : reject(new Error(`the agent ended by itself: ${stderr}`))));
  });
  let armed = false;
  createInterface({ input: child.stdout }).on('line', (line) => {
    if (armed || !line.startsWith(trigger)) return;
    armed = true;
    setTimeout(() => child.kill('SIGKILL'), delayMs);
  });
  await exited;
  return dir;
}

/** How often each call began its side effect, from the tools' own record. */
async function beginsByCall(dir: string): Promise<Map<string, number>> {
  const text = await readFile(join(dir, 'runs.log'), 'utf8').catch(() => '');
  const counts = new Map<string, number>();
  for (const line of text.split('\n')) if (line.endsWith(' begin')) counts.set(line.split(' ')[0]!, (counts.get(line.split(' ')[0]!) ?? 0) + 1);
  return counts;
}

/** Opens what the crash left in a fresh process (this one) and resumes the turn with the same tools. */
async function resume(dir: string, policy?: ToolPolicy) {
  const sessionFile = join(dir, 'chat.jsonl');
  const journalFile = journalPathFor(sessionFile);
  const crashed = parseJournal(await readFile(journalFile, 'utf8'), journalFile);
  const session = createSessionLog(await JsonlStore.open(sessionFile));
  const journal = fileJournal(journalFile);
  const model = scriptedModel([{ text: 'All done.' }]);
  const events: AgentEvent[] = [];
  const tools = crashTools((line) => appendFileSync(join(dir, 'runs.log'), `${line}\n`), async () => {});
  const agent = await resumeAgent({ model, tools, session, journal, ...(policy ? { policy } : {}), listener: (e) => events.push(e) });
  return { agent, model, events, crashed, session, journal, sessionFile };
}

/** Every call answered once, right after its message, and no result without its call. */
const expectValidTranscript = (messages: readonly Message[]) => expect(unansweredCalls(messages)).toEqual([]);

describe('an agent killed with SIGKILL', () => {
  const random = seededRandom(SEED);
  const moments = Array.from({ length: ROUNDS }, (_, round) => ({ round, seed: SEED + round, delayMs: random.int(0, 90) }));

  it.each(moments)('mid-tool (round $round, $delayMs ms after the first tool started): the resumed turn completes and never re-runs finished work', async ({ seed, delayMs }) => {
    const dir = await killAgent('tools', seed, 'started ', delayMs);
    const before = await beginsByCall(dir);
    const { agent, model, events, crashed, session, journal, sessionFile } = await resume(dir);
    const finished = new Set(crashed.lines.flatMap((l) => (l.type === 'tool.finished' ? [l.toolCallId] : [])));
    const started = new Set(crashed.lines.flatMap((l) => (l.type === 'tool.started' ? [l.toolCallId] : [])));

    expect(await agent.idle()).toMatchObject({ status: 'completed' });
    expect(model.requests).toHaveLength(1);
    const after = await beginsByCall(dir);
    const path = session.path().flatMap((e) => (e.kind === 'message' ? [e.message] : []));
    const result = (id: string) => path.find((m): m is Extract<Message, { role: 'toolResult' }> => m.role === 'toolResult' && m.toolCallId === id);
    for (const { id, name } of CRASH_CALLS) {
      const runs = after.get(id) ?? 0;
      const rerun = runs - (before.get(id) ?? 0);
      if (finished.has(id)) expect(rerun, `${id} finished before the crash`).toBe(0);
      else if (started.has(id) && !IDEMPOTENT.has(name)) {
        expect(rerun, `${id} was interrupted`).toBe(0);
        expect(result(id)).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/was interrupted/) }] });
      } else expect(rerun, `${id} had not finished`).toBe(1);
      // A tool that is not idempotent begins at most once over both processes.
      if (!IDEMPOTENT.has(name)) expect(runs, `${id} runs`).toBeLessThanOrEqual(1);
      expect(result(id), `${id} has a result`).toBeDefined();
    }
    const interrupted = events.filter((e) => e.type === 'tool.interrupted').map((e) => (e as { toolCallId: string }).toolCallId);
    expect(interrupted.sort()).toEqual([...started].filter((id) => !finished.has(id)).sort());
    // What the model was sent, and what the session holds, are valid transcripts; the journal replays.
    expectValidTranscript(model.requests[0]!.messages);
    expectValidTranscript(path);
    expect(path.at(-1)).toMatchObject({ role: 'assistant', content: [{ text: 'All done.' }] });
    await agent.close();
    await session.store.close?.();
    await JsonlStore.open(sessionFile, { readOnly: true, strict: true });
    expect(replayJournal(await journal.read(), { session }).divergence).toBeNull();
  });

  it.each(moments.slice(0, 2))('while it waits for an approval (round $round): the approval waits again, and the tool runs once', async ({ seed, delayMs }) => {
    const dir = await killAgent('approval', seed, 'asked ', delayMs / 3);
    const { agent, session } = await resume(dir, () => ({ decision: 'ask' }));
    expect(agent.pendingApprovals().map((c) => c.id)).toEqual(['write-a']);
    expect(await beginsByCall(dir)).toEqual(new Map());
    agent.approve({ toolCallId: 'write-a', decision: 'allow' });
    expect(await agent.idle()).toMatchObject({ status: 'completed' });
    expect(await beginsByCall(dir)).toEqual(new Map([['write-a', 1]]));
    expectValidTranscript(session.path().flatMap((e) => (e.kind === 'message' ? [e.message] : [])));
    await agent.close();
    await session.store.close?.();
  });
}, 120_000);

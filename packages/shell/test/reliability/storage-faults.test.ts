import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSessionLog, JsonlStore } from '@tiller/session';
import { afterEach, describe, expect, it } from 'vitest';
import { type AgentEvent, fileJournal, resumeAgent } from '../../src/index.js';
import { runTsxChild } from './child-process.js';
import { sessionProblems } from './fault-helpers.js';
import { answeringModel, fillTool, type StorageScenario, summarizingCompactor, writeHistory } from './storage-faults.world.js';

// The agent's files stop growing mid-turn for real: the agent runs in a child process whose file
// size limit (`ulimit -f`) its session or its journal reaches, so the write fails with EFBIG. The
// child must live on, its prompt reject with a typed error naming the file, and its close resolve;
// then, with room again, resumeAgent in this process carries the turn on. Every size is fixed, so
// each limit stops the same write every time. Rows in docs/reliability.md ("Storage faults").

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

interface Case {
  scenario: StorageScenario;
  /** Which file the limit stops first. */
  fails: 'session' | 'journal';
  limitKib: number;
  /** Old exchanges in the session file before the run (12,000 characters each): a session far larger than its journal. */
  history?: number;
}

interface ChildLine {
  shellError?: string;
  compacted?: boolean;
  during?: string;
  rejected?: { name: string; code?: string; message: string; cause?: { name: string; code?: string } };
  outcome?: unknown;
  closed?: boolean;
  unhandled?: string;
}

/** Runs the agent under the limit; resolves with the session and journal files and what the child said. */
async function runOutOfRoom({ scenario, limitKib, history = 0 }: Case) {
  const dir = await mkdtemp(join(tmpdir(), 'tiller-storage-faults-'));
  dirs.push(dir);
  const sessionFile = join(dir, 'chat.jsonl');
  const journalFile = join(dir, 'chat.journal.jsonl');
  await writeHistory(sessionFile, history, 12_000);
  const run = await runTsxChild('storage-faults.child.ts', [sessionFile, journalFile, scenario], [], { fileSizeKib: limitKib });
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  const lines = run.stdout.trim().split('\n').map((line) => JSON.parse(line) as ChildLine);
  return { sessionFile, journalFile, lines };
}

/** With room again: resumes the turn over the files, and checks the session and the journal agree. */
async function resumeAfter(sessionFile: string, journalFile: string, scenario: StorageScenario) {
  const session = createSessionLog(await JsonlStore.open(sessionFile));
  const events: AgentEvent[] = [];
  const agent = await resumeAgent({
    model: answeringModel(),
    tools: [fillTool(scenario)],
    session,
    journal: fileJournal(journalFile),
    ...(scenario === 'compaction' ? { compactor: summarizingCompactor(100) } : {}),
    limits: { maxIterations: 20 },
    listener: (event) => events.push(event),
  });
  try {
    expect(await agent.idle()).toMatchObject({ status: 'completed' });
    expect(await agent.prompt('and now?')).toMatchObject({ status: 'completed' });
    const file = { path: sessionFile, session, dispose: async () => undefined };
    expect(await sessionProblems(agent, { file })).toEqual([]);
    return { events, path: session.path() };
  } finally {
    await agent.close();
    await session.close();
  }
}

const warnings = (events: AgentEvent[]) => events.filter((e) => e.type === 'session.warning' || e.type === 'journal.warning').map((e) => ('warning' in e ? `${e.type}: ${e.warning.kind} ${e.warning.file}` : ''));

describe('a file that cannot grow (EFBIG) while the agent writes it', () => {
  const cases: Case[] = [
    { scenario: 'tools', fails: 'journal', limitKib: 16 },
    { scenario: 'tools', fails: 'session', limitKib: 100, history: 8 },
    { scenario: 'compaction', fails: 'journal', limitKib: 100 },
    { scenario: 'compaction', fails: 'session', limitKib: 190, history: 8 },
  ];
  it.each(cases)('$scenario, the $fails first: the prompt rejects naming the file, the child lives on and closes; with room again the turn resumes and completes', async (c) => {
    const { sessionFile, journalFile, lines } = await runOutOfRoom(c);
    const failed = c.fails === 'session' ? sessionFile : journalFile;
    expect(lines.filter((l) => l.unhandled)).toEqual([]);
    const rejected = lines.find((l) => l.rejected)?.rejected;
    // Before: `the agent stopped: EFBIG: file too large, write` for either file.
    expect(rejected).toMatchObject({ name: 'AgentBrokenError', code: 'agent_broken', cause: { code: c.fails === 'session' ? 'write_failed' : 'journal_write_failed' } });
    expect(rejected!.message).toMatch(new RegExp(`^the agent stopped: ${failed}: cannot append .*: EFBIG: file too large, write`));
    expect(lines.at(-1)).toEqual({ closed: true });
    // Closing after the failure let the session's lock go: nothing is left for the next writer to take over.
    expect(existsSync(`${sessionFile}.lock`)).toBe(false);
    if (c.scenario === 'compaction') expect(lines.find((l) => l.rejected)?.during).toBe('compaction.started');

    const { events, path } = await resumeAfter(sessionFile, journalFile, c.scenario);
    // The session was cut back to its last whole entry; a journal line cut short is told as torn.
    expect(warnings(events)).toEqual(c.fails === 'journal' ? [`journal.warning: torn_line ${journalFile}`] : []);
    // A call that ran but whose finish the journal could not keep is not run again (the tool is not idempotent).
    const interrupted = events.filter((e) => e.type === 'tool.interrupted');
    expect(interrupted).toEqual(c.scenario === 'tools' && c.fails === 'journal' ? [expect.objectContaining({ toolName: 'fill', rerun: false })] : []);
    if (c.scenario === 'compaction') expect(path.some((e) => e.kind === 'compaction')).toBe(true);
  });
});

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serializeSnapshot } from '@tiller/core';
import { createSessionLog, JsonlStore, type SessionLog } from '@tiller/session';
import { unansweredCalls } from '@tiller/testing';
import { replayJournal, type Agent } from '../../src/index.js';

/** A session in a JSONL file of its own (its journal beside it), for suites that check what was written. */
export interface FileSession {
  path: string;
  session: SessionLog;
  /** Closes the store and removes the directory. */
  dispose(): Promise<void>;
}

export async function fileSession(): Promise<FileSession> {
  const dir = await mkdtemp(join(tmpdir(), 'tiller-faults-'));
  const path = join(dir, 'session.jsonl');
  const store = await JsonlStore.open(path, { create: true });
  return {
    path,
    session: createSessionLog(store),
    async dispose() {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export interface SessionChecks {
  file?: FileSession | undefined;
  /**
   * How many prompts may be left without an answer: a turn that failed or was aborted before the
   * model said anything keeps its prompt (nothing the user wrote is lost), so the next prompt
   * follows it directly. Default 0.
   */
  unansweredPrompts?: number | undefined;
}

/**
 * What is wrong with an agent's session after a fault (nothing when it is valid): every tool call
 * answered once, no two user messages in a row (but for the prompts of turns that failed), the log
 * holding what the core holds, the journal replaying to the agent's snapshot, and the file (when
 * there is one) reading back to the same context.
 */
export async function sessionProblems(agent: Agent, checks: SessionChecks = {}): Promise<string[]> {
  const { file, unansweredPrompts = 0 } = checks;
  const problems: string[] = [];
  const context = agent.session.context();
  problems.push(...unansweredCalls(context));
  const adjacent: string[] = [];
  for (let i = 1; i < context.length; i++) {
    if (context[i]!.role === 'user' && context[i - 1]!.role === 'user') adjacent.push(`messages ${i - 1} and ${i} of the context are both user messages`);
  }
  if (adjacent.length > unansweredPrompts) problems.push(...adjacent, `(at most ${unansweredPrompts} unanswered prompts expected)`);
  const logged = agent.session.path().map((e) => e.id).join();
  const held = agent.snapshot.context.entries.toArray().map((e) => e.id).join();
  if (logged !== held) problems.push(`the session log holds [${logged}], the core [${held}]`);
  if (!agent.journal) problems.push('the agent keeps no journal to replay: give it one (journal: memoryJournal())');
  else {
    try {
      const replay = replayJournal(await agent.journal.read(), { session: agent.session });
      if (replay.divergence) problems.push(`the journal diverges at input ${replay.divergence.seq} (${replay.divergence.inputType})`);
      else if (serializeSnapshot(replay.snapshot) !== serializeSnapshot(agent.snapshot)) problems.push('the journal replays to another snapshot than the agent holds');
    } catch (error) {
      problems.push(`the journal does not replay: ${(error as Error).message}`);
    }
  }
  if (file) {
    const again = await JsonlStore.open(file.path, { readOnly: true });
    try {
      if (JSON.stringify(createSessionLog(again).context()) !== JSON.stringify(context)) problems.push(`${file.path} reads back to another context`);
    } finally {
      await again.close();
    }
  }
  return problems;
}

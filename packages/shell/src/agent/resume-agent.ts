import { type Effect, type Entry, isBlockingEffect, type ProgressEvent, settleInterruptedCalls, type ToolCallPart, type ToolOutcome } from '@tiller/core';
import type { SessionLog } from '@tiller/session';
import { JournalError } from '../errors/journal-error.js';
import { type JournalHeader, type JournalLine, lastSegment } from '../journal/journal-format.js';
import { tornLineWarning } from '../journal/torn-line-warning.js';
import { replayJournal } from '../journal/replay-journal.js';
import type { Tool } from '../tools/define-tool.js';
import { now } from '../clock.js';
import { refusalOutcome } from '../tools/tool-refusal.js';
import type { AgentEvent, AgentListener } from './agent-event.js';
import { AgentOptionsError } from '../errors/agent-options-error.js';
import { createTurnRuntime } from '../runtime/turn-runtime.js';
import { resolveAgentOptions, type AgentOptions } from './agent-options.js';
import { createAgent, HostAgent, type Agent } from './create-agent.js';
import { createEventHub, listenerFailure } from '../runtime/event-hub.js';
import { withinWriteLimit } from '../runtime/write-limit.js';

/** Same options as `createAgent`; the session and its journal are required: they are what is resumed. */
export type ResumeOptions = AgentOptions &
  Required<Pick<AgentOptions, 'session' | 'journal'>> & {
    /** Subscribed before the turn goes on, so it hears everything the resumed turn does (interrupted calls included). */
    listener?: AgentListener | undefined;
  };

/**
 * Picks a session up after a crash: replays the journal's last segment (no model, no tool) to the
 * exact snapshot the turn had, writes to the log any entries the crash kept from it, and carries
 * on with the effect the turn was waiting on. A tool call that started and never finished is not
 * run again (it gets an "interrupted" error result) unless its tool is `idempotent`; finished
 * calls keep their recorded results; a parked approval keeps waiting for `approve`. A torn journal
 * line (a write a crash or a full disk cut short) is left out and reported to `listener` as a `journal.warning`.
 */
export async function resumeAgent({ listener, ...options }: ResumeOptions): Promise<Agent> {
  if (listener !== undefined && typeof listener !== 'function') throw new AgentOptionsError('resumeAgent: invalid options:\n✖ expected a function (event) => void\n  → at listener');
  const resolved = resolveAgentOptions(options, 'resumeAgent');
  const { session, journal } = resolved;
  if (!session || !journal) throw new AgentOptionsError('resumeAgent: invalid options:\n✖ session and journal are required to resume');
  const lines = await journal.read();
  // A file journal's errors name its file (and line, when one line is wrong); so do the replay's and the torn lines' reports.
  const { path } = journal as { path?: unknown };
  const source = typeof path === 'string' ? path : 'the journal';
  // Told before any agent exists, so through a hub of its own: a listener that fails is handled as an agent's would be.
  const early = createEventHub(listenerFailure);
  if (listener) early.subscribe(listener);
  for (const torn of journal.torn ?? []) early.publish({ type: 'journal.warning', warning: tornLineWarning(source, torn), at: now() });
  const fresh = () => {
    const agent = createAgent(options);
    if (listener) agent.subscribe(listener);
    return agent;
  };
  if (lines.length === 0) return fresh();
  let replay: ReturnType<typeof replayJournal>;
  try {
    replay = replayJournal(lines, { session, segments: 'last' });
  } catch (error) {
    if (!JournalError.isInstance(error)) throw error;
    throw new JournalError(`resumeAgent: ${source}: ${error.message}`, { cause: error });
  }
  if (replay.divergence) {
    const { seq, inputType } = replay.divergence;
    throw new JournalError(`resumeAgent: ${source}: the journal does not replay: input ${seq} (${inputType}) gives other effects than it recorded`);
  }
  const { snapshot } = replay;
  const entries = snapshot.context.entries;
  const lost = entries.slice(replay.header.baseSize).filter((entry) => !session.has(entry.id));
  if (snapshot.context.turn || lost.length > 0) refuseJournalBehind(entries.toArray(), session, replay.header, source);
  if (lost.length > 0) await withinWriteLimit(session.append(lost), resolved.limits.writeTimeoutMs, "the session store's append");
  // No turn was running: nothing to carry on, and a new segment keeps the next resume short.
  if (!snapshot.context.turn) return fresh();

  const segment = lastSegment(lines).lines;
  const lastSeq = segment.reduce((seq, line) => (line.type === 'input' ? line.seq : seq), -1);
  const runtime = createTurnRuntime({
    options: resolved,
    session,
    journal: { store: journal, start: { kind: 'continue', header: replay.header, nextSeq: lastSeq + 1 } },
    snapshot,
    entryPoint: 'resumeAgent',
  });
  if (listener) runtime.subscribe(listener);
  const agent = new HostAgent(session, journal, runtime);

  const turn = snapshot.context.turn;
  const blocking = replay.effects.filter(isBlockingEffect).at(-1);
  if (turn?.pending && blocking && blocking.id === turn.pending.id) {
    // Nobody holds this promise (the host waits with idle()); a failure reaches idle() through the waiters.
    runtime.startTurn(turn.turnId).catch(() => undefined);
    const settled = blocking.type === 'run_tools' ? settledCalls(blocking.id, blocking.calls, segment, resolved.tools, runtime.publish) : undefined;
    if (blocking.type === 'request_approval') {
      // Whoever heard the request before the crash is gone: this run's host hears it again, once
      // it holds the agent (a listener that approves calls agent.approve, a subscriber comes right
      // after resumeAgent returns); a parked batch waits, so nothing is delayed by it.
      const retold = approvalRequestOf(replay.effects);
      const parkedAt = parkedAtOf(segment);
      setImmediate(() => runtime.perform(blocking, { retold, parkedAt }));
    } else runtime.perform(blocking, { settled });
  }
  return agent;
}

/**
 * The session must not be ahead of the journal: nothing may have been appended since the segment
 * started that the journal's turn did not write (a journal that lost its tail, a restored backup
 * would resume the turn from a point the session has moved past). A host's `branch` before the
 * turn is no such thing: it appends nothing, and a reopened log's leaf, its last line, may stand
 * on the branch the turn left. A segment that did not record the log's size falls back to the
 * leaf: it must be the last entry the journal's turn wrote that the session has.
 */
function refuseJournalBehind(entries: readonly Entry[], session: SessionLog, header: JournalHeader, source: string): void {
  let expected = header.baseLeafId;
  for (const entry of entries) if (session.has(entry.id)) expected = entry.id;
  const ahead = header.sessionSize === undefined ? session.leafId !== expected : appendedElsewhere(entries.slice(header.baseSize), session, header.sessionSize);
  if (!ahead) return;
  throw new JournalError(
    `resumeAgent: ${source}: the journal is behind its session: the journal ends at entry ${expected ?? '(none)'} but the session's leaf is ${session.leafId ?? '(none)'} (a journal that lost its tail, or a restored backup); resume from the session alone with createAgent`,
  );
}

/** Whether the log holds an entry past its first `since` that is not one of the segment's own. */
function appendedElsewhere(own: readonly Entry[], session: SessionLog, since: number): boolean {
  const ids = new Set(own.map((entry) => entry.id));
  const all = session.entries();
  for (let i = since; i < all.length; i++) if (!ids.has(all[i]!.id)) return true;
  return false;
}

/** When the turn last parked a batch for approval: the time of the segment's last `approval.needed` input. */
function parkedAtOf(lines: readonly JournalLine[]): string | undefined {
  let at: string | undefined;
  for (const line of lines) if (line.type === 'input' && line.input.type === 'approval.needed') at = line.input.at;
  return at;
}

/** The approval request the turn told last, as the core emitted it. */
function approvalRequestOf(effects: readonly Effect[]): ProgressEvent | undefined {
  for (let i = effects.length - 1; i >= 0; i--) {
    const effect = effects[i]!;
    if (effect.type === 'emit' && effect.event.type === 'approval.requested') return effect.event;
  }
  return undefined;
}

/** What the journal knows of a batch's calls, settled by the one rule every resuming engine applies. */
function settledCalls(
  batchId: string,
  calls: readonly ToolCallPart[],
  lines: readonly JournalLine[],
  tools: readonly Tool[],
  publish: (event: AgentEvent) => void,
): Map<string, ToolOutcome> {
  const started = new Set<string>();
  const finished = new Map<string, ToolOutcome>();
  for (const line of lines) {
    if (line.type === 'tool.started' && line.batchId === batchId) started.add(line.toolCallId);
    if (line.type === 'tool.finished' && line.batchId === batchId) finished.set(line.toolCallId, line.outcome);
    // Its refusal was told before the crash: it keeps the result the model would have read, and is not told again.
    if (line.type === 'tool.refused' && line.batchId === batchId) finished.set(line.toolCallId, refusalOutcome(line.toolCallId, line));
  }
  const idempotent = new Set(tools.filter((t) => t.idempotent).map((t) => t.name));
  const { settled, interrupted } = settleInterruptedCalls({ calls, started, finished, isIdempotent: (name) => idempotent.has(name) });
  for (const { call, rerun } of interrupted) {
    publish({ type: 'tool.interrupted', batchId, toolCallId: call.id, toolName: call.name, rerun, at: now() });
  }
  return settled;
}

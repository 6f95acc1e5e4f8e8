import { type BlockingEffect, isBlockingEffect, type ToolCallPart, type ToolOutcome } from '@tiller/core';
import { JournalError } from '../errors/journal-error.js';
import { type JournalLine, lastSegment } from '../journal/journal-format.js';
import { replayJournal } from '../journal/replay-journal.js';
import type { Tool } from '../tools/define-tool.js';
import { errorOutcome } from '../tools/tool-output.js';
import { now } from '../clock.js';
import type { AgentEvent, AgentListener } from './agent-event.js';
import { AgentOptionsError } from '../errors/agent-options-error.js';
import { createTurnRuntime } from '../runtime/turn-runtime.js';
import { resolveAgentOptions, type AgentOptions } from './agent-options.js';
import { createAgent, hostApi, type Agent } from './create-agent.js';

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
 * calls keep their recorded results; a parked approval keeps waiting for `approve`.
 */
export async function resumeAgent({ listener, ...options }: ResumeOptions): Promise<Agent> {
  const resolved = resolveAgentOptions(options, 'resumeAgent');
  const { session, journal } = resolved;
  if (!session || !journal) throw new AgentOptionsError('resumeAgent: invalid options:\n✖ session and journal are required to resume');
  const lines = await journal.read();
  const fresh = () => {
    const agent = createAgent(options);
    if (listener) agent.subscribe(listener);
    return agent;
  };
  if (lines.length === 0) return fresh();
  const replay = replayJournal(lines, { session });
  if (replay.divergence) {
    const { seq, inputType } = replay.divergence;
    throw new JournalError(`resumeAgent: the journal does not replay: input ${seq} (${inputType}) gives other effects than it recorded`);
  }
  const { snapshot } = replay;
  const entries = snapshot.context.entries;
  const lost = entries.slice(replay.header.baseSize).filter((entry) => !session.has(entry.id));
  if (lost.length > 0) await session.append(lost);
  // No turn was running: nothing to carry on, and a new segment keeps the next resume short.
  if (!snapshot.context.turn) return fresh();

  const segment = lastSegment(lines).lines;
  const lastSeq = segment.reduce((seq, line) => (line.type === 'input' ? line.seq : seq), -1);
  const runtime = createTurnRuntime({ options: resolved, session, journal, snapshot, header: null, nextSeq: lastSeq + 1, entryPoint: 'resumeAgent' });
  if (listener) runtime.subscribe(listener);
  const agent = hostApi(session, journal, runtime);

  const turn = snapshot.context.turn;
  const blocking = replay.effects.filter(isBlockingEffect).at(-1);
  if (turn?.pending && blocking && blockingId(blocking) === turn.pending.id) {
    runtime.startTurn(turn.turnId);
    const settled = blocking.type === 'run_tools' ? settledCalls(blocking.batchId, blocking.calls, segment, resolved.tools, runtime.publish) : undefined;
    runtime.perform(blocking, settled);
  }
  return agent;
}

function blockingId(effect: BlockingEffect): string {
  switch (effect.type) {
    case 'maybe_compact':
      return effect.compactionId;
    case 'call_llm':
      return effect.callId;
    case 'run_tools':
    case 'request_approval':
      return effect.batchId;
    default: {
      const unknown: never = effect;
      throw new TypeError(`unknown blocking effect ${JSON.stringify(unknown)}`);
    }
  }
}

/** What the journal knows of a batch's calls: finished ones keep their result; started ones are interrupted unless idempotent. */
function settledCalls(
  batchId: string,
  calls: readonly ToolCallPart[],
  lines: readonly JournalLine[],
  tools: readonly Tool[],
  publish: (event: AgentEvent) => void,
): Map<string, ToolOutcome> {
  const started = new Set<string>();
  const settled = new Map<string, ToolOutcome>();
  for (const line of lines) {
    if (line.type === 'tool.started' && line.batchId === batchId) started.add(line.toolCallId);
    if (line.type === 'tool.finished' && line.batchId === batchId) settled.set(line.toolCallId, line.outcome);
  }
  const idempotent = new Set(tools.filter((t) => t.idempotent).map((t) => t.name));
  for (const call of calls) {
    if (!started.has(call.id) || settled.has(call.id)) continue;
    const rerun = idempotent.has(call.name);
    publish({ type: 'tool.interrupted', batchId, toolCallId: call.id, toolName: call.name, rerun, at: now() });
    if (!rerun) {
      settled.set(
        call.id,
        errorOutcome(
          call.id,
          `The call to "${call.name}" was interrupted: the process stopped while it ran. It was not run again because it may already have had its effect; check before calling it again.`,
        ),
      );
    }
  }
  return settled;
}

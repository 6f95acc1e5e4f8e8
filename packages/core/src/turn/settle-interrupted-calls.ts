import type { ToolCallPart } from '../schema/message.js';
import type { ToolOutcome } from './events.js';

/** What a record of a tool batch (a journal, a durable engine's log) says about its calls. */
export interface BatchRecord {
  /** The calls of the batch, in order. */
  calls: readonly ToolCallPart[];
  /** Calls whose start was recorded (written before the tool ran). */
  started: ReadonlySet<string>;
  /** Calls whose outcome was recorded. */
  finished: ReadonlyMap<string, ToolOutcome>;
  /** Whether running the named tool twice is safe. */
  isIdempotent(toolName: string): boolean;
}

/** A call that started and never finished: it may have had its effect, or not. */
export interface InterruptedCall {
  call: ToolCallPart;
  /** True when its tool is idempotent, so the call runs again; else it gets an error result. */
  rerun: boolean;
}

export interface SettledBatch {
  /** Outcomes to use as they are, without running the tool: recorded ones, and interrupted calls' error results. */
  settled: Map<string, ToolOutcome>;
  interrupted: InterruptedCall[];
}

/**
 * The rule for carrying a tool batch on after its process was lost: a finished call keeps its
 * recorded outcome; a call that started and never finished is run again only if its tool is
 * idempotent, and otherwise answered "interrupted", never run twice; a call that never started
 * runs. Every engine that resumes a turn (the shell, a durable one) applies this one rule.
 */
export function settleInterruptedCalls(record: BatchRecord): SettledBatch {
  const settled = new Map<string, ToolOutcome>();
  const interrupted: InterruptedCall[] = [];
  for (const call of record.calls) {
    const outcome = record.finished.get(call.id);
    if (outcome) {
      settled.set(call.id, outcome);
      continue;
    }
    if (!record.started.has(call.id)) continue;
    const rerun = record.isIdempotent(call.name);
    interrupted.push({ call, rerun });
    if (!rerun) settled.set(call.id, interruptedOutcome(call));
  }
  return { settled, interrupted };
}

function interruptedOutcome(call: ToolCallPart): ToolOutcome {
  const text =
    `The call to "${call.name}" was interrupted: the process stopped while it ran. It was not run again ` +
    'because it may already have had its effect; check before calling it again.';
  return { toolCallId: call.id, content: [{ type: 'text', text }], isError: true };
}

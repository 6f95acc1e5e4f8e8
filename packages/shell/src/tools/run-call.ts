import type { ToolCallPart, ToolOutcome } from '@tiller/core';
import type { Tool, ToolContext } from './define-tool.js';
import { abortable } from '../runtime/abortable.js';
import { workSignal } from '../runtime/work-signal.js';
import { errorOutcome, toolOutcome, truncateOutcome } from './tool-output.js';
import { describeThrown } from '../describe-thrown.js';

/** What running one planned call reads. */
export interface RunCallOptions {
  signal: AbortSignal;
  defaultTimeoutMs: number;
  maxOutputChars: number;
  /** Told before the tool runs (and awaited: a journal records it first). */
  onStart?: ((call: ToolCallPart) => Promise<void>) | undefined;
  onFinish?: ((call: ToolCallPart, outcome: ToolOutcome, durationMs: number) => Promise<void>) | undefined;
  /** Told of each throw (or rejection) of an abort listener the tool added to its signal; it cannot end the process. */
  onListenerError?: ((call: ToolCallPart, error: unknown) => void) | undefined;
}

/** Runs one planned call: told to `onStart`, timed out, raced against the signal, its output checked and cut, told to `onFinish`. */
export async function runCall(tool: Tool, call: ToolCallPart, args: unknown, options: RunCallOptions): Promise<ToolOutcome> {
  await options.onStart?.(call);
  const started = performance.now();
  const outcome = truncateOutcome(await execute(tool, call, args, options), options.maxOutputChars);
  await options.onFinish?.(call, outcome, performance.now() - started);
  return outcome;
}

/**
 * Runs one call, raced against the turn's signal and the call's time limit, so a tool that
 * ignores them cannot hold the turn past its time or an abort; whatever it returns later is
 * dropped. The limit's timer is cleared when the call ends (`AbortSignal.timeout` would keep one
 * pending for the whole limit after every call).
 */
async function execute(tool: Tool, call: ToolCallPart, args: unknown, options: RunCallOptions): Promise<ToolOutcome> {
  const turn = options.signal;
  if (turn.aborted) return abortedOutcome(call);
  const timeoutMs = tool.timeoutMs ?? options.defaultTimeoutMs;
  const work = workSignal(turn, (error) => options.onListenerError?.(call, error));
  const timer = setTimeout(() => work.stop(new DOMException(`the call did not finish within ${timeoutMs} ms`, 'TimeoutError')), timeoutMs);
  const context: ToolContext = { toolCallId: call.id, signal: work.signal };
  try {
    const output = await abortable(
      Promise.resolve().then(() => tool.execute(args, context)),
      work.signal,
    );
    // An abort the tool caused while it ran still counts.
    return turn.aborted ? abortedOutcome(call) : toolOutcome(call.id, call.name, output);
  } catch (error) {
    if (turn.aborted) return abortedOutcome(call);
    if (work.signal.aborted) return errorOutcome(call.id, `Tool "${call.name}" did not finish within ${timeoutMs} ms and was stopped.`);
    return errorOutcome(call.id, `Tool "${call.name}" failed: ${describeThrown(error)}`);
  } finally {
    clearTimeout(timer);
    work.end();
  }
}

function abortedOutcome(call: ToolCallPart): ToolOutcome {
  return errorOutcome(call.id, `Tool "${call.name}" was stopped: the turn was aborted.`);
}

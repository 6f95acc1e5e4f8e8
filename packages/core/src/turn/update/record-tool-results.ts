import type { ToolCallPart, ToolResultMessage } from '../../schema/message.js';
import type { OpenBatch } from '../context.js';
import type { ToolOutcome, TurnEventOf } from '../events.js';
import { appendMessages } from './append-entries.js';
import { syntheticResult } from './close-open-calls.js';
import type { WorkingContext } from './working-context.js';

/** What is wrong with a batch's results, or null: each must answer a call of the batch, once. */
export function toolResultsProblem(batch: OpenBatch | null, results: readonly ToolOutcome[]): string | null {
  if (!batch) return 'tools.done arrived with no open tool batch';
  const callIds = new Set(batch.calls.map((c) => c.id));
  const seen = new Set<string>();
  for (const [i, result] of results.entries()) {
    if (!callIds.has(result.toolCallId)) return `tools.done results[${i}] answers unknown tool call "${result.toolCallId}"`;
    if (seen.has(result.toolCallId)) return `tools.done results[${i}] answers tool call "${result.toolCallId}" twice`;
    seen.add(result.toolCallId);
  }
  return null;
}

/**
 * Appends one result per call, in the order of the calls (not the order tools finished).
 * A call the shell did not report gets an error result that says so.
 */
export function recordToolResults(work: WorkingContext, event: TurnEventOf<'tools.done'>, batch: OpenBatch): ToolResultMessage[] {
  const turn = work.turn!;
  const byId = new Map(event.results.map((r) => [r.toolCallId, r]));
  const messages = batch.calls.map((call) => withRepeatNote(resultOf(call, byId.get(call.id)), batch.repeats?.[call.id]));
  appendMessages(work, event.at, messages);
  turn.batch = null;
  turn.iterations += 1;
  return messages;
}

/** The result message of one call, from what the shell reported for it. */
function resultOf(call: ToolCallPart, result: ToolOutcome | undefined): ToolResultMessage {
  if (!result) return syntheticResult(call, 'No result was reported for this tool call.');
  return {
    role: 'toolResult',
    toolCallId: call.id,
    toolName: call.name,
    content: result.content,
    isError: result.isError,
    ...(result.details === undefined ? {} : { details: result.details }),
  };
}

/**
 * The result of a call whose id the reply gave `dropped` more calls: the model is told that those
 * did not run, so it can make them again, each with an id of its own.
 */
function withRepeatNote(result: ToolResultMessage, dropped: number | undefined): ToolResultMessage {
  if (!dropped) return result;
  const calls = dropped === 1 ? '1 more tool call' : `${dropped} more tool calls`;
  const note = `Your reply had ${calls} with the id "${result.toolCallId}"; only the first was run, the others were not run. To make them, call again with an id of its own for each call.`;
  return { ...result, content: [...result.content, { type: 'text', text: note }] };
}

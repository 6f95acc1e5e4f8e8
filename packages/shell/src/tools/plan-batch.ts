import type { ToolCallPart, ToolOutcome } from '@tiller/core';
import type { Tool } from './define-tool.js';
import { planCalls, type PlanOptions } from './plan-call.js';
import type { ToolRefusal } from './tool-refusal.js';

/** One call of a batch with nothing left to ask. */
export type BatchCall =
  /** Answered already (a resumed batch): its outcome is used as it is. */
  | { kind: 'settled'; call: ToolCallPart; outcome: ToolOutcome }
  /** Refused before anything ran: why, and the error result the model reads. */
  | { kind: 'refused'; call: ToolCallPart; refusal: ToolRefusal; outcome: ToolOutcome }
  /** To run, with the arguments its schema parsed. */
  | { kind: 'run'; call: ToolCallPart; tool: Tool; args: unknown };

/**
 * What a batch comes to before anything runs: the calls to put to the host, or every call
 * decided, those to run at most `concurrency` at a time (1 when a `sequential` tool is among them).
 */
export type BatchPlan = { kind: 'ask'; toolCallIds: string[] } | { kind: 'run'; calls: BatchCall[]; concurrency: number };

/** Plans every call of the batch (see `planCalls`) and decides what the batch comes to. Nothing runs. */
export async function planBatch(options: PlanOptions & { maxConcurrency: number }): Promise<BatchPlan> {
  const { calls } = options;
  const plans = await planCalls(options);
  const asked = calls.filter((_, i) => plans[i]!.kind === 'ask').map((call) => call.id);
  if (asked.length > 0) return { kind: 'ask', toolCallIds: asked };
  let sequential = false;
  const decided = calls.map((call, i): BatchCall => {
    const plan = plans[i]!;
    switch (plan.kind) {
      case 'settled':
        return { kind: 'settled', call, outcome: plan.outcome };
      case 'refused':
        return { kind: 'refused', call, refusal: plan.refusal, outcome: plan.outcome };
      case 'run':
        sequential ||= plan.tool.sequential === true;
        return { kind: 'run', call, tool: plan.tool, args: plan.args };
      case 'ask':
        throw new TypeError(`call ${call.id} is still to be asked`);
      default: {
        const unknown: never = plan;
        throw new TypeError(`unknown call plan ${JSON.stringify(unknown)}`);
      }
    }
  });
  return { kind: 'run', calls: decided, concurrency: sequential ? 1 : Math.max(1, options.maxConcurrency) };
}

import type { ToolOutcome } from '@tiller/core';
import { z } from 'zod';
import { errorOutcome } from './tool-output.js';

/**
 * Why a call of a batch did not run, decided before anything ran: a tool the agent does not
 * have, arguments that are not a JSON object (`ToolCallPart.unparsedArgs`), arguments its schema
 * refuses, a schema that failed while it checked them, or a denial (by the policy or the host).
 * A schema too: the journal records each refusal.
 */
export const ToolRefusalReason = z.enum(['unknown_tool', 'unreadable_arguments', 'invalid_arguments', 'schema_failed', 'denied']);
export type ToolRefusalReason = z.infer<typeof ToolRefusalReason>;

/** A refused call: why, and the error result the model reads in its place. */
export interface ToolRefusal {
  reason: ToolRefusalReason;
  message: string;
}

/** The result the model reads for a refused call: the same in the turn that refused it and in a resumed one. */
export function refusalOutcome(toolCallId: string, refusal: ToolRefusal): ToolOutcome {
  return errorOutcome(toolCallId, refusal.message);
}

/**
 * Why a call of a batch did not run, decided before anything ran: a tool the agent does not
 * have, arguments that are not a JSON object (`ToolCallPart.unparsedArgs`), arguments its schema
 * refuses, a schema that failed while it checked them, or a denial (by the policy or the host).
 */
export type ToolRefusalReason = 'unknown_tool' | 'unreadable_arguments' | 'invalid_arguments' | 'schema_failed' | 'denied';

/** A refused call: why, and the error result the model reads in its place. */
export interface ToolRefusal {
  reason: ToolRefusalReason;
  message: string;
}

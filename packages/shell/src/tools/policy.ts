import type { ToolCallPart } from '@tiller/core';

/** What the host's policy says about a tool call before it runs. */
export type PolicyDecision = { decision: 'allow' } | { decision: 'deny'; rationale: string } | { decision: 'ask' };

/** Decides each call; `ask` parks the turn until `agent.approve` (or the approval timeout, which denies). */
export type ToolPolicy = (call: ToolCallPart) => PolicyDecision | Promise<PolicyDecision>;

import { ApprovalDecision } from '@tiller/core';
import { z } from 'zod';

/**
 * Why the decision at `index` of a list is not a decision the core accepts, or undefined when it
 * is one. The client refuses such a list before it sends it, and the turn drops what reaches it
 * anyway (from a client of another version, a raw call): both say the same thing.
 */
export function decisionProblem(decision: unknown, index: number): string | undefined {
  const parsed = ApprovalDecision.safeParse(decision);
  return parsed.success ? undefined : `decision ${index} is not a valid decision:\n${z.prettifyError(parsed.error)}`;
}

/** `approve` takes one decision or a list; anything else counts as one (bad) decision. */
export const decisionList = (decisions: unknown): readonly unknown[] => (Array.isArray(decisions) ? decisions : [decisions]);

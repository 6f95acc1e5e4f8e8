/** `approve` takes one decision or a list; anything else counts as one (bad) decision. */
export const decisionList = (decisions: unknown): readonly unknown[] => (Array.isArray(decisions) ? decisions : [decisions]);

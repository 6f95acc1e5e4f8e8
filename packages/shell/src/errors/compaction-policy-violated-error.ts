import type { PolicyViolationFacts } from '@tiller/compaction';
import { ShellError } from './shell-error.js';

/**
 * The agent's compaction policy refused a turn (`prompt` throws it) or found its premise broken at
 * a boundary (the turn is aborted; the `shell.error` event carries it). `facts` has the numbers.
 */
export class CompactionPolicyViolatedError extends ShellError {
  static override readonly code = 'compaction_policy_violated';
  override readonly name = 'CompactionPolicyViolatedError';
  readonly facts: PolicyViolationFacts;

  constructor(message: string, facts: PolicyViolationFacts, options?: { cause?: unknown }) {
    super(message, options);
    this.facts = facts;
  }
}

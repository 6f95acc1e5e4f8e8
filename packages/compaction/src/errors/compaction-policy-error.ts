import { TillerCompactionError } from './tiller-compaction-error.js';

/** A policy cannot hold for this configuration: a bad option, an unknown model, a budget that does not fit. */
export class CompactionPolicyError extends TillerCompactionError {
  static override readonly codes = ['policy_unfit'] as const;
  override readonly name = 'CompactionPolicyError';
  readonly code = 'policy_unfit';
}

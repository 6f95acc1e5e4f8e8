import { TillerCompactionError } from './tiller-compaction-error.js';

/**
 * A compactor, a setting or a policy was configured wrongly. Thrown at configuration time; the
 * message names where the option was given (`entryPoint`) and which option is wrong.
 */
export class CompactionConfigError extends TillerCompactionError {
  static override readonly codes = ['invalid_config'] as const;
  override readonly name = 'CompactionConfigError';
  readonly code = 'invalid_config';
  readonly entryPoint: string;
  readonly option: string | undefined;

  constructor(entryPoint: string, option: string | undefined, detail: string) {
    super(option ? `${entryPoint}: option "${option}" ${detail}` : `${entryPoint}: ${detail}`);
    this.entryPoint = entryPoint;
    this.option = option;
  }
}

/** Why a compaction could not be made. The log is never touched when one of these is thrown. */
export type CompactionErrorCode = 'aborted' | 'summarization_failed' | 'invalid_session';

export class CompactionError extends Error {
  override readonly name = 'CompactionError';
  readonly code: CompactionErrorCode;

  constructor(code: CompactionErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/**
 * A compactor, a setting or a policy was configured wrongly. Thrown at configuration time; the
 * message names where the option was given (`entryPoint`) and which option is wrong.
 */
export class CompactionConfigError extends Error {
  override readonly name = 'CompactionConfigError';
  readonly entryPoint: string;
  readonly option: string | undefined;

  constructor(entryPoint: string, option: string | undefined, detail: string) {
    super(option ? `${entryPoint}: option "${option}" ${detail}` : `${entryPoint}: ${detail}`);
    this.entryPoint = entryPoint;
    this.option = option;
  }
}

import { type CompactionErrorCode, TillerCompactionError } from './tiller-compaction-error.js';

export class CompactionError extends TillerCompactionError {
  static override readonly codes: readonly CompactionErrorCode[] = ['aborted', 'summarization_failed', 'invalid_session'];
  override readonly name = 'CompactionError';
  readonly code: CompactionErrorCode;

  constructor(code: CompactionErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

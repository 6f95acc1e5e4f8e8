import type { ProgressEvent, ToolOutcome } from '@tiller/core';

/** What a journal knows of a blocking effect a resumed turn carries out again. */
export interface ResumedEffect {
  /** The outcomes of calls of the batch the journal saw finish or interrupted. */
  settled?: ReadonlyMap<string, ToolOutcome> | undefined;
  /** Published first: the approval request the host before the crash heard. */
  retold?: ProgressEvent | undefined;
  /** When the batch was parked for approval: its timeout counts from then. */
  parkedAt?: string | undefined;
}

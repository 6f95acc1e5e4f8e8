/** What to generate: `generatePiSession`'s one options object. */
export interface PiSessionOptions {
  seed: number;
  /** pi's file format: 1 (the oldest, still read by pi) or 3 (the current one). */
  format: 1 | 3;
  /** Turns on the line that ends at the leaf, before any branch. Default 30. */
  turns?: number;
  /**
   * End with a long tool loop (many rounds with large results), so a compaction with default
   * settings cuts inside that turn. Default true.
   */
  longLastTurn?: boolean;
  /**
   * CJK text (in user messages, answers, tool output) and images in user messages, where Tiller's
   * token estimate deliberately counts more than pi's. Default true; false for sessions on which
   * both estimates, and so both compaction cuts, must agree exactly.
   */
  rich?: boolean;
  /** Compaction entries (two, at about a third and two thirds of the turns). Default true. */
  compactions?: boolean;
  /** `!command` shell executions the user ran between turns. Default true. */
  shellCommands?: boolean;
  /**
   * Format 3: branches that start again from an earlier user message with a branch summary (two,
   * at about half and five sixths of the turns). Default true; false for one chain from the root
   * to the leaf. Format 1 has no branches.
   */
  branches?: boolean;
}

/** What went into a generated session, counted while writing it. */
export interface PiSessionCounts {
  /** Lines after the header. */
  entries: number;
  userMessages: number;
  assistantMessages: number;
  toolResults: number;
  bashExecutions: number;
  thinkingLevelChanges: number;
  modelChanges: number;
  compactions: number;
  branchSummaries: number;
  /** Assistant messages with more than one tool call. */
  parallelCalls: number;
  abortedReplies: number;
  failedReplies: number;
  images: number;
  cjkMessages: number;
  thinkingSignatures: number;
}

export interface GeneratedPiSession {
  /** The session file: one JSON object a line, the header first, a newline at the end. */
  text: string;
  format: 1 | 3;
  /** Format 3: the id of the last line, where pi opens the session. */
  leafId: string | undefined;
  counts: PiSessionCounts;
}

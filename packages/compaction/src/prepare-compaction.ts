import type { CompactionEntry, Entry, FileLists, Message } from '@tiller/core';
import { buildContext, entryMessage } from '@tiller/core';
import { CompactionError } from './errors/index.js';
import { estimateTokens } from './estimate-tokens.js';
import { createFileTracker, DEFAULT_FILE_TOOLS, type FileTools } from './file-operations.js';
import { findCutPoint } from './find-cut-point.js';
import { keptStartIndex, lastCompactionIndex } from './path-scan.js';
import { parseOptions } from './parse-options.js';
import { CompactionSettings } from './settings.js';
import type { TokenCounter } from './token-counter.js';
import { estimatePathContextTokens } from './token-ledger.js';

export interface PrepareOptions {
  counter?: TokenCounter | undefined;
  fileTools?: FileTools | undefined;
  /**
   * The kept messages lose their thinking blocks (a compaction between tool rounds). Thinking an
   * earlier compaction stripped from messages that stay stays stripped either way.
   */
  stripThinking?: boolean | undefined;
  /**
   * Tokens of the system prompt and tool definitions. Added to estimates that rest on no reported
   * usage (a reported usage already counts them). Default 0.
   */
  promptTokens?: number | undefined;
}

/** Everything `compact` needs, worked out from the path without calling any model. */
export interface CompactionPreparation {
  firstKeptEntryId: string;
  /** Where the first kept entry stands on the path. */
  firstKeptIndex: number;
  /** The entries that leave the context, oldest first (history, then the split turn's prefix). */
  compactedEntries: readonly Entry[];
  /** Messages of the history before the cut (or before the split turn), to summarize. */
  messagesToSummarize: readonly Message[];
  /** Messages of the split turn before the cut, summarized on their own; empty when no turn is split. */
  turnPrefixMessages: readonly Message[];
  isSplitTurn: boolean;
  /** The context's size now. */
  tokensBefore: number;
  /** The size of what stays, without the summary message. */
  keptTokens: number;
  /** The summary of the compaction before this one: it is updated, never lost. */
  previousSummary: string | undefined;
  /** Files read and modified, carried from the previous compaction and from the summarized calls. */
  fileLists: FileLists;
  /** Tool results cleared by the previous compaction that stay in the context, cleared still. */
  cleared: CompactionEntry['cleared'];
  stripThinking: boolean;
  settings: CompactionSettings;
}

/**
 * Works out what a compaction of `path` (root to leaf) would summarize and keep. The context starts
 * at the previous compaction's first kept entry, so what it kept is summarized again together with
 * its summary. Returns null when nothing would leave the context: the path is empty or ends with a
 * compaction, or its newest entries do not even add up to `keepRecentTokens`. Linear in the path.
 * Throws `CompactionError('invalid_session')` when the entries do not form a path.
 */
export function prepareCompaction(
  path: readonly Entry[],
  settings: CompactionSettings,
  options: PrepareOptions = {},
): CompactionPreparation | null {
  const checked = parseOptions(CompactionSettings, settings, 'prepareCompaction settings');
  assertPath(path);
  const end = path.length;
  if (end === 0 || path[end - 1]!.kind === 'compaction') return null;

  const previousIndex = lastCompactionIndex(path);
  const previous = previousIndex >= 0 ? (path[previousIndex] as CompactionEntry) : undefined;
  const boundaryStart = keptStartIndex(path, previousIndex);

  const cut = findCutPoint(path, boundaryStart, end, checked.keepRecentTokens, options.counter);
  if (!cut.reached) return null;
  const historyEnd = cut.isSplitTurn ? cut.turnStartIndex : cut.firstKeptIndex;

  const tracker = createFileTracker(options.fileTools ?? DEFAULT_FILE_TOOLS);
  tracker.carry(previous?.details);
  const compactedEntries: Entry[] = [];
  const collect = (from: number, to: number): Message[] => {
    const messages: Message[] = [];
    for (let i = from; i < to; i++) {
      const entry = path[i]!;
      const message = entry.kind === 'compaction' ? undefined : entryMessage(entry);
      if (!message) continue;
      messages.push(message);
      compactedEntries.push(entry);
      tracker.add(message);
    }
    return messages;
  };
  const messagesToSummarize = collect(boundaryStart, historyEnd);
  const turnPrefixMessages = cut.isSplitTurn ? collect(cut.turnStartIndex, cut.firstKeptIndex) : [];
  if (compactedEntries.length === 0) return null;

  const stripThinking = options.stripThinking === true || carriedStripThinking(previous, previousIndex, cut.firstKeptIndex);
  const cleared = carriedClearing(path, previous, previousIndex, cut.firstKeptIndex);
  const promptTokens = options.promptTokens ?? 0;
  const before = estimatePathContextTokens(path, { counter: options.counter });
  const keptTokens = keptContextTokens(path, cut.firstKeptIndex, { cleared, stripThinking }, options.counter);

  return {
    firstKeptEntryId: path[cut.firstKeptIndex]!.id,
    firstKeptIndex: cut.firstKeptIndex,
    compactedEntries,
    messagesToSummarize,
    turnPrefixMessages,
    isSplitTurn: cut.isSplitTurn,
    tokensBefore: before.tokens + (before.anchored ? 0 : promptTokens),
    keptTokens: keptTokens + promptTokens,
    previousSummary: previous?.summary || undefined,
    fileLists: tracker.lists(),
    cleared,
    stripThinking,
    settings: checked,
  };
}

/** Every entry must name the one before it as its parent: compaction works on a root-to-leaf path. */
export function assertPath(path: readonly Entry[]): void {
  for (let i = 1; i < path.length; i++) {
    const entry = path[i]!;
    const parent = path[i - 1]!;
    if (entry.parentId !== parent.id) {
      throw new CompactionError(
        'invalid_session',
        `not a path: entry ${i} (id "${entry.id}") has parent "${entry.parentId}" but follows entry "${parent.id}"`,
      );
    }
  }
}

/**
 * The previous compaction's cleared tool results that stay in the context: the latest compaction
 * wins, so a new one must carry them or they would come back in full.
 */
export function carriedClearing(
  path: readonly Entry[],
  previous: CompactionEntry | undefined,
  previousIndex: number,
  firstKeptIndex: number,
): CompactionEntry['cleared'] {
  if (!previous?.cleared || previous.cleared.entryIds.length === 0) return undefined;
  const wasCleared = new Set(previous.cleared.entryIds);
  const entryIds: string[] = [];
  for (let i = firstKeptIndex; i < previousIndex; i++) if (wasCleared.has(path[i]!.id)) entryIds.push(path[i]!.id);
  return entryIds.length > 0 ? { entryIds, placeholder: previous.cleared.placeholder } : undefined;
}

/**
 * True when the previous compaction stripped thinking and some of the messages it kept stay: the
 * new compaction must strip too, or their thinking would come back into the context.
 */
export function carriedStripThinking(previous: CompactionEntry | undefined, previousIndex: number, firstKeptIndex: number): boolean {
  return previous?.stripThinking === true && firstKeptIndex < previousIndex;
}

/**
 * Estimated size of the context a compaction keeping `path[firstKeptIndex..]` would leave, not
 * counting its summary: the kept entries seen through `buildContext`, so clearing and thinking
 * removal count exactly as the model will see them.
 */
export function keptContextTokens(
  path: readonly Entry[],
  firstKeptIndex: number,
  shape: Pick<CompactionEntry, 'cleared' | 'stripThinking'>,
  counter?: TokenCounter,
): number {
  const firstKept = path[firstKeptIndex];
  if (!firstKept) return 0;
  const probe: CompactionEntry = {
    kind: 'compaction',
    id: `${firstKept.id}:probe`,
    parentId: path.at(-1)!.id,
    at: firstKept.at,
    summary: '',
    firstKeptEntryId: firstKept.id,
    tokensBefore: 0,
    ...(shape.cleared ? { cleared: shape.cleared } : {}),
    ...(shape.stripThinking ? { stripThinking: true } : {}),
  };
  let total = 0;
  for (const message of buildContext([...path.slice(firstKeptIndex), probe])) total += estimateTokens(message, counter);
  return total;
}

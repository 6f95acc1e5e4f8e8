import type { CompactionEntry, Entry } from '../schema/entry.js';
import type { Message } from '../schema/message.js';
import { repairTranscript, type RepairOptions } from './repair-transcript.js';
import { branchSummaryMessage, compactionSummaryMessage } from './summary-messages.js';

/**
 * The message an entry contributes to the model's context, if any. Compaction entries
 * contribute through `buildContext`, never on their own.
 */
export function entryMessage(entry: Entry): Message | undefined {
  switch (entry.kind) {
    case 'message':
      return entry.message;
    case 'branch_summary':
      return entry.summary ? branchSummaryMessage(entry.summary) : undefined;
    case 'custom':
      return entry.message;
    case 'compaction':
      return undefined;
    default: {
      const unknownEntry: never = entry;
      throw new TypeError(`unknown entry kind: ${JSON.stringify(unknownEntry)}`);
    }
  }
}

/**
 * The messages the model sees for a path of entries, root first. The latest compaction wins:
 * its summary, then the entries from its `firstKeptEntryId` up to it (reshaped as it says), then
 * everything after it. One pass over the path, and one over the messages to check the transcript:
 * a path a damaged file left (a tool result whose call was lost, a call whose result was) is
 * repaired visibly (`repairTranscript`), so a provider never receives an invalid transcript.
 * `openBatch: 'leave'` keeps a batch still open at the end as it stands (a view of a running turn).
 */
export function buildContext(path: readonly Entry[], options: RepairOptions = {}): Message[] {
  return repairTranscript(collectContext(path), options).messages;
}

/**
 * The messages `buildContext` starts from, in the order the path holds them: the latest
 * compaction's summary, what it keeps (reshaped as it says), everything after it; not yet
 * repaired. An estimate that adds messages up as entries are appended (a token ledger) counts
 * these: a part of the path repaired on its own would be repaired differently once more entries
 * follow (a call kept by a compaction whose result comes after it).
 */
export function collectContext(path: readonly Entry[]): Message[] {
  const compactionAt = findLastCompaction(path);
  if (compactionAt < 0) return collect([], path, 0, path.length, unchanged);

  const compaction = path[compactionAt] as CompactionEntry;
  const messages: Message[] = compaction.summary ? [compactionSummaryMessage(compaction.summary)] : [];
  const firstKept = indexOfEntry(path, compaction.firstKeptEntryId, compactionAt);
  if (firstKept >= 0) collect(messages, path, firstKept, compactionAt, keptMessageShaper(compaction, lastToolReply(path, firstKept, compactionAt)));
  return collect(messages, path, compactionAt + 1, path.length, unchanged);
}

function findLastCompaction(path: readonly Entry[]): number {
  for (let i = path.length - 1; i >= 0; i--) if (path[i]!.kind === 'compaction') return i;
  return -1;
}

/** Where `id` stands among the first `end` entries; -1 when it is not there (nothing is kept). */
function indexOfEntry(path: readonly Entry[], id: string, end: number): number {
  for (let i = 0; i < end; i++) if (path[i]!.id === id) return i;
  return -1;
}

/** The message as the model is to see it, or undefined when nothing of it is left to send. */
type Shaper = (message: Message, entry: Entry) => Message | undefined;

const unchanged: Shaper = (message) => message;

/** Appends the messages of `path[from..to)` to `out` (no spread: paths reach 100k entries). */
function collect(out: Message[], path: readonly Entry[], from: number, to: number, shape: Shaper): Message[] {
  // Sized once for the most it can hold, then cut: grown by push, a 100k-message array is
  // reallocated and copied over and over in the large-object space.
  let length = out.length;
  out.length = length + Math.max(0, to - from);
  for (let i = from; i < to; i++) {
    const entry = path[i]!;
    const message = entryMessage(entry);
    const shaped = message && shape(message, entry);
    if (shaped) out[length++] = shaped;
  }
  out.length = length;
  return out;
}

/**
 * The last assistant reply of `path[from..to)`, when it called tools: the round a compaction
 * between rounds fell in, whose results the next request carries. Anthropic's API refuses a
 * request whose latest tool-calling reply does not start with its thinking, unchanged, so
 * stripping passes that reply by. Chosen from the kept entries alone, so what the model sees of
 * them never changes as the turn goes on (the token ledger and a provider's prompt cache rely on
 * that). Undefined when the kept entries end otherwise.
 */
function lastToolReply(path: readonly Entry[], from: number, to: number): Entry | undefined {
  for (let i = to - 1; i >= from; i--) {
    const message = entryMessage(path[i]!);
    if (message?.role !== 'assistant') continue;
    return message.content.some((p) => p.type === 'toolCall') ? path[i] : undefined;
  }
  return undefined;
}

function keptMessageShaper(compaction: CompactionEntry, keepsThinking: Entry | undefined): Shaper {
  const cleared = new Set(compaction.cleared?.entryIds ?? []);
  const placeholder = compaction.cleared?.placeholder ?? '';
  const stripThinking = compaction.stripThinking === true;
  return (message, entry) => {
    if (message.role === 'toolResult' && cleared.has(entry.id)) {
      return { ...message, content: [{ type: 'text', text: placeholder }] };
    }
    if (stripThinking && entry !== keepsThinking && message.role === 'assistant' && message.content.some((p) => p.type === 'thinking')) {
      const content = message.content.filter((p) => p.type !== 'thinking');
      // A reply that was all thinking (cut off while it thought) is left out: with no content, a provider refuses the request.
      return content.length > 0 ? { ...message, content } : undefined;
    }
    return message;
  };
}

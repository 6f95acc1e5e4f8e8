import type { PiSessionCounts, PiSessionOptions } from './pi-session-options.js';
import { type SeededRandom, seededRandom } from './seeded-random.js';
import { CJK_CODE_LINE, CODE_LINES, MODELS, type Model } from './vocabulary.js';

const START = Date.UTC(2026, 0, 12, 9, 0, 0);

/** One entry on the path from the root to where the session is now. */
export interface PathEntry {
  /** Its id (format 3) or line index (format 1). */
  ref: string | number;
  /** Where pi may cut when it compacts: a user or assistant message. */
  cutPoint: boolean;
  user: boolean;
}

/** A session being written: its lines so far, and what the next lines depend on. */
export interface SessionState {
  readonly options: PiSessionOptions;
  readonly random: SeededRandom;
  readonly lines: Record<string, unknown>[];
  readonly counts: PiSessionCounts;
  clock: number;
  model: Model;
  /** Whether the thinking level lets the model think. */
  thinking: boolean;
  path: PathEntry[];
  /** Characters the model would be sent for the current path: the base of realistic usage. */
  contextChars: number;
  readonly touched: { read: Set<string>; modified: Set<string> };
  readonly ids: Set<string>;
  readonly rich: boolean;
  readonly codeLines: readonly string[];
}

export function sessionState(options: PiSessionOptions): SessionState {
  const rich = options.rich !== false;
  return {
    options,
    random: seededRandom(options.seed),
    lines: [],
    counts: {
      entries: 0, userMessages: 0, assistantMessages: 0, toolResults: 0, bashExecutions: 0, thinkingLevelChanges: 0,
      modelChanges: 0, compactions: 0, branchSummaries: 0, parallelCalls: 0, abortedReplies: 0, failedReplies: 0,
      images: 0, cjkMessages: 0, thinkingSignatures: 0,
    },
    clock: START,
    model: MODELS[0]!,
    thinking: true,
    path: [],
    contextChars: 0,
    touched: { read: new Set(), modified: new Set() },
    ids: new Set(),
    rich,
    codeLines: rich ? [...CODE_LINES, CJK_CODE_LINE] : CODE_LINES,
  };
}

export function iso(state: SessionState): string {
  return new Date(state.clock).toISOString();
}

/** Appends a message entry; `chars` is what it adds to the model's context. */
export function appendMessage(state: SessionState, message: Record<string, unknown>, cutPoint: boolean, chars: number, user = false): void {
  state.contextChars += chars;
  appendEntry(state, { type: 'message', message: { ...message, timestamp: state.clock } }, cutPoint, undefined, user);
}

/**
 * Appends an entry some time after the last one: in format 1 a plain line, in format 3 with a
 * fresh id and its parent (the end of the path, or `parentOverride` for a branch).
 */
export function appendEntry(state: SessionState, fields: Record<string, unknown>, cutPoint: boolean, parentOverride?: string, user = false): void {
  state.clock += state.random.int(200, 40_000);
  const timestamp = iso(state);
  if (state.options.format === 1) {
    state.lines.push({ type: fields.type, timestamp, ...fields });
    state.path.push({ ref: state.lines.length - 1, cutPoint, user });
    return;
  }
  const id = freshId(state);
  const parentId = parentOverride ?? (state.path.at(-1)?.ref as string | undefined) ?? null;
  state.lines.push({ type: fields.type, id, parentId, timestamp, ...fields });
  state.path.push({ ref: id, cutPoint, user });
}

/** pi's ids: eight hex digits, unique in the file. */
function freshId(state: SessionState): string {
  for (;;) {
    const id = Array.from({ length: 8 }, () => '0123456789abcdef'[state.random.int(0, 15)]).join('');
    if (!state.ids.has(id)) {
      state.ids.add(id);
      return id;
    }
  }
}

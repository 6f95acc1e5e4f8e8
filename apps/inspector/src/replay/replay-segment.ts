/**
 * A journal segment replayed through the real core, one input at a time, with what each step
 * did: the state it led to, its effects, whether they match the recording, the entries it
 * appended. No model and no tool runs: the recorded answers are the inputs.
 */
import { type Effect, effectDigest, effectsHash, type Entry, type MessageList, type TurnSnapshot, type Usage, start, step } from '@tiller/core';
import { effectId, inputAnswerId, type JournalSegment, type RecordedInput, type ToolRun } from '../journal/read-journal.js';
import { estimateTokens } from './estimate-tokens.js';
import { statePath } from './state-path.js';

export interface ReplayedStep {
  /** Position in the segment (0-based). */
  index: number;
  recorded: RecordedInput;
  before: string;
  after: string;
  effects: Effect[];
  digests: string[];
  /** The replay's effects differ from the recorded ones. */
  diverged: boolean;
  /** Why the input left the turn where it was (it queued a message, it was stale, ...); null when it moved. */
  stay: string | null;
  /** Ids of the entries this step persisted. */
  appended: string[];
  snapshot: TurnSnapshot;
}

export interface ModelCall {
  id: string;
  /** The step whose effects asked for the call. */
  step: number;
  /** The core's view, shared with the snapshots, not copied: `toArray()` when they are shown. */
  messages: MessageList;
  final: boolean;
  estimatedTokens: number;
  /** The step that answered it, with what the provider reported; null while in flight. */
  answer: { step: number; kind: 'done' | 'failed'; usage: Usage | undefined; stopReason: string | undefined; error: string | undefined } | null;
}

export interface CompactionMark {
  step: number;
  id: string;
  compacted: boolean;
  strategy: string | undefined;
  tokensBefore: number | undefined;
  tokensAfter: number | undefined;
  note: string | undefined;
}

export interface ToolBatch {
  id: string;
  step: number;
  calls: Array<{ id: string; name: string; args: unknown }>;
}

/**
 * How a tool call ran in a batch, as the journal says so far (a live journal adds its start and
 * finish later). Undefined when it did not run in that batch: a batch that asked for approval
 * runs its calls under the next batch id.
 */
export function toolRun(replay: SegmentReplay, toolCallId: string, batchId?: string): ToolRun | undefined {
  const run = replay.segment.tools.get(toolCallId);
  return batchId === undefined || run?.batchId === batchId ? run : undefined;
}

export interface SegmentReplay {
  segment: JournalSegment;
  /** Why the base path is not the one the segment started from, when it is not. */
  baseProblem: string | null;
  steps: ReplayedStep[];
  calls: ModelCall[];
  compactions: CompactionMark[];
  batches: ToolBatch[];
  /** Index of the first step whose effects differ from the recording. */
  firstDivergence: number | null;
  /** Why the replay stopped before an input it cannot replay (naming its journal line); null while it goes on. */
  stopped: string | null;
  initial: TurnSnapshot;
}

/**
 * Starts the replay of a segment over `base` (the session path it started from). Call
 * `extendReplay` to step through its inputs; more inputs can arrive later (a live journal).
 */
export function startReplay(segment: JournalSegment, base: readonly Entry[]): SegmentReplay {
  const { header } = segment;
  const last = base.at(-1)?.id ?? null;
  const baseProblem =
    last === header.baseLeafId && base.length === header.baseSize
      ? null
      : `the segment started from entry ${JSON.stringify(header.baseLeafId)} (a path of ${header.baseSize} entries), ` +
        `but the base here ends at ${JSON.stringify(last)} (${base.length} entries): open the session file beside the journal to replay it exactly`;
  const initial = start({ maxIterations: header.maxIterations, entries: [...base] });
  return { segment, baseProblem, steps: [], calls: [], compactions: [], batches: [], firstDivergence: null, stopped: null, initial };
}

/** Replays the inputs not replayed yet; returns how many steps were added. */
export function extendReplay(replay: SegmentReplay): number {
  const { segment, steps } = replay;
  const from = steps.length;
  let snapshot = steps.at(-1)?.snapshot ?? replay.initial;
  const open = new Map(replay.calls.filter((c) => c.answer === null).map((c) => [c.id, c]));
  for (let index = from; index < segment.inputs.length && replay.stopped === null; index++) {
    const recorded = segment.inputs[index]!;
    const before = statePath(snapshot.value);
    const replayed = replayInput(snapshot, recorded);
    if (typeof replayed === 'string') {
      replay.stopped = replayed;
      break;
    }
    const { result, hash } = replayed;
    const digests = result.effects.map(effectDigest);
    const diverged =
      digests.length !== recorded.effects.length || digests.some((d, i) => d !== recorded.effects[i]) || (recorded.hash !== undefined && hash !== recorded.hash);
    const after = statePath(result.snapshot.value);
    const appended = result.effects.flatMap((e) => (e.type === 'persist' ? e.entries.map((entry) => entry.id) : []));
    const done: ReplayedStep = {
      index,
      recorded,
      before,
      after,
      effects: result.effects,
      digests,
      diverged,
      stay: stayReason(snapshot, result.snapshot, result.effects, before, after),
      appended,
      snapshot: result.snapshot,
    };
    steps.push(done);
    if (diverged && replay.firstDivergence === null) replay.firstDivergence = index;
    noteAnswer(done, open);
    noteEffects(replay, done, open);
    snapshot = result.snapshot;
  }
  return steps.length - from;
}

/**
 * One recorded input through `step`, and the hash of its effects; or why it cannot be replayed.
 * JSON.parse reads values nested far deeper than JSON.stringify (the hash) can go: no Tiller
 * writer made such a line, and its stack overflow stops the replay there, said in words, instead
 * of breaking the page.
 */
function replayInput(snapshot: TurnSnapshot, recorded: RecordedInput): { result: ReturnType<typeof step>; hash: string } | string {
  try {
    const result = step(snapshot, recorded.input);
    return { result, hash: effectsHash(result.effects) };
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return `journal line ${recorded.line}: input ${recorded.seq} (${recorded.input.type}) cannot be replayed: it nests too deep (${error.message}); the replay stops before it`;
  }
}

/** Replays a whole segment. */
export function replaySegment(segment: JournalSegment, base: readonly Entry[]): SegmentReplay {
  const replay = startReplay(segment, base);
  extendReplay(replay);
  return replay;
}

function stayReason(prev: TurnSnapshot, next: TurnSnapshot, effects: readonly Effect[], before: string, after: string): string | null {
  if (before !== after || effects.some((e) => e.type !== 'persist' && e.type !== 'emit')) return null;
  const p = prev.context;
  const n = next.context;
  if (n.ignored.count > p.ignored.count) return `ignored: ${n.ignored.recent.at(-1)?.reason ?? 'no reason given'}`;
  if (n.queue.length > p.queue.length) {
    const queued = n.queue.at(-1)!;
    return `queued ${queued.kind === 'steer' ? 'a steer' : 'a follow-up'}: it joins the context at the next steering boundary`;
  }
  return 'no change';
}

function noteAnswer(done: ReplayedStep, open: Map<string, ModelCall>): void {
  const input = done.recorded.input;
  if (input.type !== 'llm.done' && input.type !== 'llm.failed') return;
  const id = inputAnswerId(input);
  const call = id === undefined ? undefined : open.get(id);
  if (!call) return;
  open.delete(call.id);
  call.answer =
    input.type === 'llm.done'
      ? { step: done.index, kind: 'done', usage: input.usage as Usage | undefined, stopReason: input.stopReason as string | undefined, error: undefined }
      : { step: done.index, kind: 'failed', usage: undefined, stopReason: undefined, error: (input.error as { message?: string } | undefined)?.message };
}

function noteEffects(replay: SegmentReplay, done: ReplayedStep, open: Map<string, ModelCall>): void {
  const input = done.recorded.input;
  if (input.type === 'compaction.done') {
    const meta = (input.meta ?? {}) as Record<string, unknown>;
    const num = (v: unknown) => (typeof v === 'number' ? v : undefined);
    replay.compactions.push({
      step: done.index,
      id: inputAnswerId(input) ?? '',
      compacted: meta.compacted === true,
      strategy: typeof meta.strategy === 'string' ? meta.strategy : undefined,
      tokensBefore: num(meta.tokensBefore),
      tokensAfter: num(meta.tokensAfter),
      note: typeof meta.skipped === 'string' ? meta.skipped : typeof meta.error === 'string' ? meta.error : undefined,
    });
  }
  for (const effect of done.effects) {
    if (effect.type === 'call_llm') {
      const messages = effect.context;
      const call: ModelCall = { id: effectId(effect), step: done.index, messages, final: effect.final, estimatedTokens: estimateTokens(messages), answer: null };
      replay.calls.push(call);
      open.set(call.id, call);
    } else if (effect.type === 'run_tools') {
      replay.batches.push({
        id: effectId(effect),
        step: done.index,
        calls: effect.calls.map((c) => ({ id: c.id, name: c.name, args: c.args })),
      });
    }
  }
}

/** The blocking effect the turn waits on after `step` (what is in flight), or null when idle. */
export function inFlight(replay: SegmentReplay, stepIndex: number): Effect | null {
  const done = replay.steps[stepIndex];
  if (!done) return null;
  const last = done.effects.at(-1);
  if (!last || last.type === 'persist' || last.type === 'emit') {
    // A step that stayed (a queued steer) leaves the earlier blocking effect waiting.
    if (done.after === 'idle') return null;
    for (let i = stepIndex - 1; i >= 0; i--) {
      const blocking = replay.steps[i]!.effects.at(-1);
      if (blocking && blocking.type !== 'persist' && blocking.type !== 'emit') return blocking;
    }
    return null;
  }
  return last;
}

import { z } from 'zod';
import { checkOptions } from '../check-options.js';
import { appendAssistantMessage } from './assistant-message.js';
import { appendBranch } from './branch-entry.js';
import { appendCompaction } from './compaction-entry.js';
import type { GeneratedPiSession, PiSessionOptions } from './pi-session-options.js';
import { iso, sessionState, type SessionState } from './session-state.js';
import { appendBashExecution, appendModelChange, appendThinkingLevelChange } from './side-entries.js';
import { appendToolResult, toolCall } from './tool-round.js';
import { appendUserMessage } from './user-message.js';

export type { GeneratedPiSession, PiSessionCounts, PiSessionOptions } from './pi-session-options.js';

const PiSessionOptionsSchema = z.strictObject({
  seed: z.number().int().nonnegative(),
  format: z.union([z.literal(1), z.literal(3)]),
  turns: z.number().int().nonnegative().max(100_000, 'at most 100 000 turns (a session of hundreds of megabytes)').optional(),
  longLastTurn: z.boolean().optional(),
  rich: z.boolean().optional(),
  compactions: z.boolean().optional(),
  shellCommands: z.boolean().optional(),
  branches: z.boolean().optional(),
});

/**
 * Realistic pi coding-agent session files, made from a seed: what a recorded session holds, without
 * the recording. The lines follow pi's own file formats (pi-coding-agent 0.73.1 reads them):
 * format 1 (no ids, one chain, compactions point at a line index) and format 3 (an entry tree with
 * ids, branches and branch summaries).
 *
 * A session is a run of turns: a user message (sometimes with CJK text or an image), then tool
 * rounds (thinking with a provider signature, text, one or several parallel tool calls, their
 * results) and a final answer. Along the way there are model and thinking-level changes, `!command`
 * shell executions, an aborted reply and a failed one, compactions that summarize the older part,
 * and, in format 3, branches that start again from an earlier user message with a branch summary.
 * The same options always give the same text.
 */
export function generatePiSession(options: PiSessionOptions): GeneratedPiSession {
  checkOptions('generatePiSession', PiSessionOptionsSchema, options);
  const state = sessionState(options);
  const { format } = options;
  const { random } = state;
  const turns = options.turns ?? 30;
  state.lines.push({
    type: 'session',
    ...(format === 3 ? { version: 3 } : {}),
    id: `generated-${options.seed}`,
    timestamp: iso(state),
    cwd: '/home/dev/projects/parser',
    ...(format === 1 ? { provider: state.model.provider, modelId: state.model.model, thinkingLevel: 'off' } : {}),
  });
  const abortAt = random.int(1, Math.max(1, turns - 2));
  const failAt = random.int(1, Math.max(1, turns - 2));
  const compactAt = options.compactions === false ? new Set<number>() : new Set([Math.floor(turns * 0.35), Math.floor(turns * 0.7)]);
  const branchAt = format === 3 && options.branches !== false ? new Set([Math.floor(turns * 0.5), Math.floor(turns * 0.85)]) : new Set<number>();
  for (let t = 0; t < turns; t++) {
    if (t > 0 && random.chance(0.15)) appendThinkingLevelChange(state);
    if (t > 0 && random.chance(0.1)) appendModelChange(state);
    if (t > 0 && options.shellCommands !== false && random.chance(0.12)) appendBashExecution(state);
    const long = t === turns - 1 && options.longLastTurn !== false;
    turn(state, { aborted: t === abortAt, failed: t === failAt && t !== abortAt, long });
    if (compactAt.has(t) && t < turns - 1) appendCompaction(state);
    if (branchAt.has(t) && t < turns - 1) appendBranch(state);
  }
  const text = `${state.lines.map((line) => JSON.stringify(line)).join('\n')}\n`;
  const last = state.lines.at(-1)!;
  return { text, format, leafId: format === 3 ? (last.id as string) : undefined, counts: { ...state.counts, entries: state.lines.length - 1 } };
}

/** One turn: the user asks, tool rounds follow, then the answer (or the abort, or a failure and a retry). */
function turn(state: SessionState, how: { aborted: boolean; failed: boolean; long: boolean }): void {
  const { random } = state;
  appendUserMessage(state);
  const rounds = how.long ? random.int(8, 14) : random.chance(0.3) ? 0 : random.int(1, 4);
  for (let r = 0; r < rounds; r++) {
    if (how.aborted && r === rounds - 1) {
      appendAssistantMessage(state, { kind: 'aborted' });
      return;
    }
    toolRound(state, how.long);
  }
  if (how.aborted) appendAssistantMessage(state, { kind: 'aborted' });
  else if (how.failed) {
    appendAssistantMessage(state, { kind: 'failed' });
    // The user asks again after the error, and the retry answers.
    appendUserMessage(state, 'try again');
    appendAssistantMessage(state, { kind: 'answer' });
  } else appendAssistantMessage(state, { kind: 'answer' });
}

/** The assistant calls one tool, or several at once, and every call gets its result. */
function toolRound(state: SessionState, long: boolean): void {
  const count = state.random.chance(0.35) ? state.random.int(2, 4) : 1;
  const calls = Array.from({ length: count }, () => toolCall(state));
  appendAssistantMessage(state, { kind: 'calls', calls });
  for (const call of calls) appendToolResult(state, call, long);
}

import type { WorkingTurn } from './working-context.js';

type IdKind = 'compaction' | 'call' | 'batch' | 'approval';

/** The id of the next effect the turn issues: derived from the turn's id, so replays repeat it. */
export function nextEffectId(turn: WorkingTurn, kind: IdKind): string {
  return `${turn.turnId}:${kind}:${turn.effectSeq++}`;
}

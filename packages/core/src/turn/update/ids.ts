import type { Draft } from 'immer';
import type { ActiveTurn } from '../context.js';

type IdKind = 'compaction' | 'call' | 'batch';

/** The id of the next effect the turn issues: derived from the turn's id, so replays repeat it. */
export function nextEffectId(turn: Draft<ActiveTurn>, kind: IdKind): string {
  return `${turn.turnId}:${kind}:${turn.effectSeq++}`;
}

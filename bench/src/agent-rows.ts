import type { LoopTimes } from './agent-loops-child.js';
import { LOOP_NAMES, type LoopId } from './loops.js';
import type { Measurement, OperationId } from './measurement.js';

/**
 * The rows of one history length: `subject` (a Tiller loop) beside each of `peers`, as timed in
 * one process. A peer stopped at the limit, here or at a shorter history, is shown over it.
 * Without peers (the one it is compared with could not run here), Tiller's time stands alone.
 */
export function agentRows(
  operation: OperationId,
  subject: LoopId,
  peers: readonly LoopId[],
  size: number,
  times: LoopTimes,
  limitMs: number,
  figure: 'perCallMs' | 'firstTurnMs' = 'perCallMs',
): Measurement[] {
  const tiller = times[figure][subject];
  if (tiller === undefined) return [];
  if (peers.length === 0) return [{ operation, size, unit: 'ms', tiller }];
  return peers.map((peer): Measurement => {
    const value = times[figure][peer];
    const name = LOOP_NAMES[peer];
    if (value === undefined) return { operation, size, unit: 'ms', tiller, reference: { name, value: limitMs, overLimit: true } };
    return { operation, size, unit: 'ms', tiller, reference: { name, value } };
  });
}

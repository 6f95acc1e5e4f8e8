import type { LoopTimes } from './agent-loops-child.js';
import { LOOP_NAMES, type LoopId } from './loops.js';
import type { Measurement, OperationId } from './measurement.js';
import { median } from './median.js';
import { pairedRatio } from './paired-runs.js';

/**
 * The rows of one history length: `subject` (a Tiller loop) beside each of `peers`, as timed in
 * one process: each loop's median, and the ratio as the median of the ratios of runs taken in the
 * same round. A peer stopped at the limit, here or at a shorter history, is shown over it.
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
  const ours = times[figure][subject];
  if (ours === undefined) return [];
  const tiller = median(ours);
  if (peers.length === 0) return [{ operation, size, unit: 'ms', tiller }];
  return peers.map((peer): Measurement => {
    const theirs = times[figure][peer];
    const name = LOOP_NAMES[peer];
    if (theirs === undefined) return { operation, size, unit: 'ms', tiller, reference: { name, value: limitMs, overLimit: true } };
    return { operation, size, unit: 'ms', tiller, reference: { name, value: median(theirs) }, ratio: pairedRatio(ours, theirs) };
  });
}

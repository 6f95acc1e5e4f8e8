import { median } from './median.js';

/** What runs of the same work by two builds, taken in pairs, come to. */
export interface PairedResult {
  /** The median of this build's runs. */
  ours: number;
  /** The median of the other build's runs. */
  theirs: number;
  /** The median over the pairs of ours / theirs: a slow moment of the machine falls on both runs of a pair. */
  ratio: number;
}

/**
 * Runs `ours` and `theirs` one after the other, `pairs` times, each returning its own timing.
 * Which goes first alternates, so neither is always the one that runs after the other's garbage.
 */
export async function pairedRuns(ours: () => Promise<number>, theirs: () => Promise<number>, pairs: number): Promise<PairedResult> {
  if (!Number.isInteger(pairs) || pairs < 1) throw new RangeError(`pairs must be a whole number of at least 1, got ${pairs}`);
  const a: number[] = [];
  const b: number[] = [];
  for (let pair = 0; pair < pairs; pair++) {
    let x: number;
    let y: number;
    if (pair % 2 === 0) {
      x = await ours();
      y = await theirs();
    } else {
      y = await theirs();
      x = await ours();
    }
    a.push(x);
    b.push(y);
  }
  return { ours: median(a), theirs: median(b), ratio: pairedRatio(a, b) };
}

/**
 * The median over runs of `ours[i] / theirs[i]`, where run i of each was taken beside the other's
 * (in the same pair or round): a slow moment of the machine falls on both runs of a pair alike.
 */
export function pairedRatio(ours: readonly number[], theirs: readonly number[]): number {
  if (ours.length !== theirs.length) throw new RangeError(`paired runs need as many of each, got ${ours.length} and ${theirs.length}`);
  return median(ours.map((value, i) => value / theirs[i]!));
}

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
  const ratios: number[] = [];
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
    ratios.push(x / y);
  }
  return { ours: median(a), theirs: median(b), ratio: median(ratios) };
}

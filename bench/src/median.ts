export class EmptySampleError extends Error {
  override readonly name = 'EmptySampleError';
}

/** The middle value of `samples` (the mean of the two middle ones for an even count). */
export function median(samples: readonly number[]): number {
  if (samples.length === 0) throw new EmptySampleError('median of no samples');
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

import { z } from 'zod';

const count = z.number().int().nonnegative();

export const Cost = z.object({
  input: z.number().nonnegative(),
  output: z.number().nonnegative(),
  cacheRead: z.number().nonnegative(),
  cacheWrite: z.number().nonnegative(),
  total: z.number().nonnegative(),
});
export type Cost = z.infer<typeof Cost>;

/** Token counts one model call reported. `totalTokens` is what the provider said, when it said it. */
export const Usage = z.object({
  input: count,
  output: count,
  cacheRead: count,
  cacheWrite: count,
  totalTokens: count,
  cost: Cost.optional(),
});
export type Usage = z.infer<typeof Usage>;

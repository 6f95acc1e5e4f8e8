import { z } from 'zod';
import { Entry } from '../schema/entry.js';

export const TurnConfig = z.object({
  /** Model calls that may use tools in one turn; after that many tool rounds, one final call without tools. */
  maxIterations: z.number().int().nonnegative().default(25),
  /** The session path the turns build on, root first. */
  entries: z.array(Entry).default([]),
});
export type TurnConfig = z.input<typeof TurnConfig>;
export type ResolvedTurnConfig = z.output<typeof TurnConfig>;

export class TurnConfigError extends Error {
  override readonly name = 'TurnConfigError';
}

/** Validates a configuration; the error names the bad option and what was expected. */
export function resolveTurnConfig(config: TurnConfig = {}): ResolvedTurnConfig {
  const parsed = TurnConfig.safeParse(config);
  if (!parsed.success) throw new TurnConfigError(`invalid turn config:\n${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

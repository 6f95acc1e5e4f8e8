import { z } from 'zod';
import { parseOptions } from './parse-options.js';

const tokens = z.number().int().nonnegative();
// One bound, not nonnegative() plus min(1): zod would report both for one value.
const atLeastOneToken = z.number().int().min(1);

/** When to compact and how much recent context to keep verbatim. */
export const CompactionSettings = z.strictObject({
  enabled: z.boolean(),
  /** Room kept free below the window for the next reply (and the summary request). */
  reserveTokens: tokens,
  /** About this many of the newest tokens stay in the context word for word. */
  keepRecentTokens: atLeastOneToken,
});
export type CompactionSettings = z.infer<typeof CompactionSettings>;

/** pi's defaults: compact when fewer than 16,384 tokens of the window are left; keep about 20,000. */
export const DEFAULT_COMPACTION_SETTINGS: CompactionSettings = Object.freeze({
  enabled: true,
  reserveTokens: 16_384,
  keepRecentTokens: 20_000,
});

/**
 * Settings from partial input, defaults filled in. An unknown or bad option throws a
 * `CompactionConfigError` naming it and `entryPoint`.
 */
export function compactionSettings(input: Partial<CompactionSettings> = {}, entryPoint = 'compactionSettings'): CompactionSettings {
  // Checked before the defaults are spread in: spreading a number or a string gives the defaults.
  if (typeof input !== 'object' || input === null || Array.isArray(input)) parseOptions(CompactionSettings.partial(), input, entryPoint);
  return parseOptions(CompactionSettings, { ...DEFAULT_COMPACTION_SETTINGS, ...input }, entryPoint);
}

/** True when the context has grown into the reserve at the top of the window. */
export function shouldCompact(contextTokens: number, contextWindow: number, settings: CompactionSettings): boolean {
  return settings.enabled && contextTokens > contextWindow - settings.reserveTokens;
}

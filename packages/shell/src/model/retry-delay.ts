export interface RetrySettings {
  retryBaseDelayMs: number;
  retryMaxDelayMs: number;
}

/**
 * The wait before retry `attempt` (1 for the first retry): what the provider asked for when it
 * said (capped), else exponential backoff with jitter over its upper half, so many clients that
 * failed together do not retry together.
 */
export function retryDelay(attempt: number, settings: RetrySettings, retryAfterMs: number | undefined, random: () => number = Math.random): number {
  if (retryAfterMs !== undefined) return Math.min(Math.max(0, retryAfterMs), settings.retryMaxDelayMs);
  const ceiling = Math.min(settings.retryMaxDelayMs, settings.retryBaseDelayMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

import { z } from 'zod';

/** The longest a timer can wait: Node fires a longer one after 1 ms (with a warning), not later. */
export const MAX_TIMER_MS = 2_147_483_647;

const fitsATimer = `expected at most ${MAX_TIMER_MS} ms (about 24.8 days), the longest a timer can wait`;

/** A time limit in milliseconds: a whole number above zero that a timer can wait. */
export const timeLimitMs = z.number().int().positive().max(MAX_TIMER_MS, fitsATimer);

/** A delay in milliseconds: as a time limit, zero allowed. */
export const delayMs = z.number().int().nonnegative().max(MAX_TIMER_MS, fitsATimer);

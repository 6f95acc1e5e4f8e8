import { z } from 'zod';
import { FileTools } from './file-operations.js';
import type { ModelCatalog } from './model-catalog.js';
import { DEFAULT_COMPACTION_SETTINGS } from './settings.js';
import { type Summarizer, summarizerSettingsProblem } from './summarizer.js';
import type { TokenCounter } from './token-counter.js';

/** What replaces a cleared tool result's content. */
export const DEFAULT_CLEARED_PLACEHOLDER = '[This tool output was removed to keep the context small. Call the tool again if it is needed.]';

const tokens = z.number().int().nonnegative();
// One bound, not nonnegative() plus min(1): zod would report both for one value.
const atLeastOneToken = z.number().int().min(1);
const fn = <T>(what: string) => z.custom<T>((value) => typeof value === 'function', { message: `expected ${what}` });

export const WindowManagerOptions = z
  .strictObject({
    strategy: z.enum(['summarize', 'clearToolResults', 'keepTail']),
    /** Pins the window; otherwise `ctx.window`, then the catalog, give it. */
    contextWindow: z.number().int().positive().optional(),
    reserveTokens: tokens.default(DEFAULT_COMPACTION_SETTINGS.reserveTokens),
    keepRecentTokens: atLeastOneToken.default(DEFAULT_COMPACTION_SETTINGS.keepRecentTokens),
    summarizer: z
      .custom<Summarizer>((value) => typeof (value as Summarizer | undefined)?.summarize === 'function', {
        message: 'expected a Summarizer (an object with a summarize(request) method)',
      })
      .optional(),
    catalog: z
      .custom<ModelCatalog>((value) => typeof (value as ModelCatalog | undefined)?.contextWindow === 'function', {
        message: 'expected a ModelCatalog',
      })
      .optional(),
    fileTools: FileTools.optional(),
    counter: z
      .custom<TokenCounter>((value) => typeof (value as TokenCounter | undefined)?.count === 'function', {
        message: 'expected a TokenCounter',
      })
      .optional(),
    customInstructions: z.string().optional(),
    placeholder: z.string().min(1).default(DEFAULT_CLEARED_PLACEHOLDER),
    /** Ids and timestamps of appended entries; default `crypto.randomUUID()` and `new Date()`. */
    newId: fn<() => string>('a function returning a new entry id').optional(),
    now: fn<() => Date>('a function returning the current Date').optional(),
  })
  .superRefine((options, ctx) => {
    if (options.strategy === 'summarize' && !options.summarizer) {
      ctx.addIssue({ code: 'custom', path: ['summarizer'], message: 'is required by the summarize strategy' });
    }
    const summarizerProblem = options.summarizer && summarizerSettingsProblem(options.summarizer);
    if (summarizerProblem) ctx.addIssue({ code: 'custom', path: ['summarizer', summarizerProblem.option], message: summarizerProblem.detail });
    if (options.contextWindow !== undefined && options.reserveTokens + options.keepRecentTokens >= options.contextWindow) {
      ctx.addIssue({
        code: 'custom',
        path: ['keepRecentTokens'],
        message: `with reserveTokens ${options.reserveTokens} must leave room in contextWindow ${options.contextWindow}`,
      });
    }
  });
export type WindowManagerInput = z.input<typeof WindowManagerOptions>;

/**
 * The counts a boundary's context carries. A NaN window or prompt size fails every comparison,
 * so the context would silently never compact; a negative one hides what the context holds.
 */
export const BoundaryCounts = z.object({
  ctx: z.looseObject({ window: z.number().int().positive().optional(), promptTokens: z.number().nonnegative() }),
});

/** The options once parsed, defaults filled in. */
export type WindowManagerConfig = z.output<typeof WindowManagerOptions>;

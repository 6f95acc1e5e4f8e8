import type { CompactionEntry, Entry, FileLists, Usage } from '@tiller/core';
import { compactionSummaryMessage } from '@tiller/core';
import { z } from 'zod';
import { compact } from './compact.js';
import { compactionEntry } from './compaction-entry.js';
import type { CompactionAcc, CompactionContext, CompactionMeta, CompactionOutcome, CompactionStrategyName, Compactor } from './compactor.js';
import { entryRole } from './entry-roles.js';
import { CompactionConfigError } from './errors.js';
import { estimateTokens } from './estimate-tokens.js';
import { createFileTracker, DEFAULT_FILE_TOOLS, FileTools } from './file-operations.js';
import { findCutPoint } from './find-cut-point.js';
import { defaultModelCatalog, type ModelCatalog } from './model-catalog.js';
import { parseOptions } from './parse-options.js';
import { keptStartIndex, lastCompactionIndex } from './path-scan.js';
import { carriedClearing, carriedStripThinking, keptContextTokens, prepareCompaction } from './prepare-compaction.js';
import { type CompactionSettings, DEFAULT_COMPACTION_SETTINGS, shouldCompact } from './settings.js';
import { type Summarizer, summarizerSettingsProblem } from './summarizer.js';
import type { TokenCounter } from './token-counter.js';
import { createTokenLedger } from './token-ledger.js';

/** What replaces a cleared tool result's content. */
export const DEFAULT_CLEARED_PLACEHOLDER = '[This tool output was removed to keep the context small. Call the tool again if it is needed.]';

const tokens = z.number().int().nonnegative();
const fn = <T>(what: string) => z.custom<T>((value) => typeof value === 'function', { message: `expected ${what}` });

export const WindowManagerOptions = z
  .strictObject({
    strategy: z.enum(['summarize', 'clearToolResults', 'keepTail']),
    /** Pins the window; otherwise `ctx.window`, then the catalog, give it. */
    contextWindow: z.number().int().positive().optional(),
    reserveTokens: tokens.default(DEFAULT_COMPACTION_SETTINGS.reserveTokens),
    keepRecentTokens: tokens.min(1).default(DEFAULT_COMPACTION_SETTINGS.keepRecentTokens),
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
const BoundaryCounts = z.object({
  ctx: z.looseObject({ window: z.number().int().positive().optional(), promptTokens: z.number().nonnegative() }),
});
type Config = z.output<typeof WindowManagerOptions>;

/** What a strategy decided: the new compaction entry's fields and what left the context. */
interface Plan {
  summary: string;
  firstKeptIndex: number;
  stripThinking: boolean;
  dropped: Entry[];
  cleared: CompactionEntry['cleared'];
  details: FileLists | undefined;
  usage?: Usage | undefined;
  summarizerModel?: string | undefined;
  warnings?: string[] | undefined;
}

type Strategy = (path: readonly Entry[], ctx: CompactionContext, config: Config) => Promise<Plan | null>;

export interface WindowManager extends Compactor<Partial<WindowManagerInput>> {
  windowFor(model: string, opts?: Partial<WindowManagerInput>): number;
  /** `reserveTokens`, whatever the model: it compacts once the context passes `window - reserveTokens`. */
  reserveFor(model: string, opts?: Partial<WindowManagerInput>): number;
}

/**
 * Keeps the context under the model's window. At every boundary it checks the estimate (O(1) with
 * a ledger) against `window - reserveTokens` and does nothing while the context fits, mid-round
 * included. Over the line it compacts with its strategy; between tool rounds the kept messages
 * also lose their thinking blocks. A failure is reported in `meta.error`, nothing appended.
 */
export function WindowManager(options: WindowManagerInput): WindowManager {
  const base = parseOptions(WindowManagerOptions, options, 'WindowManager');
  const configFor = (opts: Partial<WindowManagerInput> | undefined, entryPoint: string): Config =>
    opts === undefined ? base : parseOptions(WindowManagerOptions, { ...options, ...opts }, entryPoint);
  const windowOf = (config: Config, model: string, ctxWindow: number | undefined, entryPoint: string): number => {
    const window = config.contextWindow ?? ctxWindow ?? (config.catalog ?? defaultModelCatalog).requireContextWindow(model, entryPoint);
    if (config.reserveTokens + config.keepRecentTokens >= window) {
      throw new CompactionConfigError(
        entryPoint,
        'keepRecentTokens',
        `(${config.keepRecentTokens}) with reserveTokens (${config.reserveTokens}) leaves no room in the ${window}-token window of "${model}"`,
      );
    }
    return window;
  };

  return {
    name: 'windowManager',
    needsWindow: (opts) => configFor(opts, 'WindowManager.needsWindow').contextWindow === undefined,
    validateOpts: (opts, entryPoint) => {
      configFor(opts ?? {}, entryPoint);
    },
    windowFor: (model, opts) => windowOf(configFor(opts, 'WindowManager.windowFor'), model, undefined, 'WindowManager.windowFor'),
    reserveFor: (_model, opts) => configFor(opts, 'WindowManager.reserveFor').reserveTokens,
    async maybeCompact(acc: CompactionAcc, ctx: CompactionContext, opts?: Partial<WindowManagerInput>): Promise<CompactionOutcome> {
      const unchanged = (extra: { error?: Error; skipped?: string } = {}): CompactionOutcome => ({
        acc,
        meta: { compacted: false, appended: [], ...extra },
      });
      try {
        parseOptions(BoundaryCounts, { ctx }, 'WindowManager.maybeCompact');
        const config = configFor(opts, 'WindowManager.maybeCompact');
        const window = windowOf(config, ctx.model, ctx.window, 'WindowManager.maybeCompact');
        const settings: CompactionSettings = { enabled: true, reserveTokens: config.reserveTokens, keepRecentTokens: config.keepRecentTokens };
        const ledger =
          acc.ledger && acc.ledger.length === acc.path.length ? acc.ledger : createTokenLedger(acc.path, { counter: config.counter });
        const estimate = ledger.estimate();
        const tokensBefore = estimate.tokens + (estimate.anchored ? 0 : ctx.promptTokens);
        if (!ctx.force && !shouldCompact(tokensBefore, window, settings)) return unchanged();

        const plan = await STRATEGIES[config.strategy](acc.path, ctx, config);
        if (!plan) return unchanged({ skipped: 'nothing would leave the context' });

        const { stripThinking } = plan;
        const tokensAfter =
          keptContextTokens(acc.path, plan.firstKeptIndex, { cleared: plan.cleared, stripThinking }, config.counter) +
          (plan.summary ? estimateTokens(compactionSummaryMessage(plan.summary), config.counter) : 0) +
          ctx.promptTokens;
        // A compaction that would not shrink the context (a summary longer than what it replaces)
        // is not worth an entry.
        if (tokensAfter >= tokensBefore) return unchanged({ skipped: `the context would not shrink (${tokensBefore} -> ${tokensAfter} tokens)` });
        const entry = compactionEntry(
          {
            summary: plan.summary,
            firstKeptEntryId: acc.path[plan.firstKeptIndex]!.id,
            tokensBefore,
            tokensAfter,
            compactedEntryIds: plan.dropped.map((dropped) => dropped.id),
            cleared: plan.cleared,
            stripThinking,
            details: plan.details,
            usage: plan.usage,
            summarizerModel: plan.summarizerModel,
          },
          {
            id: (config.newId ?? (() => crypto.randomUUID()))(),
            parentId: acc.path.at(-1)?.id ?? null,
            at: (config.now ?? (() => new Date()))().toISOString(),
            strategy: config.strategy,
            midRound: ctx.midRound,
          },
        );
        ledger.append(entry);
        const meta: CompactionMeta = {
          compacted: true,
          appended: [entry],
          strategy: config.strategy satisfies CompactionStrategyName,
          tokensBefore,
          tokensAfter,
          tokensRemoved: tokensBefore - tokensAfter,
          dropped: plan.dropped,
          clearedEntryIds: plan.cleared?.entryIds ?? [],
          midRound: ctx.midRound,
          summarizerUsage: plan.usage,
          ...(plan.warnings && plan.warnings.length > 0 ? { warnings: plan.warnings } : {}),
        };
        return { acc: { path: [...acc.path, entry], ledger }, meta };
      } catch (error) {
        return unchanged({ error: error instanceof Error ? error : new Error(String(error)) });
      }
    },
  };
}

/** pi's algorithm: summarize what leaves, keep about `keepRecentTokens` verbatim. */
const summarize: Strategy = async (path, ctx, config) => {
  const settings = { enabled: true, reserveTokens: config.reserveTokens, keepRecentTokens: config.keepRecentTokens };
  const preparation = prepareCompaction(path, settings, {
    counter: config.counter,
    fileTools: config.fileTools,
    stripThinking: ctx.midRound,
    promptTokens: ctx.promptTokens,
  });
  if (!preparation) return null;
  const result = await compact(preparation, config.summarizer!, {
    signal: ctx.signal,
    customInstructions: config.customInstructions,
    counter: config.counter,
  });
  return {
    summary: result.summary,
    firstKeptIndex: preparation.firstKeptIndex,
    stripThinking: result.stripThinking,
    dropped: [...preparation.compactedEntries],
    cleared: result.cleared,
    details: result.details,
    usage: result.usage,
    summarizerModel: result.summarizerModel,
    warnings: result.warnings,
  };
};

/** The oldest whole turns leave the context, with no summary in their place. */
const keepTail: Strategy = async (path, ctx, config) => {
  const { start, previous, previousIndex } = currentContext(path);
  const cut = findCutPoint(path, start, path.length, config.keepRecentTokens, config.counter);
  if (!cut.reached) return null;
  // Keep the whole turn the cut falls in; inside the turn only when that turn is all there is.
  const firstKeptIndex = cut.isSplitTurn && hasContextBetween(path, start, cut.turnStartIndex) ? cut.turnStartIndex : cut.firstKeptIndex;
  const dropped = contextEntries(path, start, firstKeptIndex);
  if (dropped.length === 0) return null;
  const tracker = createFileTracker(config.fileTools ?? DEFAULT_FILE_TOOLS);
  tracker.carry(previous?.details);
  for (const entry of dropped) {
    const role = entryRole(entry);
    if (role.kind !== 'none') tracker.add(role.message);
  }
  return {
    summary: '',
    firstKeptIndex,
    stripThinking: ctx.midRound || carriedStripThinking(previous, previousIndex, firstKeptIndex),
    dropped,
    cleared: carriedClearing(path, previous, previousIndex, firstKeptIndex),
    details: tracker.lists(),
  };
};

/** Old tool results keep their place (the call keeps its result) but lose their content. */
const clearToolResults: Strategy = async (path, ctx, config) => {
  const { start, previous, previousIndex } = currentContext(path);
  if (start >= path.length) return null;
  let accumulated = 0;
  let tailStart = -1;
  for (let i = path.length - 1; i >= start; i--) {
    const role = entryRole(path[i]!);
    if (role.kind === 'none') continue;
    accumulated += estimateTokens(role.message, config.counter);
    if (accumulated >= config.keepRecentTokens) {
      tailStart = i;
      break;
    }
  }
  if (tailStart < 0) return null;
  const carried = new Set(carriedClearing(path, previous, previousIndex, start)?.entryIds ?? []);
  // Only results longer than the placeholder are worth clearing.
  const placeholderTokens = estimateTokens({ role: 'toolResult', toolCallId: '-', toolName: '-', content: [{ type: 'text', text: config.placeholder }], isError: false }, config.counter);
  const entryIds = new Set<string>();
  for (let i = start; i < tailStart; i++) {
    const entry = path[i]!;
    const role = entryRole(entry);
    if (role.kind !== 'toolResult' || carried.has(entry.id)) continue;
    if (estimateTokens(role.message, config.counter) <= placeholderTokens) continue;
    entryIds.add(entry.id);
  }
  if (entryIds.size === 0) return null;
  for (const id of carried) entryIds.add(id);
  return {
    summary: previous?.summary ?? '',
    firstKeptIndex: start,
    stripThinking: ctx.midRound || carriedStripThinking(previous, previousIndex, start),
    dropped: [],
    cleared: { entryIds: [...entryIds], placeholder: config.placeholder },
    details: previous?.details,
  };
};

const STRATEGIES: Record<CompactionStrategyName, Strategy> = { summarize, keepTail, clearToolResults };

function currentContext(path: readonly Entry[]) {
  const previousIndex = lastCompactionIndex(path);
  const previous = previousIndex >= 0 ? (path[previousIndex] as CompactionEntry) : undefined;
  return { previous, previousIndex, start: keptStartIndex(path, previousIndex) };
}

function contextEntries(path: readonly Entry[], from: number, to: number): Entry[] {
  const out: Entry[] = [];
  for (let i = from; i < to; i++) if (entryRole(path[i]!).kind !== 'none') out.push(path[i]!);
  return out;
}

function hasContextBetween(path: readonly Entry[], from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (entryRole(path[i]!).kind !== 'none') return true;
  return false;
}

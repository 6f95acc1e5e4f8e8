import { compactionSummaryMessage } from '@tiller/core';
import { catalogWindow } from './catalog-window.js';
import { clearToolResults } from './clear-tool-results-strategy.js';
import { compactionEntry } from './compaction-entry.js';
import { describeValue } from './describe-value.js';
import { entryStamp } from './entry-stamp.js';
import type { Strategy } from './compaction-strategy.js';
import type { CompactionAcc, CompactionContext, CompactionMeta, CompactionOutcome, CompactionStrategyName, Compactor } from './compactor.js';
import { CompactionConfigError } from './errors/index.js';
import { estimateTokens } from './estimate-tokens.js';
import { keepTail } from './keep-tail-strategy.js';
import { defaultModelCatalog } from './model-catalog.js';
import { requireModelId } from './model-id.js';
import { parseOptions } from './parse-options.js';
import { keptContextTokens } from './prepare-compaction.js';
import { type CompactionSettings, shouldCompact } from './settings.js';
import { summarize } from './summarize-strategy.js';
import { createTokenLedger } from './token-ledger.js';
import { BoundaryCounts, type WindowManagerConfig, type WindowManagerInput, WindowManagerOptions } from './window-manager-options.js';

export type { WindowManagerInput } from './window-manager-options.js';

const STRATEGIES: Record<CompactionStrategyName, Strategy> = { summarize, keepTail, clearToolResults };

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
  const configFor = (opts: Partial<WindowManagerInput> | undefined, entryPoint: string): WindowManagerConfig => {
    if (opts === undefined) return base;
    // Spread, a string would become its characters and a number or null nothing at all.
    if (typeof opts !== 'object' || opts === null || Array.isArray(opts)) {
      throw new CompactionConfigError(entryPoint, undefined, `is invalid: expected an object of WindowManager options (or none), not ${describeValue(opts)}`);
    }
    return parseOptions(WindowManagerOptions, { ...options, ...opts }, entryPoint);
  };
  const windowOf = (config: WindowManagerConfig, model: string, ctxWindow: number | undefined, entryPoint: string): number => {
    const window = config.contextWindow ?? ctxWindow ?? catalogWindow(config.catalog ?? defaultModelCatalog, model, entryPoint);
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
      configFor(opts, entryPoint);
    },
    windowFor: (model, opts) =>
      windowOf(configFor(opts, 'WindowManager.windowFor'), requireModelId(model, 'WindowManager.windowFor', 'model'), undefined, 'WindowManager.windowFor'),
    reserveFor: (_model, opts) => configFor(opts, 'WindowManager.reserveFor').reserveTokens,
    async maybeCompact(acc: CompactionAcc, ctx: CompactionContext, opts?: Partial<WindowManagerInput>): Promise<CompactionOutcome> {
      const unchanged = (extra: { error?: Error; skipped?: string } = {}): CompactionOutcome => ({
        acc,
        meta: { compacted: false, appended: [], ...extra },
      });
      try {
        parseOptions(BoundaryCounts, { ctx }, 'WindowManager.maybeCompact');
        const model = requireModelId(ctx.model, 'WindowManager.maybeCompact', 'ctx.model');
        const config = configFor(opts, 'WindowManager.maybeCompact');
        const window = windowOf(config, model, ctx.window, 'WindowManager.maybeCompact');
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
            ...entryStamp(config, 'WindowManager.maybeCompact'),
            parentId: acc.path.at(-1)?.id ?? null,
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

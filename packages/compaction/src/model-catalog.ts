import { z } from 'zod';
import { CompactionConfigError } from './errors/index.js';
import { requireModelId } from './model-id.js';
import { parseOptions } from './parse-options.js';

/** Context windows (input + output tokens) of current models, by the provider's model id. */
export const KNOWN_CONTEXT_WINDOWS: Readonly<Record<string, number>> = Object.freeze({
  // OpenAI
  'gpt-4o': 128_000,
  'gpt-4o-mini': 128_000,
  'gpt-4.1': 1_047_576,
  'gpt-4.1-mini': 1_047_576,
  'gpt-4.1-nano': 1_047_576,
  o1: 200_000,
  o3: 200_000,
  'o3-mini': 200_000,
  'o3-pro': 200_000,
  'o4-mini': 200_000,
  'gpt-5': 400_000,
  'gpt-5-mini': 400_000,
  'gpt-5-nano': 400_000,
  'gpt-5-codex': 400_000,
  'gpt-5-chat-latest': 128_000,
  'gpt-5.1': 400_000,
  'gpt-5.1-codex': 400_000,
  'gpt-5.1-codex-mini': 400_000,
  'gpt-5.1-codex-max': 400_000,
  'gpt-5.1-chat-latest': 128_000,
  'gpt-5.2': 400_000,
  'gpt-5.2-codex': 400_000,
  // Anthropic
  'claude-3-5-haiku': 200_000,
  'claude-3-7-sonnet': 200_000,
  'claude-sonnet-4': 200_000,
  'claude-sonnet-4-0': 200_000,
  'claude-opus-4': 200_000,
  'claude-opus-4-0': 200_000,
  'claude-opus-4-1': 200_000,
  'claude-sonnet-4-5': 200_000,
  'claude-haiku-4-5': 200_000,
  'claude-opus-4-5': 200_000,
  'claude-sonnet-4-6': 1_000_000,
  'claude-opus-4-6': 1_000_000,
  // Google
  'gemini-2.0-flash': 1_048_576,
  'gemini-2.0-flash-lite': 1_048_576,
  'gemini-2.5-pro': 1_048_576,
  'gemini-2.5-flash': 1_048_576,
  'gemini-2.5-flash-lite': 1_048_576,
  'gemini-3-pro-preview': 1_000_000,
  'gemini-3-flash-preview': 1_048_576,
});

/** Model ids to context windows. Lookups accept `provider/model` and dated or `-latest` ids. */
export interface ModelCatalog {
  /** The window of `model`, or undefined when the catalog does not know it. */
  contextWindow(model: string): number | undefined;
  /** The window of `model`; throws a `CompactionConfigError` naming the model when unknown. */
  requireContextWindow(model: string, entryPoint: string): number;
  /** A new catalog with these models added (or overriding known ones). */
  with(more: Record<string, number>): ModelCatalog;
  /** Every id the catalog knows. */
  ids(): string[];
}

const Windows = z.record(z.string().min(1), z.number().int().positive());

// Dated snapshots and aliases of a known model: claude-sonnet-4-5-20250929, gpt-4o-2024-11-20, *-latest.
const VERSION_SUFFIX = /-(\d{8}|\d{4}-\d{2}-\d{2}|latest)$/;

export function createModelCatalog(windows: Record<string, number> = KNOWN_CONTEXT_WINDOWS): ModelCatalog {
  const table = new Map(Object.entries(parseOptions(Windows, windows, 'createModelCatalog')));
  const contextWindow = (id: string): number | undefined => {
    const model = requireModelId(id, 'ModelCatalog.contextWindow', 'model');
    const bare = model.includes('/') ? model.slice(model.lastIndexOf('/') + 1) : model;
    return table.get(model) ?? table.get(bare) ?? table.get(bare.replace(VERSION_SUFFIX, ''));
  };
  return {
    contextWindow,
    requireContextWindow(model, entryPoint) {
      const window = contextWindow(requireModelId(model, entryPoint, 'model'));
      if (window === undefined) {
        throw new CompactionConfigError(
          entryPoint,
          'contextWindow',
          `is required: the model catalog does not know "${model}"; pin its window with contextWindow or add the model to the catalog`,
        );
      }
      return window;
    },
    with: (more) => createModelCatalog({ ...Object.fromEntries(table), ...more }),
    ids: () => [...table.keys()],
  };
}

/** The catalog of current OpenAI, Anthropic and Google models. */
export const defaultModelCatalog: ModelCatalog = createModelCatalog();

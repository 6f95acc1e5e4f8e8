import { describeValue } from './describe-value.js';
import { CompactionConfigError } from './errors/index.js';
import type { ModelCatalog } from './model-catalog.js';

/**
 * The window a catalog gives for `model`, asked through `contextWindow(model)` alone: the one
 * method the `catalog` option is checked for, so a catalog written by hand works. Its answer is
 * checked, since a NaN (or `'200000'`) window fails every comparison and the context would
 * silently never compact; an unknown model is a `CompactionConfigError` naming `contextWindow`.
 */
export function catalogWindow(catalog: ModelCatalog, model: string, entryPoint: string): number {
  const window: unknown = catalog.contextWindow(model);
  if (window === undefined) {
    throw new CompactionConfigError(
      entryPoint,
      'contextWindow',
      `is required: the model catalog does not know ${JSON.stringify(model)}; pin its window with contextWindow or add the model to the catalog`,
    );
  }
  if (typeof window !== 'number' || !Number.isSafeInteger(window) || window <= 0) {
    throw new CompactionConfigError(entryPoint, 'catalog', `is invalid: its contextWindow(${JSON.stringify(model)}) answered ${describeValue(window)}, not a positive whole number of tokens`);
  }
  return window;
}

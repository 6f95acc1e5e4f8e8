import { describeValue } from './describe-value.js';
import { CompactionConfigError } from './errors/index.js';

/**
 * `model` as a model id, or a `CompactionConfigError` naming where it was given. A host written in
 * JavaScript may pass `undefined` (a model object whose `id` it forgot): looked up as it is, that
 * failed as a bare TypeError deep in the catalog, naming neither the call nor the argument.
 */
export function requireModelId(model: unknown, entryPoint: string, option: string): string {
  if (typeof model === 'string' && model !== '') return model;
  throw new CompactionConfigError(entryPoint, option, `is invalid: expected a model id (a non-empty string), not ${describeValue(model)}`);
}

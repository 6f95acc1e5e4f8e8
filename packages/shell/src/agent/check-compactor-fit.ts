import type { Compactor } from '@tiller/compaction';
import type { TillerModel } from '@tiller/core';
import { describeThrown } from '../describe-thrown.js';
import { AgentOptionsError } from '../errors/agent-options-error.js';

/**
 * Asks the compactor, when the agent is made, what it needs of the model: a window when it says it
 * needs one (the model's, or one its `windowFor` knows), and a whole-number reserve (recorded in
 * each journal header). A compactor that cannot work for the model fails here, naming itself, not
 * at every boundary with no window.
 */
export function checkCompactorFit(compactor: Compactor<any>, options: unknown, model: Pick<TillerModel, 'id' | 'contextWindow'>, entryPoint: string): void {
  const named = `${entryPoint}: compactor "${compactor.name}"`;
  let needsWindow: boolean | undefined;
  try {
    needsWindow = compactor.needsWindow?.(options);
  } catch (error) {
    throw new AgentOptionsError(`${named}: needsWindow threw: ${describeThrown(error)}`);
  }
  if (needsWindow && model.contextWindow === undefined) {
    // The compactor may still find the window in its catalog; only a missing entry there is an error.
    if (!compactor.windowFor) {
      throw new AgentOptionsError(
        `${named} needs the model's context window, and neither the model nor the compactor knows it (it has no windowFor); set model.contextWindow`,
      );
    }
    let window: unknown;
    try {
      window = compactor.windowFor(model.id, options);
    } catch (error) {
      throw new AgentOptionsError(`${named} needs the model's context window: ${describeThrown(error)}; set model.contextWindow`);
    }
    if (!Number.isSafeInteger(window) || (window as number) <= 0) {
      throw new AgentOptionsError(`${named}: windowFor(${JSON.stringify(model.id)}) must return a positive whole number of tokens, got ${said(window)}`);
    }
  }
  if (compactor.reserveFor) {
    // Recorded in each journal header: a compactor that cannot say it fails here, not mid-run.
    let reserve: unknown;
    try {
      reserve = compactor.reserveFor(model.id, options);
    } catch (error) {
      throw new AgentOptionsError(`${named}: reserveFor threw: ${describeThrown(error)}`);
    }
    if (!Number.isSafeInteger(reserve) || (reserve as number) < 0) {
      throw new AgentOptionsError(`${named}: reserveFor must return a whole number of tokens (0 or more), got ${said(reserve)}`);
    }
  }
}

/** A returned value as a message shows it: a number as itself (JSON says null for NaN), anything else as JSON. */
function said(value: unknown): string {
  return typeof value === 'number' ? String(value) : (JSON.stringify(value) ?? String(value));
}

import { ModelError, type LlmFailure } from '@tiller/core';
import { describeThrown } from '../describe-thrown.js';

/** A model failure as the shell handles it: the core's failure plus the provider's requested wait. */
export interface ModelFailure extends LlmFailure {
  retryAfterMs?: number | undefined;
}

/** How a thrown value ends a call: aborted when the turn's signal fired, else the error's own kind (fatal when unknown). */
export function toModelFailure(error: unknown, signal: AbortSignal): ModelFailure {
  if (signal.aborted) return { kind: 'aborted', message: abortReason(signal) };
  // By its marker, not `instanceof`: a model built on another copy of @tiller/core throws that copy's class.
  if (ModelError.isInstance(error)) {
    return { kind: error.kind, message: error.message, ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }) };
  }
  return { kind: 'fatal', message: describeThrown(error) };
}

export function abortReason(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  if (typeof reason === 'string') return reason;
  if (reason instanceof Error && reason.name !== 'AbortError') return reason.message;
  return 'aborted';
}

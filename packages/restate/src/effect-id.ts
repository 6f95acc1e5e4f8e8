import type { BlockingEffect } from '@tiller/core';

/** The id a blocking effect carries, which its answer must name. */
export function blockingId(effect: BlockingEffect): string {
  switch (effect.type) {
    case 'maybe_compact':
      return effect.compactionId;
    case 'call_llm':
      return effect.callId;
    case 'run_tools':
    case 'request_approval':
      return effect.batchId;
    default: {
      const unknown: never = effect;
      throw new TypeError(`unknown blocking effect ${JSON.stringify(unknown)}`);
    }
  }
}

/** The id field of the input that answers `effect`. */
export function answerId(effect: BlockingEffect): Record<string, string> {
  switch (effect.type) {
    case 'maybe_compact':
      return { compactionId: effect.compactionId };
    case 'call_llm':
      return { callId: effect.callId };
    case 'run_tools':
    case 'request_approval':
      return { batchId: effect.batchId };
    default: {
      const unknown: never = effect;
      throw new TypeError(`unknown blocking effect ${JSON.stringify(unknown)}`);
    }
  }
}

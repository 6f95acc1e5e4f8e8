import type { BlockingEffect, Effect, ProgressEvent, TurnEvent, TurnEventOf } from '@tiller/core';
import type { EffectAnswer } from '../effects/effect-context.js';

/**
 * What the mailbox holds: an input a host call fed (the caller waits for it to be applied), the
 * answer to effect `id` (applied only if the turn still waits on that effect), a turn's start
 * (which first looks where the log stands and asks the compaction policy), or a blocking
 * effect to carry out again (a resumed turn).
 */
export type Reply<T = void> = { resolve(value: T): void; reject(error: unknown): void };
export type Letter =
  /** Answered with the effects its step gave, so the caller can tell whether the core took it. */
  | { kind: 'input'; input: TurnEvent; reply: Reply<readonly Effect[]> }
  | { kind: 'start'; input: TurnEventOf<'turn.start'>; reply: Reply }
  | { kind: 'answer'; id: string; answer: EffectAnswer }
  /** `retold`: what the turn told of the effect before the crash, told again to this run's listeners first. */
  | { kind: 'perform'; effect: BlockingEffect; retold?: ProgressEvent | undefined };

import type { BlockingEffect, TurnEvent, TurnEventOf } from '@tiller/core';
import type { EffectAnswer } from '../effects/effect-context.js';

/**
 * What the mailbox holds: an input a host call fed (the caller waits for it to be applied), the
 * answer to effect `id` (applied only if the turn still waits on that effect), a turn's start
 * (which first looks where the log stands and asks the compaction policy), or a blocking
 * effect to carry out again (a resumed turn).
 */
export type Reply = { resolve(): void; reject(error: unknown): void };
export type Letter =
  | { kind: 'input'; input: TurnEvent; reply: Reply }
  | { kind: 'start'; input: TurnEventOf<'turn.start'>; reply: Reply }
  | { kind: 'answer'; id: string; answer: EffectAnswer }
  | { kind: 'perform'; effect: BlockingEffect };

import type { RequestApprovalEffect } from '@tiller/core';
import { now } from '../clock.js';
import type { EffectContext } from './effect-context.js';

/** `request_approval`: the batch is parked until the host decides every asked call (or the timeout denies the rest). */
export async function requestApproval(effect: RequestApprovalEffect, shell: EffectContext): Promise<void> {
  shell.approvals.park(effect, (decisions) => shell.answer(effect.id, { type: 'approval.decided', id: effect.id, at: now(), decisions }));
}

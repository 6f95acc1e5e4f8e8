import * as restate from '@restatedev/restate-sdk';
import { type IgnoredNote, start } from '@tiller/core';
import { z } from 'zod';
import { dropMessages } from './drive-turn.js';
import { TurnMessage } from './turn-message.js';

/**
 * The inbox of a session: a virtual object of its own (same key as the session), so messages
 * reach a running turn instead of queueing behind its exclusive handler. Its handlers are
 * exclusive and short, which numbers the messages of a turn without gaps: the turn takes them
 * by number, durably, and a parked approval wakes on the signal of the next number. A message
 * sent while no turn runs belongs to none: it is dropped, as the core and the shell drop it.
 */
export interface InboxState {
  /** The invocation of the running turn, if one runs. */
  target: string | null;
  /** Messages posted to the running turn, numbered from 0. */
  messages: TurnMessage[];
  abortReason: string | null;
}

export const messageSignal = (seq: number) => `tiller.message.${seq}`;

/**
 * What became of a message: it reached the running turn, or no turn was running and it was
 * dropped with the core's note (which carries a steer's or follow-up's message, to send again).
 */
export type PostResult = { delivered: 'turn' } | { delivered: 'dropped'; note: IgnoredNote };

export function inboxObject(name: string) {
  return restate.object({
    name,
    description: 'Messages for the running turn of a Tiller session: steers, follow-ups, approvals, aborts.',
    handlers: {
      /** The turn starts: messages are now its own. */
      open: async (ctx: restate.ObjectContext<InboxState>, request: { invocationId: string }): Promise<void> => {
        ctx.set('target', request.invocationId);
        ctx.set('messages', []);
        ctx.clear('abortReason');
      },
      post: async (ctx: restate.ObjectContext<InboxState>, posted: unknown): Promise<PostResult> => {
        const checked = TurnMessage.safeParse(posted);
        if (!checked.success) {
          // Anyone who reaches the ingress can post: what a turn could not use is refused here, not in the turn.
          const note = malformedNote(posted, checked.error);
          ctx.console.warn(`${name}/${ctx.key}: dropped a message: ${note.reason}`);
          return { delivered: 'dropped', note };
        }
        const message = checked.data;
        const target = await ctx.get('target');
        if (!target) return { delivered: 'dropped', note: dropMessages(start(), [message])[0]! };
        const messages = (await ctx.get('messages')) ?? [];
        ctx.set('messages', [...messages, message]);
        ctx.invocation(target as restate.InvocationId).signal<TurnMessage>(messageSignal(messages.length)).resolve(message);
        return { delivered: 'turn' };
      },
      take: async (ctx: restate.ObjectContext<InboxState>, request: { from: number }): Promise<TurnMessage[]> =>
        ((await ctx.get('messages')) ?? []).slice(request.from),
      /** The turn ended: what it did not take comes back, for the turn to drop with the core's notes. */
      close: async (ctx: restate.ObjectContext<InboxState>, request: { taken: number }): Promise<TurnMessage[]> => {
        const left = ((await ctx.get('messages')) ?? []).slice(request.taken);
        ctx.set('target', null);
        ctx.set('messages', []);
        return left;
      },
      /** Cancels the running turn's invocation; the turn ends `aborted` with this reason. */
      abort: async (ctx: restate.ObjectContext<InboxState>, request: { reason: string }): Promise<{ aborted: boolean }> => {
        const target = await ctx.get('target');
        if (!target) return { aborted: false };
        ctx.set('abortReason', request.reason);
        ctx.invocation(target as restate.InvocationId).cancel();
        return { aborted: true };
      },
      abortReason: async (ctx: restate.ObjectContext<InboxState>): Promise<string | null> => (await ctx.get('abortReason')) ?? null,
    },
  });
}

function malformedNote(posted: unknown, error: z.ZodError): IgnoredNote {
  const { kind, at } = (typeof posted === 'object' && posted !== null ? posted : {}) as { kind?: unknown; at?: unknown };
  return {
    eventType: typeof kind === 'string' && kind !== '' ? kind : 'message',
    reason: `the message is not a valid turn message:\n${z.prettifyError(error)}`,
    ...(typeof at === 'string' ? { at } : {}),
  };
}

export type InboxObject = ReturnType<typeof inboxObject>;

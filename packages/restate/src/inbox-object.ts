import * as restate from '@restatedev/restate-sdk';
import type { TurnMessage } from './turn-message.js';

/**
 * The inbox of a session: a virtual object of its own (same key as the session), so messages
 * reach a running turn instead of queueing behind its exclusive handler. Its handlers are
 * exclusive and short, which numbers the messages of a turn without gaps: the turn takes them
 * by number, durably, and a parked approval wakes on the signal of the next number.
 */
export interface InboxState {
  /** The invocation of the running turn, if one runs. */
  target: string | null;
  /** Messages posted to the running turn, numbered from 0. */
  messages: TurnMessage[];
  /** Messages posted while no turn ran, or left untaken by the last turn: the next turn gets them first. */
  parked: TurnMessage[];
  abortReason: string | null;
}

export const messageSignal = (seq: number) => `tiller.message.${seq}`;

export type PostResult = { delivered: 'turn' | 'parked' };

export function inboxObject(name: string) {
  return restate.object({
    name,
    description: 'Messages for the running turn of a Tiller session: steers, follow-ups, approvals, aborts.',
    handlers: {
      /** The turn starts: messages are now its own; it gets the ones that waited. */
      open: async (ctx: restate.ObjectContext<InboxState>, request: { invocationId: string }): Promise<TurnMessage[]> => {
        const parked = (await ctx.get('parked')) ?? [];
        ctx.set('target', request.invocationId);
        ctx.set('messages', []);
        ctx.set('parked', []);
        ctx.clear('abortReason');
        return parked;
      },
      post: async (ctx: restate.ObjectContext<InboxState>, message: TurnMessage): Promise<PostResult> => {
        const target = await ctx.get('target');
        if (!target) {
          ctx.set('parked', [...((await ctx.get('parked')) ?? []), message]);
          return { delivered: 'parked' };
        }
        const messages = (await ctx.get('messages')) ?? [];
        ctx.set('messages', [...messages, message]);
        ctx.invocation(target as restate.InvocationId).signal<TurnMessage>(messageSignal(messages.length)).resolve(message);
        return { delivered: 'turn' };
      },
      take: async (ctx: restate.ObjectContext<InboxState>, request: { from: number }): Promise<TurnMessage[]> =>
        ((await ctx.get('messages')) ?? []).slice(request.from),
      /** The turn ended: what it did not take waits for the next one. */
      close: async (ctx: restate.ObjectContext<InboxState>, request: { taken: number }): Promise<void> => {
        const left = ((await ctx.get('messages')) ?? []).slice(request.taken);
        if (left.length > 0) ctx.set('parked', [...left, ...((await ctx.get('parked')) ?? [])]);
        ctx.set('target', null);
        ctx.set('messages', []);
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

export type InboxObject = ReturnType<typeof inboxObject>;

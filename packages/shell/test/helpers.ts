import type { Entry } from '@tiller/core';
import { MemoryStore } from '@tiller/session';
import { z } from 'zod';
import { defineTool } from '../src/index.js';
import type { AgentEvent } from '../src/index.js';
import type { Agent } from '../src/index.js';

/** Tools the scenarios share: each records the calls it got. */
export function recordingTools() {
  const calls: Array<{ name: string; args: unknown; toolCallId: string }> = [];
  const echo = defineTool({
    name: 'echo',
    description: 'Returns its text.',
    input: z.object({ text: z.string() }),
    execute: async (args, { toolCallId }) => {
      calls.push({ name: 'echo', args, toolCallId });
      return args.text;
    },
  });
  const sleep = defineTool({
    name: 'sleep',
    description: 'Waits, then says how long.',
    input: z.object({ ms: z.number().int().nonnegative() }),
    execute: async (args, { signal, toolCallId }) => {
      calls.push({ name: 'sleep', args, toolCallId });
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, args.ms);
        signal.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(new Error('stopped'));
        });
      });
      return `slept ${args.ms}`;
    },
  });
  return { calls, echo, sleep };
}

/** Every event an agent publishes, for assertions. */
export function recordEvents(agent: Agent): AgentEvent[] {
  const events: AgentEvent[] = [];
  agent.subscribe((e) => events.push(e));
  return events;
}

/** Resolves with the first event of `type` (already seen ones included). */
export function nextEvent<T extends AgentEvent['type']>(agent: Agent, type: T): Promise<Extract<AgentEvent, { type: T }>> {
  return new Promise((resolve) => {
    const off = agent.subscribe((e) => {
      if (e.type === type) {
        off();
        resolve(e as Extract<AgentEvent, { type: T }>);
      }
    });
  });
}

/** A memory store whose appends fail, once `failing` is set, with `fault` thrown as it is (an Error, null, anything). */
export class FaultyStore extends MemoryStore {
  failing = false;
  constructor(private readonly fault: unknown) {
    super();
  }
  override async append(entries: readonly Entry[]): Promise<void> {
    if (this.failing) throw this.fault;
    return super.append(entries);
  }
}

import type { Message } from '@tiller/core';
import { defineTool } from '@tiller/shell';
import { scriptedModel, type ScriptedCall } from '@tiller/testing';
import { z } from 'zod';
import type { ServeOptions } from '../../src/index.js';

/** How many tool rounds the scripted turn makes before its final answer. */
export const ROUNDS = 12;

/**
 * The agent every test worker serves. Its model is a function of the request, not of how many
 * calls this process made, so a turn that moves to another worker goes on where it was: round
 * n (the assistant messages so far) asks for two `work` calls that sleep what the user's prompt
 * says (and, in the refused round, one to a tool it does not have), or asks for approval of
 * `deploy`, or answers. `work` is not idempotent, `lookup` is.
 * Progress events are logged too (`event <turn>/<seq>/<type>`, `<type>:<call id>` for a tool call's own,
 * `tool.interrupted:<call id>:rerun` or `:cut` as the call runs again or not).
 */
export function testAgent(log: (line: string) => void, sleep: (ms: number, value: undefined, options: { signal: AbortSignal }) => Promise<unknown>): Omit<ServeOptions, 'port'> {
  const plan = (messages: Message[]) => {
    const prompt = messages.find((m) => m.role === 'user');
    const text = typeof prompt?.content === 'string' ? prompt.content : '';
    return JSON.parse(text) as { rounds: number; slowRound?: number; slowMs?: number; approveRound?: number; slowModelRound?: number; refuseRound?: number };
  };
  const reply = (request: { messages: Message[] }): ScriptedCall => {
    const round = request.messages.filter((m) => m.role === 'assistant').length;
    log(`model ${round}`);
    const { rounds, slowRound, slowMs = 4_000, approveRound, slowModelRound, refuseRound } = plan(request.messages);
    const steers = request.messages.filter((m) => m.role === 'user').length - 1;
    if (round >= rounds) return { text: `done after ${round} rounds, ${steers} steers` };
    if (round === approveRound) return { toolCalls: [{ id: `r${round}-deploy`, name: 'deploy', args: {} }] };
    // The slow round's second call is to an idempotent tool: after a crash it runs again.
    const ms = round === slowRound ? slowMs : 50;
    const delayMs = round === slowModelRound ? slowMs : 0;
    return {
      delayMs,
      toolCalls: [
        { id: `r${round}-a`, name: 'work', args: { ms } },
        { id: `r${round}-b`, name: round === slowRound ? 'lookup' : 'work', args: { ms } },
        // The refused round's third call is to a tool the agent does not have.
        ...(round === refuseRound ? [{ id: `r${round}-nope`, name: 'nope', args: {} }] : []),
      ],
    };
  };
  const work = defineTool({
    name: 'work',
    description: 'Works for a while.',
    input: z.object({ ms: z.number() }),
    async execute({ ms }, { toolCallId, signal }) {
      log(`start ${toolCallId}`);
      await sleep(ms, undefined, { signal });
      log(`end ${toolCallId}`);
      return `worked ${ms} ms`;
    },
  });
  const lookup = defineTool({
    name: 'lookup',
    description: 'Looks something up; safe to run again.',
    input: z.object({ ms: z.number() }),
    idempotent: true,
    async execute({ ms }, { toolCallId, signal }) {
      log(`start ${toolCallId}`);
      await sleep(ms, undefined, { signal });
      log(`end ${toolCallId}`);
      return `looked up for ${ms} ms`;
    },
  });
  const deploy = defineTool({
    name: 'deploy',
    description: 'Deploys, once someone approves.',
    input: z.object({}),
    execute(_args, { toolCallId }) {
      log(`start ${toolCallId}`);
      log(`end ${toolCallId}`);
      return 'deployed';
    },
  });
  return {
    model: scriptedModel(Array.from({ length: 1_000 }, () => reply)),
    tools: [work, lookup, deploy],
    onEvent: ({ turnId, seq, event }) =>
      log(`event ${turnId}/${seq}/${event.type}${'toolCallId' in event ? `:${event.toolCallId}` : ''}${event.type === 'tool.interrupted' ? `:${event.rerun ? 'rerun' : 'cut'}` : ''}`),
    policy: (call) => (call.name === 'deploy' ? { decision: 'ask' } : { decision: 'allow' }),
    limits: { approvalTimeoutMs: 60_000, toolTimeoutMs: 30_000 },
  };
}

import type { Compactor } from '@tiller/compaction';
import type { ModelStreamPart, TillerModel, TurnOutcome } from '@tiller/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApprovalError, createAgent, defineTool, memoryJournal, type Agent, type AgentEvent, type AgentOptions } from '../src/index.js';
import { nextEvent } from './helpers.js';

/**
 * Work that ignores the abort signal: the first time it is asked it hangs until released, then
 * answers as if nothing had happened. Every later time it answers at once.
 */
function deafOnce() {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let calls = 0;
  return {
    release,
    async work(): Promise<void> {
      if (calls++ === 0) await released;
    },
    get calls() {
      return calls;
    },
  };
}

function within<T>(promise: Promise<T>, what: string, ms = 3_000): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms`)), ms);
    promise.then(
      (value) => (clearTimeout(timer), resolve(value)),
      (error: unknown) => (clearTimeout(timer), reject(error)),
    );
  });
}

type Where = 'compacting (steering)' | 'calling the model' | 'asking the tool policy' | 'running a tool' | 'waiting for an approval';

/** A world where the part the turn waits on in `where` ignores the abort; everything else behaves. */
function world(where: Where) {
  const deaf = deafOnce();
  const replyText = (text: string) => ({ role: 'assistant' as const, content: [{ type: 'text' as const, text }] });
  const model: TillerModel = {
    id: 'late/model',
    async *stream(request): AsyncGenerator<ModelStreamPart> {
      const wantsTool = where !== 'calling the model' && where !== 'compacting (steering)' && request.messages.at(-1)?.role === 'user' && request.messages.length === 1;
      if (where === 'calling the model') await deaf.work();
      if (wantsTool) {
        const message = { role: 'assistant' as const, content: [{ type: 'toolCall' as const, id: 'call-1', name: 'slow', args: {} }] };
        yield { type: 'done', message, stopReason: 'toolUse' };
        return;
      }
      yield { type: 'done', message: replyText('an answer'), stopReason: 'stop' };
    },
  };
  const compactor: Compactor<unknown> = {
    name: 'late',
    async maybeCompact(acc) {
      if (where === 'compacting (steering)') await deaf.work();
      return { acc, meta: { compacted: false, appended: [] } };
    },
  };
  const slow = defineTool({
    name: 'slow',
    description: 'ignores its signal the first time',
    input: z.object({}),
    execute: async () => {
      if (where === 'running a tool') await deaf.work();
      return 'tool output';
    },
  });
  const options: AgentOptions = { model, compactor, tools: [slow], journal: memoryJournal(), limits: { approvalTimeoutMs: 50 } };
  if (where === 'asking the tool policy') {
    options.policy = async () => {
      await deaf.work();
      return { decision: 'allow' };
    };
  }
  if (where === 'waiting for an approval') {
    let asked = false;
    // Only the first batch is put to the host; nobody decides it.
    options.policy = () => (asked ? { decision: 'allow' } : ((asked = true), { decision: 'ask' }));
  }
  return { deaf, options };
}

/** The event that says the first turn stands where the deaf part hangs. */
const REACHED = {
  'compacting (steering)': 'compaction.started',
  'calling the model': 'llm.started',
  'asking the tool policy': 'tools.started',
  'running a tool': 'tool.started',
  'waiting for an approval': 'approval.requested',
} as const satisfies Record<Where, AgentEvent['type']>;

const reach = (agent: Agent, where: Where) => nextEvent(agent, REACHED[where]);

const WHERE: Where[] = ['compacting (steering)', 'calling the model', 'asking the tool policy', 'running a tool', 'waiting for an approval'];

describe('work that ignores the abort signal and answers late', () => {
  it.each(WHERE)('%s: the abort ends the turn at once, the late answer is dropped, and the next prompts complete', async (where) => {
    const { deaf, options } = world(where);
    const agent = createAgent(options);
    const first = agent.prompt('first');
    await reach(agent, where);
    await within(agent.abort('stop'), 'abort()');
    expect(await within(first, 'the aborted prompt')).toMatchObject({ status: 'aborted', reason: 'stop' });

    // The old work still hangs; a new turn does not wait for it.
    expect(await within(agent.prompt('second'), 'a prompt while the old work hangs')).toMatchObject({ status: 'completed' });
    const journal = options.journal as ReturnType<typeof memoryJournal>;
    const inputs = journal.lines.filter((l) => l.type === 'input').length;
    const entries = agent.session.size;

    // Now the old work answers, long after its turn ended, while the agent is idle.
    deaf.release();
    await new Promise((r) => setTimeout(r, 80));
    expect(journal.lines.filter((l) => l.type === 'input')).toHaveLength(inputs);
    expect(agent.session.size).toBe(entries);
    expect(agent.snapshot.context.turn).toBeNull();

    const third: TurnOutcome = await within(agent.prompt('third'), 'a prompt after the late answer');
    expect(third).toMatchObject({ status: 'completed' });
    await within(agent.close(), 'close()');
  });

  it.each(WHERE)('%s: close() returns while the work still hangs', async (where) => {
    const { deaf, options } = world(where);
    const agent = createAgent(options);
    const first = agent.prompt('first');
    await reach(agent, where);
    await within(agent.close(), 'close()');
    expect(await first).toMatchObject({ status: 'aborted' });
    deaf.release();
  });

  it('an approval for a turn long over is refused, and its timeout changes nothing', async () => {
    const { options } = world('waiting for an approval');
    const agent = createAgent(options);
    const first = agent.prompt('first');
    const asked = await nextEvent(agent, 'approval.requested');
    await agent.abort('stop');
    await first;
    expect(await within(agent.prompt('second'), 'the next prompt')).toMatchObject({ status: 'completed' });
    expect(() => agent.approve({ toolCallId: asked.calls[0]!.id, decision: 'allow' })).toThrow(ApprovalError);
    const size = agent.session.size;
    // Past the parked batch's approval timeout: nothing arrives for it.
    await new Promise((r) => setTimeout(r, 80));
    expect(agent.session.size).toBe(size);
    expect(await within(agent.prompt('third'), 'a prompt after the timeout')).toMatchObject({ status: 'completed' });
  });
});

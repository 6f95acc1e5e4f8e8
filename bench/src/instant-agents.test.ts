import { describe, expect, it } from 'vitest';
import { agentHistory } from './conversation.js';
import { piAgent, tillerAgent } from './instant-agents.js';

describe('the instant agents', () => {
  const { entries, piMessages: messages } = agentHistory(1500);

  it('start from the same conversation on both sides', () => {
    expect(entries).toHaveLength(1500);
    expect(messages).toHaveLength(1500);
    expect(entries.map((e) => (e.kind === 'message' ? e.message.role : e.kind))).toEqual(messages.map((m) => m.role));
  });

  it('Tiller: a turn is two model calls and one run of the no-op tool, and adds four messages', async () => {
    const agent = tillerAgent(entries);
    // The recording's context (with stand-in results for the calls it leaves unanswered).
    const before = agent.session.context().length;
    const seen: string[] = [];
    agent.subscribe((event) => {
      if (event.type === 'llm.started' || event.type === 'tool.finished') seen.push(event.type);
    });
    for (const text of ['first', 'second']) {
      const outcome = await agent.prompt(text);
      expect(outcome).toMatchObject({ status: 'completed', stopReason: 'stop', iterations: 1 });
    }
    expect(seen).toEqual(['llm.started', 'tool.finished', 'llm.started', 'llm.started', 'tool.finished', 'llm.started']);
    const added = agent.session.context().slice(before);
    expect(added.map((m) => m.role)).toEqual(['user', 'assistant', 'toolResult', 'assistant', 'user', 'assistant', 'toolResult', 'assistant']);
    expect(added[2]).toMatchObject({ role: 'toolResult', toolName: 'noop', isError: false, content: [{ type: 'text', text: 'ok' }] });
    expect(added[3]).toMatchObject({ content: [{ type: 'text', text: 'done' }] });
  });

  it('pi: a turn is the same two model calls and one tool run, and adds the same four messages', async () => {
    const agent = piAgent(messages);
    const seen: string[] = [];
    agent.subscribe((event) => {
      if (event.type === 'turn_start' || event.type === 'tool_execution_end') seen.push(event.type);
    });
    for (const text of ['first', 'second']) await agent.prompt(text);
    // pi-agent-core starts a "turn" for every model call.
    expect(seen).toEqual(['turn_start', 'tool_execution_end', 'turn_start', 'turn_start', 'tool_execution_end', 'turn_start']);
    const added = agent.state.messages.slice(1500);
    expect(added.map((m) => m.role)).toEqual(['user', 'assistant', 'toolResult', 'assistant', 'user', 'assistant', 'toolResult', 'assistant']);
    expect(added[2]).toMatchObject({ role: 'toolResult', toolName: 'noop', isError: false, content: [{ type: 'text', text: 'ok' }] });
    expect(added[3]).toMatchObject({ content: [{ type: 'text', text: 'done' }], stopReason: 'stop' });
    expect(agent.state.errorMessage).toBeUndefined();
  });

  it('work over an empty history too', async () => {
    const empty = agentHistory(0);
    const tiller = tillerAgent(empty.entries);
    expect(await tiller.prompt('hi')).toMatchObject({ status: 'completed', iterations: 1 });
    const agent = piAgent(empty.piMessages);
    await agent.prompt('hi');
    expect(agent.state.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'toolResult', 'assistant']);
  });
});

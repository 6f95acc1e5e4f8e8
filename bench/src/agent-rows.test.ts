import { describe, expect, it } from 'vitest';
import { agentRows } from './agent-rows.js';

describe('agentRows', () => {
  it('puts the Tiller loop beside each peer, and a peer stopped at the limit over it', () => {
    const times = { perCallMs: { tiller: 0.2, 'ai-sdk': 30 }, firstTurnMs: {}, overLimit: ['langgraph-memory' as const] };
    expect(agentRows('agent-call-peers', 'tiller', ['ai-sdk', 'langgraph-memory'], 1000, times, 2000)).toEqual([
      { operation: 'agent-call-peers', size: 1000, unit: 'ms', tiller: 0.2, reference: { name: 'AI SDK generateText loop', value: 30 } },
      { operation: 'agent-call-peers', size: 1000, unit: 'ms', tiller: 0.2, reference: { name: 'LangGraph + MemorySaver', value: 2000, overLimit: true } },
    ]);
  });

  it("keeps Tiller's time, with nothing beside it, when none of its peers could run", () => {
    expect(agentRows('agent-call-durable', 'tiller-jsonl', [], 1000, { perCallMs: { 'tiller-jsonl': 9 }, firstTurnMs: {}, overLimit: [] }, 2000)).toEqual([
      { operation: 'agent-call-durable', size: 1000, unit: 'ms', tiller: 9 },
    ]);
  });

  it('gives no rows when the Tiller loop itself has no time', () => {
    expect(agentRows('agent-call', 'tiller', ['pi-agent-core'], 0, { perCallMs: { 'pi-agent-core': 1 }, firstTurnMs: {}, overLimit: [] }, 2000)).toEqual([]);
  });

  it('reads the first turn of a fresh loop, not the per-call figure, when asked for it', () => {
    const times = { perCallMs: { tiller: 0.2, 'pi-agent-core': 0.5 }, firstTurnMs: { tiller: 3, 'pi-agent-core': 1.5 }, overLimit: [] };
    expect(agentRows('agent-first-turn', 'tiller', ['pi-agent-core'], 100_000, times, 6000, 'firstTurnMs')).toEqual([
      { operation: 'agent-first-turn', size: 100_000, unit: 'ms', tiller: 3, reference: { name: 'pi-agent-core', value: 1.5 } },
    ]);
  });
});

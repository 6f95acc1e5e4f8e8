import { describe, expect, it } from 'vitest';
import { agentRows } from './agent-rows.js';

describe('agentRows', () => {
  it('puts the Tiller loop beside each peer, and a peer stopped at the limit over it', () => {
    const times = { perCallMs: { tiller: [0.2, 0.3, 0.2], 'ai-sdk': [20, 30, 40] }, firstTurnMs: {}, overLimit: ['langgraph-memory' as const] };
    expect(agentRows('agent-call-peers', 'tiller', ['ai-sdk', 'langgraph-memory'], 1000, times, 2000)).toEqual([
      { operation: 'agent-call-peers', size: 1000, unit: 'ms', tiller: 0.2, reference: { name: 'AI SDK generateText loop', value: 30 }, ratio: 0.01 },
      { operation: 'agent-call-peers', size: 1000, unit: 'ms', tiller: 0.2, reference: { name: 'LangGraph + MemorySaver', value: 2000, overLimit: true } },
    ]);
  });

  it('gives the ratio as the median of the ratios of runs of the same round, not the ratio of the medians', () => {
    // Round by round Tiller takes 3x, 0.3x and 3x the peer's time; the ratio of the medians would be 3 / 10.
    const times = { perCallMs: { tiller: [3, 3, 30], 'pi-agent-core': [1, 10, 10] }, firstTurnMs: {}, overLimit: [] };
    expect(agentRows('agent-call', 'tiller', ['pi-agent-core'], 10_000, times, 2000)[0]).toMatchObject({ tiller: 3, reference: { value: 10 }, ratio: 3 });
  });

  it("keeps Tiller's time, with nothing beside it, when none of its peers could run", () => {
    expect(agentRows('agent-call-durable', 'tiller-jsonl', [], 1000, { perCallMs: { 'tiller-jsonl': [9, 8, 10] }, firstTurnMs: {}, overLimit: [] }, 2000)).toEqual([
      { operation: 'agent-call-durable', size: 1000, unit: 'ms', tiller: 9 },
    ]);
  });

  it('gives no rows when the Tiller loop itself has no time', () => {
    expect(agentRows('agent-call', 'tiller', ['pi-agent-core'], 0, { perCallMs: { 'pi-agent-core': [1] }, firstTurnMs: {}, overLimit: [] }, 2000)).toEqual([]);
  });

  it('reads the first turn of a fresh loop, not the per-call figure, when asked for it', () => {
    const times = { perCallMs: { tiller: [0.2], 'pi-agent-core': [0.5] }, firstTurnMs: { tiller: [3], 'pi-agent-core': [1.5] }, overLimit: [] };
    expect(agentRows('agent-first-turn', 'tiller', ['pi-agent-core'], 100_000, times, 6000, 'firstTurnMs')).toEqual([
      { operation: 'agent-first-turn', size: 100_000, unit: 'ms', tiller: 3, reference: { name: 'pi-agent-core', value: 1.5 }, ratio: 2 },
    ]);
  });
});
